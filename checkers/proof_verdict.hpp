// A Z3 proof as a claim result: unsat is `verified`, a model that replays in exact arithmetic is `refuted`, anything
// else (a timeout, a model that does not replay) is `unknown` with the reason. With a second solver's answer to the
// same query (prove --cross-check), sat against Z3's unsat, or unsat against Z3's replayed model, makes the claim
// `unknown` naming both answers; its unknown, timeout or error leaves Z3's verdict, noted in the summary. Either way
// details.cross_check records the answer.
#pragma once

#include "checkers/construction.hpp"
#include "proofs/z3_query.hpp"

namespace tverify {

ClaimResult claim_from_proof(const ClaimSpec& spec, const proofs::ProofResult& p);

}  // namespace tverify
