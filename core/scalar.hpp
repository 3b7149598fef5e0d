// One evaluator per construction is written once over a scalar type T (docs/conventions.md). This header is the whole
// interface such an evaluator may use beyond + - * /: conversions from exact values, ReLU, three-valued signs and
// comparisons, and whether T's answers are rigorous.
//
//   T            rigorous  sign() answers
//   Exact        yes       exactly
//   ExpLogNumber yes       exactly when 0 (core/exp_log.hpp), otherwise by enclosures (Unknown past 16,384 bits)
//   QuadraticSurd yes      exactly (a + b sqrt r)
//   Interval<B>  yes       Unknown when the enclosure contains 0 (and is not [0, 0])
//   DoubleInterval yes     the same, in doubles (the rung below Interval<64>)
//   Mpfr<B>      no        the sign of the rounded value
//   double       no        the sign of the rounded value
#pragma once

#include "core/double_interval.hpp"
#include "core/exact.hpp"
#include "core/exp_log.hpp"
#include "core/interval.hpp"
#include "core/mpfr.hpp"
#include "core/quadratic.hpp"
#include "core/tri.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

namespace tverify {

template <class T>
struct ScalarTraits;

template <>
struct ScalarTraits<Exact> {
  static constexpr bool rigorous = true;
  static std::string name() { return "exact"; }
};
template <>
struct ScalarTraits<ExpLogNumber> {
  static constexpr bool rigorous = true;
  static std::string name() { return "exact-exp-log"; }
};
template <>
struct ScalarTraits<QuadraticSurd> {
  static constexpr bool rigorous = true;
  static std::string name() { return "exact-quadratic"; }
};
template <unsigned B>
struct ScalarTraits<Interval<B>> {
  static constexpr bool rigorous = true;
  static std::string name() { return "interval" + std::to_string(B); }
};
template <>
struct ScalarTraits<DoubleInterval> {
  static constexpr bool rigorous = true;
  static std::string name() { return "interval53"; }
};
// Mpfr<Bits> is an alias whose Bits cannot be deduced, so the traits match the MPFR backend it names.
template <unsigned Digits10>
struct ScalarTraits<
    boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<Digits10>, boost::multiprecision::et_off>> {
  static constexpr bool rigorous = false;
  static std::string name() { return "mpfr" + std::to_string(boost::multiprecision::detail::digits10_2_2(Digits10)); }
};
template <>
struct ScalarTraits<double> {
  static constexpr bool rigorous = false;
  static std::string name() { return "double"; }
};

template <class T>
constexpr bool is_rigorous_v = ScalarTraits<T>::rigorous;

template <class T>
constexpr bool is_interval_v = requires {
  T::requested_bits;
};

// Exact scalar types: every operation is exact (no rounding anywhere).
template <class T>
constexpr bool is_exact_v = std::is_same_v<T, Exact> || std::is_same_v<T, QuadraticSurd>;

// An exact value in T: exactly for Exact, enclosed for Interval, rounded to nearest for Mpfr and double.
template <class T>
T from_exact(const Exact& q) {
  if constexpr (is_exact_v<T> || std::is_same_v<T, ExpLogNumber>) {
    return T(q);
  } else if constexpr (std::is_same_v<T, double>) {
    return q.convert_to<double>();
  } else if constexpr (is_interval_v<T>) {
    return T(q);  // Interval: mpfi_set_q, outward
  } else {
    T out;
    mpfr_set_q(out.backend().data(), q.backend().data(), MPFR_RNDN);
    return out;
  }
}

template <class T>
Sign sign_of(const T& x) {
  if constexpr (is_interval_v<T> || std::is_same_v<T, QuadraticSurd> || std::is_same_v<T, ExpLogNumber>) {
    return x.sign();
  } else {
    if (x > 0) return Sign::Positive;
    if (x < 0) return Sign::Negative;
    return Sign::Zero;
  }
}

template <class T>
bool is_zero(const T& x) {
  if constexpr (std::is_same_v<T, Exact>) {
    return x.sign() == 0;
  } else if constexpr (std::is_same_v<T, QuadraticSurd> || std::is_same_v<T, ExpLogNumber>) {
    return x.is_zero();
  } else if constexpr (std::is_same_v<T, double>) {
    return x == 0;
  } else {
    return sign_of(x) == Sign::Zero;
  }
}

// ReLU of a number whose sign T decides (every non-interval type but ExpLogNumber always does); std::domain_error when
// it is undecided, never a guess.
template <class T>
requires(!is_interval_v<T>) T relu(const T& x) {
  const Sign s = sign_of(x);
  if (s == Sign::Unknown) throw std::domain_error("ReLU of a number whose sign is undecided");
  return s == Sign::Positive ? x : T(0);
}

// a > b, three-valued: True / False when decided in T, Unknown otherwise.
template <class T>
Tri is_greater(const T& a, const T& b) {
  switch (sign_of(T(a - b))) {
    case Sign::Positive: return Tri::True;
    case Sign::Negative:
    case Sign::Zero: return Tri::False;
    default: return Tri::Unknown;
  }
}

}  // namespace tverify
