// The reference definitions of ENTP (arXiv 2410.01600 v3) that the RASP programs are checked against: Count3
// (eq. 4) directly, Algorithms 2 and 3 of Appendix E, Match3' of Sec. 6.2, and the sequences of the Count3
// experiment (Sec. 6.1, Table 5).
#pragma once

#include <cstdint>
#include <vector>

namespace tverify::count3 {

using Sequence = std::vector<long long>;

// eq. (4): |{(i, j) in [n]^2 : x_i + x_j + x_n = 0 (mod n)}| (mod n), n = |x| >= 1, by the definition's double count.
long long count3_eq4(const Sequence& x);
// Algorithm 2: the O(n^2)-time loop as printed (count, then count mod n).
long long count3_alg2(const Sequence& x);
// Algorithm 3: the O(n)-time table of -x_i mod n, then the sum of table[(x_i + x_n) mod n].
long long count3_alg3(const Sequence& x);
// Sec. 6.2: 1 if some (i, j) has x_1 + x_i + x_j = 0 (mod 128), else 0.
long long match3_prime(const Sequence& x);

// Python's floor modulo on integers (b > 0).
long long floor_mod(long long a, long long b);

// Sec. 6.1: a seed of `seed_length` integers drawn uniformly from [0, max_value], extended to `length` integers by
// x_{m+1} = Count3(x_1..x_m). The draw uses std::mt19937_64 seeded with `seed` and the sample index, so every sample
// is reproducible on its own.
Sequence experiment_sequence(std::uint64_t seed, std::uint64_t sample, int seed_length = 16, long long max_value = 63,
                             int length = 64);

// Table 5 (Appendix C.1): the printed 64-integer sequence (its first 16 integers are the seed).
const Sequence& table5_sequence();
constexpr int table5_seed_length = 16;

}  // namespace tverify::count3
