// The single-head CAT layer of Theorem 1 / Corollary 1 (CAT paper, Definition 1; the reconstruction of
// the reconstruction written out in docs/cat.md):
//   (F * X)_t = sum_i F_i x_{t-i}            causal 1-D filter along time, x_s = 0 before the first token
//   q_t = c norm((F_q * X)_t),  k_s = c norm((F_k * X)_s),  v_s = (F_v * X)_s      W_q = W_k = c I, W_v = I
//   o_t = sum_{s <= t} softmax_s(q_t . k_s) v_s,   output token = nearest embedding to o_t.
// norm scales a row to unit length; a zero row stays zero (reconstruction: the paper does not say).
// Constructions:  key delay  F_q = F, F_k = F delayed by one step, v_s = x_s;
//                 value delay F_q = F_k = F, v_s = x_{s+1} (anti-causal), v_s = 0 past the last token;
//                 AR (Corollary 1): key delay with N = 1, F = (1).
// `full_windows` is tverify's correction (docs/errata.md): keys whose window reaches before the first token are
// masked out of the softmax.
//
// Exactness: every convolved row, inner product and squared norm is an exact rational; the keys are grouped by score
// level (levels.hpp), and cosines <q, k> / sqrt(|q|^2 |k|^2), the softmax and the decoding scores <o, e(v)> are
// enclosed in MPFI intervals; the decoded token counts only when its margin is certified (else retried at higher
// precision; an exact tie between tokens is detected exactly and reported as a Tie).
#pragma once

#include "constructions/cat/embedding.hpp"
#include "constructions/cat/levels.hpp"

#include <optional>
#include <vector>

namespace tverify::cat {

using Filter = std::vector<Exact>;  // F_0 (current token), F_1, ...
using Tokens = std::vector<int>;

enum class Delay { Key, Value };

struct CatConfig {
  TokenEmbedding embedding;
  Filter filter;  // F (length N in Theorem 1)
  Delay delay = Delay::Key;
  Exact c_squared = 1;  // logit scale c^2 (inverse temperature)
  bool full_windows = false;
};

// One row of F * X: sum_i F_i r_i over the rows r_0, r_1, ... given newest first (null: before the sequence, a zero
// row), each of width `dim`. The exact layer and the fast path (fast/cat_fast.hpp) both compute their rows here.
ExactVector filtered_row(const Filter& filter, const std::vector<const ExactVector*>& newest_first, std::size_t dim);

// Every row of (F * X) delayed by `shift` steps: row t = sum_i F_i x_{t - shift - i}, zero where the index < 0.
std::vector<ExactVector> convolve(const Filter& filter, const std::vector<ExactVector>& x, std::size_t shift);

class CatLayer {
 public:
  explicit CatLayer(CatConfig config);
  const CatConfig& config() const { return config_; }

  // Decodes o_t for each query position in `queries` (0-based) of the token sequence z.
  std::vector<Decoded> decode(const Tokens& z, const std::vector<std::size_t>& queries) const;
  Decoded decode_last(const Tokens& z) const { return decode(z, {z.size() - 1}).front(); }

  // The exact ingredients of the scores at query t: <q_t, k_s>, |q_t|^2, |k_s|^2 for each visible key s.
  struct ExactScores {
    std::vector<std::size_t> keys;
    std::vector<Exact> dots, key_norms2;
    Exact query_norm2;
  };
  struct Streams {
    std::vector<ExactVector> queries, keys, values;
  };
  Streams streams(const Tokens& z) const;
  ExactScores exact_scores(const Streams& s, std::size_t t) const;
  // The keys visible at query t grouped by score level, each with its value.
  AttentionLevels levels(const Streams& s, std::size_t t) const;

 private:
  CatConfig config_;
};

}  // namespace tverify::cat
