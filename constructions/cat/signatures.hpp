// N-gram signatures (CAT paper, proof of Theorem 1 in Appendix C.1): the signature of the N-gram ending at t is
// s_t = sum_{j<N} F_j e(z_{t-j}); the layer compares normalized signatures by their cosine. Everything here is exact:
// cosines are compared through (sign of <s, s'>, <s, s'>^2 / (|s|^2 |s'|^2)); Gamma = 1 - max cos is then enclosed.
#pragma once

#include "constructions/cat/layer.hpp"
#include "core/interval.hpp"

#include <optional>
#include <vector>

namespace tverify::cat {

// A cosine, exactly: sign and square (zero vectors have no cosine).
struct ExactCosine {
  int sign = 0;                                                       // -1, 0, +1: sign of <s, s'>
  Exact square;                                                       // cos^2 = <s, s'>^2 / (|s|^2 |s'|^2)
  static ExactCosine of(const ExactVector& a, const ExactVector& b);  // both non-zero
  bool operator<(const ExactCosine& o) const;                         // as real numbers
  bool is_one() const { return sign > 0 && square == 1; }
  Interval<128> enclosure() const;
};

struct SignatureReport {
  std::size_t ngrams = 0;                              // V^N
  std::vector<Tokens> zero_signatures;                 // N-grams whose signature is the zero vector
  std::optional<std::pair<Tokens, Tokens>> collision;  // two distinct N-grams with the same normalized signature
  std::optional<ExactCosine> max_cosine;               // over distinct N-grams with non-zero signatures
  std::optional<std::pair<Tokens, Tokens>> closest;    // a pair attaining it
  bool distinct() const { return zero_signatures.empty() && !collision; }
  Interval<128> gamma() const;  // 1 - max cos (requires max_cosine)
};

// Tokens of an N-gram in time order, g[0] oldest.
ExactVector signature(const Filter& filter, const TokenEmbedding& e, const Tokens& gram);
SignatureReport analyse_signatures(const Filter& filter, const TokenEmbedding& e, int n);

// Partial windows at the start of a sequence (fewer than N tokens, zero padded): a full N-gram whose normalized
// signature equals that of a shorter gram, if any (these collide with the keys at the first positions).
std::optional<std::pair<Tokens, Tokens>> padded_collision(const Filter& filter, const TokenEmbedding& e, int n);

// Every N-gram over [V], lexicographic.
std::vector<Tokens> all_grams(int vocabulary, int n);

}  // namespace tverify::cat
