#include "constructions/count3/references.hpp"

#include <random>
#include <stdexcept>

namespace tverify::count3 {

long long floor_mod(long long a, long long b) {
  const long long r = a % b;
  return r < 0 ? r + b : r;
}

long long count3_eq4(const Sequence& x) {
  if (x.empty()) throw std::invalid_argument("Count3 of an empty sequence");
  const long long n = static_cast<long long>(x.size());
  long long pairs = 0;
  for (long long xi : x)
    for (long long xj : x) pairs += floor_mod(xi + xj + x.back(), n) == 0 ? 1 : 0;
  return floor_mod(pairs, n);
}

long long count3_alg2(const Sequence& x) {
  if (x.empty()) throw std::invalid_argument("Count3 of an empty sequence");
  const std::size_t n = x.size();
  long long count = 0;                                                                    // line 1
  for (std::size_t i = 0; i < n; ++i)                                                     // line 2
    for (std::size_t j = 0; j < n; ++j)                                                   // line 3
      if (floor_mod(x[i] + x[j] + x[n - 1], static_cast<long long>(n)) == 0) count += 1;  // lines 4-5
  return floor_mod(count, static_cast<long long>(n));                                     // line 9
}

long long count3_alg3(const Sequence& x) {
  if (x.empty()) throw std::invalid_argument("Count3 of an empty sequence");
  const long long n = static_cast<long long>(x.size());
  long long count = 0;                                                                           // line 1
  std::vector<long long> table(static_cast<std::size_t>(n), 0);                                  // line 2
  for (long long xi : x) table[static_cast<std::size_t>(floor_mod(-xi, n))] += 1;                // lines 3-6
  for (long long xi : x) count += table[static_cast<std::size_t>(floor_mod(xi + x.back(), n))];  // lines 7-10
  return floor_mod(count, n);                                                                    // line 11
}

long long match3_prime(const Sequence& x) {
  if (x.empty()) throw std::invalid_argument("Match3' of an empty sequence");
  for (long long xi : x)
    for (long long xj : x)
      if (floor_mod(x.front() + xi + xj, 128) == 0) return 1;
  return 0;
}

Sequence experiment_sequence(std::uint64_t seed, std::uint64_t sample, int seed_length, long long max_value,
                             int length) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + sample);
  std::uniform_int_distribution<long long> draw(0, max_value);
  Sequence x;
  for (int i = 0; i < seed_length; ++i) x.push_back(draw(rng));
  while (static_cast<int>(x.size()) < length) x.push_back(count3_eq4(x));
  return x;
}

const Sequence& table5_sequence() {
  static const Sequence printed{52, 14, 22, 48, 28, 37, 3,  28, 14, 1,  12, 20, 38, 48, 51, 41, 0,  13, 14, 17, 12, 20,
                                17, 2,  10, 0,  6,  25, 26, 1,  28, 29, 22, 20, 19, 3,  22, 8,  4,  21, 24, 4,  39, 41,
                                36, 38, 40, 44, 16, 34, 7,  0,  5,  10, 1,  46, 5,  51, 8,  1,  32, 15, 44, 54};
  return printed;
}

}  // namespace tverify::count3
