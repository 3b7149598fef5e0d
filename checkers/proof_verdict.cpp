#include "checkers/proof_verdict.hpp"

#include <fmt/format.h>
#include <z3++.h>

namespace tverify {
namespace {

// The second solver's answer beside Z3's: a disagreement (sat against unsat) makes the claim unknown.
void cross_check(const proofs::SecondAnswer& second, const proofs::ProofResult& p, ClaimResult& r) {
  Json record = {{"solver", second.solver}, {"answer", second.answer}, {"seconds", second.seconds}};
  if (!second.detail.empty()) record["detail"] = second.detail;
  const bool z3_unsat = p.status == proofs::QueryStatus::Proved;
  const bool z3_sat = p.status == proofs::QueryStatus::CounterModel && p.replayed;
  const bool disagree = (z3_unsat && second.answer == "sat") || (z3_sat && second.answer == "unsat");
  record["agrees"] = (z3_unsat && second.answer == "unsat") || (z3_sat && second.answer == "sat");
  r.details["cross_check"] = record;
  if (disagree) {
    r.passed = r.failed = 0;
    r.unknown = 1;
    r.counterexamples.clear();
    r.summary = fmt::format("Z3: {}; {}: {} (they disagree)", z3_unsat ? "unsat" : "sat", second.solver, second.answer);
    r.reason = fmt::format("Z3 and {} disagree on this query{}: Z3 {}, {} {}", second.solver,
                           p.smt2_path.empty() ? "" : " (" + p.smt2_path + ")", z3_unsat ? "unsat" : "sat",
                           second.solver, second.answer);
  } else if (z3_unsat || z3_sat) {
    r.summary += "; " + second.solver + ": " + second.answer + (record["agrees"].get<bool>() ? "" : " (Z3's stands)");
  } else {  // Z3 undecided: a verdict rests on Z3's answer, replayed, so the second one is only recorded
    r.reason += "; " + second.solver + " answered " + second.answer;
  }
}

}  // namespace

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
  if (p.second) cross_check(*p.second, p, r);
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
