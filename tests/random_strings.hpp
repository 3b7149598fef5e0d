// Seeded random token strings for the differential tests of the fast paths.
#pragma once

#include "constructions/copy/strings.hpp"

#include <random>

namespace tverify::testing {

inline copy::TokenString random_string(std::mt19937_64& rng, int alphabet, int length) {
  std::uniform_int_distribution<int> token(0, alphabet - 1);
  copy::TokenString x;
  for (int i = 0; i < length; ++i) x.push_back(token(rng));
  return x;
}

}  // namespace tverify::testing
