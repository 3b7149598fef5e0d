// Layer 1 of the copy transformer in MPFR at the precision of the FinitePrecisionCopy it is made from, as
// copy::FinitePrecisionCopy computes it (its layer 1 and T^value . Psi(x)), without their zero terms: each sum skips
// the products with a zero factor (adding +-0 changes no value), so a one-hot window costs a few dozen MPFR operations
// instead of tens of thousands. The remaining operations run in the same order with the same two roundings per product
// and sum. For MpfrBitsCopy; tests/test_fast_mpfr_bits.cpp compares the whole generation against FinitePrecisionCopy.
// One object per thread.
#pragma once

#include "constructions/copy/finite_precision.hpp"

#include <utility>
#include <vector>

namespace tverify::copy::fast {

class SparseMpfrLayer1 {
 public:
  using F = RuntimeMpfr;
  // The rounded weights of `finite`, and its precision for every operation.
  explicit SparseMpfrLayer1(const copy::FinitePrecisionCopy& finite);

  struct Output {
    std::vector<std::pair<std::size_t, F>> block;    // the non-zero entries of [T^value | T^key | T^query]
    std::vector<std::pair<std::size_t, F>> readout;  // the non-zero T^value . Psi(x), by token x
  };
  // Layer 1 at the last position of `window` (its last min(p, n) + 1 tokens).
  Output compute(const copy::TokenString& window);

 private:
  using SparseLists = std::vector<std::vector<std::pair<std::size_t, F>>>;
  void averages(const copy::TokenString& window);  // u = [h_1 | .. | h_{n+1}]
  void hidden_layer();                             // relu(b + W u)
  void output_layer();                             // U h

  std::size_t dim_, width_;
  int n_;
  long bits_;
  std::vector<std::size_t> head_windows_;
  SparseLists psi_rows_;       // per token: (coordinate, Psi entry) non-zero
  SparseLists inner_columns_;  // per input coordinate c: (hidden unit, weight) non-zero, by unit
  SparseLists outer_columns_;  // per hidden unit m: (output, weight) non-zero, by output
  std::vector<F> bias_;
  std::vector<F> u_, pre_, out_;
  std::vector<bool> u_set_, out_set_;
  F scratch_;  // the product of add_product, at bits_
};

}  // namespace tverify::copy::fast
