// Printed enclosures at fewer digits: rounded outward, so the short interval contains the long one; integers, lists
// and short intervals are left as they are.
#include "commands/enclosure_text.hpp"
#include "core/exact.hpp"

#include <catch2/catch.hpp>

using namespace tverify;

TEST_CASE("short enclosures round lo down and hi up, and leave everything else alone", "[enclosure]") {
  const std::string long_text =
      "logit [-1.386294361119890618834464242916353136203e+00, -1.386294361119890618834464242916353136061e+00] and "
      "f in [1.999999999999999999999999999999999999913e-01, 2.000000000000000000000000000000000000156e-01]";
  CHECK(with_short_enclosures(long_text, 6) == "logit [-1.3863, -1.38629] and f in [0.199999, 0.200001]");
  CHECK(with_short_enclosures(long_text, 0) == long_text);
  CHECK(with_short_enclosures("input [0, 1] got [0.5, 0.75] list [0,1,1]", 6) ==
        "input [0, 1] got [0.5, 0.75] list [0,1,1]");
  // Containment, checked exactly: the rounded endpoints lie outside the printed ones.
  const std::string shortened = with_short_enclosures("[0.123456789, 0.123456789]", 3);
  CHECK(shortened == "[0.123, 0.124]");
  CHECK(parse_exact("0.123") <= parse_exact("0.123456789"));
  CHECK(parse_exact("0.124") >= parse_exact("0.123456789"));
  CHECK(with_short_enclosures("[-0.123456789, -0.123456789]", 3) == "[-0.124, -0.123]");
  // A zero in any spelling prints as 0 (the upper end of a softmax weight of exactly 0 can be MPFR's -0).
  CHECK(with_short_enclosures("[0.00000000000000000000e+00, -0.00000000000000000000e+00]", 6) == "[0, 0]");
  CHECK(with_short_enclosures("[-0, 1.234567891]", 3) == "[0, 1.24]");
  CHECK(with_short_enclosures("[0, 1]", 3) == "[0, 1]");
}
