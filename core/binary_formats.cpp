#include "core/binary_formats.hpp"

#include "core/interval.hpp"

namespace tverify {

RoundedToFormat round_to_format(const Exact& q, const BinaryFormat& format) {
  // The exponent range is this thread's (core/thread_caches.hpp): narrowed to the format's for the rounding, then
  // restored. mpfr_set_q rounds within the range and mpfr_subnormalize rounds again where the result is subnormal,
  // using the first rounding's direction so that nothing is rounded twice (MPFR's manual, "Exception Related
  // Functions").
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_t x;
  mpfr_init2(x, format.precision);
  mpfr_set_emin(format.emin);
  mpfr_set_emax(format.emax);
  const int direction = mpfr_set_q(x, q.backend().data(), MPFR_RNDN);
  mpfr_subnormalize(x, direction, MPFR_RNDN);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  RoundedToFormat out;
  if (mpfr_inf_p(x))
    out.infinite = mpfr_sgn(x);
  else
    out.value = mpfr_to_exact(x);
  mpfr_clear(x);
  return out;
}

}  // namespace tverify
