// Z3 proofs for ENTP (arXiv 2410.01600 v3).
//   count3.lemma_a6  the ReLU gadget of Appendix A.6 equals g for every n >= 1 and every (a, b) of its domain, for
//                    every eps and M the lemma allows (printed: 0 < eps < 1, M eps >= 2n), and for the tight
//                    constants tverify found (0 < eps <= 1, M eps >= n)
//   entp.a2/a3       identities between transformer outputs, with every exponential of the softmax a free positive
//                    variable (FreeExpPolicy): unsat proves the identity for all positive values, hence for exp
#pragma once

#include "core/exact.hpp"
#include "proofs/z3_query.hpp"

#include <map>
#include <vector>

namespace tverify::proofs {

// The constants a query allows: 0 < eps < 1 (or <= 1 when eps_may_be_one), and M eps >= m_factor * n.
struct GadgetConstants {
  bool eps_may_be_one = false;
  Exact m_factor = 2;
  static GadgetConstants printed() { return {false, 2}; }
  static GadgetConstants tight() { return {true, 1}; }
};
ProofResult prove_lemma_a6(const GadgetConstants& constants, const QueryOptions& options);

// Arithmetic policy for count3::entp_forward over Z3 terms: softmax_j(z) = E_j / sum_k E_k with E_j a positive real
// variable per distinct (simplified) difference z_j - z_0, and E = 1 for a difference that simplifies to 0.
struct FreeExpPolicy {
  using Scalar = z3::expr;
  z3::context& ctx;
  std::map<unsigned, z3::expr> exponentials;  // by the id of the simplified exponent
  std::vector<z3::expr> hypotheses;           // E > 0 for each
  std::vector<z3::expr> exponents;            // kept alive, so that their ids are not reused

  explicit FreeExpPolicy(z3::context& c) : ctx(c) {}
  Scalar constant(const Exact& q) const { return real_of(ctx, q); }
  std::vector<Scalar> softmax(const std::vector<Scalar>& z);
  Scalar relu(const Scalar& x) const { return proofs::relu(x); }
};

// Proves lhs[c] == rhs[c] for every coordinate under the policy's hypotheses.
QueryOutcome prove_equal_vectors(FreeExpPolicy& policy, const std::string& name, const std::vector<z3::expr>& lhs,
                                 const std::vector<z3::expr>& rhs, const QueryOptions& options);

}  // namespace tverify::proofs
