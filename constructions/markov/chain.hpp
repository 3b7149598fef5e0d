// The binary first-order Markov chain (pi(p, q), P(p, q)) of Attention with Markov, Sec. 2: P(x' = 1 | x = 0) = p,
// P(x' = 0 | x = 1) = q, started from the stationary law pi = (q, p) / (p + q). Every probability is an exact
// rational; entropies are certified enclosures.
#pragma once

#include "core/exact.hpp"
#include "core/interval.hpp"

#include <cstdint>

namespace tverify::markov {

using Real = Interval<128>;

class MarkovChain {
 public:
  // Throws std::invalid_argument unless 0 < p < 1 and 0 < q < 1.
  MarkovChain(Exact p, Exact q);

  const Exact& p() const { return p_; }
  const Exact& q() const { return q_; }
  Exact pi0() const { return q_ / (p_ + q_); }
  Exact pi1() const { return p_ / (p_ + q_); }
  Exact switching() const { return p_ + q_; }  // p + q, the "switching factor"
  // P(x_{n+1} = 1 | x_n) = x_n (1 - p - q) + p (proof of Thm. 1).
  Exact kernel(int x) const { return x ? 1 - q_ : p_; }
  Exact transition(int from, int to) const { return to ? kernel(from) : 1 - kernel(from); }
  Exact stationary(int x) const { return x ? pi1() : pi0(); }
  // The probability of the first `length` bits of `bits` (bit i is x_{i+1}), started from pi.
  Exact prefix_probability(std::uint64_t bits, int length) const;

  Real entropy_rate() const;        // H(x_{n+1} | x_n) = pi0 h(p) + pi1 h(q)
  Real marginal_entropy() const;    // H(pi)
  Real mutual_information() const;  // I(x_n; x_{n+1}) = H(pi) - H(x_{n+1} | x_n) (Remark 2)

 private:
  Exact p_, q_;
};

// h(k) = -k log k - (1 - k) log(1 - k) for 0 < k < 1, in nats (the paper's logs are natural).
Real binary_entropy(const Exact& k);

inline int bit(std::uint64_t bits, int i) { return static_cast<int>((bits >> i) & 1u); }

}  // namespace tverify::markov
