#include "checkers/fast/copy_fast.hpp"

#include "checkers/fast/simd_kernels.hpp"

#include <algorithm>
#include <exception>
#include <cmath>
#include <limits>
#include <thread>

namespace tverify::fast {

using copy::CopyStep;
using copy::Token;
using copy::TokenString;

// Layer 1 of one copy sequence: key columns (column-major, int32), sparse queries, value . Psi rows, and the range of
// each token's value over the sequence.
struct FastCopy::Table {
  TokenString sequence;
  std::size_t length = 0, tokens = 0;
  std::vector<std::vector<std::int32_t>> key_columns;
  std::vector<std::vector<std::pair<std::uint32_t, std::int32_t>>> queries;
  std::vector<std::int64_t> values;  // length x tokens
  std::vector<std::int64_t> value_min, value_max;

  Table(const IntegerLayer1& layer1, TokenString seq) : sequence(std::move(seq)) {
    length = sequence.size();
    tokens = layer1.tokens();
    key_columns.assign(layer1.key_dim(), std::vector<std::int32_t>(length));
    queries.resize(length);
    values.resize(length * tokens);
    value_min.assign(tokens, std::numeric_limits<std::int64_t>::max());
    value_max.assign(tokens, std::numeric_limits<std::int64_t>::min());
    IntegerRow row;
    for (std::size_t p = 0; p < length; ++p) {
      layer1.at(sequence, p, row);
      for (std::size_t c = 0; c < row.key.size(); ++c) key_columns[c][p] = static_cast<std::int32_t>(row.key[c]);
      for (std::size_t c = 0; c < row.query.size(); ++c)
        if (row.query[c] != 0) queries[p].emplace_back(static_cast<std::uint32_t>(c), static_cast<std::int32_t>(row.query[c]));
      for (std::size_t x = 0; x < tokens; ++x) {
        const std::int64_t v = row.value_dot_psi[x];
        values[p * tokens + x] = v;
        value_min[x] = std::min(value_min[x], v);
        value_max[x] = std::max(value_max[x], v);
      }
    }
  }
};

FastCopy::FastCopy(const copy::CopyTransformer& transformer) : transformer_(transformer), layer1_(transformer) {}

namespace {

void compute_scores(const std::vector<std::vector<std::int32_t>>& key_columns,
                    const std::vector<std::pair<std::uint32_t, std::int32_t>>& query, std::size_t count,
                    std::vector<std::int32_t>& scores) {
  scores.assign(count, 0);
  for (const auto& [c, w] : query) add_scaled_column(scores.data(), key_columns[c].data(), w, count);
}

}  // namespace

// An upper bound, as a double, on e^{-tau gap / score_scale}: the MPFI enclosure's upper end rounded up, and never
// below 1e-300 so that the products of decide_by_bound stay normal.
double FastCopy::weight_bound(std::int32_t gap, Scratch& scratch) const {
  auto it = scratch.weight_bounds.find(gap);
  if (it != scratch.weight_bounds.end()) return it->second;
  using I = Interval<64>;
  const Exact upper = exp(-(transformer_.tau_interval<64>() * I(Exact(gap) / layer1_.score_scale()))).upper();
  const double bound = std::max(std::nextafter(upper.convert_to<double>(), 2.0), 1e-300);
  return scratch.weight_bounds.emplace(gap, bound).first->second;
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
    const double spread = static_cast<double>(std::max<std::int64_t>(table.value_max[x], 0) -
                                              std::min<std::int64_t>(table.value_min[w], 0));
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

CopyStep FastCopy::decide(const Table& table, std::size_t p, Scratch& scratch, FastStats& stats) const {
  ++stats.steps;
  compute_scores(table.key_columns, table.queries[p], p + 1, scratch.scores);
  if (auto step = decide_by_bound(table, p, scratch)) {
    ++stats.by_bound;
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
  const std::string where = "step " + std::to_string(k + 1);
  if (step.margin == Margin::Tie)
    return where + ": the readout's argmax is an exact tie between tokens " + copy::format_tokens(step.tied);
  if (!step.output) return where + ": the readout's argmax is not certified";
  if (*step.output != target)
    return where + ": generated " + std::to_string(*step.output) + ", expected " + std::to_string(target);
  return "";
}

}  // namespace

FastCopyRun FastCopy::copy_string(const TokenString& x, unsigned threads, bool keep_steps) const {
  const Table table(layer1_, transformer_.copy_sequence(x, x.size()));
  const std::size_t prompt = x.size() + 2;
  const unsigned workers = std::max(1u, threads);
  std::vector<Scratch> scratch(workers);
  std::vector<FastStats> stats(workers);
  FastCopyRun out;
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
    for (std::size_t k = 0; k < x.size(); ++k)
      if (!record(decide(table, prompt - 1 + k, scratch[0], stats[0]), k)) return finish(false);
    return finish(true);
  }
  const std::size_t block = 64 * static_cast<std::size_t>(workers);
  for (std::size_t start = 0; start < x.size(); start += block) {  // blocks of steps in parallel; the earliest failure
    const std::size_t end = std::min(x.size(), start + block);     // of a block wins
    std::vector<CopyStep> steps(end - start);
    std::vector<std::exception_ptr> errors(workers);
    auto work = [&](unsigned w) {
      try {
        for (std::size_t k = start + w; k < end; k += workers)
          steps[k - start] = decide(table, prompt - 1 + k, scratch[w], stats[w]);
      } catch (...) {
        errors[w] = std::current_exception();
      }
    };
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work, w);
    work(0);
    for (auto& t : pool) t.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    for (std::size_t k = start; k < end; ++k)
      if (!record(steps[k - start], k)) return finish(false);
  }
  return finish(true);
}

}  // namespace tverify::fast
