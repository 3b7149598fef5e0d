#include "constructions/copy/fast/mpfr_layer1.hpp"

#include <algorithm>

namespace tverify::copy::fast {

SparseMpfrLayer1::SparseMpfrLayer1(const copy::FinitePrecisionCopy& finite)
    : dim_(finite.dim()), n_(finite.n()), bits_(finite.bits()) {
  const RuntimeMpfr::Precision precision(bits_);
  const auto& w = finite.weights().layer1;
  head_windows_ = w.head_windows;
  psi_rows_.resize(w.psi.size());
  for (std::size_t x = 0; x < w.psi.size(); ++x)
    for (std::size_t c = 0; c < w.psi[x].size(); ++c)
      if (w.psi[x][c].sign() != 0) psi_rows_[x].emplace_back(c, w.psi[x][c]);
  const std::size_t inputs = w.inputs;
  inner_columns_.resize(inputs);
  for (std::size_t m = 0; m < w.inner.size(); ++m)
    for (const auto& [c, weight] : w.inner[m]) inner_columns_[c].emplace_back(m, weight);
  outer_columns_.resize(w.inner.size());
  for (std::size_t o = 0; o < w.outer.size(); ++o)
    for (const auto& [m, weight] : w.outer[o]) outer_columns_[m].emplace_back(o, weight);
  bias_ = w.inner_bias;
  width_ = w.outer.size();
  u_.assign(inputs, F(0));
  u_set_.assign(inputs, false);
  pre_ = bias_;
  out_.assign(width_, F(0));
  out_set_.assign(width_, false);
  scratch_ = F(0);  // at bits_, as every member above: each product is rounded to bits_ before it is added
}

// h_t[k] = (sum of Psi(s_q)[k] over the last min(t, p + 1) positions q, in order) / that count. Only non-zero entries
// are added; a coordinate no token reaches stays 0 (0 / count = 0).
void SparseMpfrLayer1::averages(const copy::TokenString& window) {
  std::fill(u_set_.begin(), u_set_.end(), false);
  for (std::size_t t = 0; t < head_windows_.size(); ++t) {
    const std::size_t span = std::min(head_windows_[t], window.size()), offset = t * dim_;
    for (std::size_t q = window.size() - span; q < window.size(); ++q)
      for (const auto& [k, v] : psi_rows_[static_cast<std::size_t>(window[q])]) {
        if (!u_set_[offset + k]) u_[offset + k].set_zero(), u_set_[offset + k] = true;
        u_[offset + k] += v;
      }
    const F count(static_cast<long>(span));
    for (std::size_t k = 0; k < dim_; ++k)
      if (u_set_[offset + k]) u_[offset + k] = u_[offset + k] / count;
  }
}

// pre[m] = b[m] + sum over c (increasing) of W[m][c] u[c]; products with u[c] = 0 are skipped. Visiting the non-zero
// u[c] in increasing c and each column's units keeps every unit's additions in increasing c.
void SparseMpfrLayer1::hidden_layer() {
  for (std::size_t m = 0; m < bias_.size(); ++m) pre_[m] = bias_[m];
  for (std::size_t c = 0; c < u_.size(); ++c)
    if (u_set_[c] && u_[c].sign() != 0)
      for (const auto& [m, weight] : inner_columns_[c]) pre_[m].add_product(weight, u_[c], scratch_);
}

// out[o] = sum over m (increasing) of U[o][m] relu(pre[m]); units with relu = 0 are skipped.
void SparseMpfrLayer1::output_layer() {
  std::fill(out_set_.begin(), out_set_.end(), false);
  for (std::size_t m = 0; m < pre_.size(); ++m)
    if (pre_[m].sign() > 0)
      for (const auto& [o, weight] : outer_columns_[m]) {
        if (!out_set_[o]) out_[o].set_zero(), out_set_[o] = true;
        out_[o].add_product(weight, pre_[m], scratch_);
      }
}

SparseMpfrLayer1::Output SparseMpfrLayer1::compute(const copy::TokenString& window) {
  const RuntimeMpfr::Precision precision(bits_);
  averages(window);
  hidden_layer();
  output_layer();
  Output result;
  for (std::size_t o = 0; o < width_; ++o)
    if (out_set_[o] && out_[o].sign() != 0) result.block.emplace_back(o, out_[o]);
  // T^value . Psi(x) = sum over value coordinates c < d (increasing) of block[c] Psi(x)[c], zero factors skipped.
  for (std::size_t x = 0; x < psi_rows_.size(); ++x) {
    F v(0);
    bool any = false;
    for (const auto& [c, psi] : psi_rows_[x])
      if (out_set_[c] && out_[c].sign() != 0) v.add_product(out_[c], psi, scratch_), any = true;
    if (any && v.sign() != 0) result.readout.emplace_back(x, v);
  }
  return result;
}

}  // namespace tverify::copy::fast
