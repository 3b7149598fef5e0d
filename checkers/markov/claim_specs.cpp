// The claims of Attention with Markov that tverify checks; `tverify list markov` prints them.
#include "checkers/markov/markov_claims.hpp"

namespace tverify::markov {

namespace {

std::string about_tied_model(const ParamValues& params, const std::string&) {
  return params.flag("tied") ? "" : "is about the weight-tied model: add --tied";
}

std::string about_untied_model(const ParamValues& params, const std::string&) {
  return params.flag("tied") ? "is about the untied model: drop --tied" : "";
}

}  // namespace

const MarkovClaimSpecs& markov_claim_specs() {
  static const MarkovClaimSpecs specs{
      {"markov.lemma1",
       "Appendix B, Lemma 1, eq. (4)",
       "The loss equals the mean KL divergence between the Markov kernel and the prediction plus the entropy rate.",
       "Z3 proves the per-term identity -k log f - (1-k) log(1-f) = KL(k || f) + h(k) with the logs as symbols; "
       "exactly, P(x_n = x) = pi_x for every n <= N (so the h terms sum to the entropy rate); and at theta_star, "
       "theta_pi and seeded random points the certified enclosures of both sides of eq. (4) intersect (disjoint "
       "enclosures would refute)",
       {"p", "q", "d", "m", "r", "N", "tied", "samples", "seed"}},
      {"markov.lemma2",
       "Appendix B, Lemma 2, eq. (5)",
       "grad L = -(1/N) sum_n E[(P(x_{n+1} = 1 | x_n) - f) grad(a^T z_n + b)] for every parameter.",
       "at theta_star, theta_pi and seeded random points, every component of eq. (5) (tape gradient of the logit, "
       "weighted by the kernel minus the prediction) against the autodiff gradient of eq. (3); disjoint enclosures "
       "refute; intersecting ones are consistent but cannot decide an equality of reals, so the verdict is at best "
       "unknown",
       {"p", "q", "d", "m", "r", "N", "tied", "samples", "seed"}},
      {"markov.thm1",
       "Sec. 3.1, Theorem 1; Appendix B.1-B.2, eqs. (7), (10)",
       "theta_star is a global minimum: f = the Markov kernel, L = the entropy rate, grad L = 0.",
       "weight-tied theta_star as printed (eq. 7 if p + q <= 1, eq. 10 otherwise; W_{K,Q,V}, W_1 per --arbitrary): "
       "Z3 proves logit_n = log-odds of the kernel for every n <= N and x_n (the run's d, r, N) with the logs as "
       "symbols (verified: then f = kernel exactly, and L = entropy rate and grad L = 0 follow by Lemmas 1-2); every "
       "prediction's enclosure contains the kernel, L's encloses the entropy rate's, every gradient component's "
       "contains 0 (a certified miss refutes); the loss at N = 1024 from the large-N evaluator",
       {"p", "q", "d", "m", "r", "N", "tied", "arbitrary", "seed"},
       DecidedBy::Check,
       about_tied_model},
      {"markov.thm2.stationary",
       "Sec. 3.1, Theorem 2; Appendix B.3, eqs. (11), (12)",
       "For p + q > 1, theta_pi [is a bad local minimum, see markov.thm2.local_minimum]: f = pi_1, L = H(pi) > "
       "L_star, grad L = 0, and the Hessian is diag(H_alpha, 0) with H_alpha = pi0 pi1 [[1, u^T], [u, V]] positive "
       "definite.",
       "weight-tied theta_pi of eq. (11): Z3 proves logit = log(p/q) everywhere (f = pi_1 exactly); enclosures of f, "
       "L - H(pi) and grad L as for thm1; L(theta_star) < L(theta_pi) exactly (the gap is I(x_n; x_{n+1}) > 0); the "
       "full autodiff Hessian over all parameters against eq. (12) entry by entry (a certified miss refutes); eq. "
       "(12)'s H_alpha with the exact rational p_n by exact LDL^T (positive definite when p + q > 1, else refuted) and "
       "the autodiff block by certified LDL^T. Not local minimality: markov.thm2.local_minimum",
       {"p", "q", "d", "m", "r", "N", "tied", "arbitrary", "seed"},
       DecidedBy::Check,
       about_tied_model},
      {"markov.thm2.local_minimum",
       "Sec. 3.1, Theorem 2; Appendix B.3 (Facts 1-3)",
       "For p + q > 1, theta_pi is a local minimum.",
       "not decided (always unknown): the Hessian vanishes on the beta block, so second-order data decides nothing "
       "there, and the paper's argument is not valid in general (docs/errata.md M2). Reported as evidence: exact loss "
       "changes L(theta_pi + t v + t^2 w) - L(theta_pi), certified, along beta-only, curved and straight paths through "
       "theta_pi at t = 1/4, 1/16, 1/64 (a decrease at a fixed t would not refute a local minimum either)",
       {"p", "q", "d", "m", "r", "N", "tied", "arbitrary", "seed"},
       DecidedBy::Check,
       about_tied_model},
      {"markov.thm3",
       "Sec. 3.2, Theorem 3; Appendix B.4",
       "Without weight tying, (theta_star, a_star = e_star) is a global minimum with the properties of Thm. 1.",
       "as markov.thm1 on the untied model (a a separate parameter, set to e_star)",
       {"p", "q", "d", "m", "r", "N", "tied", "arbitrary", "seed"},
       DecidedBy::Check,
       about_untied_model},
      {"markov.thm4",
       "Sec. 3.2, Theorem 4; Appendix B.5",
       "Without weight tying and p + q > 1, (theta_pi, a_pi = 0) is a saddle point with f = pi_1, L = H(pi), "
       "grad L = 0.",
       "untied theta_pi: f = pi_1 (Z3), enclosures of L and grad L as for thm2; the closed-form Hessian block over "
       "(b, a, e) of Appendix B.5 by exact LDL^T, whose negative witness v is replayed on the autodiff Hessian "
       "(certified v^T H v < 0: not a local minimum) beside the certified H_bb > 0 (not a local maximum)",
       {"p", "q", "d", "m", "r", "N", "tied", "arbitrary", "seed"},
       DecidedBy::Check,
       about_untied_model},
      {"markov.c2",
       "Appendix C.2, eqs. (14)-(29)",
       "Plugging the averaged learned values (27) into eq. (26) gives logits 0.8191 / -1.3897 and probabilities "
       "0.694 / 0.199 (eqs. 28-29), close to 1 - q = 0.7 and p = 0.2.",
       "exactly: the model with the structure of eqs. (14)-(19) (W_O = 0 by approximation (17), d = 4, r = 16, "
       "beta = 5) gives eq. (26)'s logit for both x_n; eq. (26) at the printed decimals (27) rounds to eq. (28); the "
       "sigmoid's certified enclosure rounds to eq. (29)",
       {}},
      {"markov.schur",
       "Appendix B.3, positive-definiteness of H_alpha",
       "V - u u^T = 2(p+q-1) I + Cov({p_n}).",
       "Z3: the polynomial identity in p, q and every entry of p_1..p_N, for the given d and N",
       {"d", "N"},
       DecidedBy::Prove},
      {"markov.h_alpha_pd",
       "Appendix B.3, eq. (12)",
       "H_alpha is positive definite when p + q > 1, for any p_n.",
       "Z3: v^T [[1, u^T], [u, V]] v > 0 for all p, q in (0,1) with p + q > 1, all real p_n and all v != 0, for the "
       "given d and N (nonlinear real arithmetic; may time out: unknown)",
       {"d", "N"},
       DecidedBy::Prove},
  };
  return specs;
}

}  // namespace tverify::markov
