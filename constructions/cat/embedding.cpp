#include "constructions/cat/embedding.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tverify::cat {

Exact dot(const ExactVector& a, const ExactVector& b) {
  Exact sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != 0 && b[i] != 0) sum += a[i] * b[i];
  return sum;
}

Exact TokenEmbedding::min_distance_squared() const {
  Exact best = -1;
  for (std::size_t a = 0; a < size(); ++a)
    for (std::size_t b = a + 1; b < size(); ++b) {
      const Exact d2 = Exact(2) - 2 * dot(vectors[a], vectors[b]);  // unit vectors
      if (best < 0 || d2 < best) best = d2;
    }
  return best;
}

TokenEmbedding one_hot_embedding(int vocabulary) {
  TokenEmbedding e;
  for (int t = 0; t < vocabulary; ++t) {
    ExactVector v(static_cast<std::size_t>(vocabulary), Exact(0));
    v[static_cast<std::size_t>(t)] = 1;
    e.vectors.push_back(v);
  }
  return e;
}

namespace {

// Rational points u in Q^{dim-1} with coordinates in {0, +-1/2, +-1, ...}, in order of |u|^2, then lexicographic.
std::vector<ExactVector> small_points(std::size_t count, std::size_t coords) {
  std::vector<std::pair<Exact, ExactVector>> all;
  const int range = 4;  // half-units in [-2, 2]
  std::vector<int> digits(coords, -range);
  while (true) {
    ExactVector u;
    Exact norm2 = 0;
    for (int d : digits) {
      u.emplace_back(d, 2);
      norm2 += Exact(d * d, 4);
    }
    all.emplace_back(norm2, u);
    std::size_t k = 0;
    while (k < coords && digits[k] == range) digits[k++] = -range;
    if (k == coords) break;
    ++digits[k];
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<ExactVector> out;
  for (std::size_t i = 0; i < count && i < all.size(); ++i) out.push_back(all[i].second);
  if (out.size() < count) throw std::invalid_argument("stereographic embedding: not enough small points");
  return out;
}

}  // namespace

TokenEmbedding stereographic_embedding(int vocabulary, int dim) {
  if (dim < 2) throw std::invalid_argument("stereographic embedding needs dim >= 2");
  TokenEmbedding e;
  for (const ExactVector& u : small_points(static_cast<std::size_t>(vocabulary), static_cast<std::size_t>(dim - 1))) {
    const Exact n2 = dot(u, u);
    ExactVector v;
    for (const auto& ui : u) v.push_back(2 * ui / (n2 + 1));
    v.push_back((n2 - 1) / (n2 + 1));
    e.vectors.push_back(v);
  }
  return e;
}

TokenEmbedding custom_embedding(std::vector<ExactVector> vectors) {
  if (vectors.size() < 2) throw std::invalid_argument("an embedding needs at least 2 tokens");
  for (std::size_t a = 0; a < vectors.size(); ++a) {
    if (vectors[a].size() != vectors.front().size())
      throw std::invalid_argument("embedding vector " + std::to_string(a) + " has another dimension");
    if (dot(vectors[a], vectors[a]) != 1)
      throw std::invalid_argument("embedding vector " + std::to_string(a) + " is not a unit vector (|e|^2 = " +
                                  exact_to_string(dot(vectors[a], vectors[a])) + ")");
    for (std::size_t b = 0; b < a; ++b)
      if (vectors[a] == vectors[b])
        throw std::invalid_argument("embedding vectors " + std::to_string(b) + " and " + std::to_string(a) +
                                    " are equal");
  }
  return TokenEmbedding{std::move(vectors)};
}

}  // namespace tverify::cat
