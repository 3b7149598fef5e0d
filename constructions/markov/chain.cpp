#include "constructions/markov/chain.hpp"

#include <stdexcept>

namespace tverify::markov {

MarkovChain::MarkovChain(Exact p, Exact q) : p_(std::move(p)), q_(std::move(q)) {
  if (p_ <= 0 || p_ >= 1 || q_ <= 0 || q_ >= 1) throw std::invalid_argument("Markov chain: p and q must lie in (0, 1)");
}

Exact MarkovChain::prefix_probability(std::uint64_t bits, int length) const {
  Exact prob = stationary(bit(bits, 0));
  for (int i = 1; i < length; ++i) prob *= transition(bit(bits, i - 1), bit(bits, i));
  return prob;
}

Real binary_entropy(const Exact& k) {
  const Real a(k), b(Exact(1 - k));
  return -(a * log(a)) - b * log(b);
}

Real MarkovChain::entropy_rate() const { return Real(pi0()) * binary_entropy(p_) + Real(pi1()) * binary_entropy(q_); }

Real MarkovChain::marginal_entropy() const { return binary_entropy(pi1()); }

Real MarkovChain::mutual_information() const { return marginal_entropy() - entropy_rate(); }

}  // namespace tverify::markov
