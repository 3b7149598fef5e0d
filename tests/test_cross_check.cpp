// prove --cross-check (checkers/second_solver.hpp, checkers/proof_verdict.hpp): every Z3 query also put to cvc5, sat
// against unsat makes the claim unknown, cvc5's unknown or timeout leaves Z3's verdict; and cvc5 itself answers the
// queries as the hand-checked statements say.
#include "io/errors.hpp"
#include "checkers/proof_verdict.hpp"
#include "checkers/second_solver.hpp"
#include "cli_runner.hpp"
#include "proofs/count3_proofs.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

using namespace tverify;
namespace fs = std::filesystem;

namespace {

const ClaimSpec spec{"test.claim", "a statement"};

proofs::ProofResult proved_with(const std::string& second_answer) {
  proofs::ProofResult p;
  p.statement = "x > 0 for every x in (0, 1)";
  p.status = proofs::QueryStatus::Proved;
  p.second = proofs::SecondAnswer{"cvc5 1.0.3", second_answer, "", 0.5};
  return p;
}

// Lemma A.6 with its tight constants, Z3 beside a stand-in second solver that answers `answer`.
ClaimResult lemma_a6_beside(const std::string& answer) {
  proofs::QueryOptions query;
  query.name = "count3.lemma_a6";
  query.second_solver = [answer](const std::string& smt2, const std::function<bool()>&) {
    REQUIRE(smt2.find("(check-sat)") != std::string::npos);  // the whole query, as --smt2 dumps it
    return proofs::SecondAnswer{"stand-in", answer, "", 0};
  };
  return claim_from_proof(spec, proofs::prove_lemma_a6(proofs::GadgetConstants::tight(), query));
}

}  // namespace

TEST_CASE("cross-check: sat against Z3's unsat makes the claim unknown; unknown or timeout leaves Z3's verdict",
          "[proofs][cross-check]") {
  const ClaimResult agree = claim_from_proof(spec, proved_with("unsat"));
  CHECK(agree.verdict == Verdict::Verified);
  CHECK(agree.details["cross_check"]["agrees"] == true);
  CHECK(agree.summary == "Z3: unsat (proved); cvc5 1.0.3: unsat");
  const ClaimResult disagree = claim_from_proof(spec, proved_with("sat"));
  CHECK(disagree.verdict == Verdict::Unknown);
  CHECK_THAT(disagree.reason, Catch::Contains("Z3 and cvc5 1.0.3 disagree on this query: Z3 unsat, cvc5 1.0.3 sat"));
  for (const std::string stands : {"timeout", "unknown", "error"}) {
    const ClaimResult r = claim_from_proof(spec, proved_with(stands));
    CHECK(r.verdict == Verdict::Verified);
    CHECK(r.details["cross_check"]["answer"] == stands);
    CHECK(r.details["cross_check"]["agrees"] == false);
    CHECK_THAT(r.summary, Catch::EndsWith("cvc5 1.0.3: " + stands + " (Z3's stands)"));
  }
  // A replayed counterexample against the second solver's unsat is a disagreement too.
  proofs::ProofResult refuted = proved_with("unsat");
  refuted.status = proofs::QueryStatus::CounterModel;
  refuted.replayed = true;
  refuted.counterexample = "x = 0";
  const ClaimResult both = claim_from_proof(spec, refuted);
  CHECK(both.verdict == Verdict::Unknown);
  CHECK(both.counterexamples.empty());
  // Through a real query: Lemma A.6 holds (Z3 unsat); a second solver that says sat is caught.
  CHECK(lemma_a6_beside("unsat").verdict == Verdict::Verified);
  CHECK(lemma_a6_beside("sat").verdict == Verdict::Unknown);
}

TEST_CASE("cross-check: cvc5 answers unsat, sat, and error as its input says", "[proofs][cross-check]") {
  require_cvc5();
  // x > x has no model; x > 1 has one; a misspelt command is an error, never an answer.
  CHECK(ask_cvc5("(declare-fun x () Real)\n(assert (> x x))\n(check-sat)\n", 10'000).answer == "unsat");
  CHECK(ask_cvc5("(declare-fun x () Real)\n(assert (> x 1.0))\n(check-sat)\n", 10'000).answer == "sat");
  const auto error = ask_cvc5("(declare-fun x () Real)\n(asert (> x 1.0))\n(check-sat)\n", 10'000);
  CHECK(error.answer == "error");
  CHECK_FALSE(error.detail.empty());
  CHECK_THAT(error.solver, Catch::StartsWith("cvc5 1."));
}

TEST_CASE("cross-check: prove --cross-check records both solvers, and recheck reproduces it",
          "[proofs][cross-check][cli]") {
  const fs::path folder = tverify::testing::fresh_folder("cross-check-test", "cli");
  const auto run =
      tverify::testing::run_tverify({"prove", "count3", "--cross-check", "--json", "c.json"}, folder, folder, 120);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("Z3: unsat (proved); cvc5 1."));
  const Json cert = Json::parse(tverify::testing::read_all(folder / "c.json"));
  CHECK(cert["options"]["cross_check"] == true);
  CHECK(cert["claims"][0]["details"]["cross_check"]["answer"] == "unsat");
  CHECK(tverify::testing::run_tverify({"recheck", "c.json"}, folder, folder, 120).exit_code == 0);
  // Without cvc5 on PATH: one line, exit 2.
  const char* path = std::getenv("PATH");
  const std::string saved = path ? path : "";
  ::setenv("PATH", folder.c_str(), 1);
  CHECK_THROWS_WITH(require_cvc5(), Catch::Contains("install the Debian package cvc5"));
  ::setenv("PATH", saved.c_str(), 1);
}
