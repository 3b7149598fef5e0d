// Exact numbers a + b*sqrt(r) with a, b rational and r a positive integer: the field Q(sqrt r). The embedding of
// Lemma C.2 (Repeat After Me) has entries +-1/sqrt(d), so a construction on it stays exact in Q(sqrt d). Signs are
// decided exactly: for a + b sqrt(r) with a, b of opposite signs, compare a^2 with b^2 r.
//
// A value with b = 0 is rational and combines with any radicand; two irrational values must share their radicand
// (std::domain_error otherwise).
#pragma once

#include "core/exact.hpp"
#include "core/interval.hpp"
#include "core/tri.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

namespace tverify {

class QuadraticSurd {
 public:
  QuadraticSurd() = default;
  QuadraticSurd(long i) : a_(i) {}          // NOLINT: integers and rationals convert implicitly
  QuadraticSurd(int i) : a_(i) {}           // NOLINT
  QuadraticSurd(const Exact& a) : a_(a) {}  // NOLINT
  // A square radicand k^2 gives the rational a + b k: a surd's radicand is never a square.
  QuadraticSurd(const Exact& a, const Exact& b, unsigned long radicand) : a_(a), b_(b), r_(b == 0 ? 0 : radicand) {
    if (b != 0 && radicand == 0) throw std::domain_error("quadratic surd with radicand 0");
    if (const auto root = square_root(r_)) {
      a_ += b_ * Exact(BigInt(*root));
      b_ = 0;
      r_ = 0;
    }
  }

  const Exact& rational_part() const { return a_; }
  const Exact& surd_coefficient() const { return b_; }
  unsigned long radicand() const { return r_; }
  bool is_rational() const { return b_.sign() == 0; }
  Exact to_exact() const {
    if (!is_rational()) throw std::domain_error("quadratic surd is irrational");
    return a_;
  }

  bool is_zero() const { return a_.sign() == 0 && b_.sign() == 0; }

  Sign sign() const {
    const int sa = a_.sign(), sb = b_.sign();
    if (sb == 0) return sa > 0 ? Sign::Positive : sa < 0 ? Sign::Negative : Sign::Zero;
    if (sa == 0 || sa == sb) return sb > 0 ? Sign::Positive : Sign::Negative;
    // opposite signs: the larger of a^2 and b^2 r wins
    const Exact lhs = a_ * a_, rhs = b_ * b_ * Exact(BigInt(r_));
    if (lhs == rhs) return Sign::Zero;
    const bool a_wins = lhs > rhs;
    return (a_wins ? sa : sb) > 0 ? Sign::Positive : Sign::Negative;
  }

  QuadraticSurd& operator+=(const QuadraticSurd& o) {
    if (o.b_.sign() == 0) {  // fast path: adding a rational
      a_ += o.a_;
      return *this;
    }
    r_ = common_radicand(o);
    a_ += o.a_;
    b_ += o.b_;
    normalize();
    return *this;
  }
  QuadraticSurd& operator-=(const QuadraticSurd& o) {
    r_ = common_radicand(o);
    a_ -= o.a_;
    b_ -= o.b_;
    normalize();
    return *this;
  }
  QuadraticSurd& operator*=(const QuadraticSurd& o) {
    if (b_.sign() == 0 && o.b_.sign() == 0) {  // fast path: both rational
      a_ *= o.a_;
      return *this;
    }
    const unsigned long r = common_radicand(o);
    const Exact a = a_ * o.a_ + b_ * o.b_ * Exact(BigInt(r));
    const Exact b = a_ * o.b_ + b_ * o.a_;
    a_ = a;
    b_ = b;
    r_ = r;
    normalize();
    return *this;
  }
  // (a + b s) / (c + e s) = (a + b s)(c - e s) / (c^2 - e^2 r); the denominator is nonzero, r not being a square.
  QuadraticSurd& operator/=(const QuadraticSurd& o) {
    const unsigned long r = common_radicand(o);
    const Exact norm = o.a_ * o.a_ - o.b_ * o.b_ * Exact(BigInt(r));
    if (norm == 0) throw std::domain_error("quadratic surd division by zero");
    *this *= QuadraticSurd(o.a_ / norm, -o.b_ / norm, r);
    return *this;
  }
  friend QuadraticSurd operator+(QuadraticSurd x, const QuadraticSurd& y) { return x += y; }
  friend QuadraticSurd operator-(QuadraticSurd x, const QuadraticSurd& y) { return x -= y; }
  friend QuadraticSurd operator*(QuadraticSurd x, const QuadraticSurd& y) { return x *= y; }
  friend QuadraticSurd operator/(QuadraticSurd x, const QuadraticSurd& y) { return x /= y; }
  friend QuadraticSurd operator-(const QuadraticSurd& x) { return QuadraticSurd(-x.a_, -x.b_, x.r_); }

  // Comparisons are exact; two rationals compare without building their difference.
  friend bool operator==(const QuadraticSurd& x, const QuadraticSurd& y) {
    if (x.is_rational() && y.is_rational()) return x.a_ == y.a_;
    return (x - y).sign() == Sign::Zero;
  }
  friend bool operator<(const QuadraticSurd& x, const QuadraticSurd& y) {
    if (x.is_rational() && y.is_rational()) return x.a_ < y.a_;
    return (x - y).sign() == Sign::Negative;
  }
  friend bool operator>(const QuadraticSurd& x, const QuadraticSurd& y) { return y < x; }
  friend bool operator<=(const QuadraticSurd& x, const QuadraticSurd& y) { return !(y < x); }
  friend bool operator>=(const QuadraticSurd& x, const QuadraticSurd& y) { return !(x < y); }

  // An enclosure: a + b * [sqrt r], with sqrt r enclosed by MPFI.
  template <unsigned Bits>
  Interval<Bits> to_interval() const {
    Interval<Bits> out(a_);
    if (b_ != 0) out += Interval<Bits>(b_) * sqrt(Interval<Bits>(Exact(BigInt(r_))));
    return out;
  }

  std::string to_string() const {
    if (is_rational()) return exact_to_string(a_);
    return exact_to_string(a_) + " + " + exact_to_string(b_) + "*sqrt(" + std::to_string(r_) + ")";
  }

 private:
  unsigned long common_radicand(const QuadraticSurd& o) const {
    if (b_ == 0) return o.r_;
    if (o.b_ == 0 || o.r_ == r_) return r_;
    throw std::domain_error("quadratic surds with different radicands");
  }
  void normalize() {
    if (b_ == 0) r_ = 0;
  }
  // k when r = k^2 > 0, else nullopt (cheap: every surd built from parts asks). The double square root is within 1 of
  // floor(sqrt r) for every 64-bit r, and the candidates are checked exactly.
  static std::optional<unsigned long> square_root(unsigned long r) {
    if (r == 0) return std::nullopt;
    const auto guess = static_cast<unsigned long>(std::sqrt(static_cast<double>(r)));
    for (unsigned long k = guess == 0 ? 0 : guess - 1; k <= guess + 1; ++k)
      if (static_cast<unsigned __int128>(k) * k == r) return k;
    return std::nullopt;
  }

  Exact a_{0}, b_{0};
  unsigned long r_ = 0;
};

}  // namespace tverify
