#include "checkers/copy/proof_claims.hpp"

#include "checkers/copy/transformer_claims.hpp"
#include "proofs/copy_proofs.hpp"

#include <z3++.h>

#include <algorithm>

namespace tverify::copy {
namespace {

ClaimResult claim_from(const ClaimSpec& spec, const proofs::ProofResult& p) {
  ClaimResult r;
  r.id = spec.id;
  r.statement = spec.statement;
  r.checked = 1;
  switch (p.status) {
    case proofs::QueryStatus::Proved:
      r.passed = 1;
      r.summary = "Z3: unsat (proved)";
      break;
    case proofs::QueryStatus::CounterModel:
      if (p.replayed) {
        r.failed = 1;
        r.counterexamples.push_back({Json(p.counterexample), Json(p.statement), Json("violated"),
                                     "Z3 model, replayed in exact arithmetic"});
        r.summary = "Z3: sat, model replayed exactly";
      } else {
        r.unknown = 1;
        r.reason = "Z3 found a model that does not replay in exact arithmetic: " + p.counterexample;
      }
      break;
    default:
      r.unknown = 1;
      r.reason = "Z3 answered unknown (" + (p.reason.empty() ? std::string("no reason given") : p.reason) + ")";
  }
  r.set_verdict_from_counts();
  unsigned major = 0, minor = 0, build = 0, revision = 0;
  Z3_get_version(&major, &minor, &build, &revision);
  r.details["proved_statement"] = p.statement;
  r.details["solver"] = "z3 " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(build);
  r.details["seconds"] = p.seconds;
  if (!p.smt2_path.empty()) r.details["smt2"] = p.smt2_path;
  return r;
}

}  // namespace

std::vector<ClaimResult> prove_copy_claims(const CopyTransformerConfig& config, const std::vector<std::string>& ids,
                                           const ProofOptions& options) {
  const proofs::QueryOptions query{options.timeout_ms, options.smt2_dir};
  const auto& specs = proof_claim_specs();
  auto wanted = [&](const std::string& id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
  std::vector<ClaimResult> results;
  if (wanted(specs.lemma_c3.id)) results.push_back(claim_from(specs.lemma_c3, proofs::prove_lemma_c3(query)));
  if (wanted(specs.gadget_ghat.id))
    results.push_back(claim_from(specs.gadget_ghat, proofs::prove_gadget_ghat(config.variant, query)));
  if (wanted(specs.gadget_gtilde.id))
    results.push_back(claim_from(specs.gadget_gtilde, proofs::prove_gadget_gtilde(config.variant, query)));
  if (wanted(specs.gadget_gstar.id)) results.push_back(claim_from(specs.gadget_gstar, proofs::prove_gadget_gstar(query)));
  if (wanted("copy.scores")) {
    if (config.embedding != EmbeddingKind::OneHot)
      throw UsageError("--embedding c2: the symbolic proof of copy.scores encodes the one-hot embedding only");
    const CopyTransformer transformer(config);
    ClaimResult r = claim_from(transformer_claim_specs().scores, proofs::prove_scores_symbolic(transformer, query));
    r.reading = "text";
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace tverify::copy
