// The extended reals over a scalar type T (Exact or Interval<B>): a finite value of T, or -infinity or +infinity.
// ONNX models mask attention with -inf (`masked_fill(mask, float("-inf"))`, an additive 0 / -inf mask), and the
// softmax weight of a -inf score is exactly 0; so the evaluator carries infinities exactly instead of as huge numbers.
// An indeterminate form (inf - inf, 0 * inf, inf / inf, x / 0) has no value: it throws NotANumber, and the model's
// evaluation fails with the node named. A sign or comparison an interval cannot decide throws Undecided, so that the
// caller retries at a higher precision (core/precision_ladder.hpp).
#pragma once

#include "core/scalar.hpp"

#include <stdexcept>
#include <string>

namespace tverify::model {

// An interval comparison or sign that the current precision cannot decide.
struct Undecided {};

// An operation with no value in the extended reals (inf - inf, 0 * inf, x / 0).
struct NotANumber : std::domain_error {
  using std::domain_error::domain_error;
};

template <class T>
struct Extended {
  T value{};    // the value when finite
  int inf = 0;  // -1: -infinity, +1: +infinity, 0: finite

  static Extended infinity(int sign) { return {T(0), sign}; }
  bool finite() const { return inf == 0; }
};

// The sign of x, decided or Undecided.
template <class T>
int decided_sign(const Extended<T>& x) {
  if (!x.finite()) return x.inf;
  switch (sign_of(x.value)) {
    case Sign::Positive: return 1;
    case Sign::Negative: return -1;
    case Sign::Zero: return 0;
    default: throw Undecided{};
  }
}

template <class T>
Extended<T> operator+(const Extended<T>& a, const Extended<T>& b) {
  if (a.finite() && b.finite()) return {a.value + b.value, 0};
  if (!a.finite() && !b.finite() && a.inf != b.inf) throw NotANumber("inf - inf");
  return Extended<T>::infinity(a.finite() ? b.inf : a.inf);
}

template <class T>
Extended<T> operator-(const Extended<T>& a) {
  return a.finite() ? Extended<T>{-a.value, 0} : Extended<T>::infinity(-a.inf);
}

template <class T>
Extended<T> operator-(const Extended<T>& a, const Extended<T>& b) {
  return a + (-b);
}

template <class T>
Extended<T> operator*(const Extended<T>& a, const Extended<T>& b) {
  if (a.finite() && b.finite()) return {a.value * b.value, 0};
  const int sa = decided_sign(a), sb = decided_sign(b);
  if (sa == 0 || sb == 0) throw NotANumber("0 * inf");
  return Extended<T>::infinity(sa * sb);
}

template <class T>
Extended<T> operator/(const Extended<T>& a, const Extended<T>& b) {
  if (!b.finite()) {
    if (!a.finite()) throw NotANumber("inf / inf");
    return {T(0), 0};
  }
  const int sb = decided_sign(b);
  if (sb == 0) throw NotANumber("division by zero");
  if (!a.finite()) return Extended<T>::infinity(a.inf * sb);
  return {a.value / b.value, 0};
}

// a > b, decided or Undecided.
template <class T>
bool greater(const Extended<T>& a, const Extended<T>& b) {
  if (a.finite() && b.finite()) {
    const Tri t = is_greater(a.value, b.value);
    if (t == Tri::Unknown) throw Undecided{};
    return t == Tri::True;
  }
  return (a.finite() ? 0 : a.inf) > (b.finite() ? 0 : b.inf);
}

// a == b, decided or Undecided.
template <class T>
bool equal(const Extended<T>& a, const Extended<T>& b) {
  if (a.finite() && b.finite()) return decided_sign(Extended<T>{a.value - b.value, 0}) == 0;
  return a.inf == b.inf;
}

// max and min: for intervals without a decision, y + ReLU(x - y) enclosing the exact image; for exact types by the
// sign of x - y, Undecided when it is not decided (exp-log arithmetic may leave a sign undecided).
template <class T>
Extended<T> maximum(const Extended<T>& x, const Extended<T>& y) {
  if (!x.finite() || !y.finite()) {
    const int sx = x.finite() ? 0 : x.inf, sy = y.finite() ? 0 : y.inf;
    if (sx == 1 || sy == 1) return Extended<T>::infinity(1);
    return sx == -1 ? y : x;
  }
  if constexpr (is_interval_v<T>) {
    return {y.value + relu(T(x.value - y.value)), 0};
  } else {
    return decided_sign(Extended<T>{x.value - y.value, 0}) > 0 ? x : y;
  }
}

template <class T>
Extended<T> minimum(const Extended<T>& x, const Extended<T>& y) {
  return -maximum(-x, -y);
}

}  // namespace tverify::model
