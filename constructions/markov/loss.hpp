// The population loss of eq. (3), L = -(1/N) sum_n E[x_{n+1} log f(x_1..x_n) + (1 - x_{n+1}) log(1 - f(x_1..x_n))],
// as an exact expectation: every prefix x_1..x_n (n = 1..N) with its exact probability under (pi, P), and the next
// bit summed out with the exact kernel, so each prefix contributes P(x_1..x_n) (softplus(g) - k g) / N with
// g = logit_n and k = P(x_{n+1} = 1 | x_n). Logs and sigmoids are enclosed (Interval); the result is a certified
// enclosure. Derivatives come from the tape of core/autodiff.hpp over the same model code.
#pragma once

#include "constructions/markov/model.hpp"
#include "core/linalg.hpp"

#include <functional>

namespace tverify::markov {

// Number of prefixes of length 1..N: 2^{N+1} - 2.
std::uint64_t prefix_count(int N);
// The prefix with this index: length n and bits (bit i = x_{i+1}), lengths in increasing order.
std::pair<int, std::uint64_t> prefix_at(std::uint64_t index);

Real population_loss(const MarkovChain& chain, const Point& point, unsigned threads = 1);

// Lemma 1's right-hand side: (1/N) sum_n E[KL(P(. | x_n) || P_theta(. | x_1..x_n))] + H(x_{n+1} | x_n).
Real kl_form_of_loss(const MarkovChain& chain, const Point& point);

struct Derivatives {
  Real loss;
  std::vector<Real> gradient;
  Matrix<Real> hessian;  // empty unless requested; symmetric (each pair of entries intersected)
  long kinks = 0;        // ReLU arguments that were not decided away from 0 (generalized derivatives)
};
Derivatives loss_derivatives(const MarkovChain& chain, const Point& point, bool with_hessian, unsigned threads = 1);

// Lemma 2, eq. (5): -(1/N) sum_n E[(P(x_{n+1} = 1 | x_n) - f) grad(a^T z_n + b)], with f = sigmoid(logit).
std::vector<Real> lemma2_gradient(const MarkovChain& chain, const Point& point);

// f(x_1..x_n) = sigmoid(logit_n) for every prefix, in prefix order.
void for_each_prediction(const Point& point,
                         const std::function<void(int n, std::uint64_t bits, const Real& f)>& visit);

// The loss for any N (e.g. the paper's N = 1024) when W_O = 0 exactly: the prediction then depends on (x_n, n) only
// and x_n ~ pi at every n, so L = (1/N) sum_n sum_x pi_x (softplus(g(x, n)) - k(x) g(x, n)). Throws
// std::invalid_argument unless W_O is exactly zero.
Real loss_without_attention(const MarkovChain& chain, const Point& point);

}  // namespace tverify::markov
