// The copy claims established with Z3 (proofs/copy_proofs), as claim results: unsat is `verified`, a model that
// replays in exact arithmetic is `refuted`, anything else (a timeout, a model that does not replay) is `unknown`.
#pragma once

#include "checkers/construction.hpp"
#include "constructions/copy/transformer.hpp"

#include <vector>

namespace tverify::copy {

struct ProofClaimSpecs {
  ClaimSpec lemma_c3, gadget_ghat, gadget_gtilde, gadget_gstar;
};
const ProofClaimSpecs& proof_claim_specs();

// ids: any of copy.lemma_c3, copy.gadget_ghat, copy.gadget_gtilde, copy.gadget_gstar, copy.scores (one result per
// reading of Definition 2.2).
std::vector<ClaimResult> prove_copy_claims(const CopyTransformerConfig& config,
                                           const std::vector<NgramReading>& readings,
                                           const std::vector<std::string>& ids, const ProofOptions& options);

}  // namespace tverify::copy
