// `tverify sweep markov --vary pq`: a (p, q) grid with the definiteness of eq. (12)'s H_alpha (exact LDL^T) and the
// optimality gap L(theta_pi) - L(theta_star) = I(x_n; x_{n+1}) (Remark 2), as CSV and PNG heat maps.
#pragma once

#include "checkers/markov/markov_claims.hpp"

namespace tverify::markov {

// resolution: the grid step 1/G as text ("1/20"); p, q = k/G for k = 1..G-1.
Json sweep_pq(const MarkovSetup& setup, const std::string& resolution, const SweepOutput& output);

}  // namespace tverify::markov
