// core/interval: MPFI enclosures with three-valued signs.
#include "core/interval.hpp"
#include "core/scalar.hpp"

#include <catch2/catch.hpp>

#include <random>

using tverify::Exact;
using tverify::Sign;
using I = tverify::Interval<64>;

namespace {
// The MPFR precision, in bits, of the interval's endpoints.
template <unsigned Bits>
unsigned precision_bits(const tverify::Interval<Bits>& x) {
  return static_cast<unsigned>(mpfi_get_prec(x.number().backend().data()));
}
}  // namespace

TEST_CASE("exact rationals enter by outward rounding and stay enclosed through arithmetic", "[interval]") {
  const Exact third(1, 3);
  const I x(third);
  CHECK(x.contains(third));
  CHECK(x.lower() < third);  // 1/3 is not dyadic, so the enclosure has width
  CHECK(x.upper() > third);
  const I y = x * I(3) - I(1);  // exactly 0 in the reals
  CHECK(y.contains(Exact(0)));
  CHECK(y.sign() == Sign::Unknown);
  CHECK((x + x).contains(Exact(2, 3)));
  CHECK((I(1) / x).contains(Exact(3)));
}

TEST_CASE("sign is decided only when zero is excluded, and [0, 0] is exactly zero", "[interval]") {
  CHECK(I(Exact(1, 1000000)).sign() == Sign::Positive);
  CHECK(I(Exact(-5, 7)).sign() == Sign::Negative);
  CHECK(I(0).sign() == Sign::Zero);
  CHECK(I::hull(Exact(-1, 10), Exact(1, 10)).sign() == Sign::Unknown);
  CHECK(tverify::is_greater(I(2), I(1)) == tverify::Tri::True);
  CHECK(tverify::is_greater(I(1), I(2)) == tverify::Tri::False);
  CHECK(tverify::is_greater(I::hull(0, 2), I(1)) == tverify::Tri::Unknown);
}

TEST_CASE("precision is at least the requested number of bits", "[interval]") {
  CHECK(precision_bits(I(1)) >= 64);
  CHECK(precision_bits(tverify::Interval<200>(1)) >= 200);
  CHECK(precision_bits(tverify::Interval<2>(1)) >= 2);
}

TEST_CASE("domain errors are raised, not hidden in NaN endpoints", "[interval]") {
  CHECK_THROWS_AS(log(I::hull(-1, 1)), std::domain_error);
  CHECK_THROWS_AS(sqrt(I(-1)), std::domain_error);
  CHECK_THROWS_AS(I(1) / I::hull(-1, 1), std::domain_error);
  CHECK_THROWS_AS(I::hull(2, 1), std::invalid_argument);
}

TEST_CASE("relu is the exact image of the interval", "[interval]") {
  const I r = relu(I::hull(-2, 3));
  CHECK(r.lower() == 0);
  CHECK(r.upper() == 3);
  CHECK(relu(I::hull(-3, -1)).sign() == Sign::Zero);
  CHECK(relu(I(Exact(5, 2))).contains(Exact(5, 2)));
}

TEST_CASE("to_string rounds the lower end down and the upper end up", "[interval]") {
  const I x(Exact(1, 3));
  const std::string s = x.to_string();
  const auto comma = s.find(", ");
  REQUIRE(s.front() == '[');
  REQUIRE(comma != std::string::npos);
  // Both printed endpoints read back as exact decimals that still enclose 1/3.
  auto decimal = [](std::string t) {
    const auto e = t.find('e');
    return tverify::parse_exact(t.substr(0, e) + "e" + t.substr(e + 1));
  };
  const Exact lo = decimal(s.substr(1, comma - 1));
  const Exact hi = decimal(s.substr(comma + 2, s.size() - comma - 3));
  CHECK(lo <= Exact(1, 3));
  CHECK(hi >= Exact(1, 3));
  CHECK(lo <= x.lower());
  CHECK(hi >= x.upper());
}

#include "core/precision_ladder.hpp"

TEST_CASE("rising precision decides what 64 bits cannot, and reports unknown what no precision can", "[interval]") {
  // exp(x) - (1 + x + x^2/2) = x^3/6 + ... ~ 1.7e-91 for x = 10^-30: below 64-bit resolution, within 512 bits.
  const Exact x(1, tverify::big_pow(10, 30));
  auto taylor_gap = []<unsigned B>(const Exact& at) {
    using J = tverify::Interval<B>;
    const J v(at);
    return tverify::is_greater(exp(v), J(1) + v + v * v / J(2));
  };
  CHECK(taylor_gap.template operator()<64>(x) == tverify::Tri::Unknown);
  const auto decided_here = [](tverify::Tri t) { return t != tverify::Tri::Unknown; };
  const auto decided = tverify::climb(
      tverify::standard_rungs, [&]<unsigned B>() { return taylor_gap.template operator()<B>(x); }, decided_here);
  CHECK(decided.result == tverify::Tri::True);
  CHECK(decided.bits >= 256);
  // 3 * (1/3) - 1 is 0 in the reals, but 1/3 is not dyadic: no precision excludes 0, so the answer stays unknown.
  const auto undecidable = tverify::climb(
      tverify::standard_rungs,
      []<unsigned B>() {
        using J = tverify::Interval<B>;
        return tverify::is_greater(J(3) * J(Exact(1, 3)) - J(1), J(0));
      },
      decided_here);
  CHECK(undecidable.result == tverify::Tri::Unknown);
  CHECK(undecidable.bits == tverify::standard_rungs.ceiling);  // the whole ladder was climbed
}

#include "core/thread_caches.hpp"

#include <thread>

TEST_CASE("a thread's widened exponent range keeps e^-1e9 positive, which MPFR's default range rounds to 0",
          "[interval]") {
  // e^-1e9 = 2^-1.44e9: below the default range's 2^-2^30 (1.07e9), far inside MPFR's widest (about 2^-4.6e18).
  // The range is per thread: a fresh thread starts at the default, so each test runs in one.
  using J = tverify::Interval<256>;
  const auto positive = [](bool widen) {
    tverify::Tri sign = tverify::Tri::Unknown;
    std::thread t([&] {
      if (widen) tverify::widen_exponent_range();
      sign = tverify::is_greater(exp(J(Exact(-1'000'000'000))), J(0));
      tverify::release_thread_caches();
    });
    t.join();
    return sign;
  };
  CHECK(positive(false) == tverify::Tri::Unknown);  // why the range is widened: the enclosure cannot exclude 0
  CHECK(positive(true) == tverify::Tri::True);
}

TEST_CASE("decimal_at_most is a short decimal at most its value, within one unit of its last digit", "[interval]") {
  // Hand values: 1/3 = 0.333333... rounds down to 0.333333; -1/3 down to -0.333334; 2.5 is exact.
  CHECK(tverify::decimal_at_most(Exact(1, 3), 6) == "0.333333");
  CHECK(tverify::decimal_at_most(Exact(-1, 3), 6) == "-0.333334");
  CHECK(tverify::decimal_at_most(Exact(5, 2), 6) == "2.5");
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const Exact x(static_cast<long>(rng() % 2000001) - 1000000, static_cast<long>(rng() % 99999 + 1));
    const Exact d = tverify::parse_exact(tverify::decimal_at_most(x, 6));
    INFO(x << " -> " << tverify::decimal_at_most(x, 6));
    CHECK(d <= x);
    CHECK(x - d <= boost::multiprecision::abs(x) * Exact(1, 100000) + Exact(1, 1000000000));  // 6 significant digits
  }
}
