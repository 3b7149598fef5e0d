#include "checkers/copy/proof_claims.hpp"

#include "checkers/copy/transformer_claims.hpp"
#include "checkers/proof_verdict.hpp"
#include "proofs/copy_proofs.hpp"

#include <z3++.h>

#include <algorithm>

namespace tverify::copy {

std::vector<ClaimResult> prove_copy_claims(const CopyTransformerConfig& config, const std::vector<std::string>& ids,
                                           const ProofOptions& options) {
  const proofs::QueryOptions query{options.timeout_ms, options.smt2_dir};
  const auto& specs = proof_claim_specs();
  auto wanted = [&](const std::string& id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
  std::vector<ClaimResult> results;
  if (wanted(specs.lemma_c3.id)) results.push_back(claim_from_proof(specs.lemma_c3, proofs::prove_lemma_c3(query)));
  if (wanted(specs.gadget_ghat.id))
    results.push_back(claim_from_proof(specs.gadget_ghat, proofs::prove_gadget_ghat(config.variant, query)));
  if (wanted(specs.gadget_gtilde.id))
    results.push_back(claim_from_proof(specs.gadget_gtilde, proofs::prove_gadget_gtilde(config.variant, query)));
  if (wanted(specs.gadget_gstar.id)) results.push_back(claim_from_proof(specs.gadget_gstar, proofs::prove_gadget_gstar(query)));
  if (wanted("copy.scores")) {
    if (config.embedding != EmbeddingKind::OneHot)
      throw UsageError("--embedding c2: the symbolic proof of copy.scores encodes the one-hot embedding only");
    const CopyTransformer transformer(config);
    ClaimResult r = claim_from_proof(transformer_claim_specs().scores, proofs::prove_scores_symbolic(transformer, query));
    r.reading = "text";
    mark_scores_hypotheses(r, config.alphabet, config.n, config.length);
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace tverify::copy
