// Exact arithmetic with exponentials and logarithms of rationals: the reals a softmax computes from rational scores,
// from scores scaled by a temperature written as logarithms of rationals (tau = d ln(8 K d) in Repeat After Me's
// Theorem 2.3), or from cosine scores with square roots (the CAT layer), and what rational operations make of them.
//
// A number is either
//   - a fraction N / D of exponential sums, N = sum_k c_k e^{a_k} prod_p p^{f_{k,p}}, with rational c_k, radicals of
//     primes p with exponents f in (0, 1) (a canonical monomial), and exponents a_k that are rational or, more
//     generally, radical sums sum_j r_j prod_p p^{g_{j,p}} with rational r_j (algebraic numbers, kept canonical); or
//   - a sum of logarithms c_0 + sum_p e_p ln p over primes p with rational c_0 and e_p (what Log of a rational gives;
//     it may be added, scaled by rationals and exponentiated, not multiplied by another such sum).
// Zero is decided exactly:
//   - Canonical monomials are linearly independent over the rationals, so a sum is 0 exactly when it has no term.
//     Monomials with the same exponent a: Besicovitch's theorem (J. London Math. Soc. 15, 1940), the real radicals
//     prod_p p^{k_p / n} with distinct primes p and 0 <= k_p < n are linearly independent over Q. Different exponents:
//     the Lindemann-Weierstrass theorem, sum_j alpha_j e^{beta_j} != 0 for distinct algebraic beta_j and algebraic
//     alpha_j not all 0 (each alpha_j here is a sum of radicals of one exponent). Two canonical exponents that differ
//     as sums are different numbers, by Besicovitch's theorem again.
//   - c_0 + sum e_p ln p = 0 only when every coefficient is 0: e^{c_0} = prod p^{-e_p} is algebraic, so c_0 = 0 by
//     Hermite-Lindemann, and prod p^{e_p} = 1 then forces every e_p = 0 by unique factorisation.
// So an exact tie (two equal logits of a hard-attention head) is decided, where intervals of any precision only
// contain it. A non-zero sign is decided by MPFI enclosures at rising precision, which ends since the value is not 0.
//
// Anything else (exp of an argument that is neither a radical sum nor a sum of logarithms, Log of an irrational
// number, a product of two sums of logarithms, a sum past ExpSum::max_terms, a prime factor past factor_bound) throws
// NotExpLog: the caller then encloses instead.
#pragma once

#include "core/exact.hpp"
#include "core/interval.hpp"
#include "core/tri.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tverify {

// A value outside this arithmetic (the caller encloses it instead). Not a std::domain_error: a handler of arithmetic
// errors must not take it for one.
struct NotExpLog : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// (prime, rational exponent) pairs, by increasing prime, no zero exponent.
using PrimeExponents = std::vector<std::pair<BigInt, Exact>>;

// Trial division finds every prime factor of an integer whose cofactor stays below factor_bound^2.
inline constexpr unsigned long factor_bound = 1'000'000;
// The prime factorisation of a positive rational (negative exponents for the denominator's primes); NotExpLog when a
// factor cannot be certified prime by trial division up to factor_bound.
PrimeExponents factor_rational(const Exact& r);

// sum_j r_j prod_p p^{g_{j,p}}: (radicals, rational r_j) pairs, the radicals canonical (every g in (0, 1)), sorted, no
// zero r_j. A rational q is {({}, q)}.
using RadicalSum = std::vector<std::pair<PrimeExponents, Exact>>;

// e^a prod_p p^{f_p} with a a radical sum and every f_p in (0, 1).
struct ExpMonomial {
  RadicalSum exponent;
  PrimeExponents radicals;
  bool operator==(const ExpMonomial&) const = default;
  bool is_one() const { return exponent.empty() && radicals.empty(); }
};
bool operator<(const ExpMonomial& a, const ExpMonomial& b);

// sum_k c_k m_k over distinct canonical monomials, sorted, no zero coefficient.
class ExpSum {
 public:
  struct Term {
    ExpMonomial monomial;
    Exact coefficient;
    bool operator==(const Term&) const = default;
  };
  static constexpr std::size_t max_terms = 1 << 14;

  ExpSum() = default;               // 0
  explicit ExpSum(const Exact& c);  // c e^0
  // c e^a prod_p p^{e_p} for any rational e_p, `powers` by increasing prime (integer parts go into the coefficient);
  // `a` must be canonical (RadicalSum), as every caller here builds it.
  static ExpSum monomial(const Exact& c, const RadicalSum& a, const PrimeExponents& powers);

  const std::vector<Term>& terms() const { return terms_; }
  bool is_zero() const { return terms_.empty(); }
  std::optional<Exact> rational() const;  // the value when no term has an exponent or radical
  ExpSum times(const Term& t) const;      // this sum times one term
  // 1 / (c m) as a term: (1 / (c carry)) m^{-1}.
  static Term inverse(const Term& t);

  friend ExpSum operator+(const ExpSum& a, const ExpSum& b);
  friend ExpSum operator-(const ExpSum& a);
  friend ExpSum operator*(const ExpSum& a, const ExpSum& b);
  bool operator==(const ExpSum&) const = default;

  template <unsigned B>
  Interval<B> enclosure() const {
    Interval<B> sum(0);
    for (const Term& t : terms_)
      sum += Interval<B>(t.coefficient) * exp(radical_sum_enclosure<B>(t.monomial.exponent)) *
             radicals_enclosure<B>(t.monomial.radicals);
    return sum;
  }
  template <unsigned B>
  static Interval<B> radicals_enclosure(const PrimeExponents& radicals) {
    Interval<B> x(1);
    for (const auto& [p, f] : radicals) x *= exp(Interval<B>(f) * log(Interval<B>(Exact(p))));
    return x;
  }
  template <unsigned B>
  static Interval<B> radical_sum_enclosure(const RadicalSum& a) {
    Interval<B> x(0);
    for (const auto& [radicals, r] : a) x += Interval<B>(r) * radicals_enclosure<B>(radicals);
    return x;
  }
  Sign sign() const;  // Zero exactly for the empty sum; otherwise by enclosures (Unknown past 16,384 bits)

 private:
  explicit ExpSum(std::vector<Term> terms);  // canonicalises
  std::vector<Term> terms_;
};

// c_0 + sum_p e_p ln p.
struct LogSum {
  Exact constant;
  PrimeExponents logs;
  bool operator==(const LogSum&) const = default;
  template <unsigned B>
  Interval<B> enclosure() const {
    Interval<B> sum(constant);
    for (const auto& [p, e] : logs) sum += Interval<B>(e) * log(Interval<B>(Exact(p)));
    return sum;
  }
};

// A number of this arithmetic: a rational (kept as one, so that the rational parts of a model cost what Exact
// costs), a fraction of exponential sums, or a sum of logarithms.
class ExpLogNumber {
 public:
  ExpLogNumber() = default;               // 0
  ExpLogNumber(long i) : rational_(i) {}  // NOLINT: integers convert implicitly, as for the other scalars
  ExpLogNumber(int i) : rational_(i) {}   // NOLINT
  explicit ExpLogNumber(const Exact& q) : rational_(q) {}
  // numerator / denominator (denominator != 0): a denominator of one term is moved into the numerator, and fractions
  // made over one denominator keep it (the weights of one softmax row add without multiplying denominators).
  static ExpLogNumber fraction(const ExpSum& numerator, const ExpSum& denominator);

  std::optional<Exact> rational() const;
  bool is_zero() const { return kind_ == Kind::Rational && rational_ == 0; }
  Sign sign() const;
  // An enclosure of this number at B bits.
  template <unsigned B>
  Interval<B> enclosure() const {
    if (kind_ == Kind::Rational) return Interval<B>(rational_);
    if (kind_ == Kind::Logs) return logs_->template enclosure<B>();
    return numerator_.template enclosure<B>() / denominator_.template enclosure<B>();
  }
  // This number as a fraction (1 e^0 below a rational); NotExpLog for a sum of logarithms.
  ExpSum numerator() const;
  ExpSum denominator() const;

  friend ExpLogNumber operator+(const ExpLogNumber& a, const ExpLogNumber& b);
  friend ExpLogNumber operator-(const ExpLogNumber& a);
  friend ExpLogNumber operator-(const ExpLogNumber& a, const ExpLogNumber& b) { return a + (-b); }
  friend ExpLogNumber operator*(const ExpLogNumber& a, const ExpLogNumber& b);
  friend ExpLogNumber operator/(const ExpLogNumber& a, const ExpLogNumber& b);  // domain_error when b is 0
  ExpLogNumber& operator+=(const ExpLogNumber& b) { return *this = *this + b; }
  ExpLogNumber& operator-=(const ExpLogNumber& b) { return *this = *this - b; }
  ExpLogNumber& operator*=(const ExpLogNumber& b) { return *this = *this * b; }
  ExpLogNumber& operator/=(const ExpLogNumber& b) { return *this = *this / b; }

  friend ExpLogNumber exp(const ExpLogNumber& x);   // of a radical sum (a rational included) or a sum of logarithms
  friend ExpLogNumber log(const ExpLogNumber& x);   // of a positive rational
  friend ExpLogNumber sqrt(const ExpLogNumber& x);  // of a non-negative rational

 private:
  enum class Kind { Rational, Fraction, Logs };
  static ExpLogNumber of_logs(LogSum s);  // a sum without logarithms is its constant, a rational
  LogSum as_logs() const;                 // this sum of logarithms, or this rational as one; NotExpLog otherwise

  Kind kind_ = Kind::Rational;
  Exact rational_;                  // Kind::Rational
  ExpSum numerator_, denominator_;  // Kind::Fraction: not a rational; the denominator 1, or of two terms or more
  std::optional<LogSum> logs_;      // Kind::Logs: with at least one logarithm
};

}  // namespace tverify
