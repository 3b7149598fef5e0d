// IEEE 754 binary formats and the exact rounding of a rational into one: to nearest, ties to even, with subnormals,
// and a value past the largest finite one going to infinity, as an IEEE conversion rounds (ONNX's Cast to float16,
// bfloat16, float32 and float64).
#pragma once

#include "core/exact.hpp"

#include <mpfr.h>

#include <string>

namespace tverify {

// A format in MPFR's terms: significand bits (the hidden bit included) and the exponent range of x = m 2^e with
// 1/2 <= m < 1, emin that of the smallest subnormal.
struct BinaryFormat {
  const char* name;
  mpfr_prec_t precision;
  mpfr_exp_t emin, emax;
};

inline constexpr BinaryFormat binary16{"float16", 11, -23, 16};    // smallest subnormal 2^-24, largest 65504
inline constexpr BinaryFormat bfloat16{"bfloat16", 8, -132, 128};  // smallest subnormal 2^-133
inline constexpr BinaryFormat binary32{"float32", 24, -148, 128};  // smallest subnormal 2^-149
inline constexpr BinaryFormat binary64{"float64", 53, -1073, 1024};

// The format's value nearest q: `value`, or an infinity of sign `infinite` (+1 or -1) when q rounds past the
// largest finite value.
struct RoundedToFormat {
  Exact value;
  int infinite = 0;
};
RoundedToFormat round_to_format(const Exact& q, const BinaryFormat& format);

}  // namespace tverify
