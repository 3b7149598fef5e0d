#include "constructions/copy/fast/mpfr_bits_copy.hpp"

#include "core/refusal.hpp"
#include "constructions/copy/fast/bits_layer1_table.hpp"
#include "constructions/copy/fast/rounded_sum.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <span>

namespace tverify::copy::fast {

namespace {

using F = RuntimeMpfr;
using Block = copy::FinitePrecisionCopy::Block;

// One thread's evaluation of generation steps on a Layer1Table (the ops of FinitePrecisionCopy::next_token).
class StepEmulator {
 public:
  StepEmulator(const Layer1Table& table, const F& tau, int bits, std::size_t max_levels)
      : t_(table),
        tau_(tau),
        bits_(bits),
        max_levels_(max_levels),
        z_(table.positions, 0.0),
        met_((table.positions + 63) / 64, 0),
        level_of_key_(table.positions, 0) {}

  // The token generated at position p (keys 0..p, query p), or nullopt when this step must run in MPFR.
  std::optional<copy::Token> token_at(std::size_t p) {
    std::optional<copy::Token> token;
    if (assign_levels(p)) {
      std::vector<F> weight = softmax_weights();
      const F total = softmax_total(weight, p + 1);
      for (auto& w : weight) w = w / total;
      token = argmax_readout(weight, p);
    }
    for (std::uint32_t j : touched_) met_[j / 64] = 0, level_of_key_[j] = 0;
    return token;
  }

 private:
  // z_j = sum over c of T^key_j[c] T^query_p[c], in increasing c, for every key j <= p; keys of equal z share a level.
  // Level 0 is z = 0, the level of every key the query does not meet. The query's coordinates are visited in
  // increasing c, and each one's keys through its posting list, so every z_j receives its terms in increasing c.
  bool assign_levels(std::size_t p) {
    const auto& kv = t_.entries.values();
    levels_.assign(1, 0.0);
    touched_.clear();
    for (const auto& e : t_.queries.row(p)) {
      const double q = kv[e.value];
      for (const auto& posting : t_.postings.row(e.index)) {
        const std::uint32_t j = posting.index;
        if (j > p) break;
        double& z = z_[j];
        const std::uint64_t bit = std::uint64_t{1} << (j % 64);
        if (!(met_[j / 64] & bit)) met_[j / 64] |= bit, z = 0, touched_.push_back(j);
        z = round_to_bits(z + round_to_bits(kv[posting.value] * q, bits_), bits_);
      }
    }
    std::size_t keys_at_zero = p + 1;
    for (std::uint32_t j : touched_) {
      const auto level = static_cast<std::size_t>(std::find(levels_.begin(), levels_.end(), z_[j]) - levels_.begin());
      if (level == levels_.size()) levels_.push_back(z_[j]);
      level_of_key_[j] = static_cast<std::uint8_t>(std::min<std::size_t>(level, 255));
      keys_at_zero -= level != 0;
    }
    zero_level_used_ = keys_at_zero > 0;
    return levels_.size() <= max_levels_;
  }

  // exp(tau z - top) per level, top the largest tau z of a key (level 0 may have none).
  std::vector<F> softmax_weights() const {
    std::vector<F> logits;
    for (double z : levels_) logits.push_back(tau_ * F::from_double(z));
    F top = logits[zero_level_used_ ? 0 : 1];
    for (std::size_t i = 1; i < logits.size(); ++i)
      if (logits[i] > top) top = logits[i];
    for (auto& l : logits) l = exp(l - top);
    return logits;
  }

  // Calls visit(j) for every key j in [from, keys) the query met, in increasing j.
  template <class Visit>
  void for_each_met_key(std::size_t from, std::size_t keys, Visit visit) const {
    for (std::size_t word = from / 64; word * 64 < keys; ++word) {
      std::uint64_t bits = met_[word];
      if (word == from / 64) bits &= ~std::uint64_t{0} << (from % 64);
      for (; bits; bits &= bits - 1) {
        const std::size_t j = word * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        if (j >= keys) return;
        visit(j);
      }
    }
  }

  // The sum over keys j <= p of their level's weight, in key order. Every key is visited until the sum is frozen
  // against level 0's weight (below a quarter ulp: rounding returns the sum, and the sum of positive weights only
  // grows), then only the keys of other levels.
  F softmax_total(const std::vector<F>& weight, std::size_t keys) const {
    std::vector<WideNumber> terms;
    for (const auto& w : weight) terms.push_back(wide(w));
    RoundedSum total(bits_);
    std::size_t j = 0;
    for (; j < keys && !total.absorbs(terms[0]); ++j) total.add(terms[level_of_key_[j]]);
    for_each_met_key(j, keys, [&](std::size_t k) { total.add(terms[level_of_key_[k]]); });
    return to_mpfr(total.value());
  }

  // r_x = sum over j of (weight_j / total) (T^value_j . Psi(x)), per token x; the first largest r_x wins. Each r_x
  // is its own sum over the keys whose value reaches x, in key order: every such key is visited until r_x absorbs
  // the largest level-0 term, then (when every term is positive, so that no r_x shrinks) only the keys the query met.
  copy::Token argmax_readout(const std::vector<F>& share, std::size_t p) {
    const auto& values = t_.readout_values.values();
    std::vector<WideNumber> terms;  // (level, value) -> share * value
    for (const auto& s : share)
      for (double v : values) terms.push_back(wide(s * F::from_double(v)));
    const bool positive = std::all_of(terms.begin(), terms.end(), [](const WideNumber& w) { return w.m > 0; });
    const WideNumber largest_level0 =
        *std::max_element(terms.begin(), terms.begin() + static_cast<long>(values.size()),
                          [](const WideNumber& a, const WideNumber& b) { return greater(b, a); });
    std::vector<RoundedSum> readout(t_.tokens, RoundedSum(bits_));
    first_skipped_.assign(t_.tokens, p + 1);
    for (std::size_t x = 0; x < t_.tokens; ++x)
      for (const auto& e : t_.occurrences.row(x)) {
        if (e.index > p) break;
        if (positive && readout[x].absorbs(largest_level0)) {
          first_skipped_[x] = e.index;
          break;
        }
        readout[x].add(terms[level_of_key_[e.index] * values.size() + e.value]);
      }
    for_each_met_key(0, p + 1, [&](std::size_t j) {
      for (const auto& e : t_.readouts.row(j))
        if (j >= first_skipped_[e.index]) readout[e.index].add(terms[level_of_key_[j] * values.size() + e.value]);
    });
    std::size_t best = 0;
    for (std::size_t x = 1; x < t_.tokens; ++x)
      if (greater(readout[x].value(), readout[best].value())) best = x;
    return static_cast<copy::Token>(best);
  }

  const Layer1Table& t_;
  const F& tau_;
  int bits_;
  std::size_t max_levels_;
  std::vector<double> z_, levels_;      // z_ by key, valid for the keys met this step
  std::vector<std::uint64_t> met_;      // bit j: the query met key j this step
  std::vector<std::uint32_t> touched_;  // those keys, in the order met
  std::vector<std::uint8_t> level_of_key_;
  std::vector<std::size_t> first_skipped_;  // per token: the first key the readout visits only if met
  bool zero_level_used_ = true;
};

// Why the MPFR blocks of a run (positions x width numbers) cannot be held in memory, or nullopt.
Refusal mpfr_blocks_refusal(std::size_t count, std::size_t width) {
  constexpr std::size_t kMaxEntries = 4'000'000;  // about 200 MB of MPFR numbers
  if (count * width <= kMaxEntries) return std::nullopt;
  return "this configuration needs the MPFR evaluator at L = " + std::to_string(count / 2) + " (more than " +
         std::to_string(MpfrBitsCopy::kMaxLevels) +
         " score levels at a step, or layer-1 values beyond [2^-400, 2^400]), whose blocks would exceed 200 MB";
}

// The blocks of positions 0..count-1 back in MPFR (exact: every entry is a b-bit double), for next_token; the caller
// has checked mpfr_blocks_refusal.
std::vector<Block> mpfr_blocks(const Layer1Table& t, std::size_t count) {
  const std::size_t width = t.dim + 2 * t.key_width;
  std::vector<Block> blocks(count, Block(width, F(0)));
  for (std::size_t p = 0; p < count; ++p)
    for (const auto& e : t.blocks.row(p)) blocks[p][e.index] = F::from_double(t.entries.values()[e.value]);
  return blocks;
}

struct EmulatedSteps {
  std::optional<std::size_t> first_wrong;  // among the emulated steps
  std::vector<std::size_t> deferred;       // steps before first_wrong that must run in MPFR, increasing
};

// Every generation step k (query at position L + 1 + k) by StepEmulator, spread over threads; the earliest wrong
// step wins and no step after it is needed.
EmulatedSteps emulate_steps(const Layer1Table& table, const F& tau, const copy::TokenString& x, int bits,
                            unsigned threads, std::size_t max_levels) {
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::atomic<std::size_t> next{0}, first_wrong{kNone};
  std::vector<std::vector<std::size_t>> deferred(threads);
  run_workers(threads, [&](unsigned w) {
    const RuntimeMpfr::Precision worker_precision(bits);
    const F worker_tau(tau);
    StepEmulator emulator(table, worker_tau, bits, max_levels);
    for (std::size_t k = next++; k < x.size() && k < first_wrong; k = next++) {
      const auto token = emulator.token_at(x.size() + 1 + k);
      if (!token)
        deferred[w].push_back(k);
      else if (*token != x[k]) {
        std::size_t seen = first_wrong;
        while (k < seen && !first_wrong.compare_exchange_weak(seen, k)) {}
      }
    }
  });
  EmulatedSteps out;
  if (first_wrong != kNone) out.first_wrong = first_wrong.load();
  for (const auto& d : deferred)
    for (std::size_t k : d)
      if (k < first_wrong) out.deferred.push_back(k);
  std::sort(out.deferred.begin(), out.deferred.end());
  return out;
}

}  // namespace

BitsRun MpfrBitsCopy::run(const copy::TokenString& x, int bits, unsigned threads) const {
  if (bits < 1 || bits > kMaxBits)
    throw std::logic_error("MpfrBitsCopy::run: bits must be in 1.." + std::to_string(kMaxBits) + " (got " +
                           std::to_string(bits) + ")");
  threads = std::max(1u, threads);
  const RuntimeMpfr::Precision precision(bits);
  const copy::FinitePrecisionCopy finite(transformer_, bits);
  const copy::TokenString sequence = transformer_.copy_sequence(x, x.size());
  const std::size_t prompt = x.size() + 2, positions = prompt + x.size() - 1;  // queries at prompt-1 .. 2L
  const Layer1Table table = layer1_table(transformer_, sequence, positions, bits, threads);
  const F tau = finite.tau();
  BitsRun run;
  const std::size_t width = table.dim + 2 * table.key_width;
  if (!table.emulable) {  // FinitePrecisionCopy itself, every step
    if ((run.refusal = mpfr_blocks_refusal(positions, width))) return run;
    run.first_wrong_step = finite.first_wrong_step(x);
    run.steps = run.mpfr_steps = run.first_wrong_step ? *run.first_wrong_step + 1 : x.size();
    return run;
  }

  const EmulatedSteps emulated = emulate_steps(table, tau, x, bits, threads, max_levels_);
  // The steps the decision rests on (up to the first wrong one): how many more the workers ran before they saw it
  // depends on scheduling, so it is not reported.
  run.steps = emulated.first_wrong ? *emulated.first_wrong + 1 : x.size();
  run.first_wrong_step = emulated.first_wrong;
  if (emulated.deferred.empty()) return run;
  if (const Refusal refusal = mpfr_blocks_refusal(positions, width)) return BitsRun{.refusal = refusal};
  const std::vector<Block> blocks = mpfr_blocks(table, positions);
  std::vector<const Block*> view;
  for (const auto& b : blocks) view.push_back(&b);
  for (std::size_t k : emulated.deferred) {  // increasing, all before the first wrong step found so far
    ++run.mpfr_steps;
    if (finite.next_token(std::span<const Block* const>(view.data(), prompt + k)) != x[k]) {
      run.first_wrong_step = k;
      run.steps = k + 1;
      break;
    }
  }
  return run;
}

}  // namespace tverify::copy::fast
