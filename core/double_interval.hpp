// Certified interval arithmetic in doubles: the rung below MPFI's for evaluators whose inputs mostly decide at double
// precision (the ONNX model checker). Same contract as Interval<B> (core/interval.hpp): every operation returns an
// interval containing the exact result for any reals in its operands.
//
// How the rounding is made rigorous without changing the FPU's rounding mode (nothing in tverify changes it; the
// default is round to nearest):
// - + - * / of points (exact values) are computed rounded to nearest, and their exact rounding error is recovered by
//   error-free transformations (TwoSum for a sum; fma(a, b, -p) for a product; the remainder fma(-q, b, a) for a
//   quotient). An endpoint moves one double outward only when that error points outward, so exact operations stay
//   exact and a tie of two point values is decided equal, as MPFI decides it. Where the transformations are not exact
//   (a product or quotient near the subnormal range), the endpoint moves outward unconditionally, which covers a
//   rounding error of at most half a unit in the last place.
// - + and * of intervals that are not points move each endpoint one double outward unconditionally (no
//   transformation): one ulp more on an inexact value, for a fraction of the cost.
// - exp, log, sqrt, erf, tanh are increasing: an endpoint's image is enclosed by one MPFR call rounded to nearest
//   (at 53 bits; erf at 24), whose ternary value says on which side of the exact image the result lies (an MPFR number
//   of at most 53 bits is a double, so reading it back is exact); the other bound is its neighbour. Each thread keeps
//   the images of recent arguments (attention scores repeat across positions and inputs). erf and tanh have slopes at
//   most 2/sqrt(pi) and 1 and stay below 1, so a narrow interval's upper image is bounded from its lower end's without
//   a second call.
// - Exact rationals enter through MPFR's mpfr_set_q, rounded down and up.
// - A result whose endpoint is not a finite double (overflow, or an indeterminate inf - inf) throws
//   DoubleRangeExceeded: the interval never holds an infinity, and the caller climbs to MPFI, whose exponent range
//   is far wider.
#pragma once

#include "core/exact.hpp"
#include "core/tri.hpp"

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tverify {

// An endpoint of a double interval left the finite doubles: retry at a wider precision.
struct DoubleRangeExceeded : std::range_error {
  DoubleRangeExceeded() : std::range_error("a double interval's endpoint left the finite doubles") {}
};

// The error-free transformations below need IEEE double arithmetic without excess precision (and the build turns
// floating-point contraction off: -ffp-contract=off in CMakeLists.txt).
static_assert(FLT_EVAL_METHOD == 0, "double intervals need double arithmetic evaluated in double");

namespace double_rounding {

// Below this magnitude a product's or quotient's error term may itself be rounded (the fma result can underflow).
constexpr double error_free_floor = 0x1p-960;

// The next double above / below a finite x (std::nextafter without its library call: doubles of one sign are ordered
// as their bit patterns).
inline double up(double x) {
  if (x == 0) return std::numeric_limits<double>::denorm_min();
  const auto bits = std::bit_cast<std::int64_t>(x);
  return std::bit_cast<double>(x > 0 ? bits + 1 : bits - 1);
}
inline double down(double x) { return -up(-x); }

[[noreturn]] inline void range_exceeded() { throw DoubleRangeExceeded{}; }

inline double checked(double x) {
  if (!std::isfinite(x)) [[unlikely]]
    range_exceeded();
  return x;
}

// The rounded result r of an operation and the sign of (exact - r), NaN when unknown: the bounds below and above the
// exact result.
inline double lower_of(double r, double error) { return checked(std::isnan(error) || error < 0 ? down(r) : r); }
inline double upper_of(double r, double error) { return checked(std::isnan(error) || error > 0 ? up(r) : r); }

// a + b rounded down / up (TwoSum: s + e == a + b exactly when s and s - a are finite; when s - a overflows, e is
// NaN, which lower_of and upper_of treat as unknown).
inline double sum_error(double a, double b, double s) {
  const double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}
inline double add_down(double a, double b) {
  const double s = checked(a + b);
  return lower_of(s, sum_error(a, b, s));
}
inline double add_up(double a, double b) {
  const double s = checked(a + b);
  return upper_of(s, sum_error(a, b, s));
}

// a * b rounded down / up (fma(a, b, -p) == a * b - p exactly unless p is near the subnormal range).
inline double product_error(double a, double b, double p) {
  if (std::fabs(p) < error_free_floor && a != 0 && b != 0) return std::numeric_limits<double>::quiet_NaN();
  return std::fma(a, b, -p);
}
inline double mul_down(double a, double b) {
  const double p = checked(a * b);
  return lower_of(p, product_error(a, b, p));
}
inline double mul_up(double a, double b) {
  const double p = checked(a * b);
  return upper_of(p, product_error(a, b, p));
}

// a + b and a * b rounded down / up without their exact errors: the result rounded to nearest is within half an ulp
// of the exact one (2^-1075 below the normal range), and the adjacent double is at least that far. For operands
// already inexact (intervals, not points), where one ulp more costs nothing and the error-free transformation would.
inline double add_outward_down(double a, double b) { return checked(down(a + b)); }
inline double add_outward_up(double a, double b) { return checked(up(a + b)); }
inline double mul_outward_down(double a, double b) { return checked(down(a * b)); }
inline double mul_outward_up(double a, double b) { return checked(up(a * b)); }

// a / b rounded down / up, b != 0 (a - q b == fma(-q, b, a) exactly unless q or a is near the subnormal range;
// a / b - q has the sign of (a - q b) / b).
inline double quotient_error(double a, double b, double q) {
  if ((std::fabs(q) < error_free_floor || std::fabs(a) < error_free_floor) && a != 0)
    return std::numeric_limits<double>::quiet_NaN();
  const double r = std::fma(-q, b, a);
  return b > 0 ? r : -r;
}
inline double div_down(double a, double b) {
  const double q = checked(a / b);
  return lower_of(q, quotient_error(a, b, q));
}
inline double div_up(double a, double b) {
  const double q = checked(a / b);
  return upper_of(q, quotient_error(a, b, q));
}

// A thread's MPFR variables for one call: a double argument (53 bits) and a result of `Bits` bits.
template <mpfr_prec_t Bits>
struct MpfrScratch {
  mpfr_t in, out;
  MpfrScratch() { mpfr_init2(in, 53), mpfr_init2(out, Bits); }
  ~MpfrScratch() { mpfr_clear(in), mpfr_clear(out); }
  MpfrScratch(const MpfrScratch&) = delete;
  MpfrScratch& operator=(const MpfrScratch&) = delete;

  static MpfrScratch& of_thread() {
    thread_local MpfrScratch s;
    return s;
  }
};

// f(x) rounded toward `rounding` by MPFR at 53 bits (f one of mpfr_exp, mpfr_log, ...).
template <class F>
double mpfr_rounded(F f, double x, mpfr_rnd_t rounding) {
  MpfrScratch<53>& s = MpfrScratch<53>::of_thread();
  mpfr_set_d(s.in, x, MPFR_RNDN);  // exact: x is a double
  f(s.out, s.in, rounding);
  return checked(mpfr_get_d(s.out, rounding));  // exact for a normal result; rounded the same way again otherwise
}

// f(x) between two doubles.
struct Enclosure {
  double lo, hi;
};

using MpfrFunction = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// f(x) at `Bits` <= 53 bits by one MPFR call rounded to nearest: an inexact result r lies within half an ulp of f(x),
// on the side the ternary value gives, so f(x) lies between r and its `Bits`-bit neighbour on the other side (both
// doubles). A result below the normal range (where reading it back as a double rounds again) is
// rounded down and up by two calls instead.
template <MpfrFunction F, mpfr_prec_t Bits>
Enclosure mpfr_enclosure(double x) {
  static_assert(Bits >= MPFR_PREC_MIN && Bits <= 53);
  MpfrScratch<Bits>& s = MpfrScratch<Bits>::of_thread();  // done with before the fallback's calls use theirs
  mpfr_set_d(s.in, x, MPFR_RNDN);                         // exact: x is a double
  const int ternary = F(s.out, s.in, MPFR_RNDN);
  const double r = checked(mpfr_get_d(s.out, MPFR_RNDN));
  if (std::fabs(r) < DBL_MIN && !(mpfr_zero_p(s.out) && ternary == 0))
    return {mpfr_rounded(F, x, MPFR_RNDD), mpfr_rounded(F, x, MPFR_RNDU)};
  if (ternary == 0) return {r, r};
  if (ternary > 0)
    mpfr_nextbelow(s.out);
  else
    mpfr_nextabove(s.out);
  // Exact, except for the neighbour below the smallest normal double, which is read back rounded outward.
  const double neighbour = checked(mpfr_get_d(s.out, ternary > 0 ? MPFR_RNDD : MPFR_RNDU));
  return ternary > 0 ? Enclosure{neighbour, r} : Enclosure{r, neighbour};
}

// mpfr_enclosure<F, Bits>(x) through a per-thread direct-mapped cache of recent arguments.
template <MpfrFunction F, mpfr_prec_t Bits>
Enclosure cached_enclosure(double x) {
  struct Entry {
    std::uint64_t key = 0;
    Enclosure value{0, 0};
    bool filled = false;
  };
  constexpr int index_bits = 10;
  thread_local std::array<Entry, std::size_t{1} << index_bits> cache{};
  const auto key = std::bit_cast<std::uint64_t>(x);
  Entry& e = cache[(key * 0x9E3779B97F4A7C15ULL) >> (64 - index_bits)];
  if (!e.filled || e.key != key) {
    e.value = mpfr_enclosure<F, Bits>(x);  // may throw DoubleRangeExceeded: the entry is then left as it was
    e.key = key;
    e.filled = true;
  }
  return e.value;
}

inline double from_rational(const Exact& q, mpfr_rnd_t rounding) {
  return mpfr_rounded([&q](mpfr_ptr out, mpfr_srcptr, mpfr_rnd_t r) { return mpfr_set_q(out, q.backend().data(), r); },
                      0.0, rounding);
}

}  // namespace double_rounding

class DoubleInterval {
 public:
  static constexpr unsigned requested_bits = 53;

  DoubleInterval() = default;
  DoubleInterval(long i)  // NOLINT: integers convert implicitly, as for Interval
      : DoubleInterval(i >= -(1L << 53) && i <= (1L << 53) ? point(static_cast<double>(i)) : DoubleInterval(Exact(i))) {
  }
  DoubleInterval(int i) : lo_(i), hi_(i) {}  // NOLINT: exact, |i| < 2^53
  explicit DoubleInterval(const Exact& q)
      : lo_(double_rounding::from_rational(q, MPFR_RNDD)), hi_(double_rounding::from_rational(q, MPFR_RNDU)) {}

  // The smallest double interval containing [lo, hi]; requires lo <= hi.
  static DoubleInterval hull(const Exact& lo, const Exact& hi) {
    if (lo > hi) throw std::invalid_argument("interval hull: lower end above upper end");
    return {double_rounding::from_rational(lo, MPFR_RNDD), double_rounding::from_rational(hi, MPFR_RNDU)};
  }

  DoubleInterval& operator+=(const DoubleInterval& o) {
    using namespace double_rounding;
    if (is_point() && o.is_point()) {
      const double s = checked(lo_ + o.lo_);
      return *this = around(s, sum_error(lo_, o.lo_, s));
    }
    if (o.is_point_zero()) return *this;
    if (is_point_zero()) return *this = o;
    return *this = {add_outward_down(lo_, o.lo_), add_outward_up(hi_, o.hi_)};
  }
  DoubleInterval& operator-=(const DoubleInterval& o) { return *this += -o; }
  DoubleInterval& operator*=(const DoubleInterval& o) {
    using namespace double_rounding;
    if (o.is_point()) return scale(o.lo_);
    if (is_point()) return *this = DoubleInterval(o).scale(lo_);
    return *this = corners(o, mul_outward_down, mul_outward_up);
  }
  DoubleInterval& operator/=(const DoubleInterval& o) {
    if (o.sign() == Sign::Unknown || o.sign() == Sign::Zero)
      throw std::domain_error("interval division by an interval that contains 0");
    return *this = corners(o, double_rounding::div_down, double_rounding::div_up);
  }
  // *this += a * b; a factor that is exactly 0 adds nothing.
  DoubleInterval& add_product(const DoubleInterval& a, const DoubleInterval& b) {
    if (a.is_point_zero() || b.is_point_zero()) return *this;
    DoubleInterval p = a;
    p *= b;
    return *this += p;
  }
  friend DoubleInterval operator+(DoubleInterval a, const DoubleInterval& b) { return a += b; }
  friend DoubleInterval operator-(DoubleInterval a, const DoubleInterval& b) { return a -= b; }
  friend DoubleInterval operator*(DoubleInterval a, const DoubleInterval& b) { return a *= b; }
  friend DoubleInterval operator/(DoubleInterval a, const DoubleInterval& b) { return a /= b; }
  friend DoubleInterval operator-(const DoubleInterval& a) { return {-a.hi_, -a.lo_}; }

  // Positive / Negative when zero is excluded, Zero for the point interval [0, 0], Unknown otherwise.
  Sign sign() const {
    if (lo_ > 0) return Sign::Positive;
    if (hi_ < 0) return Sign::Negative;
    if (is_point_zero()) return Sign::Zero;
    return Sign::Unknown;
  }

  Exact lower() const { return Exact(lo_); }  // exact: a double is a dyadic rational
  Exact upper() const { return Exact(hi_); }
  // The upper end as a double, rounded up: cheap, for choosing among intervals, never for deciding.
  double upper_double() const { return hi_; }
  bool contains(const Exact& q) const { return lower() <= q && q <= upper(); }
  Exact width() const { return upper() - lower(); }
  // "[lo, hi]" with 17 significant digits, enough to round-trip each endpoint.
  std::string to_string() const {
    std::ostringstream out;
    out << std::setprecision(17) << '[' << lo_ << ", " << hi_ << ']';
    return out.str();
  }

  friend DoubleInterval exp(const DoubleInterval& x) { return x.increasing<mpfr_exp>(); }
  friend DoubleInterval log(const DoubleInterval& x) {
    if (x.sign() != Sign::Positive) throw std::domain_error("interval log of an interval not certainly > 0");
    return x.increasing<mpfr_log>();
  }
  friend DoubleInterval sqrt(const DoubleInterval& x) {
    if (x.lo_ < 0) throw std::domain_error("interval sqrt of an interval that reaches below 0");
    return x.increasing<mpfr_sqrt>();
  }
  friend DoubleInterval tanh(const DoubleInterval& x) { return x.increasing_below_one<mpfr_tanh>(1.0); }
  // erf' <= 2 / sqrt(pi). At 53 bits: MPFR 4.2.0's erf never returns for some arguments at 10 to 30 bits (the
  // double nearest sqrt(3) at 24 bits, tests/test_double_interval.cpp), although a 24-bit enclosure would cost about
  // 1/1.6 as much (bench/bench_double_interval).
  friend DoubleInterval erf(const DoubleInterval& x) {
    return x.increasing_below_one<mpfr_erf, 53>(double_rounding::up(2 * std::numbers::inv_sqrtpi));
  }
  // [max(lo, 0), max(hi, 0)]: the exact image of ReLU on the interval.
  friend DoubleInterval relu(const DoubleInterval& x) { return {std::max(x.lo_, 0.0), std::max(x.hi_, 0.0)}; }

 private:
  DoubleInterval(double lo, double hi) : lo_(lo), hi_(hi) {}
  bool is_point_zero() const { return lo_ == 0 && hi_ == 0; }
  bool is_point() const { return lo_ == hi_; }
  static DoubleInterval point(double x) { return {x, x}; }
  // The hull of op(end of *this, end of o) over the four pairs of ends, each rounded down and up: the image of an
  // operation monotone in each argument on each sign-constant piece (a product; a quotient by o not containing 0).
  template <class Down, class Up>
  DoubleInterval corners(const DoubleInterval& o, Down down, Up up) const {
    return {std::min({down(lo_, o.lo_), down(lo_, o.hi_), down(hi_, o.lo_), down(hi_, o.hi_)}),
            std::max({up(lo_, o.lo_), up(lo_, o.hi_), up(hi_, o.lo_), up(hi_, o.hi_)})};
  }
  // The enclosure of a rounded result r whose exact value is r + (something with the sign of `error`).
  static DoubleInterval around(double r, double error) {
    return {double_rounding::lower_of(r, error), double_rounding::upper_of(r, error)};
  }
  // *this times the double c: one or two products instead of four.
  DoubleInterval& scale(double c) {
    using namespace double_rounding;
    if (is_point()) {
      const double p = checked(lo_ * c);
      return *this = around(p, product_error(lo_, c, p));
    }
    if (c == 0) return *this = point(0);
    if (c > 0) return *this = {mul_outward_down(lo_, c), mul_outward_up(hi_, c)};
    return *this = {mul_outward_down(hi_, c), mul_outward_up(lo_, c)};
  }
  template <double_rounding::MpfrFunction F, mpfr_prec_t Bits = 53>
  DoubleInterval increasing() const {
    const double_rounding::Enclosure low = double_rounding::cached_enclosure<F, Bits>(lo_);
    if (is_point()) return {low.lo, low.hi};
    return {low.lo, double_rounding::cached_enclosure<F, Bits>(hi_).hi};
  }
  // An increasing f below 1 whose slope is at most `slope`: on a narrow interval, f(hi) <= f(lo) + (hi - lo) slope
  // (the mean value theorem), capped at 1.
  template <double_rounding::MpfrFunction F, mpfr_prec_t Bits = 53>
  DoubleInterval increasing_below_one(double slope) const {
    using namespace double_rounding;
    constexpr double narrow = 0x1p-20;
    if (is_point() || add_up(hi_, -lo_) > narrow) return increasing<F, Bits>();
    const Enclosure low = cached_enclosure<F, Bits>(lo_);
    return {low.lo, std::min(add_up(low.hi, mul_up(add_up(hi_, -lo_), slope)), 1.0)};
  }

  double lo_ = 0, hi_ = 0;
};

}  // namespace tverify
