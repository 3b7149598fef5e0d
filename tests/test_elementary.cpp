// core/elementary: every enclosure at 64 bits contains the value computed at 1024 bits (property tests over many
// rational arguments), and a deliberately non-rigorous "enclosure" is caught by the same test.
#include "core/elementary.hpp"

#include <catch2/catch.hpp>

#include <random>

using tverify::Exact;
using Lo = tverify::Interval<64>;
using Hi = tverify::Interval<1024>;

namespace {

// The low-precision enclosure must contain the (much narrower) high-precision one.
template <class L, class H>
bool encloses(const L& low, const H& high) {
  return low.lower() <= high.lower() && high.upper() <= low.upper();
}

std::vector<Exact> sample_rationals(int count, int seed, long range) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
  std::uniform_int_distribution<long> num(-range * 1000, range * 1000);
  std::vector<Exact> out;
  for (int i = 0; i < count; ++i) out.emplace_back(num(rng), 1000 + (i % 7));
  return out;
}

}  // namespace

TEST_CASE("exp, sigmoid, log and sqrt enclosures contain the 1024-bit value", "[elementary][property]") {
  for (const Exact& q : sample_rationals(200, 1, 30)) {
    INFO("x = " << q);
    CHECK(encloses(exp(Lo(q)), exp(Hi(q))));
    CHECK(encloses(tverify::sigmoid(Lo(q)), tverify::sigmoid(Hi(q))));
    const Exact positive = abs(q) + Exact(1, 1000);
    CHECK(encloses(log(Lo(positive)), log(Hi(positive))));
    CHECK(encloses(sqrt(Lo(positive)), sqrt(Hi(positive))));
  }
}

TEST_CASE("softmax enclosures contain the 1024-bit values", "[elementary][property]") {
  const auto values = sample_rationals(60, 2, 50);
  for (std::size_t start = 0; start + 5 <= values.size(); start += 5) {
    std::vector<Lo> lo;
    std::vector<Hi> hi;
    for (std::size_t k = start; k < start + 5; ++k) {
      lo.emplace_back(values[k]);
      hi.emplace_back(values[k]);
    }
    const auto s_lo = tverify::softmax(lo);
    const auto s_hi = tverify::softmax(hi);
    for (std::size_t k = 0; k < 5; ++k) CHECK(encloses(s_lo[k], s_hi[k]));
  }
}

TEST_CASE("hand values: sigmoid(0) = 1/2, softmax of equal scores is uniform", "[elementary]") {
  CHECK(tverify::sigmoid(Lo(0)).contains(Exact(1, 2)));
  const auto s = tverify::softmax(std::vector<Lo>{Lo(3), Lo(3), Lo(3), Lo(3)});
  for (const auto& x : s) CHECK(x.contains(Exact(1, 4)));
}

TEST_CASE("softmax over Exact is the uniform rational distribution, and refuses unequal scores", "[elementary]") {
  const auto s = tverify::softmax(std::vector<Exact>{Exact(2), Exact(2), Exact(2)});
  for (const auto& x : s) CHECK(x == Exact(1, 3));
  CHECK_THROWS_AS(tverify::softmax(std::vector<Exact>{Exact(0), Exact(1)}), std::domain_error);
}

TEST_CASE("the property test catches a non-rigorous enclosure (a rounded double as a point interval)",
          "[elementary][property]") {
  const Exact x(1, 10);
  const Lo rounded_point(Exact(std::exp(0.1)));  // round-to-nearest, zero width: not an enclosure of exp(1/10)
  CHECK_FALSE(encloses(rounded_point, exp(Hi(x))));
}
