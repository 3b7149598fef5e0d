#include "core/interval.hpp"

#include <mpfr.h>

#include <memory>

namespace tverify {
namespace {

std::string endpoint_to_string(mpfr_srcptr x, mpfr_rnd_t rounding) {
  if (mpfr_nan_p(x)) return "nan";
  if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? "inf" : "-inf";
  // Enough significant digits that the decimal reads back to the same binary value (MPFR >= 4.1).
  auto digits = static_cast<int>(mpfr_get_str_ndigits(10, mpfr_get_prec(x)));
  char* text = nullptr;
  mpfr_asprintf(&text, rounding == MPFR_RNDD ? "%.*RDe" : "%.*RUe", digits - 1, x);
  std::string out(text);
  mpfr_free_str(text);
  return out;
}

}  // namespace

std::string mpfi_to_string(mpfi_srcptr x) {
  std::string out = "[";
  out += endpoint_to_string(&x->left, MPFR_RNDD);
  out += ", ";
  out += endpoint_to_string(&x->right, MPFR_RNDU);
  out += "]";
  return out;
}

std::string decimal_at_most(const Exact& x, int digits) {
  mpfr_t rounded;
  mpfr_init2(rounded, 128);
  mpfr_set_q(rounded, x.backend().data(), MPFR_RNDD);  // rounded <= x
  char* text = nullptr;
  mpfr_asprintf(&text, "%.*RDg", digits, rounded);  // the decimal <= rounded
  std::string out(text);
  mpfr_free_str(text);
  mpfr_clear(rounded);
  return out;
}

Exact mpfr_to_exact(mpfr_srcptr x) {
  if (!mpfr_number_p(x)) throw std::domain_error("interval endpoint is not a finite number");
  Exact q;
  mpfr_get_q(q.backend().data(), x);  // exact: an MPFR number is a dyadic rational
  return q;
}

}  // namespace tverify
