// Finite-precision floating point through MPFR (docs/conventions.md): for studying what a given precision does to a
// construction, never for certification. Mpfr<Bits> has at least Bits bits of mantissa (Boost's precision is counted in
// decimal digits; digits10_for_bits picks the smallest count that reaches Bits).
#pragma once

#include "core/interval.hpp"

#include <boost/multiprecision/mpfr.hpp>

namespace tverify {

template <unsigned Bits>
using Mpfr = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<digits10_for_bits(Bits)>,
                                           boost::multiprecision::et_off>;

}  // namespace tverify
