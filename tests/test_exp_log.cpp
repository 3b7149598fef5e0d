// Exact exp-log arithmetic (core/exp_log.hpp): zero decided exactly, by identities derived by hand; non-zero signs
// against decimal bounds of the constants (e = 2.718281828459..., ln 2 = 0.693147180559..., 2^(1/3) = 1.25992...);
// enclosures against MPFI computing the same expression directly; and everything outside the arithmetic refused.
#include "model/extended.hpp"
#include "core/exp_log.hpp"
#include "core/scalar.hpp"

#include <catch2/catch.hpp>

using namespace tverify;

namespace {

using N = ExpLogNumber;

N q(long a, long b = 1) { return N(Exact(a, b)); }

// The number's enclosure at 256 bits (numerator over denominator).
Interval<256> enclosure(const N& x) { return x.numerator().enclosure<256>() / x.denominator().enclosure<256>(); }

}  // namespace

TEST_CASE("exp-log: identities are decided exactly", "[exp_log]") {
  const N e = exp(q(1));
  CHECK((q(2) * e - e * q(2)).is_zero());
  CHECK((exp(q(1, 2)) * exp(q(1, 2)) - e).is_zero());
  CHECK((sqrt(q(2)) * sqrt(q(2))).rational() == Exact(2));
  CHECK((sqrt(q(8)) - q(2) * sqrt(q(2))).is_zero());  // 8^(1/2) = 2 * 2^(1/2): the integer part leaves the radical
  CHECK((sqrt(q(2)) * sqrt(q(3)) - sqrt(q(6))).is_zero());
  CHECK(exp(log(q(6))).rational() == Exact(6));
  CHECK((exp(log(q(8)) / q(3))).rational() == Exact(2));
  CHECK((log(q(6)) - log(q(2)) - log(q(3))).is_zero());
  CHECK((log(q(9, 4)) - q(2) * log(q(3, 2))).is_zero());
  // a softmax over equal scores is uniform, exactly
  CHECK((e / (e + e)).rational() == Exact(1, 2));
  // weights of one softmax row over one denominator: a tie of two logits is 0 exactly
  const N z = exp(q(1)) + exp(q(2)) + exp(q(3));
  const N a = (exp(q(1)) + exp(q(2))) / z, b = (exp(q(2)) + exp(q(1))) / z;
  CHECK((a - b).is_zero());
  CHECK((a - b).sign() == Sign::Zero);
  // the weights of the row sum to 1, a rational, recognised as one (c times the denominator)
  CHECK((exp(q(1)) / z + exp(q(2)) / z + exp(q(3)) / z).rational() == Exact(1));
  CHECK((q(3) * z / z).rational() == Exact(3));
  // e^{ln 2 + 1} = 2e: a sum of logarithms exponentiated
  CHECK((exp(log(q(2)) + q(1)) - q(2) * e).is_zero());
}

TEST_CASE("exp-log: exponents that are radical sums (cosine scores) are exact too", "[exp_log]") {
  const N r2 = sqrt(q(2)), r3 = sqrt(q(3));
  CHECK((exp(r2) * exp(r2) - exp(q(2) * r2)).is_zero());
  CHECK((exp(r2) * exp(-r2)).rational() == Exact(1));
  CHECK((exp(sqrt(q(8))) - exp(q(2) * r2)).is_zero());  // sqrt 8 = 2 sqrt 2 in the exponent as well
  CHECK((exp(r2 + r3) - exp(r2) * exp(r3)).is_zero());
  const N z = exp(r2) + exp(r3) + exp(q(1, 2) * r2 * r3);  // the last exponent is sqrt(6) / 2
  CHECK((exp(r2) / z + exp(r3) / z + exp(sqrt(q(3, 2))) / z).rational() == Exact(1));
  // e^{sqrt 2} = 4.11325037878292...
  CHECK((exp(r2) - q(4113250378, 1000000000)).sign() == Sign::Positive);
  CHECK((exp(r2) - q(4113250379, 1000000000)).sign() == Sign::Negative);
  CHECK((exp(r2) - exp(r3)).sign() == Sign::Negative);
  CHECK_THROWS_AS(exp(exp(r2)), NotExpLog);
  CHECK_THROWS_AS(exp(q(1) / (q(1) + exp(r2))), NotExpLog);
}

TEST_CASE("exp-log: signs of non-zero numbers match their decimal expansions", "[exp_log]") {
  const N e = exp(q(1));
  CHECK((e - q(2718281828, 1000000000)).sign() == Sign::Positive);
  CHECK((e - q(2718281829, 1000000000)).sign() == Sign::Negative);
  CHECK((log(q(2)) - q(693147, 1000000)).sign() == Sign::Positive);
  CHECK((log(q(2)) - q(693148, 1000000)).sign() == Sign::Negative);
  CHECK((sqrt(q(2)) + sqrt(q(3)) - sqrt(q(5))).sign() == Sign::Positive);  // 3.146... - 2.236...
  CHECK((exp(log(q(2)) / q(3)) - q(5, 4)).sign() == Sign::Positive);       // 2^(1/3) = 1.2599...
  // a near-tie broken 2^-200 away, beyond doubles and the 64- and 128-bit rungs: decided, not called a tie
  const N tiny(Exact(BigInt(1), BigInt(1) << 200));
  const N near = exp(q(1) + tiny) - e;
  CHECK_FALSE(near.is_zero());
  CHECK(near.sign() == Sign::Positive);
  CHECK((e - exp(q(1) + tiny)).sign() == Sign::Negative);
}

TEST_CASE("exp-log: a sign past 16,384 bits is undecided, and nothing built on it guesses", "[exp_log]") {
  // e^{1 + 2^-20480} - e = e (e^{2^-20480} - 1) > 0, but below what 16,384-bit enclosures separate from 0
  const N tiny(Exact(BigInt(1), BigInt(1) << 20480));
  const N x = exp(q(1) + tiny) - exp(q(1));
  CHECK_FALSE(x.is_zero());
  CHECK(x.sign() == Sign::Unknown);
  CHECK_THROWS_AS(relu(x), std::domain_error);
  using E = model::Extended<N>;
  CHECK_THROWS_AS(model::maximum(E{x, 0}, E{q(0), 0}), model::Undecided);
  CHECK_THROWS_AS(model::minimum(E{x, 0}, E{q(0), 0}), model::Undecided);
  CHECK_THROWS_AS(model::greater(E{x, 0}, E{q(0), 0}), model::Undecided);
  CHECK(model::maximum(E{q(1), 0}, E{exp(q(0)) - q(1, 2), 0}).value.rational() == Exact(1));
}

TEST_CASE("exp-log: enclosures contain what MPFI computes directly", "[exp_log]") {
  using I = Interval<256>;
  // (e^{1/3} + 2 sqrt 3) / (1 + e^{-1}) and 2^{3/2} e^{-1/2} / (e + sqrt 2)
  const N x = (exp(q(1, 3)) + q(2) * sqrt(q(3))) / (q(1) + exp(q(-1)));
  const I direct_x = (exp(I(Exact(1, 3))) + I(2) * sqrt(I(3))) / (I(1) + exp(I(-1)));
  const N y = exp(log(q(2)) * q(3, 2) - q(1, 2)) / (exp(q(1)) + sqrt(q(2)));
  const I direct_y = exp(log(I(2)) * I(Exact(3, 2)) - I(Exact(1, 2))) / (exp(I(1)) + sqrt(I(2)));
  for (const auto& [exact, direct] : {std::pair{x, direct_x}, std::pair{y, direct_y}}) {
    const I enclosed = enclosure(exact);
    CHECK(enclosed.lower() <= direct.upper());
    CHECK(direct.lower() <= enclosed.upper());
    CHECK(enclosed.width() < Exact(BigInt(1), BigInt(1) << 240));
  }
}

TEST_CASE("exp-log: factorisation, and what is outside the arithmetic is refused", "[exp_log]") {
  const PrimeExponents f = factor_rational(Exact(360, 7));  // 2^3 3^2 5 / 7
  REQUIRE(f.size() == 4);
  CHECK(f[0] == std::pair{BigInt(2), Exact(3)});
  CHECK(f[1] == std::pair{BigInt(3), Exact(2)});
  CHECK(f[2] == std::pair{BigInt(5), Exact(1)});
  CHECK(f[3] == std::pair{BigInt(7), Exact(-1)});
  CHECK(factor_rational(Exact(1000003)).size() == 1);  // a prime past the bound of trial division, below its square
  CHECK_THROWS_AS(factor_rational(Exact(BigInt(1000003) * 1000033)), NotExpLog);  // two primes past the bound
  CHECK_THROWS_AS(factor_rational(Exact(0)), NotExpLog);
  const N e = exp(q(1));
  CHECK_THROWS_AS(exp(e), NotExpLog);
  CHECK_THROWS_AS(log(e), NotExpLog);
  CHECK_THROWS_AS(sqrt(e), NotExpLog);
  CHECK_THROWS_AS(log(q(2)) * log(q(3)), NotExpLog);
  CHECK_THROWS_AS(log(q(2)) + e, NotExpLog);
  CHECK_THROWS_AS(q(1) / log(q(2)), NotExpLog);
  CHECK_THROWS_AS(e / q(0), std::domain_error);
}
