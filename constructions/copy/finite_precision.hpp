// The copy transformer of Theorem 2.3 evaluated in finite precision: every weight, embedding entry and activation
// rounded to nearest at the calling thread's RuntimeMpfr working precision, the softmax (max-shifted) and the readout
// computed in that precision, and the argmax taken by value (the first of equal values wins). The weights are the
// exact construction's (CopyTransformer), rounded. A measurement of what a precision does (Remark 2.6), never a
// verification. Not thread-safe: one object per thread.
#pragma once

#include "constructions/copy/transformer.hpp"
#include "core/runtime_mpfr.hpp"

#include <map>

namespace tverify::copy {

class FinitePrecisionCopy {
 public:
  explicit FinitePrecisionCopy(const CopyTransformer& exact) : exact_(exact) {}

  // Generates L tokens after <BOS>, x, <COPY> at the working precision; true when they are x.
  bool copies(const TokenString& x) const;

 private:
  using F = RuntimeMpfr;
  struct Weights {
    std::vector<std::vector<F>> psi, inner, outer;
    std::vector<F> inner_bias;
    F tau;
  };
  const Weights& weights() const;  // rounded at the working precision (recomputed when it changes)
  const std::vector<F>& layer1(const TokenString& window) const;  // [value | key | query], memoised per window

  const CopyTransformer& exact_;
  mutable long bits_ = -1;
  mutable Weights weights_;
  mutable std::map<TokenString, std::vector<F>> memo_;
};

}  // namespace tverify::copy
