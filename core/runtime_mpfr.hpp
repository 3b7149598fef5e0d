// MPFR floating point with a precision chosen at run time (the precision study of Remark 2.6 needs 2, 3, 4, ... bits;
// Boost's compile-time Mpfr<Bits> counts decimal digits and cannot go below 5 bits, and its variable-precision
// default is a process-wide static). A new value takes its thread's working precision, set with RuntimeMpfr::Precision
// by the evaluator that owns the thread: each evaluator takes its precision as an argument (FinitePrecisionCopy(exact,
// bits), layer1_table(..., bits, ...), MpfrBitsCopy::run(x, bits, ...)), so no caller sets it. A copy keeps the
// precision of its source. Every result is rounded to nearest by MPFR itself. A measurement type: never rigorous.
#pragma once

#include "core/exact.hpp"
#include "core/tri.hpp"

#include <mpfr.h>

#include <string>

namespace tverify {

class RuntimeMpfr {
 public:
  // Sets the calling thread's working precision for the lifetime of the guard.
  class Precision {
   public:
    explicit Precision(long bits) : saved_(working_bits()) { working_bits() = bits; }
    ~Precision() { working_bits() = saved_; }
    Precision(const Precision&) = delete;
    Precision& operator=(const Precision&) = delete;

   private:
    long saved_;
  };
  static long& working_bits() {
    thread_local long bits = 53;
    return bits;
  }

  RuntimeMpfr() {
    mpfr_init2(v_, working_bits());
    mpfr_set_zero(v_, 1);
  }
  RuntimeMpfr(long i) {  // NOLINT: integers convert implicitly
    mpfr_init2(v_, working_bits());
    mpfr_set_si(v_, i, MPFR_RNDN);
  }
  explicit RuntimeMpfr(const Exact& q) {
    mpfr_init2(v_, working_bits());
    mpfr_set_q(v_, q.backend().data(), MPFR_RNDN);
  }
  // x rounded to the working precision (exact for the b-bit values the fast evaluator converts back).
  static RuntimeMpfr from_double(double x) {
    RuntimeMpfr r;
    mpfr_set_d(r.v_, x, MPFR_RNDN);
    return r;
  }
  RuntimeMpfr(const RuntimeMpfr& o) {
    mpfr_init2(v_, mpfr_get_prec(o.v_));
    mpfr_set(v_, o.v_, MPFR_RNDN);
  }
  RuntimeMpfr& operator=(const RuntimeMpfr& o) {
    if (this != &o) {
      mpfr_set_prec(v_, mpfr_get_prec(o.v_));
      mpfr_set(v_, o.v_, MPFR_RNDN);
    }
    return *this;
  }
  ~RuntimeMpfr() { mpfr_clear(v_); }

  friend RuntimeMpfr operator+(const RuntimeMpfr& a, const RuntimeMpfr& b) { return apply(mpfr_add, a, b); }
  friend RuntimeMpfr operator-(const RuntimeMpfr& a, const RuntimeMpfr& b) { return apply(mpfr_sub, a, b); }
  friend RuntimeMpfr operator*(const RuntimeMpfr& a, const RuntimeMpfr& b) { return apply(mpfr_mul, a, b); }
  friend RuntimeMpfr operator/(const RuntimeMpfr& a, const RuntimeMpfr& b) { return apply(mpfr_div, a, b); }
  RuntimeMpfr& operator+=(const RuntimeMpfr& b) { return *this = *this + b; }
  // *this += a * b with both roundings (no fused multiply-add), `scratch` holding the product: no allocation.
  void add_product(const RuntimeMpfr& a, const RuntimeMpfr& b, RuntimeMpfr& scratch) {
    mpfr_mul(scratch.v_, a.v_, b.v_, MPFR_RNDN);
    mpfr_add(v_, v_, scratch.v_, MPFR_RNDN);
  }
  void set_zero() { mpfr_set_zero(v_, 1); }
  friend RuntimeMpfr operator-(const RuntimeMpfr& a) { return apply(mpfr_neg, a); }
  friend RuntimeMpfr exp(const RuntimeMpfr& a) { return apply(mpfr_exp, a); }
  friend RuntimeMpfr log(const RuntimeMpfr& a) { return apply(mpfr_log, a); }
  friend RuntimeMpfr sqrt(const RuntimeMpfr& a) { return apply(mpfr_sqrt, a); }
  // a * 2^e: exact (MPFR's exponent range is far wider than any value tverify scales).
  friend RuntimeMpfr ldexp(const RuntimeMpfr& a, long e) {
    RuntimeMpfr r;
    mpfr_mul_2si(r.v_, a.v_, e, MPFR_RNDN);
    return r;
  }
  friend bool operator<(const RuntimeMpfr& a, const RuntimeMpfr& b) { return mpfr_less_p(a.v_, b.v_); }
  friend bool operator>(const RuntimeMpfr& a, const RuntimeMpfr& b) { return mpfr_greater_p(a.v_, b.v_); }
  int sign() const { return mpfr_sgn(v_); }
  double to_double() const { return mpfr_get_d(v_, MPFR_RNDN); }
  // The e with |x| in [2^(e-1), 2^e), for a nonzero finite x.
  long exponent() const { return static_cast<long>(mpfr_get_exp(v_)); }
  long precision() const { return static_cast<long>(mpfr_get_prec(v_)); }

 private:
  using Binary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
  using Unary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
  static RuntimeMpfr apply(Binary op, const RuntimeMpfr& a, const RuntimeMpfr& b) {
    RuntimeMpfr r;
    op(r.v_, a.v_, b.v_, MPFR_RNDN);
    return r;
  }
  static RuntimeMpfr apply(Unary op, const RuntimeMpfr& a) {
    RuntimeMpfr r;
    op(r.v_, a.v_, MPFR_RNDN);
    return r;
  }
  mpfr_t v_;
};

}  // namespace tverify
