// The CAT layer of Theorem 1 / Corollary 1 (Li et al., arXiv 2407.05591): its parameters, variants, claims and
// sweeps as data, and the functions that check, sweep and evaluate it.
#pragma once

#include "checkers/cat/cat_claims.hpp"
#include "checkers/construction.hpp"

namespace tverify::cat {

Construction cat_construction();

// Validates the parameters (UsageError naming the parameter and its range) and builds the layer and its numbers.
CatSetup make_setup(const ParamValues& params, const std::string& variant);

}  // namespace tverify::cat
