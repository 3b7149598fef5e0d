// Algorithm 1 of Repeat After Me (Appendix, "Hash-based copying"), line by line. As printed:
//
//   Input: sequence x_1, ..., x_L. Let s be some hashing function.
//   for i = n + 2, ..., L do  k_i <- s(x_{i-n}, ..., x_{i-1});  v_i <- x_i  end for
//   for j = 1, ..., L do
//     if j <= n then y_j <- x_j
//     else q_j <- s(y_{j-n}, ..., y_{j-1}); let i in [L] s.t. k_i = q_j, and set y_j <- x_i
//   end for
//   Output: y_1, ..., y_L
//
// Variant `paper` keeps the key loop start n + 2. With the algorithm's own input x_1..x_L that start leaves out the key
// k_{n+1} = s(x_1..x_n), the only key the first query q_{n+1} = s(y_1..y_n) can match on a string without a repeated
// n-gram (n + 2 is the right start in Appendix C's indexing, where x_1 = <BOS>). Variant `corrected` starts at n + 1;
// see docs/errata.md.
//
// s is taken to be injective (the n-gram itself), so k_i = q_j means equal n-grams. When no key matches, the algorithm
// has no output for that step: the run stops there and counts as a failure. When several keys match, the smallest i
// is taken (the printed "let i in [L]" does not say which).
#pragma once

#include "constructions/copy/strings.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tverify::copy {

enum class Alg1Variant { Paper, Corrected };

// The first key position of the variant (1-based): n + 2 as printed, n + 1 corrected.
int first_key_position(Alg1Variant variant, int n);

struct Alg1Step {
  int position = 0;                // j, 1-based
  bool copied_directly = false;    // j <= n: y_j <- x_j
  TokenString query;               // q_j = (y_{j-n}, .., y_{j-1}) when not direct
  std::vector<int> matching_keys;  // every i with k_i = q_j (1-based)
  std::optional<Token> output;     // y_j, absent when no key matched
};

struct Alg1Run {
  TokenString output;              // y_1.. up to the step that failed
  bool copied = false;             // output == x
  std::string failure;             // why not, at which step
  std::vector<int> key_positions;  // the i of the key loop (1-based)
  std::vector<Alg1Step> steps;     // filled when traced
};

Alg1Run run_algorithm1(const TokenString& x, int n, Alg1Variant variant, bool trace = false);

}  // namespace tverify::copy
