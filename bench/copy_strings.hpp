// Strings for the copy benchmarks: repeat-free strings of any length up to D^n + n - 1, from a de Bruijn sequence
// B(D, n) (every n-gram exactly once in the cycle; any window of it, as a linear string, repeats no n-gram), with the
// alphabet relabelled by a seeded permutation and a seeded start.
#pragma once

#include "constructions/copy/strings.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace tverify::bench {

// Fredricksen-Kessler-Maiorana: the lexicographically least de Bruijn sequence B(k, n).
inline copy::TokenString de_bruijn(int k, int n) {
  copy::TokenString sequence, a(static_cast<std::size_t>(k * n), 0);
  auto db = [&](auto&& self, int t, int p) -> void {
    if (t > n) {
      if (n % p == 0) sequence.insert(sequence.end(), a.begin() + 1, a.begin() + p + 1);
      return;
    }
    a[t] = a[t - p];
    self(self, t + 1, p);
    for (int j = a[t - p] + 1; j < k; ++j) {
      a[t] = j;
      self(self, t + 1, t);
    }
  };
  db(db, 1, 1);
  return sequence;
}

inline copy::TokenString repeat_free_string(int alphabet, int n, std::size_t length, std::uint64_t seed) {
  const copy::TokenString cycle = de_bruijn(alphabet, n);
  std::mt19937_64 rng(seed);
  std::vector<int> relabel(static_cast<std::size_t>(alphabet));
  std::iota(relabel.begin(), relabel.end(), 0);
  std::shuffle(relabel.begin(), relabel.end(), rng);
  const std::size_t start = std::uniform_int_distribution<std::size_t>(0, cycle.size() - 1)(rng);
  copy::TokenString x;
  for (std::size_t i = 0; i < length; ++i) x.push_back(relabel[static_cast<std::size_t>(cycle[(start + i) % cycle.size()])]);
  return x;
}

}  // namespace tverify::bench
