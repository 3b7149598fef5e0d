// core/double_bounds: every upper bound is >= and every lower bound <= the exact value, checked in exact rationals.
#include "core/double_bounds.hpp"

#include <catch2/catch.hpp>

using namespace tverify;

TEST_CASE("double bounds: rounded ends enclose the exact rational", "[double-bounds]") {
  const std::vector<Exact> values{Exact(1, 3),
                                  Exact(2, 3),
                                  Exact(1, 10),
                                  Exact(7),
                                  Exact(BigInt(1), BigInt(1) << 80),
                                  Exact(big_pow(10, 20) + 1, BigInt(3))};
  for (const Exact& x : values) {
    INFO(exact_to_string(x));
    CHECK(Exact(bounds::upper_double(x)) >= x);
    CHECK(Exact(bounds::lower_double(x)) <= x);
    CHECK(Exact(bounds::upper_double(x)) > Exact(bounds::lower_double(x)));
  }
  // Below smallest_bound: the upper bound is smallest_bound, the lower bound 0.
  const Exact tiny(BigInt(1), big_pow(10, 400));
  CHECK(bounds::upper_double(tiny) == bounds::smallest_bound);
  CHECK(bounds::lower_double(tiny) == 0.0);
}

TEST_CASE("double bounds: products widened by the margin enclose the exact product", "[double-bounds]") {
  const std::vector<double> factors{1.0 / 3, 0.1, 12345.678, 1e-150, 3e140, 0.9999999999999999};
  for (double a : factors)
    for (double b : factors) {
      const Exact exact = Exact(a) * Exact(b);
      CHECK(Exact(bounds::mul_upper(a, b)) >= exact);
      CHECK(Exact(bounds::mul_lower(a, b)) <= exact);
    }
  // A chain of 1000 roundings (adding the double nearest 1/10) stays within the margin of its exact sum.
  double sum = 0;
  for (int i = 0; i < 1000; ++i) sum += 0.1;
  const Exact exact_sum = Exact(1000) * Exact(0.1);
  CHECK(Exact(bounds::mul_upper(sum, 1.0)) >= exact_sum);
  CHECK(Exact(bounds::mul_lower(sum, 1.0)) <= exact_sum);
  CHECK(Exact(sum) != exact_sum);  // the chain did round: the margin is what makes the bounds hold
}
