// Sums rounded to b bits at every addition, exactly as MPFR rounds them (MPFR_RNDN), in double arithmetic: the hot
// loops of MpfrBitsCopy (mpfr_bits_copy.hpp states why double gives MPFR's result for b <= 25). Header-only: the
// functions are small and sit in the innermost loops.
#pragma once

#include "core/runtime_mpfr.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tverify::copy::fast {

// x rounded to nearest at `bits` significant bits as MPFR's MPFR_RNDN does: a tie goes to the even significand, and
// at one bit (both neighbours have significand 1) away from zero; x is a normal double or zero.
inline double round_to_bits(double x, int bits) {
  std::uint64_t u = std::bit_cast<std::uint64_t>(x);
  const int drop = 53 - bits;
  const std::uint64_t half = std::uint64_t{1} << (drop - 1), mask = (std::uint64_t{1} << drop) - 1,
                      lsb = bits == 1 ? 1u : (u >> drop) & 1u;
  u += half - 1 + lsb;  // a carry out of the significand moves into the exponent, as it should
  return std::bit_cast<double>(u & ~mask);
}

// A b-bit number with an exponent of any size: m 2^e, |m| a b-bit double in [1, 2), or m = 0. The softmax weights of
// one step span e^{-tau n} .. 1, beyond double's range (D = 16, n = 5: about 2^-2400).
struct WideNumber {
  double m = 0;
  long e = 0;
};

inline WideNumber wide(const RuntimeMpfr& v) {
  if (v.sign() == 0) return {};
  const long e = v.exponent() - 1;  // |v| in [2^e, 2^(e+1))
  return {ldexp(v, -e).to_double(), e};
}

inline WideNumber normalized(double s, long exponent) {  // s 2^exponent, s a normal double or 0
  if (s == 0) return {};
  int k = 0;
  const double f = std::frexp(s, &k);  // s = f 2^k, |f| in [1/2, 1)
  return {2 * f, exponent + k - 1};
}

inline RuntimeMpfr to_mpfr(const WideNumber& w) { return ldexp(RuntimeMpfr::from_double(w.m), w.e); }

// a > b, as real numbers.
inline bool greater(const WideNumber& a, const WideNumber& b) {
  const int sa = (a.m > 0) - (a.m < 0), sb = (b.m > 0) - (b.m < 0);
  if (sa != sb) return sa > sb;
  if (sa == 0 || a.e == b.e) return a.m > b.m;
  return sa > 0 ? a.e > b.e : a.e < b.e;
}

// A running sum, every addition rounded to nearest at b bits, as MPFR's `sum += term` would give it. A term under a
// quarter of the sum's unit in the last place leaves the sum (rounding returns it), a sum under a quarter of the term's
// unit gives the term; otherwise the two are within 2^(b+1) of each other and are added in double at a common scale,
// where every value is normal and the double-then-b-bit rounding is the b-bit rounding (Figueroa, see the header).
class RoundedSum {
 public:
  explicit RoundedSum(int bits) : bits_(bits) {}
  void add(const WideNumber& t) {
    if (t.e <= frozen_below_ || t.m == 0) return;  // |t| < 2^(e+1) <= a quarter ulp of the sum
    if (sum_.m == 0 || sum_.e + 1 <= t.e - bits_ - 1) {
      set(t);
      return;
    }
    const long base = std::max(sum_.e, t.e);
    const double s = round_to_bits(
        std::ldexp(sum_.m, static_cast<int>(sum_.e - base)) + std::ldexp(t.m, static_cast<int>(t.e - base)), bits_);
    set(normalized(s, base));
  }
  const WideNumber& value() const { return sum_; }
  // Whether adding t now leaves the sum unchanged by the quarter-ulp test of add (t != 0).
  bool absorbs(const WideNumber& t) const { return t.e <= frozen_below_; }

 private:
  void set(const WideNumber& s) {
    sum_ = s;
    frozen_below_ = s.m == 0 ? std::numeric_limits<long>::min() : s.e - bits_ - 2;
  }
  int bits_;
  WideNumber sum_;
  long frozen_below_ = std::numeric_limits<long>::min();
};

}  // namespace tverify::copy::fast
