// ENTP's RASP programs (Appendix F), transcribed line by line in the embedded DSL of constructions/rasp/:
// Algorithm 4 (Count3, encoder), Algorithm 5 (Match3', decoder), Algorithm 6 (Count3 with chain of thought, decoder),
// and how each is run: an encoder recomputes the whole prefix for every next token (ENTP), a decoder program is run
// on the prefix and its last output is the next token (generated autoregressively for Algorithm 6).
#pragma once

#include "constructions/count3/references.hpp"
#include "constructions/rasp/rasp.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tverify::count3 {

// `paper`: Algorithm 4 as printed, with g(a, b) = a if a < b else a - b. `corrected`: g replaced by the floor modulo
// that its comments say it computes (y = -x % n, z = (x + x_n) % n); see docs/errata.md.
enum class Alg4Variant { Paper, Corrected };

rasp::Seq alg4_count_triplets(const rasp::Seq& x, Alg4Variant variant);
// Algorithm 4's elementwise operators in program order ("op #k" of the RASP recorder is entry k - 1) and its two
// seq_map lines, as printed.
const std::vector<std::string>& alg4_operator_expressions();
rasp::Seq alg5_has_triplet(const rasp::Seq& x);
rasp::Seq alg6_count_triplets(const rasp::Seq& x);

// The EOS token of Algorithm 6. The paper does not print its value; tverify uses -1, which no input may contain
// (inputs are non-negative).
constexpr long long eos_token = -1;

// The output of a program at the last position of x, under the current rasp::Run.
rasp::Value last_output(const rasp::Seq& program_output);

struct ChainOfThought {
  Sequence generated;       // the tokens after x, EOS, up to and including the first EOS generated (if any)
  bool terminated = false;  // an EOS was generated within the length limit
  std::optional<rasp::Value> non_integer;  // a generated value that is not an integer (exact mean), if any
};

// Algorithm 6 run autoregressively on x followed by EOS: each step runs the program on the whole sequence so far and
// appends its last output, until it emits EOS or has generated `limit` tokens.
ChainOfThought generate_alg6(const Sequence& x, std::size_t limit);

// The chain of thought Algorithm 6 is designed to write (Appendix F, its masks): y_i = (-x_i mod n) + 1 for each i,
// then for each j the number of i with y_i = (x_n + x_j mod n) + 1, then Count3(x), then EOS.
Sequence expected_alg6_chain(const Sequence& x);

}  // namespace tverify::count3
