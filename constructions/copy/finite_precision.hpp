// The copy transformer of Theorem 2.3 evaluated in finite precision: every activation rounded to nearest at the
// precision `bits` it is made with, the softmax (max-shifted) and the readout computed in that precision, and the
// argmax taken by value (the first of equal values wins). The weights are the exact construction's (CopyTransformer)
// in that precision: a rational weight rounded to nearest, a surd a + b sqrt(r) computed from a, b and r with each
// operation rounded to nearest (not always the nearest value to the surd itself). A measurement of what a precision
// does (Remark 2.6), never a verification. Not thread-safe: one object per thread.
#pragma once

#include "constructions/copy/rounded_layer1.hpp"
#include "constructions/copy/transformer.hpp"
#include "core/runtime_mpfr.hpp"

#include <map>
#include <optional>
#include <span>

namespace tverify::copy {

// RoundedLayer1's operations in MPFR at the thread's working precision, each rounded to nearest.
struct MpfrOps {
  RuntimeMpfr zero() const { return RuntimeMpfr(0); }
  RuntimeMpfr add(const RuntimeMpfr& a, const RuntimeMpfr& b) const { return a + b; }
  RuntimeMpfr mul(const RuntimeMpfr& a, const RuntimeMpfr& b) const { return a * b; }
  RuntimeMpfr div(const RuntimeMpfr& a, std::size_t count) const { return a / RuntimeMpfr(static_cast<long>(count)); }
};

class FinitePrecisionCopy {
 public:
  using F = RuntimeMpfr;
  using Block = std::vector<F>;  // layer 1 at one position: [T^value | T^key | T^query]

  // `bits`: the MPFR precision of every rounding, at least 1.
  FinitePrecisionCopy(const CopyTransformer& exact, long bits);

  long bits() const { return bits_; }
  // Generates L tokens after <BOS>, x, <COPY> at `bits`; true when they are x.
  bool copies(const TokenString& x) const { return !first_wrong_step(x); }
  // The first generation step (0-based) whose token is not x's, or nullopt when x is copied.
  std::optional<std::size_t> first_wrong_step(const TokenString& x) const;

  // What the fast evaluator (constructions/copy/fast/mpfr_bits_copy) reads: one generation step - layer 2 and the
  // readout at the last block (the query) over all of them (the keys), giving the generated token - and the rounded
  // weights.
  Token next_token(std::span<const Block* const> blocks) const;
  struct Weights {
    RoundedLayer1<F> layer1;
    F tau;
  };
  const Weights& weights() const { return weights_; }  // rounded at `bits`
  // Psi, tau and the key width at `bits`.
  const std::vector<std::vector<F>>& psi() const { return weights_.layer1.psi; }
  const F& tau() const { return weights_.tau; }
  std::size_t key_width() const;
  std::size_t dim() const { return static_cast<std::size_t>(exact_.dim()); }
  int n() const { return exact_.config().n; }
  std::size_t head_window(int t) const { return exact_.head_window(t); }

 private:
  // Layer 1 at the last position of `window` (its last min(p, n) + 1 tokens), memoised per window.
  const Block& layer1(const TokenString& window) const;

  const CopyTransformer& exact_;
  long bits_;
  Weights weights_;
  mutable std::map<TokenString, Block> memo_;
};

}  // namespace tverify::copy
