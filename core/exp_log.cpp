#include "core/exp_log.hpp"

#include "core/precision_ladder.hpp"

#include <algorithm>
#include <map>

namespace tverify {

namespace {

BigInt floor_of(const Exact& x) {
  const BigInt n = numerator(x), d = denominator(x);  // d > 0
  BigInt q = n / d;                                   // truncated toward zero
  if (n < 0 && q * d != n) q -= 1;
  return q;
}

// p^k for an integer k of magnitude at most 4096 (NotExpLog past that).
Exact power(const BigInt& p, const BigInt& k) {
  if (abs(k) > 4096) throw NotExpLog("a prime power past 4096 in the exponent");
  const BigInt magnitude = boost::multiprecision::pow(p, abs(k).convert_to<unsigned>());
  return k < 0 ? Exact(BigInt(1), magnitude) : Exact(magnitude);
}

// Sparse sums kept as (key, rational) pairs sorted by key, no zero rational: a radical sum (keyed by its radicals)
// and the prime exponents of a monomial (keyed by prime).
template <class Key>
using Sparse = std::vector<std::pair<Key, Exact>>;

// a + b, key by key.
template <class Key>
Sparse<Key> added(const Sparse<Key>& a, const Sparse<Key>& b) {
  Sparse<Key> out;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first))
      out.push_back(a[i++]);
    else if (i == a.size() || b[j].first < a[i].first)
      out.push_back(b[j++]);
    else {
      if (Exact r = a[i].second + b[j].second; r != 0) out.emplace_back(a[i].first, std::move(r));
      ++i, ++j;
    }
  }
  return out;
}

template <class Key>
Sparse<Key> negated(Sparse<Key> a) {
  for (auto& [key, r] : a) r = -r;
  return a;
}

// e^a prod p^{e_p} = carry * (a canonical monomial).
std::pair<ExpMonomial, Exact> canonical_monomial(const RadicalSum& a, const PrimeExponents& powers) {
  ExpMonomial m{a, {}};
  Exact carry(1);
  for (const auto& [p, e] : powers) {
    const BigInt k = floor_of(e);
    carry *= power(p, k);
    if (const Exact f = e - Exact(k); f != 0) m.radicals.emplace_back(p, f);
  }
  return {std::move(m), carry};
}

PrimeExponents factored(const Exact& r) {
  PrimeExponents out;
  auto factor = [&](BigInt n, int sign) {
    for (unsigned long p = 2; p <= factor_bound && BigInt(p) * p <= n; p += (p == 2 ? 1 : 2)) {
      int k = 0;
      while (n % p == 0) n /= p, ++k;
      if (k) out.emplace_back(BigInt(p), Exact(sign * k));
    }
    if (n == 1) return;
    if (n >= BigInt(factor_bound) * factor_bound) throw NotExpLog("a prime factor past trial division's reach");
    out.emplace_back(n, Exact(sign));  // no factor up to its square root: a prime
  };
  factor(numerator(r), 1);
  factor(denominator(r), -1);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace

PrimeExponents factor_rational(const Exact& r) {
  if (r <= 0) throw NotExpLog("the logarithm of a number that is not positive");
  // The logarithms and square roots of a model's weights come back evaluation after evaluation: each thread keeps
  // the factorisations it has made (up to a bound).
  thread_local std::map<Exact, PrimeExponents> made;
  if (const auto it = made.find(r); it != made.end()) return it->second;
  PrimeExponents out = factored(r);
  if (made.size() < 4096) made.emplace(r, out);
  return out;
}

bool operator<(const ExpMonomial& a, const ExpMonomial& b) {
  if (a.exponent != b.exponent) return a.exponent < b.exponent;
  return a.radicals < b.radicals;
}

ExpSum::ExpSum(const Exact& c) {
  if (c != 0) terms_.push_back({ExpMonomial{}, c});
}

ExpSum::ExpSum(std::vector<Term> terms) {
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.monomial < b.monomial; });
  for (Term& t : terms) {
    if (!terms_.empty() && terms_.back().monomial == t.monomial) {
      terms_.back().coefficient += t.coefficient;
      continue;
    }
    if (!terms_.empty() && terms_.back().coefficient == 0) terms_.pop_back();
    terms_.push_back(std::move(t));
  }
  if (!terms_.empty() && terms_.back().coefficient == 0) terms_.pop_back();
  if (terms_.size() > max_terms)
    throw NotExpLog("an exponential sum of more than " + std::to_string(max_terms) + " terms");
}

ExpSum ExpSum::monomial(const Exact& c, const RadicalSum& a, const PrimeExponents& powers) {
  auto [m, carry] = canonical_monomial(a, powers);
  return ExpSum(std::vector<Term>{{std::move(m), c * carry}});
}

std::optional<Exact> ExpSum::rational() const {
  if (terms_.empty()) return Exact(0);
  if (terms_.size() == 1 && terms_[0].monomial.is_one()) return terms_[0].coefficient;
  return std::nullopt;
}

ExpSum ExpSum::times(const Term& t) const {
  std::vector<Term> out;
  out.reserve(terms_.size());
  for (const Term& s : terms_) {
    auto [m, carry] = canonical_monomial(added(s.monomial.exponent, t.monomial.exponent),
                                         added(s.monomial.radicals, t.monomial.radicals));
    out.push_back({std::move(m), s.coefficient * t.coefficient * carry});
  }
  return ExpSum(std::move(out));
}

ExpSum::Term ExpSum::inverse(const Term& t) {
  auto [m, carry] = canonical_monomial(negated(t.monomial.exponent), negated(t.monomial.radicals));
  return {std::move(m), carry / t.coefficient};
}

ExpSum operator+(const ExpSum& a, const ExpSum& b) {
  if (a.is_zero()) return b;
  if (b.is_zero()) return a;
  std::vector<ExpSum::Term> all = a.terms_;
  all.insert(all.end(), b.terms_.begin(), b.terms_.end());
  return ExpSum(std::move(all));
}

ExpSum operator-(const ExpSum& a) { return a.times({ExpMonomial{}, Exact(-1)}); }

ExpSum operator*(const ExpSum& a, const ExpSum& b) {
  if (a.is_zero() || b.is_zero()) return {};
  if (a.terms_.size() == 1) return b.times(a.terms_[0]);
  if (b.terms_.size() == 1) return a.times(b.terms_[0]);
  if (a.terms_.size() * b.terms_.size() > 4 * ExpSum::max_terms)
    throw NotExpLog("a product of exponential sums past " + std::to_string(ExpSum::max_terms) + " terms");
  ExpSum product;
  for (const auto& t : b.terms_) product = product + a.times(t);
  return product;
}

Sign ExpSum::sign() const {
  if (is_zero()) return Sign::Zero;
  // every monomial is a positive real: a sum whose coefficients share a sign has it
  const bool positive = terms_.front().coefficient > 0;
  if (std::all_of(terms_.begin(), terms_.end(), [&](const Term& t) { return (t.coefficient > 0) == positive; }))
    return positive ? Sign::Positive : Sign::Negative;
  const auto climbed = climb(
      standard_rungs, [&]<unsigned B>() { return enclosure<B>().sign(); },
      [](Sign s) { return s != Sign::Unknown && s != Sign::Zero; });
  // the sum is not 0, so an enclosure that is the point 0 decides nothing
  return climbed.result == Sign::Zero ? Sign::Unknown : climbed.result;
}

ExpLogNumber ExpLogNumber::fraction(const ExpSum& numerator, const ExpSum& denominator) {
  if (denominator.is_zero()) throw std::domain_error("an exponential fraction over 0");
  if (numerator.is_zero()) return ExpLogNumber(0);
  ExpLogNumber out;
  if (denominator.terms().size() == 1) {
    out.numerator_ = numerator.times(ExpSum::inverse(denominator.terms()[0]));
    out.denominator_ = ExpSum(Exact(1));
  } else {
    out.numerator_ = numerator;
    out.denominator_ = denominator;
  }
  if (out.denominator_.terms().size() == 1)
    if (const auto q = out.numerator_.rational()) return ExpLogNumber(*q);
  // a numerator that is c times the denominator (the sum of one softmax row's weights) is the rational c
  const auto& n = out.numerator_.terms();
  const auto& d = out.denominator_.terms();
  if (n.size() == d.size() && n.front().monomial == d.front().monomial) {
    const Exact c = n.front().coefficient / d.front().coefficient;
    if (out.numerator_ == out.denominator_.times({ExpMonomial{}, c})) return ExpLogNumber(c);
  }
  out.kind_ = Kind::Fraction;
  return out;
}

ExpLogNumber ExpLogNumber::of_logs(LogSum s) {
  if (s.logs.empty()) return ExpLogNumber(s.constant);
  ExpLogNumber out;
  out.kind_ = Kind::Logs;
  out.logs_ = std::move(s);
  return out;
}

LogSum ExpLogNumber::as_logs() const {
  if (kind_ == Kind::Logs) return *logs_;
  if (kind_ == Kind::Rational) return LogSum{rational_, {}};
  throw NotExpLog("a logarithm combined with an exponential");
}

ExpSum ExpLogNumber::numerator() const {
  if (kind_ == Kind::Logs) throw NotExpLog("a sum of logarithms is not a fraction of exponential sums");
  return kind_ == Kind::Rational ? ExpSum(rational_) : numerator_;
}

ExpSum ExpLogNumber::denominator() const {
  if (kind_ == Kind::Logs) throw NotExpLog("a sum of logarithms is not a fraction of exponential sums");
  return kind_ == Kind::Rational ? ExpSum(Exact(1)) : denominator_;
}

std::optional<Exact> ExpLogNumber::rational() const {
  if (kind_ == Kind::Rational) return rational_;
  return std::nullopt;
}

Sign ExpLogNumber::sign() const {
  switch (kind_) {
    case Kind::Rational: return rational_ > 0 ? Sign::Positive : rational_ < 0 ? Sign::Negative : Sign::Zero;
    case Kind::Logs: {
      const auto climbed = climb(
          standard_rungs, [&]<unsigned B>() { return logs_->enclosure<B>().sign(); },
          [](Sign s) { return s != Sign::Unknown && s != Sign::Zero; });
      return climbed.result == Sign::Zero ? Sign::Unknown : climbed.result;  // a sum with logarithms is not 0
    }
    case Kind::Fraction: break;
  }
  const Sign n = numerator_.sign();
  if (n == Sign::Zero || n == Sign::Unknown || denominator_.terms().size() == 1) return n;
  const Sign d = denominator_.sign();
  if (d == Sign::Unknown) return Sign::Unknown;
  return (n == Sign::Positive) == (d == Sign::Positive) ? Sign::Positive : Sign::Negative;
}

ExpLogNumber operator+(const ExpLogNumber& a, const ExpLogNumber& b) {
  using Kind = ExpLogNumber::Kind;
  if (a.kind_ == Kind::Rational && b.kind_ == Kind::Rational) return ExpLogNumber(a.rational_ + b.rational_);
  if (a.kind_ == Kind::Logs || b.kind_ == Kind::Logs) {
    LogSum s = a.as_logs();
    const LogSum t = b.as_logs();
    s.constant += t.constant;
    s.logs = added(s.logs, t.logs);
    return ExpLogNumber::of_logs(std::move(s));
  }
  const ExpSum an = a.numerator(), ad = a.denominator(), bn = b.numerator(), bd = b.denominator();
  if (ad == bd) return ExpLogNumber::fraction(an + bn, ad);
  if (b.kind_ == Kind::Rational) return ExpLogNumber::fraction(an + bn * ad, ad);
  if (a.kind_ == Kind::Rational) return ExpLogNumber::fraction(an * bd + bn, bd);
  return ExpLogNumber::fraction(an * bd + bn * ad, ad * bd);
}

ExpLogNumber operator-(const ExpLogNumber& a) {
  switch (a.kind_) {
    case ExpLogNumber::Kind::Rational: return ExpLogNumber(-a.rational_);
    case ExpLogNumber::Kind::Logs: return ExpLogNumber::of_logs(LogSum{-a.logs_->constant, negated(a.logs_->logs)});
    case ExpLogNumber::Kind::Fraction: break;
  }
  return ExpLogNumber::fraction(-a.numerator_, a.denominator_);
}

ExpLogNumber operator*(const ExpLogNumber& a, const ExpLogNumber& b) {
  using Kind = ExpLogNumber::Kind;
  if (a.kind_ == Kind::Rational && b.kind_ == Kind::Rational) return ExpLogNumber(a.rational_ * b.rational_);
  if (a.is_zero() || b.is_zero()) return ExpLogNumber(0);
  if (a.kind_ == Kind::Logs || b.kind_ == Kind::Logs) {
    const auto scale = a.kind_ == Kind::Logs ? b.rational() : a.rational();
    if (!scale) throw NotExpLog("a product of a logarithm and a number that is not rational");
    LogSum s = a.kind_ == Kind::Logs ? *a.logs_ : *b.logs_;
    s.constant *= *scale;
    for (auto& [p, e] : s.logs) e *= *scale;
    return ExpLogNumber::of_logs(std::move(s));
  }
  const ExpSum an = a.numerator(), ad = a.denominator(), bn = b.numerator(), bd = b.denominator();
  if (b.kind_ == Kind::Rational) return ExpLogNumber::fraction(an * bn, ad);
  if (a.kind_ == Kind::Rational) return ExpLogNumber::fraction(an * bn, bd);
  return ExpLogNumber::fraction(an * bn, ad * bd);
}

ExpLogNumber operator/(const ExpLogNumber& a, const ExpLogNumber& b) {
  using Kind = ExpLogNumber::Kind;
  if (b.is_zero()) throw std::domain_error("division by 0");
  if (a.kind_ == Kind::Rational && b.kind_ == Kind::Rational) return ExpLogNumber(a.rational_ / b.rational_);
  if (b.kind_ == Kind::Logs) throw NotExpLog("a division by a logarithm");
  if (a.kind_ == Kind::Logs) {
    const auto q = b.rational();
    if (!q) throw NotExpLog("a logarithm divided by a number that is not rational");
    return a * ExpLogNumber(1 / *q);
  }
  return ExpLogNumber::fraction(a.numerator() * b.denominator(), a.denominator() * b.numerator());
}

ExpLogNumber exp(const ExpLogNumber& x) {
  RadicalSum a;
  if (x.kind_ == ExpLogNumber::Kind::Fraction) {  // a radical sum: over 1, no term with an exponential
    if (x.denominator_.terms().size() != 1) throw NotExpLog("exp of a fraction of sums");
    for (const auto& t : x.numerator_.terms()) {
      if (!t.monomial.exponent.empty()) throw NotExpLog("exp of an exponential");
      a.emplace_back(t.monomial.radicals, t.coefficient);  // in the numerator's order: sorted by radicals
    }
    return ExpLogNumber::fraction(ExpSum::monomial(Exact(1), a, {}), ExpSum(Exact(1)));
  }
  const LogSum s = x.as_logs();  // a rational, or a sum of logarithms: e^{c_0} prod p^{e_p}
  if (s.constant != 0) a.emplace_back(PrimeExponents{}, s.constant);
  return ExpLogNumber::fraction(ExpSum::monomial(Exact(1), a, s.logs), ExpSum(Exact(1)));
}

ExpLogNumber sqrt(const ExpLogNumber& x) {
  if (x.is_zero()) return x;
  return exp(log(x) * ExpLogNumber(Exact(1, 2)));
}

ExpLogNumber log(const ExpLogNumber& x) {
  const auto q = x.rational();
  if (!q) throw NotExpLog("the logarithm of a number that is not rational");
  return ExpLogNumber::of_logs(LogSum{Exact(0), factor_rational(*q)});
}

}  // namespace tverify
