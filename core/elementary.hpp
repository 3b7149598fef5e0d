// Elementary functions over a scalar type: exp, log and sqrt come from the type itself (MPFI's outward-rounded
// enclosures for Interval, MPFR for Mpfr, <cmath> for double); sigmoid, softmax and log-sum-exp are written once here.
//
// Contract for Interval: each result encloses the exact value of the function on every point of its argument
// intervals (each formula below is an identity of real numbers evaluated in interval arithmetic). Exact has no exp:
// softmax over Exact is defined only where it is rational, that is when all scores are equal (the averaging heads of
// Lemma C.1); anything else throws std::domain_error.
#pragma once

#include "core/scalar.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace tverify {

using std::exp;
using std::log;
using std::sqrt;

// 1 / (1 + e^{-x}); x occurs once, so for intervals the enclosure is tight up to rounding.
template <class T>
T sigmoid(const T& x) {
  return T(1) / (T(1) + exp(-x));
}

// softmax(z)_i = 1 / sum_j exp(z_j - z_i): no overflow, and each entry is enclosed directly.
template <class T>
std::vector<T> softmax(const std::vector<T>& z) {
  if (z.empty()) throw std::invalid_argument("softmax of an empty vector");
  if constexpr (is_exact_v<T>) {
    for (const auto& zi : z)
      if (zi != z.front()) throw std::domain_error("softmax over Exact needs equal scores (else it is irrational)");
    return std::vector<T>(z.size(), T(Exact(1, static_cast<long>(z.size()))));
  } else {
    std::vector<T> out;
    out.reserve(z.size());
    for (const auto& zi : z) {
      T denominator(0);
      for (const auto& zj : z) denominator += exp(T(zj - zi));
      out.push_back(T(1) / denominator);
    }
    return out;
  }
}

}  // namespace tverify
