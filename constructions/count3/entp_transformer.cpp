#include "constructions/count3/entp_transformer.hpp"

#include <random>

namespace tverify::count3 {

namespace {

ExactMatrix identity(std::size_t dim) {
  ExactMatrix m(dim, ExactVector(dim, Exact(0)));
  for (std::size_t i = 0; i < dim; ++i) m[i][i] = 1;
  return m;
}

ExactMatrix zero(std::size_t dim) { return ExactMatrix(dim, ExactVector(dim, Exact(0))); }

// Entries k/4 with k uniform in [-8, 8]: small, exact, and rarely equal.
Exact random_entry(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> draw(-8, 8);
  return Exact(draw(rng), 4);
}

ExactMatrix random_matrix(std::mt19937_64& rng, std::size_t rows, std::size_t cols) {
  ExactMatrix m(rows, ExactVector(cols));
  for (auto& row : m)
    for (auto& e : row) e = random_entry(rng);
  return m;
}

}  // namespace

EntpModel thm4_1_decoder(std::size_t dim) {
  EntpModel m;
  m.causal = true;
  for (int l = 0; l < 2; ++l) m.layers.push_back({zero(dim), zero(dim), identity(dim), {}, {}});
  return m;
}

EntpModel thm4_2_encoder(std::size_t dim) {
  EntpModel m;
  m.causal = false;
  for (int l = 0; l < 2; ++l) m.layers.push_back({identity(dim), identity(dim), identity(dim), {}, {}});
  return m;
}

EntpModel random_model(std::uint64_t seed, std::size_t dim, std::size_t layers, std::size_t hidden,
                       RandomModelShape shape) {
  std::mt19937_64 rng(seed);
  EntpModel m;
  m.causal = shape.causal;
  for (std::size_t l = 0; l < layers; ++l) {
    EntpLayer layer{random_matrix(rng, dim, dim), random_matrix(rng, dim, dim), random_matrix(rng, dim, dim), {}, {}};
    if (hidden > 0) {
      layer.hidden = random_matrix(rng, hidden, dim);
      layer.out = random_matrix(rng, dim, hidden);
    }
    m.layers.push_back(std::move(layer));
  }
  for (std::size_t i = 0; i < shape.position_count; ++i) m.positions.push_back(random_matrix(rng, 1, dim).front());
  return m;
}

ExactVector random_vector(std::uint64_t seed, std::size_t dim) {
  std::mt19937_64 rng(seed);
  return random_matrix(rng, 1, dim).front();
}

}  // namespace tverify::count3
