#include "checkers/proof_verdict.hpp"

#include <z3++.h>

namespace tverify {

ClaimResult claim_from_proof(const ClaimSpec& spec, const proofs::ProofResult& p) {
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
        r.counterexamples.push_back(
            {Json(p.counterexample), Json(p.statement), Json("violated"), "Z3 model, replayed in exact arithmetic"});
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

}  // namespace tverify
