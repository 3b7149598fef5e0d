// Certified interval arithmetic: MPFI through Boost.Multiprecision (docs/conventions.md).
//
// Contract: every operation returns an interval that contains the exact result of the operation applied to any reals
// in its operands (MPFI rounds outward). Exact values enter by mpfi_set_q on the rational, never through a double or a
// decimal string. Interval<Bits> carries at least Bits bits of mantissa per endpoint (Boost counts precision in decimal
// digits; digits10_for_bits picks the smallest count that gives Bits bits or more).
//
// The class deliberately has no operator<, operator== etc.: Boost's mpfi comparisons answer two-valued for
// overlapping intervals. Decisions go through sign(), which answers Unknown when zero is not excluded.
#pragma once

#include "core/exact.hpp"
#include "core/tri.hpp"

#include <boost/multiprecision/mpfi.hpp>
#include <boost/multiprecision/mpfr.hpp>

#include <stdexcept>
#include <string>

namespace tverify {

// The smallest decimal digit count whose Boost precision (detail::digits10_2_2) is at least `bits`.
constexpr unsigned digits10_for_bits(unsigned bits) {
  unsigned d = 1;
  while ((d * 1000u) / 301u + ((d * 1000u) % 301u ? 2u : 1u) < bits) ++d;
  return d;
}

std::string mpfi_to_string(mpfi_srcptr x);

// A decimal of at most `digits` significant digits that is at most x: x rounded down, for a lower bound that reads
// well ("0.4999", "1.25e-07").
std::string decimal_at_most(const Exact& x, int digits);
Exact mpfr_to_exact(mpfr_srcptr x);

template <unsigned Bits>
class Interval {
  static_assert(Bits >= 2, "an interval needs at least 2 bits of precision");

 public:
  using Number = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<digits10_for_bits(Bits)>,
                                               boost::multiprecision::et_off>;
  static constexpr unsigned requested_bits = Bits;

  Interval() : value_(0) {}
  Interval(long i) : value_(i) {}  // NOLINT: integers convert implicitly (MPFI encloses them exactly or outward)
  Interval(int i) : value_(static_cast<long>(i)) {}  // NOLINT
  explicit Interval(const Exact& q) { mpfi_set_q(value_.backend().data(), q.backend().data()); }
  explicit Interval(const Number& n) : value_(n) {}

  // The smallest representable interval containing [lo, hi]; requires lo <= hi.
  static Interval hull(const Exact& lo, const Exact& hi) {
    if (lo > hi) throw std::invalid_argument("interval hull: lower end above upper end");
    Interval a(lo), b(hi);
    return Interval(boost::multiprecision::hull(a.value_, b.value_));
  }

  Interval& operator+=(const Interval& o) {
    value_ += o.value_;
    return *this;
  }
  // *this += a * b without allocating a temporary (hot loops: the autodiff tape, the model evaluator's MatMul). A
  // factor that is exactly 0 adds nothing (a * b is a real times 0) and is skipped: weight matrices are sparse.
  Interval& add_product(const Interval& a, const Interval& b) {
    if (mpfi_is_zero(a.value_.backend().data()) || mpfi_is_zero(b.value_.backend().data())) return *this;
    thread_local Interval product;
    mpfi_mul(product.value_.backend().data(), a.value_.backend().data(), b.value_.backend().data());
    mpfi_add(value_.backend().data(), value_.backend().data(), product.value_.backend().data());
    return *this;
  }
  Interval& operator-=(const Interval& o) {
    value_ -= o.value_;
    return *this;
  }
  Interval& operator*=(const Interval& o) {
    value_ *= o.value_;
    return *this;
  }
  Interval& operator/=(const Interval& o) {
    if (o.sign() == Sign::Unknown || o.sign() == Sign::Zero)
      throw std::domain_error("interval division by an interval that contains 0");
    value_ /= o.value_;
    return *this;
  }
  friend Interval operator+(Interval a, const Interval& b) { return a += b; }
  friend Interval operator-(Interval a, const Interval& b) { return a -= b; }
  friend Interval operator*(Interval a, const Interval& b) { return a *= b; }
  friend Interval operator/(Interval a, const Interval& b) { return a /= b; }
  friend Interval operator-(const Interval& a) { return Interval(Number(-a.value_)); }

  // Positive / Negative when zero is excluded, Zero for the point interval [0, 0], Unknown otherwise.
  Sign sign() const {
    mpfi_srcptr p = value_.backend().data();
    if (mpfi_is_strictly_pos(p)) return Sign::Positive;
    if (mpfi_is_strictly_neg(p)) return Sign::Negative;
    if (mpfi_is_zero(p)) return Sign::Zero;
    return Sign::Unknown;
  }

  Exact lower() const { return mpfr_to_exact(&value_.backend().data()->left); }
  Exact upper() const { return mpfr_to_exact(&value_.backend().data()->right); }
  // The upper end as a double, rounded up (+inf past the double range): cheap, for choosing among intervals, never
  // for deciding.
  double upper_double() const { return mpfr_get_d(&value_.backend().data()->right, MPFR_RNDU); }
  bool contains(const Exact& q) const { return lower() <= q && q <= upper(); }
  double midpoint_double() const { return boost::multiprecision::median(value_).template convert_to<double>(); }
  Exact width() const { return upper() - lower(); }
  // "[lo, hi]" with lo rounded down and hi rounded up, enough digits to round-trip each endpoint.
  std::string to_string() const { return mpfi_to_string(value_.backend().data()); }
  const Number& number() const { return value_; }

  friend Interval exp(const Interval& x) { return Interval(Number(boost::multiprecision::exp(x.value_))); }
  friend Interval log(const Interval& x) {
    if (x.sign() != Sign::Positive) throw std::domain_error("interval log of an interval not certainly > 0");
    return Interval(Number(boost::multiprecision::log(x.value_)));
  }
  friend Interval sqrt(const Interval& x) {
    if (mpfr_sgn(&x.value_.backend().data()->left) < 0)
      throw std::domain_error("interval sqrt of an interval that reaches below 0");
    return Interval(Number(boost::multiprecision::sqrt(x.value_)));
  }
  friend Interval tanh(const Interval& x) {
    Interval r;
    mpfi_tanh(r.value_.backend().data(), x.value_.backend().data());
    return r;
  }
  // erf is increasing: its enclosure is erf of the lower end rounded down and of the upper end rounded up.
  friend Interval erf(const Interval& x) {
    Interval r;
    mpfi_srcptr p = x.value_.backend().data();
    mpfi_ptr out = r.value_.backend().data();
    mpfr_erf(&out->left, &p->left, MPFR_RNDD);
    mpfr_erf(&out->right, &p->right, MPFR_RNDU);
    return r;
  }
  // The intersection of two enclosures of the same number; throws std::logic_error when they are disjoint (then one
  // of them was not an enclosure).
  friend Interval intersect(const Interval& x, const Interval& y) {
    Interval r;
    mpfi_intersect(r.value_.backend().data(), x.value_.backend().data(), y.value_.backend().data());
    if (mpfi_is_empty(r.value_.backend().data())) throw std::logic_error("intersection of disjoint intervals");
    return r;
  }
  // [max(lo, 0), max(hi, 0)]: the exact image of ReLU on the interval.
  friend Interval relu(const Interval& x) {
    if (x.sign() == Sign::Positive) return x;
    Interval r;
    mpfi_srcptr p = x.value_.backend().data();
    mpfi_ptr out = r.value_.backend().data();
    mpfi_set(out, p);
    if (mpfr_sgn(&out->left) < 0) mpfr_set_zero(&out->left, 1);
    if (mpfr_sgn(&out->right) < 0) mpfr_set_zero(&out->right, 1);
    return r;
  }

 private:
  Number value_;
};

}  // namespace tverify
