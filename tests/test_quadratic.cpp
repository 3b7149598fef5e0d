// core/quadratic: exact arithmetic and signs in Q(sqrt r).
#include "core/quadratic.hpp"

#include <catch2/catch.hpp>

using tverify::Exact;
using tverify::QuadraticSurd;
using tverify::Sign;

namespace {
QuadraticSurd sqrt_of(unsigned long r) { return {Exact(0), Exact(1), r}; }
}  // namespace

TEST_CASE("signs of a + b sqrt(r) are decided exactly by comparing squares", "[quadratic]") {
  const QuadraticSurd s2 = sqrt_of(2);
  CHECK((QuadraticSurd(3) - QuadraticSurd(2) * s2).sign() == Sign::Positive);  // 9 > 8
  CHECK((QuadraticSurd(1) - s2).sign() == Sign::Negative);                     // 1 < 2
  CHECK((s2 * s2 - QuadraticSurd(2)).sign() == Sign::Zero);
  CHECK((QuadraticSurd(Exact(-7, 5)) + s2).sign() == Sign::Positive);  // 49/25 < 2
}

TEST_CASE("division rationalizes: 1 / (1 + sqrt 2) = sqrt 2 - 1", "[quadratic]") {
  const QuadraticSurd s2 = sqrt_of(2);
  CHECK(QuadraticSurd(1) / (QuadraticSurd(1) + s2) == s2 - QuadraticSurd(1));
  CHECK_THROWS_AS(QuadraticSurd(1) / QuadraticSurd(0), std::domain_error);
}

TEST_CASE("(1/sqrt 3)^2 is the rational 1/3, and mixing radicands is refused", "[quadratic]") {
  const QuadraticSurd inv_sqrt3(Exact(0), Exact(1, 3), 3);
  const QuadraticSurd square = inv_sqrt3 * inv_sqrt3;
  CHECK(square.is_rational());
  CHECK(square.to_exact() == Exact(1, 3));
  CHECK_THROWS_AS(inv_sqrt3 + sqrt_of(2), std::domain_error);
}

TEST_CASE("to_interval encloses the exact value", "[quadratic]") {
  const auto i = (QuadraticSurd(1) + sqrt_of(2)).to_interval<64>();
  // 2.41421356237309504 < 1 + sqrt 2 < 2.41421356237309505
  CHECK(i.lower() > tverify::parse_exact("2.41421356237309504"));
  CHECK(i.upper() < tverify::parse_exact("2.41421356237309505"));
}

TEST_CASE("a square radicand gives a rational: (1/4) sqrt 4 = 1/2, and 1 + 2 sqrt 9 = 7", "[quadratic]") {
  const QuadraticSurd half(Exact(0), Exact(1, 4), 4);
  CHECK(half.is_rational());
  CHECK(half.to_exact() == Exact(1, 2));
  CHECK(half.radicand() == 0);
  CHECK(QuadraticSurd(Exact(1), Exact(2), 9).to_exact() == Exact(7));
  CHECK(QuadraticSurd(Exact(0), Exact(-1), 1).to_exact() == Exact(-1));
  // so it divides and mixes with any radicand, as a rational does
  CHECK(QuadraticSurd(1) / half == QuadraticSurd(2));
  CHECK((half + sqrt_of(2)).radicand() == 2);
  CHECK_FALSE(sqrt_of(8).is_rational());  // 8 is no square (2 sqrt 2 stays irrational)
}

TEST_CASE("square radicands are recognised up to 64 bits, and their neighbours are not", "[quadratic]") {
  for (const unsigned long k : {1ul, 2ul, 3ul, 94906265ul, 4294967295ul}) {
    const unsigned long square = k * k;
    CHECK(QuadraticSurd(Exact(0), Exact(1), square).to_exact() == Exact(tverify::BigInt(k)));
    CHECK_FALSE(QuadraticSurd(Exact(0), Exact(1), square + 1).is_rational());
    if (square > 1) CHECK_FALSE(QuadraticSurd(Exact(0), Exact(1), square - 1).is_rational());
  }
}
