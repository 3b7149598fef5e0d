// A ReLU MLP applied token-wise, in the paper's form f(x) = U_1 sigma(U_2 x + b_2) + b_1 (Repeat After Me, Sec. 2.1;
// the biases default to zero). sigma = ReLU, exact over Exact and the exact image over Interval.
#pragma once

#include "core/linalg.hpp"
#include "core/scalar.hpp"

namespace tverify {

template <class T>
struct ReluMlp {
  Matrix<T> inner;         // U_2: hidden x input
  Matrix<T> outer;         // U_1: output x hidden
  Vector<T> inner_bias{};  // b_2 (empty = 0)
  Vector<T> outer_bias{};  // b_1 (empty = 0)

  Vector<T> hidden(const Vector<T>& x) const {
    Vector<T> h = inner * x;
    if (!inner_bias.empty()) h = h + inner_bias;
    for (auto& v : h) v = relu(v);
    return h;
  }

  Vector<T> operator()(const Vector<T>& x) const {
    Vector<T> y = outer * hidden(x);
    if (!outer_bias.empty()) y = y + outer_bias;
    return y;
  }
};

}  // namespace tverify
