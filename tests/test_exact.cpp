// core/exact: exact parsing of user numbers (docs/conventions.md: "0.2" is 1/5, never the double nearest to it).
#include "core/exact.hpp"

#include <catch2/catch.hpp>

using tverify::Exact;
using tverify::parse_exact;

TEST_CASE("decimal, fraction and exponent forms parse to exact rationals", "[exact]") {
  CHECK(parse_exact("0.2") == Exact(1, 5));
  CHECK(parse_exact("1/5") == Exact(1, 5));
  CHECK(parse_exact("3e-2") == Exact(3, 100));
  CHECK(parse_exact("1.5E3") == Exact(1500));
  CHECK(parse_exact("-7/21") == Exact(-1, 3));
  CHECK(parse_exact(".5") == Exact(1, 2));
  CHECK(parse_exact("+4") == Exact(4));
  CHECK(parse_exact("-0.125") == Exact(-1, 8));
  CHECK(parse_exact("2.50e+1") == Exact(25));
  CHECK(parse_exact("0125") == Exact(125));  // decimal, not octal
  CHECK(parse_exact("007/010") == Exact(7, 10));
  CHECK(parse_exact("12345678901234567890.1") == Exact(tverify::BigInt("123456789012345678901"), 10));
}

TEST_CASE("0.1 is exactly 1/10, unlike the double nearest to it", "[exact]") {
  CHECK(parse_exact("0.1") == Exact(1, 10));
  CHECK(parse_exact("0.1") != Exact(0.1));  // Exact(0.1) is the binary double 3602879701896397/2^55
}

TEST_CASE("malformed numbers are rejected with the accepted forms named", "[exact]") {
  for (const char* bad :
       {"", "-", "abc", "1/0", "1e", "1..2", "--1", "0x10", "1/2/3", "1e1234567", ".", "1/-2", "e5"}) {
    INFO("input: '" << bad << "'");
    CHECK_THROWS_AS(parse_exact(bad), std::invalid_argument);
  }
  CHECK_THROWS_WITH(parse_exact("abc"), Catch::Contains("1/5"));
}

TEST_CASE("exact_to_string writes integers plainly and fractions as p/q", "[exact]") {
  CHECK(tverify::exact_to_string(Exact(6, 3)) == "2");
  CHECK(tverify::exact_to_string(Exact(-2, 6)) == "-1/3");
  CHECK(tverify::big_pow(3, 4) == 81);
}

#include "core/scalar.hpp"

TEST_CASE("Mpfr<53> rounds like double, and Mpfr<Bits> has at least Bits bits", "[mpfr]") {
  using M = tverify::Mpfr<53>;
  const M third = tverify::from_exact<M>(Exact(1, 3));
  CHECK(third.convert_to<double>() == 1.0 / 3.0);
  CHECK(mpfr_get_prec(tverify::Mpfr<200>(1).backend().data()) >= 200);
  CHECK(tverify::sign_of(M(-2)) == tverify::Sign::Negative);
  CHECK(tverify::relu(M(-2)) == M(0));
  CHECK_FALSE(tverify::is_rigorous_v<M>);
  CHECK(tverify::is_rigorous_v<tverify::Interval<64>>);
}
