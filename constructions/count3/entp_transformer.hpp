// The transformer of ENTP Appendix A (A.1 notation): single-head attention with query/key dimension D, no layer norm,
// no 1/sqrt(D) scaling, a skip connection after each attention block and after each MLP block, optional positional
// embeddings p_i added to the inputs. An encoder attends over every position, a decoder over j <= i (A.2-A.5).
//
// One evaluator, generic over an arithmetic policy that supplies the scalar type, constants, softmax and ReLU:
// Exact (softmax only where it is rational: equal scores, e.g. W_Q = W_K = 0 or identical tokens), Interval
// (certified), and Z3 terms with every exponential a free positive variable (checkers/count3 proves identities that
// hold for any positive values of the exponentials, hence for exp).
#pragma once

#include "core/elementary.hpp"
#include "core/exact.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tverify::count3 {

using ExactMatrix = std::vector<std::vector<Exact>>;  // rows
using ExactVector = std::vector<Exact>;

struct EntpLayer {
  ExactMatrix query, key, value;  // W_Q, W_K, W_V: D x D
  ExactMatrix hidden, out;        // MLP W_1 (r x D), W_2 (D x r); empty: the MLP block is zero
};

struct EntpModel {
  std::vector<EntpLayer> layers;
  std::vector<ExactVector> positions;  // p_1, p_2, ...; empty: position free
  bool causal = false;                 // decoder when true
  std::size_t dim() const { return layers.front().query.size(); }
};

// Thm 4.1's decoder D~ (A.4): two layers with W_K = W_Q = 0, W_V = I, MLPs zero, position free.
EntpModel thm4_1_decoder(std::size_t dim);
// Thm 4.2's encoder E~ (A.5): two layers with W_K = W_Q = W_V = I, MLPs zero, position free.
EntpModel thm4_2_encoder(std::size_t dim);
// The attention mask and positional embeddings of a random model.
struct RandomModelShape {
  bool causal = false;             // a decoder when true, an encoder otherwise
  std::size_t position_count = 0;  // random positional embeddings p_1..p_position_count; 0: position free
};
// Seeded random rational weights: entries k/den with |k| <= range; `layers` layers, MLP width `hidden` (0: none).
EntpModel random_model(std::uint64_t seed, std::size_t dim, std::size_t layers, std::size_t hidden,
                       RandomModelShape shape);
ExactVector random_vector(std::uint64_t seed, std::size_t dim);

// Policies.
template <class T>
struct NumericPolicy {  // Exact or Interval
  using Scalar = T;
  Scalar constant(const Exact& q) const { return from_exact<T>(q); }
  std::vector<Scalar> softmax(const std::vector<Scalar>& z) const { return tverify::softmax(z); }
  Scalar relu(const Scalar& x) const {
    using tverify::relu;
    return relu(x);  // Interval's relu is found by argument-dependent lookup
  }
};

template <class Policy>
using Stream = std::vector<std::vector<typename Policy::Scalar>>;  // one vector per position

template <class Policy>
std::vector<typename Policy::Scalar> apply(Policy& policy, const ExactMatrix& w,
                                           const std::vector<typename Policy::Scalar>& x) {
  std::vector<typename Policy::Scalar> out;
  for (const auto& row : w) {
    auto sum = policy.constant(0);
    for (std::size_t c = 0; c < row.size(); ++c)
      if (row[c] != 0) sum = sum + policy.constant(row[c]) * x[c];
    out.push_back(sum);
  }
  return out;
}

// Every position's output of the model on xs (the residual stream after the last block).
template <class Policy>
Stream<Policy> entp_forward(const EntpModel& model, const std::vector<ExactVector>& xs, Policy& policy) {
  using S = typename Policy::Scalar;
  Stream<Policy> h;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    std::vector<S> row;
    for (std::size_t c = 0; c < xs[i].size(); ++c)
      row.push_back(policy.constant(model.positions.empty() ? xs[i][c] : Exact(xs[i][c] + model.positions.at(i)[c])));
    h.push_back(row);
  }
  for (const auto& layer : model.layers) {
    Stream<Policy> queries, keys, values, next = h;
    for (const auto& hi : h) {
      queries.push_back(apply(policy, layer.query, hi));
      keys.push_back(apply(policy, layer.key, hi));
      values.push_back(apply(policy, layer.value, hi));
    }
    for (std::size_t i = 0; i < h.size(); ++i) {
      const std::size_t visible = model.causal ? i + 1 : h.size();
      std::vector<S> scores;
      for (std::size_t j = 0; j < visible; ++j) {
        S s = policy.constant(0);
        for (std::size_t c = 0; c < queries[i].size(); ++c) s = s + queries[i][c] * keys[j][c];
        scores.push_back(s);
      }
      const std::vector<S> weights = policy.softmax(scores);
      for (std::size_t j = 0; j < visible; ++j)
        for (std::size_t c = 0; c < next[i].size(); ++c) next[i][c] = next[i][c] + weights[j] * values[j][c];
    }
    if (!layer.hidden.empty())
      for (auto& hi : next) {
        std::vector<S> hidden = apply(policy, layer.hidden, hi);
        for (auto& u : hidden) u = policy.relu(u);
        const std::vector<S> mlp = apply(policy, layer.out, hidden);
        for (std::size_t c = 0; c < hi.size(); ++c) hi[c] = hi[c] + mlp[c];
      }
    h = std::move(next);
  }
  return h;
}

}  // namespace tverify::count3
