// Attention with Markov (Makkuva et al., arXiv 2402.04161): parameters, variants, claims and sweeps as data, and the
// functions that check, prove, sweep and evaluate the model.
#pragma once

#include "checkers/markov/markov_claims.hpp"

namespace tverify::markov {

Construction markov_construction();

// Validates the parameters (UsageError naming the parameter and its range).
MarkovSetup make_setup(const ParamValues& params, const std::string& variant, const RunOptions& run);

}  // namespace tverify::markov
