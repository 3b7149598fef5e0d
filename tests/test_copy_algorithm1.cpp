// constructions/copy/algorithm1 and strings: Algorithm 1 as printed (paper) and corrected, and the two readings of
// "repeated n-gram" (Definition 2.2).
#include "constructions/copy/algorithm1.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace tverify::copy;

namespace {

// Repeat detection written independently of strings.cpp: a repeat exists iff the set of windows is smaller than the
// number of windows.
bool repeats_by_set(const TokenString& x, int w) {
  if (static_cast<int>(x.size()) < w) return false;
  std::set<TokenString> seen;
  const std::size_t windows = x.size() - static_cast<std::size_t>(w) + 1;
  for (std::size_t i = 0; i < windows; ++i)
    seen.emplace(x.begin() + static_cast<long>(i), x.begin() + static_cast<long>(i) + w);
  return seen.size() < windows;
}

}  // namespace

TEST_CASE("strings are enumerated in lexicographic order, x_1 most significant", "[copy][strings]") {
  CHECK(string_at(0, 2, 3) == TokenString{0, 0, 0});
  CHECK(string_at(1, 2, 3) == TokenString{0, 0, 1});
  CHECK(string_at(6, 2, 3) == TokenString{1, 1, 0});
  CHECK(string_at(5, 3, 2) == TokenString{1, 2});
}

TEST_CASE("repeated windows agree with an independent set-based count on every string", "[copy][strings]") {
  for (int length = 1; length <= 7; ++length)
    for (std::uint64_t i = 0; i < (1u << length); ++i) {
      const TokenString x = string_at(i, 2, length);
      for (int w = 1; w <= 3; ++w) CHECK(has_repeated_window(x, w) == repeats_by_set(x, w));
    }
}

TEST_CASE("the two readings: 0 1 0 1 repeats the 2-gram 01 but no 3-gram", "[copy][strings]") {
  const TokenString x{0, 1, 0, 1};
  CHECK(has_repeated_window(x, window_length(NgramReading::Text, 2)));
  CHECK_FALSE(has_repeated_window(x, window_length(NgramReading::Formula, 2)));
}

TEST_CASE("Algorithm 1 as printed fails on 0 0 1 0 with n = 2: no key matches the first query", "[copy][alg1]") {
  // Hand run: keys from i = n + 2 = 4 only: k_4 = (x_2, x_3) = (0, 1). Step 3: q_3 = (y_1, y_2) = (0, 0), which
  // equals no key, so the algorithm has no output for y_3.
  const Alg1Run run = run_algorithm1({0, 0, 1, 0}, 2, Alg1Variant::Paper, true);
  CHECK_FALSE(run.copied);
  CHECK(run.key_positions == std::vector<int>{4});
  CHECK(run.output == TokenString{0, 0});
  REQUIRE(run.steps.size() == 3);
  CHECK(run.steps[2].matching_keys.empty());
}

TEST_CASE("Algorithm 1 corrected (keys from n + 1) copies 0 0 1 0", "[copy][alg1]") {
  // k_3 = (0, 0) -> x_3 = 1, k_4 = (0, 1) -> x_4 = 0. Step 3: q = (0, 0) -> 1. Step 4: q = (0, 1) -> 0.
  const Alg1Run run = run_algorithm1({0, 0, 1, 0}, 2, Alg1Variant::Corrected);
  CHECK(run.copied);
  CHECK(run.output == TokenString{0, 0, 1, 0});
}

TEST_CASE("corrected Algorithm 1 copies every string without a repeated n-gram (text reading)", "[copy][alg1]") {
  for (int D = 2; D <= 3; ++D)
    for (int n = 1; n <= 3; ++n)
      for (int L = 1; L <= 7; ++L) {
        std::uint64_t total = 1;
        for (int k = 0; k < L; ++k) total *= static_cast<std::uint64_t>(D);
        for (std::uint64_t i = 0; i < total; ++i) {
          const TokenString x = string_at(i, D, L);
          if (repeats_by_set(x, n)) continue;
          INFO("D=" << D << " n=" << n << " x=" << format_tokens(x));
          CHECK(run_algorithm1(x, n, Alg1Variant::Corrected).copied);
        }
      }
}

TEST_CASE("corrected Algorithm 1 fails on 0 0 0 1 (a repeated 2-gram) by taking the first matching key",
          "[copy][alg1]") {
  // k_3 = (0,0) -> 0, k_4 = (0,0) -> 1. Step 3: q = (0,0) matches 3 and 4, first is 3 -> y_3 = 0 (right).
  // Step 4: q = (y_2, y_3) = (0,0) -> again key 3 -> y_4 = 0, but x_4 = 1.
  const Alg1Run run = run_algorithm1({0, 0, 0, 1}, 2, Alg1Variant::Corrected, true);
  CHECK_FALSE(run.copied);
  CHECK(run.output == TokenString{0, 0, 0, 0});
  CHECK(run.steps[3].matching_keys == std::vector<int>{3, 4});
}
