// proofs/copy_proofs and checkers/copy/proof_claims: each Z3 statement proved where the (corrected) paper holds, and
// a replayed counterexample where the printed formula fails. Expected values are the hand derivations of
// docs/errata.md E4 and E6.
#include "checkers/copy/proof_claims.hpp"
#include "proofs/copy_proofs.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace tverify;
using namespace tverify::proofs;
using copy::TransformerVariant;

namespace {
QueryOptions quick() {
  QueryOptions o;
  o.timeout_ms = 120'000;
  return o;
}
}  // namespace

TEST_CASE("Lemma C.3 is proved for every K with exp abstracted by monotone positive variables", "[proofs]") {
  CHECK(prove_lemma_c3(quick()).status == QueryStatus::Proved);
}

TEST_CASE("ghat: the printed thresholds fail at i = n + 1 (replayed), the corrected ones are proved", "[proofs]") {
  const ProofResult printed = prove_gadget_ghat(TransformerVariant::Paper, quick());
  REQUIRE(printed.status == QueryStatus::CounterModel);
  CHECK(printed.replayed);
  // At i = n + 1, Psi(<BOS>).g_n = 1 and n >= 1 >= |u| zero both ReLUs: ghat = 0 where the lemma says u.
  CHECK(printed.counterexample.find("ghat = 0") != std::string::npos);
  CHECK(prove_gadget_ghat(TransformerVariant::Corrected, quick()).status == QueryStatus::Proved);
}

TEST_CASE("gtilde: 1/2 relu(2c - 1) is 1/2 at i = t + 1 (replayed) / without the 1/2 it is proved", "[proofs]") {
  const ProofResult printed = prove_gadget_gtilde(TransformerVariant::Paper, quick());
  REQUIRE(printed.status == QueryStatus::CounterModel);
  CHECK(printed.replayed);
  CHECK(printed.counterexample.find("gtilde = 1/2, claimed 1") != std::string::npos);
  CHECK(prove_gadget_gtilde(TransformerVariant::Corrected, quick()).status == QueryStatus::Proved);
  CHECK(prove_gadget_gstar(quick()).status == QueryStatus::Proved);
}

TEST_CASE("copy.scores over symbolic tokens agrees with enumeration (D=2, n=2, L=4)", "[proofs]") {
  const copy::CopyTransformer corrected({2, 2, 4, copy::EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  CHECK(prove_scores_symbolic(corrected, copy::NgramReading::Text, quick()).status == QueryStatus::Proved);
  const copy::CopyTransformer printed({2, 2, 4, copy::EmbeddingKind::OneHot, TransformerVariant::Paper, {}});
  const ProofResult refuted = prove_scores_symbolic(printed, copy::NgramReading::Text, quick());
  REQUIRE(refuted.status == QueryStatus::CounterModel);
  CHECK(refuted.replayed);  // the model is a repeat-free string that the exact evaluator also fails on
}

TEST_CASE("copy.scores under the formula reading: Z3's model is a string with a repeated n-gram, replayed",
          "[proofs]") {
  // D = 3, n = 2, L = 3 lies inside the hypotheses (2L + 2 = 8 <= 9). A string of 3 tokens has one 3-gram, so the
  // formula reading admits all of [3]^3, including (a, a, a), whose 2-gram aa repeats: at the last query the key
  // that ends the first aa scores n = 2 as the target does, so z_j < n - 1/d fails (the enumeration finds the same
  // three strings).
  const copy::CopyTransformer corrected({3, 2, 3, copy::EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  CHECK(prove_scores_symbolic(corrected, copy::NgramReading::Text, quick()).status == QueryStatus::Proved);
  const ProofResult formula = prove_scores_symbolic(corrected, copy::NgramReading::Formula, quick());
  REQUIRE(formula.status == QueryStatus::CounterModel);
  CHECK(formula.replayed);
  CHECK(formula.statement.find("without a repeated 3-gram (formula reading)") != std::string::npos);
}

TEST_CASE("proof claims map to verdicts, and --smt2 dumps a self-contained query", "[proofs]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-smt2-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ProofOptions options;
  options.smt2_dir = dir.string();
  const auto results =
      copy::prove_copy_claims({2, 1, 2, copy::EmbeddingKind::OneHot, TransformerVariant::Corrected, {}},
                              {copy::NgramReading::Text}, {"copy.lemma_c3", "copy.scores"}, options);
  REQUIRE(results.size() == 2);
  CHECK(results[0].verdict == Verdict::Verified);
  CHECK(results[1].verdict == Verdict::Verified);
  std::ifstream dump(dir / "copy.lemma_c3.smt2");
  const std::string text((std::istreambuf_iterator<char>(dump)), std::istreambuf_iterator<char>());
  CHECK(text.find("(declare-fun E_a () Real)") != std::string::npos);
  CHECK(text.find("(check-sat)") != std::string::npos);
}

TEST_CASE("prove copy.scores carries the outside-hypotheses flag exactly where check does (2L + 2 > D^n)", "[proofs]") {
  const ProofOptions options;
  // D = 2, n = 2, L = 4: 2L + 2 = 10 > 4, outside; D = 3, n = 2, L = 3: 8 <= 9, inside.
  const auto outside =
      copy::prove_copy_claims({2, 2, 4, copy::EmbeddingKind::OneHot, TransformerVariant::Corrected, {}},
                              {copy::NgramReading::Text}, {"copy.scores"}, options);
  REQUIRE(outside.size() == 1);
  CHECK(outside[0].outside_hypotheses);
  CHECK(outside[0].reason.find("2L + 2 <= K = D^n") != std::string::npos);
  const auto inside = copy::prove_copy_claims({3, 2, 3, copy::EmbeddingKind::OneHot, TransformerVariant::Corrected, {}},
                                              {copy::NgramReading::Text}, {"copy.scores"}, options);
  REQUIRE(inside.size() == 1);
  CHECK_FALSE(inside[0].outside_hypotheses);
  CHECK(inside[0].verdict == Verdict::Verified);
}
