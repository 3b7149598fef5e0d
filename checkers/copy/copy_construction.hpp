// The copy construction of Repeat After Me (Jelassi et al., arXiv 2402.01032): its parameters, variants, claims
// and sweeps as data, and the functions that check, prove, sweep and evaluate it.
#pragma once

#include "checkers/construction.hpp"

namespace tverify::copy {

Construction copy_construction();

}  // namespace tverify::copy
