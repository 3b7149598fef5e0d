#include "checkers/fast/copy_fast.hpp"

#include "checkers/fast/simd_kernels.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <exception>
#include <functional>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <thread>

namespace tverify::fast {

using copy::CopyStep;
using copy::Token;
using copy::TokenString;

namespace {

// sum += times x row, over padded rows.
void add_row(std::int64_t* sum, const std::int64_t* row, std::size_t stride, std::int64_t times = 1) {
  for (std::size_t c = 0; c < stride; c += 4)
    for (std::size_t i = 0; i < 4; ++i) sum[c + i] += times * row[c + i];
}

// A step at query p decided by stage 1 or 2 (integers, and doubles rounded outward: reported at 53 bits).
CopyStep integer_stage_step(std::size_t p, Margin margin) {
  CopyStep step;
  step.position = p + 1;
  step.bits = 53;
  step.margin = margin;
  return step;
}

CopyStep certified_step(std::size_t p, Token w) {
  CopyStep step = integer_stage_step(p, Margin::Certified);
  step.output = w;
  return step;
}

std::uint64_t next_instance_id() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}
}  // namespace

FastCopy::FastCopy(const copy::CopyTransformer& transformer)
    : transformer_(transformer), layer1_(transformer), instance_(next_instance_id()) {}

struct FastCopy::ThreadState {
  std::optional<WindowCache> rows;
  Scratch scratch;
  std::unique_ptr<Table> table;  // reused string after string (built on first use: Table is defined below)
};

// Layer 1 of one copy sequence: key columns (column-major, int32), sparse queries, value . Psi rows, and the range of
// each token's value over the sequence. A key column is filled only when some query uses it (fill_columns): the
// queries touch few of the key coordinates.
struct FastCopy::Table {
  TokenString sequence;
  std::size_t length = 0, tokens = 0, stride = 0, key_dim = 0, built = 0;
  // key_dim x length, column c at c * length; not zeroed: a column is written (fill_columns) before it is read, and
  // the pages of columns no query reads are never touched
  std::unique_ptr<std::int32_t[]> keys;
  std::size_t keys_size = 0;
  std::vector<std::size_t> filled;  // column c holds positions 0..filled[c] - 1
  std::vector<const std::int32_t*> key_rows;  // layer 1's key at each built position (into the cache or owned)
  std::vector<const std::vector<std::pair<std::uint32_t, std::int32_t>>*> queries;  // into rows
  std::vector<WindowRow> owned;  // the rows, when there is no cache
  std::vector<std::int64_t> values;  // length x stride: value . Psi per position (padded rows)
  std::vector<std::int64_t> running_min, running_max;  // length x stride: token x's value range over positions 0..p
  std::vector<std::uint32_t> windows;  // with a cache: each position's window (its index in the cache)
  // with a score memo: how many of the positions built so far have each window (stage 0)
  std::vector<std::uint32_t> window_count;

  Table(const FastCopy& fast, WindowCache* cache)
      : fast_(fast), cache_(cache), span_(static_cast<std::size_t>(fast.transformer_.config().n) + 1) {
    tokens = fast.layer1_.tokens();
    stride = row_stride(tokens);
    key_dim = fast.layer1_.key_dim();
    if (cache_ && cache_->counts_keys()) window_count.assign(cache_->rows.size(), 0);
  }

  // Moves to the copy sequence of x, keeping the buffers (a thread evaluates many strings with one table; every entry
  // read at query p is written by extend_to(p) first). Layer 1 is causal, so the positions of the longest common
  // prefix with the previous sequence (of the same length) are kept: consecutive strings of an exhaustive domain
  // share most of their prefix.
  void reset(const TokenString& x) {
    fast_.transformer_.copy_sequence(x, x.size(), next_);
    std::size_t common = 0;
    if (next_.size() == length)
      while (common < built && next_[common] == sequence[common]) ++common;
    if (!window_count.empty())
      for (std::size_t j = common; j < built; ++j) --window_count[windows[j]];
    sequence.swap(next_);
    length = sequence.size();
    built = common;
    shared_ = false;
    if (common == 0) {
      if (key_dim * length > keys_size) {
        keys = std::make_unique_for_overwrite<std::int32_t[]>(key_dim * length);
        keys_size = key_dim * length;
      }
      filled.assign(key_dim, 0);
      key_rows.resize(length);
      queries.resize(length);
      values.resize(length * stride);
      running_min.resize(length * stride);
      running_max.resize(length * stride);
      if (cache_) windows.resize(length);
    }
    for (auto& f : filled) f = std::min(f, common);
    if (!cache_) {
      owned.resize(common);
      owned.reserve(length);  // queries point into owned: no reallocation
    }
  }
  // Builds the whole table for threads that read it concurrently: every key column filled, the window counts (which
  // would count every position, not a step's keys) switched off.
  void share() {
    extend_to(length - 1);
    fill_columns(length - 1, true);
    shared_ = true;
  }
  // Token x's smallest and largest value over the positions built so far.
  std::int64_t value_min(std::size_t x) const { return running_min[(built - 1) * stride + x]; }
  std::int64_t value_max(std::size_t x) const { return running_max[(built - 1) * stride + x]; }
  const std::int64_t* value_row(std::size_t j) const { return values.data() + j * stride; }

  // Layer 1 at every position up to p (positions are built once, in order; a step at query p needs keys 0..p).
  void extend_to(std::size_t p) {
    for (; built <= p && built < length; ++built) add(built);
  }
  const std::int32_t* key_column(std::size_t c) const { return keys.get() + c * length; }
  // The cache whose window levels stages 0 and 1 read against window_count, when window_count holds exactly the keys
  // of query p (positions 0..p built, the table not shared); else nullptr (the step adds key columns).
  WindowCache* counted_cache(std::size_t p) const {
    return !window_count.empty() && !shared_ && built == p + 1 ? cache_ : nullptr;
  }
  // The number of built positions whose window is in level l of `levels`.
  std::size_t keys_at(const WindowLevels& levels, std::size_t l) const {
    std::size_t keys = 0;
    for (std::size_t i = levels.begin(l); i < levels.end[l]; ++i) keys += window_count[levels.windows[i]];
    return keys;
  }
  // sum += the value rows of those positions (padded rows): count x each window's values.
  void add_values_at(const WindowLevels& levels, std::size_t l, std::int64_t* sum) const {
    for (std::size_t i = levels.begin(l); i < levels.end[l]; ++i)
      if (const std::int64_t keys = window_count[levels.windows[i]])
        add_row(sum, cache_->values.data() + levels.windows[i] * stride, stride, keys);
  }
  // Fills the key columns query p uses up to position p (built), or with every = true all columns up to `built`
  // (before threads read the table concurrently).
  void fill_columns(std::size_t p, bool every = false) {
    auto fill = [&](std::size_t c) {
      std::int32_t* column = keys.get() + c * length;
      for (std::size_t j = filled[c]; j < built; ++j) column[j] = key_rows[j][c];
      filled[c] = built;
    };
    if (every)
      for (std::size_t c = 0; c < key_dim; ++c) fill(c);
    else
      for (const auto& entry : *queries[p]) fill(entry.first);
  }

 private:
  void add(std::size_t p) {
    const WindowRow* row = nullptr;
    if (cache_) {
      const std::size_t count = std::min(span_, p + 1);
      std::size_t code = 0;
      if (p >= span_) {  // both full windows: drop the oldest token of the previous window, append the new one
        code = (windows[p - 1] - cache_->offset[span_]) % cache_->oldest_place * cache_->radix +
               static_cast<std::size_t>(sequence[p]);
      } else {
        for (std::size_t j = p + 1 - count; j <= p; ++j) code = code * cache_->radix + static_cast<std::size_t>(sequence[j]);
      }
      windows[p] = static_cast<std::uint32_t>(cache_->offset[count] + code);
      if (!window_count.empty() && window_count[windows[p]]++ == 0) cache_->meet(windows[p]);
      const auto& slot = cache_->rows[windows[p]];
      row = slot ? &*slot : &cache_->store(windows[p], compute_window_row(fast_.layer1_, sequence, p, scratch_));
    } else {
      owned.push_back(compute_window_row(fast_.layer1_, sequence, p, scratch_));
      row = &owned.back();
    }
    key_rows[p] = row->key.data();
    queries[p] = &row->query;
    const std::int64_t* v = row->values.data();
    const std::int64_t* low = p == 0 ? v : running_min.data() + (p - 1) * stride;
    const std::int64_t* high = p == 0 ? v : running_max.data() + (p - 1) * stride;
    std::int64_t* at = values.data() + p * stride;
    std::int64_t* new_low = running_min.data() + p * stride;
    std::int64_t* new_high = running_max.data() + p * stride;
    for (std::size_t c = 0; c < stride; c += 4)
      for (std::size_t i = c; i < c + 4; ++i) {
        at[i] = v[i];
        new_low[i] = std::min(low[i], v[i]);
        new_high[i] = std::max(high[i], v[i]);
      }
  }

  const FastCopy& fast_;
  WindowCache* cache_;
  std::size_t span_;
  bool shared_ = false;
  IntegerRow scratch_;
  TokenString next_;  // the next copy sequence, built in a reused buffer
};

namespace {

// The scores z_j of keys 0..p against query p (into scores) and their top level: each non-zero query entry adds a
// scaled key column (filled by Table::fill_columns).
template <class Table>
TopLevel score_keys(const Table& table, std::size_t p, std::vector<std::int32_t>& scores) {
  const std::size_t count = p + 1;
  scores.resize(count);  // grows geometrically (assign would reallocate at every step: one more key each time)
  std::fill_n(scores.data(), count, 0);
  for (const auto& [c, w] : *table.queries[p]) add_scaled_column(scores.data(), table.key_column(c), w, count);
  return top_level(scores.data(), count);
}

}  // namespace

// An upper bound, as a double, on e^{-tau gap / score_scale}: the MPFI enclosure's upper end rounded up, and never
// below 1e-300 so that the products of decide_by_bound stay normal.
double FastCopy::weight_bound(std::int64_t gap, Scratch& scratch) const {
  return scratch.weight_bounds.get(gap, [&] {
    using I = Interval<64>;
    const Exact upper = exp(-(transformer_.tau_interval<64>() * I(Exact(gap) / layer1_.score_scale()))).upper();
    return std::max(std::nextafter(upper.convert_to<double>(), 2.0), 1e-300);
  });
}

// The bound of stages 0 and 1. With c top keys (score z_top, value sums S) and R = sum over lower keys of
// e^{tau (z_j - z_top)} <= R_hi = (#lower) e^{-tau Delta} for any Delta at most the gap from z_top to every lower
// key, r_w - r_x = (S_w - S_x + T_w - T_x) / (c + R) with T_x in [R min(v_x), R max(v_x)] (v_x over the sequence,
// widened to include 0). So w is the certified argmax when, for every x != w, S_w - S_x > R_hi (max(v_x, 0) -
// min(v_w, 0)). The integers are exact; R_hi and the products are doubles rounded up with a relative margin of 1e-12
// (far above the few roundings of 2^-53 they incur).
bool FastCopy::certify_top(const Table& table, const std::int64_t* top_sum, std::size_t lower, std::int64_t gap,
                           Scratch& scratch, Token& winner) const {
  const std::size_t tokens = table.tokens;
  std::size_t w = 0;
  for (std::size_t x = 1; x < tokens; ++x)
    if (top_sum[x] > top_sum[w]) w = x;
  const double r_hi = lower == 0 ? 0.0 : static_cast<double>(lower) * weight_bound(gap, scratch);
  const std::int64_t below_w = -std::min<std::int64_t>(table.value_min(w), 0);
  for (std::size_t x = 0; x < tokens; ++x) {
    if (x == w) continue;
    const std::int64_t difference = top_sum[w] - top_sum[x];
    if (difference <= 0) return false;
    const double spread = static_cast<double>(std::max<std::int64_t>(table.value_max(x), 0) + below_w);
    if (!(r_hi * spread * (1 + 1e-12) < static_cast<double>(difference) * (1 - 1e-12))) return false;
  }
  winner = static_cast<Token>(w);
  return true;
}

// Stage 0: the top level from the window counts (see WindowLevels). The highest level of met windows with a key among
// this step's is the step's top level, its keys exactly those of that level's windows (sums: count x the window's
// values); every other key scores at most the next level, so Delta = the gap to that level bounds the true gap from
// below. The walk stops after 64 windows (the step is then left to stage 1).
bool FastCopy::decide_by_window_bound(const Table& table, std::size_t p, const WindowLevels& levels, Scratch& scratch,
                                      Token& winner) const {
  constexpr std::uint32_t walk = 64;
  for (std::size_t l = 0; l < levels.score.size() && (l == 0 || levels.end[l - 1] < walk); ++l) {
    const std::size_t top_keys = table.keys_at(levels, l);
    if (top_keys == 0) continue;
    std::int64_t* sum = scratch.top_sum.data();
    std::fill_n(sum, table.stride, 0);
    table.add_values_at(levels, l, sum);
    // With no lower level there are no lower keys (lower = 0), and the gap is not read.
    const std::int64_t gap = l + 1 < levels.score.size() ? std::int64_t{levels.score[l]} - levels.score[l + 1] : 0;
    return certify_top(table, sum, p + 1 - top_keys, gap, scratch, winner);
  }
  return false;
}

// Stage 1 from the levels collect_window_levels gathered: the top level and the exact gap to the next.
bool FastCopy::decide_by_top_level(const Table& table, std::size_t p, Scratch& scratch, Token& winner) const {
  const std::int64_t gap =
      scratch.level_score.size() > 1 ? std::int64_t{scratch.level_score[0]} - scratch.level_score[1] : 0;
  return certify_top(table, scratch.level_sums.data(), p + 1 - static_cast<std::size_t>(scratch.level_count[0]), gap,
                     scratch, winner);
}

// Stage 1: the top level from this step's scores (Delta = the gap to the runner-up level).
bool FastCopy::decide_by_bound(const Table& table, std::size_t p, const TopLevel& level, Scratch& scratch,
                               Token& winner) const {
  const std::size_t count = p + 1;
  const std::int32_t* s = scratch.scores.data();
  const std::int64_t* top_sum = table.value_row(level.first);  // one top key: its own values
  if (level.count > 1) {
    std::int64_t* sum = scratch.top_sum.data();
    std::fill_n(sum, table.stride, 0);
    for (std::size_t j = level.first, seen = 0; seen < level.count; ++j)
      if (s[j] == level.top) {
        ++seen;
        add_row(sum, table.value_row(j), table.stride);
      }
    top_sum = sum;
  }
  return certify_top(table, top_sum, count - level.count, std::int64_t{level.top} - level.runner_up, scratch, winner);
}

// Stage 3: the levels collect_levels gathered, as exact rationals in increasing order of score (as
// decide_levels_laddered takes them).
CopyStep FastCopy::decide_by_levels(const Table& table, std::size_t p, const Scratch& scratch) const {
  std::vector<ScoreLevel<Exact>> levels;
  for (std::size_t l = scratch.level_score.size(); l-- > 0;) {
    ScoreLevel<Exact> level{Exact(scratch.level_score[l]) / layer1_.score_scale(), scratch.level_count[l],
                            Vector<Exact>(table.tokens, Exact(0))};
    for (std::size_t x = 0; x < table.tokens; ++x)
      level.value_dot_psi[x] = Exact(scratch.level_sums[l * table.stride + x]) / layer1_.value_scale();
    levels.push_back(std::move(level));
  }
  return copy::step_from(
      decide_levels_laddered(levels, [this]<unsigned Bits>() { return transformer_.tau_interval<Bits>(); }), p);
}

// An upper (up = true) or lower bound, as a double, on e^{-tau gap / score_scale}; lower bounds below 1e-300 are
// reported as 0 (useless, hence safe), upper bounds never below 1e-300.
double FastCopy::weight_bound_down(std::int64_t gap, Scratch& scratch) const {
  return scratch.weight_lower_bounds.get(gap, [&] {
    using I = Interval<64>;
    const Exact lower = exp(-(transformer_.tau_interval<64>() * I(Exact(gap) / layer1_.score_scale()))).lower();
    const double bound = std::nextafter(lower.convert_to<double>(), 0.0);
    return bound >= 1e-300 ? bound : 0.0;
  });
}

// Stage 2 (integers): the exact per-level sums V_{l,x}, levels from the top down. Level l weighs e^{-tau (z_top -
// z_l)} relative to the top, so two tokens compare lexicographically on (V_{0,x}, V_{1,x}, ...) as soon as, at the
// first level l* where they differ, |Delta V_{l*}| e^{-tau gap*} exceeds e^{-tau gap_next} times the sum of the
// |Delta V| below (doubles rounded outward, margin 1e-12). Tokens equal at every level are exactly equal readouts: an
// exact tie. Any comparison this cannot certify leaves the step to stage 3.
std::optional<CopyStep> FastCopy::decide_lexicographically(const Table& table, std::size_t p, Scratch& scratch) const {
  const std::size_t levels = scratch.level_score.size(), tokens = table.tokens, stride = table.stride;
  const std::vector<std::int64_t>& sums = scratch.level_sums;  // level-major: levels x stride
  // Level l's weight relative to the top level, bounded below (lead) and above (tail).
  auto& lead = scratch.level_lead;
  auto& tail = scratch.level_tail;
  lead.resize(levels);
  tail.resize(levels);
  for (std::size_t l = 0; l < levels; ++l) {
    const std::int64_t gap = std::int64_t{scratch.level_score[0]} - scratch.level_score[l];
    lead[l] = l == 0 ? 1.0 : weight_bound_down(gap, scratch);
    tail[l] = weight_bound(gap, scratch);
  }
  // sign of readout(a) - readout(b): +1, -1, 0 (exactly equal), or nullopt (not certified here).
  auto compare = [&](std::size_t a, std::size_t b) -> std::optional<int> {
    for (std::size_t l = 0; l < levels; ++l) {
      const std::int64_t delta = sums[l * stride + a] - sums[l * stride + b];
      if (delta == 0) continue;
      double rest = 0;
      for (std::size_t m = l + 1; m < levels; ++m)
        rest += static_cast<double>(std::llabs(sums[m * stride + a] - sums[m * stride + b]));
      if (rest == 0) return delta > 0 ? 1 : -1;
      if (tail[l + 1] * rest * (1 + 1e-12) < static_cast<double>(std::llabs(delta)) * lead[l] * (1 - 1e-12))
        return delta > 0 ? 1 : -1;
      return std::nullopt;
    }
    return 0;
  };
  std::size_t best = 0;
  for (std::size_t x = 1; x < tokens; ++x) {
    const auto c = compare(x, best);
    if (!c) return std::nullopt;
    if (*c > 0) best = x;
  }
  auto& tied = scratch.tied;  // scratch: most steps here are not ties, and need no vector of their own
  tied.assign(1, static_cast<Token>(best));
  for (std::size_t x = 0; x < tokens; ++x) {
    if (x == best) continue;
    const auto c = compare(best, x);
    if (!c || *c < 0) return std::nullopt;
    if (*c == 0) tied.push_back(static_cast<Token>(x));
  }
  if (tied.size() == 1) return certified_step(p, static_cast<Token>(best));
  CopyStep step = integer_stage_step(p, Margin::Tie);
  step.tied = tied;
  return step;
}

// The distinct scores of the keys 0..p, highest first (scratch.level_score), each level's number of keys
// (scratch.level_count) and exact per-token value sums (scratch.level_sums, level-major). A step has few levels: they
// are gathered by a linear search, and only past 16 of them by sorting all the scores.
void FastCopy::collect_levels(const Table& table, std::size_t p, Scratch& scratch) const {
  const std::size_t count = p + 1, stride = table.stride;
  const std::int32_t* s = scratch.scores.data();
  auto& level_score = scratch.level_score;
  level_score.clear();
  for (std::size_t j = 0; j < count && level_score.size() <= 16; ++j)
    if (std::find(level_score.begin(), level_score.end(), s[j]) == level_score.end()) level_score.push_back(s[j]);
  if (level_score.size() > 16) {  // resize, not assign: it grows geometrically as steps gain keys
    level_score.resize(count);
    std::copy(s, s + count, level_score.begin());
  }
  std::sort(level_score.begin(), level_score.end(), std::greater<>());
  level_score.erase(std::unique(level_score.begin(), level_score.end()), level_score.end());
  auto& sums = scratch.level_sums;
  sums.assign(level_score.size() * stride, 0);
  const std::size_t levels = level_score.size();
  scratch.level_count.assign(levels, 0);
  auto level_of = [&](std::int32_t z) {  // few levels, most keys in the lowest: a scan from the bottom
    if (levels > 16)
      return static_cast<std::size_t>(std::lower_bound(level_score.begin(), level_score.end(), z, std::greater<>()) -
                                      level_score.begin());
    std::size_t l = levels - 1;
    while (level_score[l] != z) --l;
    return l;
  };
  for (std::size_t j = 0; j < count; ++j) {
    const std::size_t l = level_of(s[j]);
    ++scratch.level_count[l];
    add_row(sums.data() + l * stride, table.value_row(j), stride);
  }
}

// What collect_levels gathers, from the window counts: the met windows' levels (WindowLevels) that hold keys of this
// step, in the same decreasing order (down to the level where the last of the p + 1 keys is found).
void FastCopy::collect_window_levels(const Table& table, std::size_t p, const WindowLevels& levels,
                                     Scratch& scratch) const {
  scratch.level_score.clear();
  scratch.level_count.clear();
  scratch.level_sums.clear();
  for (std::size_t l = 0, found = 0; l < levels.score.size() && found <= p; ++l)
    if (const std::size_t keys = table.keys_at(levels, l)) {
      found += keys;
      scratch.level_score.push_back(levels.score[l]);
      scratch.level_count.push_back(static_cast<long>(keys));
      scratch.level_sums.resize(scratch.level_sums.size() + table.stride, 0);
      table.add_values_at(levels, l, scratch.level_sums.data() + scratch.level_sums.size() - table.stride);
    }
}

CopyStep FastCopy::decide(const Table& table, std::size_t p, Scratch& scratch, FastStats& stats) const {
  ++stats.steps;
  Token w = 0;
  if (WindowCache* cache = table.counted_cache(p)) {  // stages 0 and 1 from the window counts
    const WindowLevels& levels = cache->levels_of(table.windows[p], scratch.window_layer1);
    bool certified = decide_by_window_bound(table, p, levels, scratch, w);
    if (!certified) {
      collect_window_levels(table, p, levels, scratch);  // read by stages 1 to 3
      certified = decide_by_top_level(table, p, scratch, w);
    }
    if (certified) {
      ++stats.by_bound;
      return certified_step(p, w);
    }
  } else {
    const TopLevel level = score_keys(table, p, scratch.scores);
    if (decide_by_bound(table, p, level, scratch, w)) {
      ++stats.by_bound;
      return certified_step(p, w);
    }
    collect_levels(table, p, scratch);  // read by stages 2 and 3
  }
  if (auto step = decide_lexicographically(table, p, scratch)) {
    ++stats.by_levels;
    return *step;
  }
  CopyStep step = decide_by_levels(table, p, scratch);
  if (step.margin != Margin::Undecided) {
    ++stats.by_levels;
    return step;
  }
  ++stats.by_exact;
  const TokenString prefix(table.sequence.begin(), table.sequence.begin() + static_cast<long>(p) + 1);
  return transformer_.next_token(transformer_.layer1(prefix), p);
}

// Each thread's states, by FastCopy instance. A worker thread's states end with it; the thread that destroys a
// FastCopy drops its own state then (~FastCopy), so a long-lived thread does not keep the table of every FastCopy it
// ever ran (at L = 10^6 a table takes gigabytes).
std::unordered_map<std::uint64_t, FastCopy::ThreadState>& FastCopy::thread_states() {
  thread_local std::unordered_map<std::uint64_t, ThreadState> states;
  return states;
}

FastCopy::~FastCopy() { thread_states().erase(instance_); }

// The calling thread's state for this FastCopy: its window cache (when windows are few) and its scratch space, whose
// weight-bound caches then serve every string the thread evaluates.
FastCopy::ThreadState& FastCopy::thread_state() const {
  auto& states = thread_states();
  auto found = states.find(instance_);
  if (found == states.end()) {
    found = states.emplace(instance_, ThreadState{WindowCache::make(layer1_, transformer_.config().n), {}, nullptr}).first;
    found->second.scratch.top_sum.resize(row_stride(layer1_.tokens()));
  }
  return found->second;
}

FastCopyRun FastCopy::copy_string(const TokenString& x, unsigned threads, bool keep_steps) const {
  FastCopyRun out;
  copy_string(x, out, threads, keep_steps);
  return out;
}

void FastCopy::copy_string(const TokenString& x, FastCopyRun& out, unsigned threads, bool keep_steps) const {
  ThreadState& state = thread_state();
  if (!state.table) state.table = std::make_unique<Table>(*this, state.rows ? &*state.rows : nullptr);
  Table& table = *state.table;
  table.reset(x);
  const std::size_t prompt = x.size() + 2;
  out.run.clear();
  out.stats = {};
  out.run.output.reserve(x.size());
  auto record = [&](CopyStep& step, std::size_t k) {
    step.target = x[k];
    return copy::record_step(out.run, step, k, keep_steps);
  };
  if (threads <= 1) {  // sequential: nothing is computed past the first failure
    for (std::size_t k = 0; k < x.size(); ++k) {
      table.extend_to(prompt - 1 + k);
      if (!table.counted_cache(prompt - 1 + k)) table.fill_columns(prompt - 1 + k);
      CopyStep step = decide(table, prompt - 1 + k, state.scratch, out.stats);
      if (!record(step, k)) return;
    }
    out.run.copied = true;
    return;
  }
  table.share();  // the workers read the table concurrently
  // Blocks of steps in parallel, on the same workers from block to block (their scratch, weight-bound caches and
  // memory stay warm): every worker decides its steps of a block, then, once all have arrived, record_block records
  // the block in order; the earliest failure ends the run.
  std::vector<FastStats> stats(threads);
  const std::size_t block = 64 * static_cast<std::size_t>(threads);
  std::vector<CopyStep> steps(std::min(block, x.size()));
  std::size_t start = 0;  // of the block being decided; written by record_block only
  bool done = x.empty(), copied = true;
  std::atomic<bool> aborted{false};  // a worker threw: it rethrows after the last block
  std::exception_ptr record_error;
  auto record_block = [&]() noexcept {
    const std::size_t end = std::min(x.size(), start + block);
    try {
      for (std::size_t k = start; k < end && !aborted; ++k)
        if (!record(steps[k - start], k)) {
          copied = false;
          break;
        }
    } catch (...) {
      record_error = std::current_exception();
    }
    start = end;
    done = !copied || aborted || record_error || start == x.size();
  };
  std::barrier sync(static_cast<std::ptrdiff_t>(threads), record_block);
  run_workers(threads, [&](unsigned w) {
    Scratch& scratch = w == 0 ? state.scratch : thread_state().scratch;
    std::exception_ptr error;
    while (!done) {
      const std::size_t end = std::min(x.size(), start + block);
      try {
        for (std::size_t k = start + w; k < end && !error; k += threads)
          steps[k - start] = decide(table, prompt - 1 + k, scratch, stats[w]);
      } catch (...) {
        error = std::current_exception();
        aborted = true;
      }
      sync.arrive_and_wait();
    }
    if (error) std::rethrow_exception(error);
  });
  if (record_error) std::rethrow_exception(record_error);
  for (const auto& s : stats) out.stats.merge(s);
  out.run.copied = copied;
}

}  // namespace tverify::fast
