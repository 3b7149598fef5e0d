// Z3 proofs for Attention with Markov (Appendix B), over real arithmetic with the logs as symbols:
//   markov.prediction  the printed point's logit at every position n and bit x_n equals the log-odds of its target
//                      (the Markov kernel for theta_star, pi_1 for theta_pi), for every value of the symbols
//                      l1 = log(p/(1-p)), l2 = log((1-q)/q), l3 = log(p/q) and of s, w subject only to their defining
//                      relations (d s^2 = l2 - l1, c w^2 = 2(1 - (l2 - l1)/d)) and the sign of l2 - l1 that p + q
//                      fixes. This is the algebra of eqs. (6)/(9) -> (7)/(10). W_O = 0 exactly, so the attention term
//                      is absent (the caller checks W_O = 0).
//   markov.schur       V - u u^T = 2(p+q-1) I + Cov({p_n}) as a polynomial identity in p, q and every entry of p_n.
//   markov.h_alpha_pd  H_alpha of eq. (12) is positive definite for all p, q in (0,1) with p + q > 1 and all real p_n
//                      (v^T H_alpha v > 0 for every v != 0), for the given d and N.
#pragma once

#include "constructions/markov/points.hpp"
#include "proofs/z3_query.hpp"

namespace tverify::proofs {

ProofResult prove_markov_prediction(const markov::SymbolicPoint& point, const markov::MarkovChain& chain,
                                    markov::PointKind kind, markov::Variant variant, const QueryOptions& options);
ProofResult prove_markov_schur(int d, int N, const QueryOptions& options);
ProofResult prove_markov_h_alpha_pd(int d, int N, const QueryOptions& options);

}  // namespace tverify::proofs
