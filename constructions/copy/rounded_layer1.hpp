// Layer 1 of the copy transformer (Theorem 2.3; the averaging heads of Lemma C.1 and the ReLU MLP of Appendix C) in a
// rounded arithmetic, written once for every evaluator that rounds: FinitePrecisionCopy (MPFR at b bits) and the
// float formats of fast/float_copy. `Ops` is the arithmetic: add, mul and div, each one rounding, and `zero()`.
// The order of the operations is fixed: h_t[k] is the sum of Psi(s_q)[k] over the last min(t, p + 1) positions q, in
// order, divided by that count; each MLP sum starts from its bias (or zero), adds its non-zero terms in coordinate
// order, each product rounded before it is added (a zero weight is skipped: adding +-0 changes no value). The exact
// construction keeps its literal attention heads (CopyTransformer::layer1_at); the fast evaluators that stay
// specialised (SparseMpfrLayer1, IntegerLayer1) are tested against this one and against the exact one.
#pragma once

#include "constructions/copy/transformer.hpp"

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

namespace tverify::copy {

template <class T>
struct RoundedLayer1 {
  using Terms = std::vector<std::vector<std::pair<std::size_t, T>>>;
  std::vector<std::vector<T>> psi;        // Psi(token), per token
  Terms inner;                            // per hidden unit: its non-zero U_2 entries (input coordinate, weight)
  std::vector<T> inner_bias;              // b_2, per hidden unit (zero when the construction has none)
  Terms outer;                            // per output: its non-zero U_1 entries (hidden unit, weight)
  std::vector<std::size_t> head_windows;  // h_t averages the last head_windows[t - 1] positions, t = 1..n+1
  std::size_t dim = 0;                    // d: the width of Psi and of each head's output
  std::size_t inputs = 0;                 // the MLP's input width, (n + 1) d

  // The weights of `exact`, each rounded by `round` (Surd -> T); `zero` is T's zero.
  template <class Round>
  static RoundedLayer1 of(const CopyTransformer& exact, Round round, const T& zero) {
    RoundedLayer1 w;
    const auto& psi = exact.embedding();
    const auto& mlp = exact.layer1_mlp();
    w.dim = psi.cols();
    w.inputs = mlp.inner.cols();
    w.psi.assign(psi.rows(), {});
    for (std::size_t a = 0; a < psi.rows(); ++a)
      for (std::size_t c = 0; c < psi.cols(); ++c) w.psi[a].push_back(round(psi(a, c)));
    w.inner.resize(mlp.inner.rows());
    w.inner_bias.assign(mlp.inner.rows(), zero);
    for (std::size_t m = 0; m < mlp.inner.rows(); ++m) {
      for (std::size_t c = 0; c < mlp.inner.cols(); ++c)
        if (!is_zero(mlp.inner(m, c))) w.inner[m].emplace_back(c, round(mlp.inner(m, c)));
      if (!mlp.inner_bias.empty()) w.inner_bias[m] = round(mlp.inner_bias[m]);
    }
    w.outer.resize(mlp.outer.rows());
    for (std::size_t o = 0; o < mlp.outer.rows(); ++o)
      for (std::size_t m = 0; m < mlp.outer.cols(); ++m)
        if (!is_zero(mlp.outer(o, m))) w.outer[o].emplace_back(m, round(mlp.outer(o, m)));
    for (int t = 1; t <= exact.config().n + 1; ++t) w.head_windows.push_back(exact.head_window(t));
    return w;
  }

  // Layer 1 at the last position of `window` (the sequence's last min(p, n) + 1 tokens): [T^value | T^key | T^query].
  template <class Ops>
  std::vector<T> block(const Ops& ops, std::span<const Token> window) const {
    std::vector<T> u;  // [h_1 | .. | h_{n+1}]
    u.reserve(inputs);
    for (std::size_t span_max : head_windows) {
      const std::size_t span = std::min(span_max, window.size());
      for (std::size_t k = 0; k < dim; ++k) {
        T sum = ops.zero();
        for (std::size_t q = window.size() - span; q < window.size(); ++q)
          sum = ops.add(sum, psi[static_cast<std::size_t>(window[q])][k]);
        u.push_back(ops.div(sum, span));
      }
    }
    std::vector<T> hidden;
    hidden.reserve(inner.size());
    for (std::size_t m = 0; m < inner.size(); ++m) {
      T pre = inner_bias[m];
      for (const auto& [c, weight] : inner[m]) pre = ops.add(pre, ops.mul(weight, u[c]));
      hidden.push_back(pre > ops.zero() ? pre : ops.zero());
    }
    std::vector<T> out;
    out.reserve(outer.size());
    for (const auto& terms : outer) {
      T sum = ops.zero();
      for (const auto& [m, weight] : terms) sum = ops.add(sum, ops.mul(weight, hidden[m]));
      out.push_back(sum);
    }
    return out;
  }

  // T^value . Psi(token): the block's first d entries against Psi(token), summed in coordinate order.
  template <class Ops>
  T value_dot_psi(const Ops& ops, std::span<const T> block, std::size_t token) const {
    T v = ops.zero();
    for (std::size_t c = 0; c < dim; ++c) v = ops.add(v, ops.mul(block[c], psi[token][c]));
    return v;
  }
};

}  // namespace tverify::copy
