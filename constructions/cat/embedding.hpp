// Token embeddings for the CAT layer (CAT paper, Sec. 4: "all token embeddings have unit norm"), with rational
// coordinates so that every inner product is exact: one-hot, or points of the unit sphere obtained by inverse
// stereographic projection of rational points u in Q^{d-1}:  sigma(u) = (2u, |u|^2 - 1) / (|u|^2 + 1).
#pragma once

#include "core/exact.hpp"

#include <vector>

namespace tverify::cat {

using ExactVector = std::vector<Exact>;

Exact dot(const ExactVector& a, const ExactVector& b);

struct TokenEmbedding {
  std::vector<ExactVector> vectors;  // e(0), ..., e(V-1)
  std::size_t size() const { return vectors.size(); }
  std::size_t dim() const { return vectors.front().size(); }
  // Delta^2 = min over distinct tokens of |e(a) - e(b)|^2 (Delta is the paper's minimum distance).
  Exact min_distance_squared() const;
};

TokenEmbedding one_hot_embedding(int vocabulary);
// V distinct rational unit vectors in R^dim (dim >= 2), non-orthogonal in general: sigma of the first V points of
// a fixed list of small rational points u (integers and halves, nearest the origin first).
TokenEmbedding stereographic_embedding(int vocabulary, int dim);
// Throws std::invalid_argument naming the first vector that is not a unit vector, or the first repeated pair.
TokenEmbedding custom_embedding(std::vector<ExactVector> vectors);

}  // namespace tverify::cat
