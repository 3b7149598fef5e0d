#include "checkers/copy/proof_claims.hpp"

#include "checkers/copy/transformer_claims.hpp"
#include "checkers/proof_verdict.hpp"
#include "proofs/copy_proofs.hpp"

#include <functional>
#include <utility>

namespace tverify::copy {

namespace {

// copy.scores for every repeat-free string of one (D, n, L) at once (one-hot, text reading, tokens symbolic).
ClaimResult prove_scores(const ClaimSpec& spec, const CopyTransformerConfig& config, const proofs::QueryOptions& query) {
  if (config.embedding != EmbeddingKind::OneHot)
    throw UsageError("--embedding c2: the symbolic proof of " + spec.id + " encodes the one-hot embedding only");
  const CopyTransformer transformer(config);
  ClaimResult r = claim_from_proof(spec, proofs::prove_scores_symbolic(transformer, query));
  r.reading = "text";
  mark_scores_hypotheses(r, config.alphabet, config.n, config.length);
  return r;
}

}  // namespace

std::vector<ClaimResult> prove_copy_claims(const CopyTransformerConfig& config, const std::vector<std::string>& ids,
                                           const ProofOptions& options) {
  using Prove = std::function<ClaimResult(const ClaimSpec&, const proofs::QueryOptions&)>;
  const auto& p = proof_claim_specs();
  const TransformerVariant variant = config.variant;
  const std::vector<std::pair<const ClaimSpec*, Prove>> proofs_by_claim{
      {&p.lemma_c3, [](const ClaimSpec& s, const auto& q) { return claim_from_proof(s, proofs::prove_lemma_c3(q)); }},
      {&p.gadget_ghat,
       [variant](const ClaimSpec& s, const auto& q) { return claim_from_proof(s, proofs::prove_gadget_ghat(variant, q)); }},
      {&p.gadget_gtilde,
       [variant](const ClaimSpec& s, const auto& q) {
         return claim_from_proof(s, proofs::prove_gadget_gtilde(variant, q));
       }},
      {&p.gadget_gstar, [](const ClaimSpec& s, const auto& q) { return claim_from_proof(s, proofs::prove_gadget_gstar(q)); }},
      {&transformer_claim_specs().scores,
       [&config](const ClaimSpec& s, const auto& q) { return prove_scores(s, config, q); }},
  };
  const ClaimSelection asked(ids);
  const proofs::QueryOptions query{options.timeout_ms, options.smt2_dir};
  std::vector<ClaimResult> results;
  for (const auto& [spec, prove] : proofs_by_claim)
    if (asked.has(*spec)) results.push_back(prove(*spec, query.named(spec->id)));
  return results;
}

}  // namespace tverify::copy
