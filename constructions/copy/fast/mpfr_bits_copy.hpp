// The copy transformer of Theorem 2.3 in MPFR at b <= 25 bits: the
// same generated token at every step as copy::FinitePrecisionCopy at that precision, in a few double operations per
// key and step instead of O(d |Psi|) MPFR operations. A measurement of what b bits do (Remark 2.6), never a
// verification - like FinitePrecisionCopy itself.
//
// Why it is the same arithmetic, operation for operation:
//  - per position, layer 1 and T^value . Psi(x) in MPFR by SparseMpfrLayer1 (mpfr_layer1.hpp: FinitePrecisionCopy's
//    operations in its order, without the zero-factor products); their non-zero entries are kept as doubles (exact:
//    b-bit numbers in double's range).
//  - the per-key sums of a step (the scores z_j, the softmax total, the readouts) run in double, each operation
//    rounded to b bits. The operands are b-bit numbers: their product is exact in double (2b <= 53), and their sum
//    rounded to 53 and then to b bits equals their sum rounded to b bits once, since 53 >= 2b + 2 (S. A. Figueroa,
//    "When is double rounding innocuous?", SIGNUM Newsletter 30(3), 1995), as long as every value is a normal double.
//    The scores need layer-1 entries in [2^-400, 2^400]. The softmax weights span e^{-tau n} .. 1, beyond double's
//    range, so the total and the readouts keep their own binary exponent (RoundedSum): two operands more than
//    2^(b+1) apart need no addition (rounding returns the larger), closer ones are added at a common scale.
//  - the few values a step needs besides those sums - tau z, top, exp(l - top), weight / total, (weight / total) v -
//    depend only on a key's score level and value, so each distinct one is computed once, in MPFR.
//  - a zero term is skipped (adding +-0 changes no value).
// A step with more than kMaxLevels score levels runs FinitePrecisionCopy::next_token itself (counted in mpfr_steps);
// so does every step of a string whose layer-1 values leave [2^-400, 2^400].
#pragma once

#include "constructions/copy/finite_precision.hpp"
#include "core/refusal.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace tverify::copy::fast {

struct BitsRun {
  std::optional<std::size_t> first_wrong_step;  // nullopt: x is copied
  std::uint64_t steps = 0;                      // generation steps up to the first wrong one (all when none is)
  std::uint64_t mpfr_steps = 0;                 // of which by FinitePrecisionCopy::next_token
  Refusal refusal;  // set when the run needed more than the evaluator's limits allow; nothing else is then set
  bool copied() const { return !refusal && !first_wrong_step; }
};

class MpfrBitsCopy {
 public:
  static constexpr int kMaxBits = 25;            // 53 >= 2b + 2
  static constexpr std::size_t kMaxLevels = 64;  // distinct scores per step before a step runs in MPFR

  // max_levels: the most score levels a step may have before it runs in MPFR (lower only to test that path).
  explicit MpfrBitsCopy(const copy::CopyTransformer& transformer, std::size_t max_levels = kMaxLevels)
      : transformer_(transformer), max_levels_(std::min<std::size_t>(max_levels, kMaxLevels)) {}

  // Generation of x after <BOS>, x, <COPY> at `bits` (1..kMaxBits) bits, steps spread over `threads` threads; the
  // first wrong step is the same as FinitePrecisionCopy::first_wrong_step's at that working precision.
  BitsRun run(const copy::TokenString& x, int bits, unsigned threads) const;

 private:
  const copy::CopyTransformer& transformer_;
  std::size_t max_levels_;
};

}  // namespace tverify::copy::fast
