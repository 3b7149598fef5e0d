// The claims of Attention with Markov (Makkuva et al., arXiv 2402.04161) that tverify checks: the setup every check
// shares, the claim specs, and one function per claim.
#pragma once

#include "checkers/construction.hpp"
#include "constructions/markov/loss.hpp"
#include "constructions/markov/points.hpp"
#include "proofs/z3_query.hpp"

namespace tverify::markov {

struct MarkovSetup {
  MarkovChain chain;
  Shapes shapes;
  Variant variant = Variant::Paper;
  Arbitrary arbitrary;
  int samples = 2;                  // random points for Lemmas 1-2
  std::optional<Point> user_point;  // --point-file: also checked by Lemmas 1-2
  std::string user_point_sha256;    // of that file's bytes
  unsigned threads = 1;
  proofs::QueryOptions proof_options;
};

struct MarkovClaimSpecs {
  ClaimSpec lemma1, lemma2, thm1, thm2_stationary, thm2_local_minimum, thm3, thm4, c2, schur, h_alpha_pd;
};
const MarkovClaimSpecs& markov_claim_specs();

// The paper's N for its experiments: the large-N evaluator reports the loss there.
constexpr int paper_sequence_length = 1024;

ClaimResult check_lemma1(const MarkovSetup& setup);
ClaimResult check_lemma2(const MarkovSetup& setup);
// Theorems 1 and 3: theta_star (tied / untied) is a global minimum with f = the kernel, L = entropy rate, grad = 0.
ClaimResult check_global_minimum(const ClaimSpec& spec, const MarkovSetup& setup);
// Theorem 2 (tied), in its two parts, from one analysis of theta_pi: the stationary point with f = pi_1, L = H(pi)
// and the Hessian of eq. (12) (markov.thm2.stationary), and local minimality (markov.thm2.local_minimum); returns
// the parts asked for, in that order.
struct ThetaPiClaims {
  bool stationary = false, local_minimum = false;
};
std::vector<ClaimResult> check_theta_pi_tied(const MarkovSetup& setup, ThetaPiClaims want);
// Theorem 4 (untied): the extension of theta_pi is a saddle.
ClaimResult check_saddle(const MarkovSetup& setup);
ClaimResult check_c2();

// Two enclosures that cannot hold the same real (a certified difference).
inline bool disjoint(const Real& a, const Real& b) { return a.upper() < b.lower() || b.upper() < a.lower(); }
// The largest width of a list of enclosures, as a short decimal.
std::string max_width(const std::vector<Real>& values);
// The outcome of a Z3 query in a claim's details ("proved in 0.1 s", or why not).
Json proof_json(const proofs::ProofResult& p);

// Sample points for Lemmas 1-2: theta_star, theta_pi and `samples` seeded random points.
std::vector<std::pair<std::string, Point>> lemma_points(const MarkovSetup& setup);

}  // namespace tverify::markov
