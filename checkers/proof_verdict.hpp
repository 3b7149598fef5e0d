// A Z3 proof as a claim result: unsat is `verified`, a model that replays in exact arithmetic is `refuted`, anything
// else (a timeout, a model that does not replay) is `unknown` with the reason.
#pragma once

#include "checkers/construction.hpp"
#include "proofs/z3_query.hpp"

namespace tverify {

ClaimResult claim_from_proof(const ClaimSpec& spec, const proofs::ProofResult& p);

}  // namespace tverify
