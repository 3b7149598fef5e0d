// The certification stages of the fast copy path (docs/fast.md): each generation step is decided by the cheapest
// stage that can certify it - window bounds, the top level's bound, the exact lexicographic comparison of level sums -
// and only then by the exact evaluator.
#include "constructions/copy/fast/copy_table.hpp"
#include "core/double_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tverify::copy::fast {

using copy::CopyStep;

namespace {

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

}  // namespace

namespace {

// The scores z_j of keys 0..p against query p (into scores) and their top level: each non-zero query entry adds a
// scaled key column (filled by Table::fill_columns).
template <class Table>
TopLevel score_keys(const Table& table, std::size_t p, std::vector<std::int32_t>& scores) {
  const std::size_t count = p + 1;
  scores.resize(count);  // grows geometrically (assign would reallocate at every step: one more key each time)
  std::fill_n(scores.data(), count, 0);
  for (const auto& [c, w] : table.queries[p]) add_scaled_column(scores.data(), table.key_column(c), w, count);
  return top_level(scores.data(), count);
}

}  // namespace

// An upper bound, as a double, on e^{-tau gap / score_scale}: the MPFI enclosure's upper end rounded up
// (core/double_bounds.hpp).
double FastCopy::weight_bound(std::int64_t gap, Scratch& scratch) const {
  return scratch.weight_bounds.get(gap, [&] {
    using I = Interval<64>;
    return bounds::upper_double(
        exp(-(transformer_.tau_interval<64>() * I(Exact(gap) / layer1_.score_scale()))).upper());
  });
}

// The bound of stages 0 and 1. With c top keys (score z_top, value sums S) and R = sum over lower keys of
// e^{tau (z_j - z_top)} <= R_hi = (#lower) e^{-tau Delta} for any Delta at most the gap from z_top to every lower
// key, r_w - r_x = (S_w - S_x + T_w - T_x) / (c + R) with T_x in [R min(v_x), R max(v_x)] (v_x over the sequence,
// widened to include 0). So w is the certified argmax when, for every x != w, S_w - S_x > R_hi (max(v_x, 0) -
// min(v_w, 0)). The integers are exact; R_hi and the products are double bounds (core/double_bounds.hpp).
bool FastCopy::certify_top(const Table& table, const std::int64_t* top_sum, std::size_t lower, std::int64_t gap,
                           Scratch& scratch, Token& winner) const {
  const std::size_t tokens = table.tokens;
  std::size_t w = 0;
  for (std::size_t x = 1; x < tokens; ++x)
    if (top_sum[x] > top_sum[w]) w = x;
  const double r_hi = lower == 0 ? 0.0 : bounds::mul_upper(static_cast<double>(lower), weight_bound(gap, scratch));
  const std::int64_t below_w = -std::min<std::int64_t>(table.value_min(w), 0);
  for (std::size_t x = 0; x < tokens; ++x) {
    if (x == w) continue;
    const std::int64_t difference = top_sum[w] - top_sum[x];
    if (difference <= 0) return false;
    const double spread = static_cast<double>(std::max<std::int64_t>(table.value_max(x), 0) + below_w);
    if (!(bounds::mul_upper(r_hi, spread) < bounds::mul_lower(static_cast<double>(difference), 1.0))) return false;
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

// The index stage: the keys of E - the interior keys of the n-gram g* the query scores highest (NgramIndex) and the
// keys whose windows are not interior (few: those holding <BOS> or <COPY>) - are scored exactly; every other key is
// interior with another n-gram, so it scores at most B (InteriorKeys::highest_ngram). When the highest score in E
// exceeds B, the top level lies in E, and stage 1's inequality is checked with Delta = the gap from the top to the
// larger of B and E's next score. The walk stops at the 65th key of g* up to p (a string with many repeats is
// scanned), so whether a step is decided here depends on the string alone, not on the threads.
bool FastCopy::decide_by_index(const Table& table, std::size_t p, Scratch& scratch, Token& winner) const {
  const QueryView query = table.queries[p];
  interior_->terms(query, scratch.query_terms);
  const NgramBound highest = interior_->highest_ngram(scratch.query_terms, options_.bound_slack);
  std::int64_t top = std::numeric_limits<std::int64_t>::min(), runner_up = highest.bound;
  std::size_t top_keys = 0;
  std::int64_t* sum = scratch.top_sum.data();
  auto visit = [&](std::size_t j) {
    std::int64_t z = 0;
    if (const std::int32_t* key = table.key_rows[j])
      for (const auto& [c, w] : query) z += std::int64_t{w} * key[c];
    else  // an interior key (not stored): its score from the decomposition, exactly key . query
      z = interior_->score(scratch.query_terms, table.sequence, j);
    if (z > top) {
      runner_up = std::max(runner_up, top);
      top = z, top_keys = 1;
      std::copy_n(table.value_row(j), table.stride, sum);
    } else if (z == top) {
      ++top_keys;
      add_row(sum, table.value_row(j), table.stride);
    } else {
      runner_up = std::max(runner_up, z);
    }
  };
  for (const std::uint32_t j : table.special) {
    if (j > p) break;
    visit(j);
  }
  std::size_t walked = 0;  // keys of g* up to p (a shared table also holds later positions, which are skipped)
  bool complete = true;
  table.interior.for_each(highest.ngram, [&](std::uint32_t j) {
    if (j > p) return true;
    if (++walked > 64) return complete = false;
    visit(j);
    return true;
  });
  if (!complete || top_keys == 0 || top <= highest.bound) return false;
  return certify_top(table, sum, p + 1 - top_keys, top - runner_up, scratch, winner);
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

// A lower bound, as a double, on e^{-tau gap / score_scale}: the MPFI enclosure's lower end rounded down
// (core/double_bounds.hpp).
double FastCopy::weight_bound_down(std::int64_t gap, Scratch& scratch) const {
  return scratch.weight_lower_bounds.get(gap, [&] {
    using I = Interval<64>;
    return bounds::lower_double(
        exp(-(transformer_.tau_interval<64>() * I(Exact(gap) / layer1_.score_scale()))).lower());
  });
}

// Stage 2 (integers): the exact per-level sums V_{l,x}, levels from the top down. Level l weighs e^{-tau (z_top -
// z_l)} relative to the top, so two tokens compare lexicographically on (V_{0,x}, V_{1,x}, ...) as soon as, at the
// first level l* where they differ, |Delta V_{l*}| e^{-tau gap*} exceeds e^{-tau gap_next} times the sum of the
// |Delta V| below (double bounds, core/double_bounds.hpp). Tokens equal at every level are exactly equal readouts: an
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
      if (bounds::mul_upper(tail[l + 1], rest) < bounds::mul_lower(static_cast<double>(std::llabs(delta)), lead[l]))
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

CopyStep FastCopy::decide(Table& table, std::size_t p, Scratch& scratch, FastStats& stats) const {
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
    if (table.indexed && decide_by_index(table, p, scratch, w)) {
      ++stats.by_bound, ++stats.by_index;
      return certified_step(p, w);
    }
    table.prepare_scan(p);
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

}  // namespace tverify::copy::fast
