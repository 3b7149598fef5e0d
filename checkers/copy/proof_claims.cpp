#include "checkers/copy/proof_claims.hpp"

#include "checkers/copy/transformer_claims.hpp"
#include "checkers/proof_dump.hpp"
#include "checkers/proof_verdict.hpp"
#include "proofs/copy_proofs.hpp"

#include <functional>
#include <utility>

namespace tverify::copy {

namespace {

// copy.scores for every repeat-free string of one (D, n, L) at once (one-hot, tokens symbolic), under one reading.
ClaimResult prove_scores(const ClaimSpec& spec, const CopyTransformerConfig& config, NgramReading reading,
                         const proofs::QueryOptions& query) {
  if (config.embedding != EmbeddingKind::OneHot)
    throw UsageError("--embedding c2: the symbolic proof of " + spec.id + " encodes the one-hot embedding only");
  const CopyTransformer transformer(config);
  ClaimResult r = claim_from_proof(spec, proofs::prove_scores_symbolic(transformer, reading, query));
  r.reading = to_string(reading);
  mark_scores_hypotheses(r, config.alphabet, config.n, config.length);
  return r;
}

}  // namespace

std::vector<ClaimResult> prove_copy_claims(const CopyTransformerConfig& config,
                                           const std::vector<NgramReading>& readings,
                                           const std::vector<std::string>& ids, const ProofOptions& options) {
  using Prove = std::function<std::vector<ClaimResult>(const ClaimSpec&, const proofs::QueryOptions&)>;
  auto one = [](auto prove_one) -> Prove {
    return [prove_one](const ClaimSpec& s, const proofs::QueryOptions& q) {
      return std::vector<ClaimResult>{claim_from_proof(s, prove_one(q))};
    };
  };
  const auto& p = proof_claim_specs();
  const TransformerVariant variant = config.variant;
  const std::vector<std::pair<const ClaimSpec*, Prove>> proofs_by_claim{
      {&p.lemma_c3, one([](const auto& q) { return proofs::prove_lemma_c3(q); })},
      {&p.gadget_ghat, one([variant](const auto& q) { return proofs::prove_gadget_ghat(variant, q); })},
      {&p.gadget_gtilde, one([variant](const auto& q) { return proofs::prove_gadget_gtilde(variant, q); })},
      {&p.gadget_gstar, one([](const auto& q) { return proofs::prove_gadget_gstar(q); })},
      {&transformer_claim_specs().scores,
       [&config, &readings](const ClaimSpec& s, const proofs::QueryOptions& q) {
         std::vector<ClaimResult> out;
         for (NgramReading reading : readings) out.push_back(prove_scores(s, config, reading, q));
         return out;
       }},
  };
  const ClaimSelection asked(ids);
  const proofs::QueryOptions query = query_options(options);
  std::vector<ClaimResult> results;
  for (const auto& [spec, prove] : proofs_by_claim)
    if (asked.has(*spec))
      for (auto& r : prove(*spec, query.named(spec->id))) results.push_back(std::move(r));
  return results;
}

}  // namespace tverify::copy
