// ENTP's Count3 and the encoder/decoder theorems (Ewer et al., arXiv 2410.01600 v3): parameters, variants, claims
// and sweeps as data, and the functions that check, prove, sweep and evaluate them.
#pragma once

#include "checkers/construction.hpp"

namespace tverify::count3 {

Construction count3_construction();

}  // namespace tverify::count3
