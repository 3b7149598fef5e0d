#include "checkers/fast/copy_fast.hpp"

#include "checkers/fast/simd_kernels.hpp"
#include "core/parallel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>

namespace tverify::fast {

using copy::CopyStep;
using copy::Token;
using copy::TokenString;

namespace {
std::uint64_t next_instance_id() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}
}  // namespace

FastCopy::FastCopy(const copy::CopyTransformer& transformer)
    : transformer_(transformer), layer1_(transformer), instance_(next_instance_id()) {}

// Layer 1 at one window, as the fast path stores it: the key row, the query's non-zero entries, value . Psi.
struct FastCopy::Row {
  std::vector<std::int32_t> key;
  std::vector<std::pair<std::uint32_t, std::int32_t>> query;
  std::vector<std::int64_t> values;
};

// Per-thread memo of rows by window, used when every window fits a small table (at most 2^16 windows of up to n + 1
// tokens: the exhaustive domains). Each entry is computed once by IntegerLayer1 from the literal weights.
struct FastCopy::RowCache {
  std::vector<std::optional<Row>> rows;
  std::vector<std::size_t> offset;  // first index of the windows with c tokens
  std::size_t radix = 0;
};

std::optional<FastCopy::RowCache> FastCopy::make_cache() const {
  const std::size_t radix = layer1_.tokens(), span = static_cast<std::size_t>(transformer_.config().n) + 1;
  RowCache cache;
  cache.radix = radix;
  std::size_t total = 0, power = 1;
  cache.offset.push_back(0);
  for (std::size_t c = 1; c <= span; ++c) {
    power *= radix;
    cache.offset.push_back(total);
    total += power;
    if (total > (1u << 16)) return std::nullopt;
  }
  cache.rows.resize(total);
  return cache;
}

struct FastCopy::ThreadState {
  std::optional<RowCache> rows;
  Scratch scratch;
  std::unique_ptr<Table> table;  // reused string after string (built on first use: Table is defined below)
};

FastCopy::Row FastCopy::compute_row(const TokenString& sequence, std::size_t p, IntegerRow& scratch) const {
  layer1_.at(sequence, p, scratch);
  Row row;
  row.key.reserve(scratch.key.size());
  for (auto v : scratch.key) row.key.push_back(static_cast<std::int32_t>(v));
  for (std::size_t c = 0; c < scratch.query.size(); ++c)
    if (scratch.query[c] != 0) row.query.emplace_back(static_cast<std::uint32_t>(c), static_cast<std::int32_t>(scratch.query[c]));
  row.values = scratch.value_dot_psi;
  return row;
}

// Layer 1 of one copy sequence: key columns (column-major, int32), sparse queries, value . Psi rows, and the range of
// each token's value over the sequence. A key column is filled only when some query uses it (fill_columns): the
// queries touch few of the key coordinates.
struct FastCopy::Table {
  TokenString sequence;
  std::size_t length = 0, tokens = 0, key_dim = 0, built = 0;
  std::vector<std::int32_t> keys;  // key_dim x length, column c at c * length
  std::vector<std::size_t> filled;  // column c holds positions 0..filled[c] - 1
  std::vector<const std::int32_t*> key_rows;  // layer 1's key at each built position (into the cache or owned)
  std::vector<const std::vector<std::pair<std::uint32_t, std::int32_t>>*> queries;  // into rows
  std::vector<Row> owned;  // the rows, when there is no cache
  std::vector<std::int64_t> values;  // length x tokens
  std::vector<std::int64_t> running_min, running_max;  // length x tokens: token x's value range over positions 0..p

  Table(const FastCopy& fast, RowCache* cache)
      : fast_(fast), cache_(cache), span_(static_cast<std::size_t>(fast.transformer_.config().n) + 1) {
    tokens = fast.layer1_.tokens();
    key_dim = fast.layer1_.key_dim();
  }

  // Moves to a new copy sequence, keeping the buffers (a thread evaluates many strings with one table; every entry
  // read at query p is written by extend_to(p) first). Layer 1 is causal, so the positions of the longest common
  // prefix with the previous sequence (of the same length) are kept: consecutive strings of an exhaustive domain
  // share most of their prefix.
  void reset(TokenString seq) {
    std::size_t common = 0;
    if (seq.size() == length)
      while (common < built && seq[common] == sequence[common]) ++common;
    sequence = std::move(seq);
    length = sequence.size();
    built = common;
    if (common == 0) {
      keys.resize(key_dim * length);
      filled.assign(key_dim, 0);
      key_rows.resize(length);
      queries.resize(length);
      values.resize(length * tokens);
      running_min.resize(length * tokens);
      running_max.resize(length * tokens);
    }
    for (auto& f : filled) f = std::min(f, common);
    if (!cache_) {
      owned.resize(common);
      owned.reserve(length);  // queries point into owned: no reallocation
    }
  }
  // Token x's smallest and largest value over the positions built so far.
  std::int64_t value_min(std::size_t x) const { return running_min[(built - 1) * tokens + x]; }
  std::int64_t value_max(std::size_t x) const { return running_max[(built - 1) * tokens + x]; }

  // Layer 1 at every position up to p (positions are built once, in order; a step at query p needs keys 0..p).
  void extend_to(std::size_t p) {
    for (; built <= p && built < length; ++built) add(built);
  }
  const std::int32_t* key_column(std::size_t c) const { return keys.data() + c * length; }
  // Fills the key columns query p uses up to position p (built), or with every = true all columns up to `built`
  // (before threads read the table concurrently).
  void fill_columns(std::size_t p, bool every = false) {
    auto fill = [&](std::size_t c) {
      std::int32_t* column = keys.data() + c * length;
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
    const Row* row = nullptr;
    if (cache_) {
      const std::size_t count = std::min(span_, p + 1);
      std::size_t code = 0;
      for (std::size_t j = p + 1 - count; j <= p; ++j) code = code * cache_->radix + static_cast<std::size_t>(sequence[j]);
      auto& slot = cache_->rows[cache_->offset[count] + code];
      if (!slot) slot = fast_.compute_row(sequence, p, scratch_);
      row = &*slot;
    } else {
      owned.push_back(fast_.compute_row(sequence, p, scratch_));
      row = &owned.back();
    }
    key_rows[p] = row->key.data();
    queries[p] = &row->query;
    for (std::size_t x = 0; x < tokens; ++x) {
      const std::int64_t v = row->values[x];
      const std::size_t at = p * tokens + x;
      values[at] = v;
      running_min[at] = p == 0 ? v : std::min(running_min[at - tokens], v);
      running_max[at] = p == 0 ? v : std::max(running_max[at - tokens], v);
    }
  }

  const FastCopy& fast_;
  RowCache* cache_;
  std::size_t span_;
  IntegerRow scratch_;
};

namespace {

template <class Table>
void compute_scores(const Table& table, std::size_t p, std::vector<std::int32_t>& scores) {
  const std::size_t count = p + 1;
  scores.assign(count, 0);
  for (const auto& [c, w] : *table.queries[p]) add_scaled_column(scores.data(), table.key_column(c), w, count);
}

}  // namespace

// An upper bound, as a double, on e^{-tau gap / score_scale}: the MPFI enclosure's upper end rounded up, and never
// below 1e-300 so that the products of decide_by_bound stay normal.
double FastCopy::weight_bound(std::int32_t gap, Scratch& scratch) const {
  return scratch.weight_bounds.get(gap, [&] {
    using I = Interval<64>;
    const Exact upper = exp(-(transformer_.tau_interval<64>() * I(Exact(gap) / layer1_.score_scale()))).upper();
    return std::max(std::nextafter(upper.convert_to<double>(), 2.0), 1e-300);
  });
}

// Stage 1. With c top keys (score z_top) and R = sum over lower keys of e^{tau (z_j - z_top)} <= R_hi =
// (#lower) e^{-tau Delta}, r_w - r_x = (S_w - S_x + T_w - T_x) / (c + R) with T_x in [R min(v_x), R max(v_x)] (v_x
// over the sequence, widened to include 0). So w is the certified argmax when, for every x != w,
// S_w - S_x > R_hi (max(v_x, 0) - min(v_w, 0)). The integers are exact; R_hi and the products are doubles rounded up
// with a relative margin of 1e-12 (far above the few roundings of 2^-53 they incur).
std::optional<CopyStep> FastCopy::decide_by_bound(const Table& table, std::size_t p, Scratch& scratch) const {
  const std::size_t count = p + 1;
  const std::int32_t* s = scratch.scores.data();
  const std::int32_t top = max_of(s, count);
  std::size_t top_count = 0;
  std::int32_t runner_up = 0;
  top_count_and_runner_up(s, count, top, top_count, runner_up);
  std::vector<std::int64_t>& top_sum = scratch.top_sum;
  top_sum.assign(table.tokens, 0);
  for (std::size_t j = 0; j < count; ++j)
    if (s[j] == top)
      for (std::size_t x = 0; x < table.tokens; ++x) top_sum[x] += table.values[j * table.tokens + x];
  std::size_t w = 0;
  for (std::size_t x = 1; x < table.tokens; ++x)
    if (top_sum[x] > top_sum[w]) w = x;
  const std::size_t lower = count - top_count;
  const double r_hi = lower == 0 ? 0.0 : static_cast<double>(lower) * weight_bound(top - runner_up, scratch);
  for (std::size_t x = 0; x < table.tokens; ++x) {
    if (x == w) continue;
    const std::int64_t gap = top_sum[w] - top_sum[x];
    if (gap <= 0) return std::nullopt;
    const double spread = static_cast<double>(std::max<std::int64_t>(table.value_max(x), 0) -
                                              std::min<std::int64_t>(table.value_min(w), 0));
    if (!(r_hi * spread * (1 + 1e-12) < static_cast<double>(gap) * (1 - 1e-12))) return std::nullopt;
  }
  CopyStep step;
  step.position = p + 1;
  step.bits = 53;
  step.margin = Margin::Certified;
  step.output = static_cast<Token>(w);
  return step;
}

CopyStep FastCopy::decide_by_levels(const Table& table, std::size_t p, const Scratch& scratch) const {
  const std::size_t count = p + 1;
  std::vector<std::pair<std::int32_t, std::size_t>> order;
  order.reserve(count);
  for (std::size_t j = 0; j < count; ++j) order.emplace_back(scratch.scores[j], j);
  std::sort(order.begin(), order.end());
  std::vector<ScoreLevel<Exact>> levels;
  std::vector<std::int64_t> sums;
  auto close_level = [&] {
    for (std::size_t x = 0; x < table.tokens; ++x) levels.back().value_dot_psi[x] = Exact(sums[x]) / layer1_.value_scale();
  };
  std::int32_t current = 0;
  for (const auto& [score, j] : order) {
    if (levels.empty() || score != current) {
      if (!levels.empty()) close_level();
      levels.push_back({Exact(score) / layer1_.score_scale(), 0, Vector<Exact>(table.tokens, Exact(0))});
      sums.assign(table.tokens, 0);
      current = score;
    }
    ++levels.back().count;
    for (std::size_t x = 0; x < table.tokens; ++x) sums[x] += table.values[j * table.tokens + x];
  }
  close_level();
  return copy::step_from(
      decide_levels_laddered(levels, [this]<unsigned Bits>() { return transformer_.tau_interval<Bits>(); }), p);
}

// An upper (up = true) or lower bound, as a double, on e^{-tau gap / score_scale}; lower bounds below 1e-300 are
// reported as 0 (useless, hence safe), upper bounds never below 1e-300.
double FastCopy::weight_bound_down(std::int32_t gap, Scratch& scratch) const {
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
  const std::size_t count = p + 1;
  auto& order = scratch.order;
  order.clear();
  for (std::size_t j = 0; j < count; ++j) order.emplace_back(scratch.scores[j], j);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::int32_t>& level_score = scratch.level_score;
  level_score.clear();
  std::vector<std::int64_t>& sums = scratch.level_sums;  // level-major: levels x tokens
  sums.clear();
  for (const auto& [score, j] : order) {
    if (level_score.empty() || score != level_score.back()) {
      level_score.push_back(score);
      sums.resize(sums.size() + table.tokens, 0);
    }
    std::int64_t* row = sums.data() + (level_score.size() - 1) * table.tokens;
    for (std::size_t x = 0; x < table.tokens; ++x) row[x] += table.values[j * table.tokens + x];
  }
  const std::size_t levels = level_score.size();
  // sign of readout(a) - readout(b): +1, -1, 0 (exactly equal), or nullopt (not certified here).
  auto compare = [&](std::size_t a, std::size_t b) -> std::optional<int> {
    for (std::size_t l = 0; l < levels; ++l) {
      const std::int64_t delta = sums[l * table.tokens + a] - sums[l * table.tokens + b];
      if (delta == 0) continue;
      double rest = 0;
      for (std::size_t m = l + 1; m < levels; ++m)
        rest += static_cast<double>(std::llabs(sums[m * table.tokens + a] - sums[m * table.tokens + b]));
      if (rest == 0) return delta > 0 ? 1 : -1;
      const double lead = static_cast<double>(std::llabs(delta)) *
                          (l == 0 ? 1.0 : weight_bound_down(level_score[0] - level_score[l], scratch));
      const double tail = weight_bound(level_score[0] - level_score[l + 1], scratch) * rest;
      if (tail * (1 + 1e-12) < lead * (1 - 1e-12)) return delta > 0 ? 1 : -1;
      return std::nullopt;
    }
    return 0;
  };
  std::size_t best = 0;
  for (std::size_t x = 1; x < table.tokens; ++x) {
    const auto c = compare(x, best);
    if (!c) return std::nullopt;
    if (*c > 0) best = x;
  }
  CopyStep step;
  step.position = p + 1;
  step.bits = 53;
  std::vector<Token> tied;
  for (std::size_t x = 0; x < table.tokens; ++x) {
    if (x == best) continue;
    const auto c = compare(best, x);
    if (!c || *c < 0) return std::nullopt;
    if (*c == 0) tied.push_back(static_cast<Token>(x));
  }
  if (tied.empty()) {
    step.margin = Margin::Certified;
    step.output = static_cast<Token>(best);
    return step;
  }
  step.margin = Margin::Tie;
  step.tied.push_back(static_cast<Token>(best));
  step.tied.insert(step.tied.end(), tied.begin(), tied.end());
  return step;
}

CopyStep FastCopy::decide(const Table& table, std::size_t p, Scratch& scratch, FastStats& stats) const {
  ++stats.steps;
  compute_scores(table, p, scratch.scores);
  if (auto step = decide_by_bound(table, p, scratch)) {
    ++stats.by_bound;
    return *step;
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

namespace {

// The failure text of the exact evaluator (CopyTransformer::copy_string), or empty when the step generated x_k.
std::string failure_of(const CopyStep& step, std::size_t k, Token target) {
  if (step.margin != Margin::Tie && step.output == target) return "";  // generated x_k
  if (step.margin == Margin::Tie)
    return fmt::format("step {}: the readout's argmax is an exact tie between tokens {}", k + 1,
                       copy::format_tokens(step.tied));
  if (!step.output) return fmt::format("step {}: the readout's argmax is not certified", k + 1);
  return fmt::format("step {}: generated {}, expected {}", k + 1, *step.output, target);
}

}  // namespace

// The calling thread's state for this FastCopy: its row cache (when windows are few) and its scratch space, whose
// weight-bound caches then serve every string the thread evaluates.
FastCopy::ThreadState& FastCopy::thread_state() const {
  thread_local std::unordered_map<std::uint64_t, ThreadState> states;  // by FastCopy instance
  auto found = states.find(instance_);
  if (found == states.end()) found = states.emplace(instance_, ThreadState{make_cache(), {}, nullptr}).first;
  return found->second;
}

FastCopyRun FastCopy::copy_string(const TokenString& x, unsigned threads, bool keep_steps) const {
  ThreadState& state = thread_state();
  if (!state.table) state.table = std::make_unique<Table>(*this, state.rows ? &*state.rows : nullptr);
  Table& table = *state.table;
  table.reset(transformer_.copy_sequence(x, x.size()));
  const std::size_t prompt = x.size() + 2;
  const unsigned workers = std::max(1u, threads);
  std::vector<FastStats> stats(workers);
  FastCopyRun out;
  out.run.output.reserve(x.size());
  auto finish = [&](bool copied) {
    for (const auto& s : stats) out.stats.merge(s);
    out.run.copied = copied;
    return out;
  };
  // Records step k as the exact evaluator does; false at the first wrong, tied or undecided token.
  auto record = [&](CopyStep step, std::size_t k) {
    step.target = x[k];
    const std::string failure = failure_of(step, k, x[k]);
    if (keep_steps || !failure.empty()) out.run.steps.push_back(step);
    if (step.output) out.run.output.push_back(*step.output);  // a wrong token is kept, as the exact evaluator does
    if (failure.empty()) return true;
    out.run.failure = failure;
    out.run.decided = step.margin != Margin::Undecided;
    return false;
  };
  if (workers == 1) {  // sequential: nothing is computed past the first failure
    for (std::size_t k = 0; k < x.size(); ++k) {
      table.extend_to(prompt - 1 + k);
      table.fill_columns(prompt - 1 + k);
      if (!record(decide(table, prompt - 1 + k, state.scratch, stats[0]), k)) return finish(false);
    }
    return finish(true);
  }
  table.extend_to(table.length - 1);  // the workers read the table concurrently: build it whole first
  table.fill_columns(table.length - 1, true);
  const std::size_t block = 64 * static_cast<std::size_t>(workers);
  for (std::size_t start = 0; start < x.size(); start += block) {  // blocks of steps in parallel; the earliest failure
    const std::size_t end = std::min(x.size(), start + block);     // of a block wins
    std::vector<CopyStep> steps(end - start);
    run_workers(workers, [&](unsigned w) {
      for (std::size_t k = start + w; k < end; k += workers)
        steps[k - start] = decide(table, prompt - 1 + k, w == 0 ? state.scratch : thread_state().scratch, stats[w]);
    });
    for (std::size_t k = start; k < end; ++k)
      if (!record(steps[k - start], k)) return finish(false);
  }
  return finish(true);
}

}  // namespace tverify::fast
