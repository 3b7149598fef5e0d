// The Wilson score interval of sampled rates (a measurement beside exact counts): a textbook value, and its exact ends
// at no failure and at every trial failing.
#include "checkers/confidence.hpp"

#include <catch2/catch.hpp>

using namespace tverify;

TEST_CASE("wilson: 1 in 10 is [0.0179, 0.4042]; 0 in m starts at 0 and m in m ends at 1 exactly", "[sampling]") {
  const auto [lo, hi] = wilson(1, 10);  // Wilson (1927) at z = 1.96: the interval every table gives for 1/10
  CHECK(lo == Approx(0.017876).margin(1e-6));
  CHECK(hi == Approx(0.404150).margin(1e-6));
  CHECK(wilson(0, 3).first == 0.0);  // centre - half would be 5.6e-17 in doubles
  CHECK(wilson(0, 3).second == Approx(0.561497).margin(1e-6));
  CHECK(wilson(3, 3).second == 1.0);
  CHECK(wilson(3, 3).first == Approx(0.438503).margin(1e-6));
}
