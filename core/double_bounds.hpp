// Rigorous bounds computed in double arithmetic, in the style of Arb's mag_t functions (upper bounds) and their
// *_lower companions: the certification stages of the fast paths compare such bounds and call a decision certified
// only when an upper bound lies strictly below a lower bound.
//
// The rounding contract, stated once for every function here and every caller: the FPU rounds to nearest (the C++
// default; nothing in tverify changes the rounding mode), so each conversion, addition or multiplication of
// non-negative normal doubles returns the exact result times (1 + e), |e| <= 2^-53. A chain of k such operations is
// within a factor (1 + 2^-53)^k of the exact value. The products below widen by relative_margin = 1e-12 > 2^-40, which
// covers chains of up to 2^12 roundings on each side of a comparison; callers keep their chains shorter (a sum over the
// score levels of one generation step, plus a few products) and their operands in the normal range (upper bounds are
// kept >= smallest_bound; a lower bound below it is replaced by 0, which is useless and therefore safe).
#pragma once

#include "core/exact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tverify::bounds {

constexpr double relative_margin = 1e-12;
constexpr double smallest_bound = 1e-300;

// An upper bound on x > 0 as a double: the nearest double moved one step up, and never below smallest_bound.
inline double upper_double(const Exact& x) {
  return std::max(std::nextafter(x.convert_to<double>(), std::numeric_limits<double>::infinity()), smallest_bound);
}

// A lower bound on x > 0 as a double: the nearest double moved one step down, or 0 below smallest_bound.
inline double lower_double(const Exact& x) {
  const double bound = std::nextafter(x.convert_to<double>(), 0.0);
  return bound >= smallest_bound ? bound : 0.0;
}

// Upper and lower bounds on the exact product of a, b >= 0, themselves bounds from chains within the contract.
inline double mul_upper(double a, double b) { return a * b * (1 + relative_margin); }
inline double mul_lower(double a, double b) { return a * b * (1 - relative_margin); }

}  // namespace tverify::bounds
