// The claims of ENTP (arXiv 2410.01600 v3) that tverify checks, and the functions that check them.
#pragma once

#include "checkers/construction.hpp"
#include "checkers/count3/inputs.hpp"
#include "constructions/count3/programs.hpp"
#include "constructions/rasp/rasp.hpp"

namespace tverify::count3 {

struct Count3ClaimSpecs {
  ClaimSpec alg2_alg3, alg4, table5, alg5, alg6, lemma_a6, rasp_mlp, a2, a3, thm4_1, thm4_2;
};
const Count3ClaimSpecs& count3_claim_specs();

struct ProgramSemantics {
  rasp::MeanSemantics mean = rasp::MeanSemantics::Truncate;
  Alg4Variant alg4 = Alg4Variant::Paper;
};

// Programs against their definitions (program_claims.cpp).
ClaimResult check_alg2_alg3(const InputSource& inputs, const RunOptions& options);
ClaimResult check_alg4(const InputSource& inputs, const ProgramSemantics& semantics, const RunOptions& options);
ClaimResult check_table5();
ClaimResult check_alg5(const InputSource& inputs, const ProgramSemantics& semantics, const RunOptions& options);
ClaimResult check_alg6(const InputSource& inputs, const ProgramSemantics& semantics, const RunOptions& options);
// What each elementwise map of Algorithm 4 receives, against what Lemma A.6's argument covers (mlp_claims.cpp).
ClaimResult check_rasp_mlp(const InputSource& inputs, const ProgramSemantics& semantics, const RunOptions& options);
// Lemma A.6's ReLU gadget, exhaustively for n <= max_n (gadget_claims.cpp).
ClaimResult check_lemma_a6(long long max_n);
// Appendix A.2-A.5 (entp_claims.cpp).
ClaimResult check_a2(std::uint64_t seed, unsigned timeout_ms);
ClaimResult check_a3(std::uint64_t seed, unsigned timeout_ms);
ClaimResult check_thm4_1(std::uint64_t seed);
ClaimResult check_thm4_2(std::uint64_t seed);

// Agreement of a program with eq. 4 on every input (the sweep's measurement); program: "alg4", "alg4-corrected",
// "alg6".
struct Agreement {
  std::uint64_t checked = 0, agreed = 0;
};
Agreement count3_agreement(const std::string& program, const InputSource& inputs, rasp::MeanSemantics mean,
                           const RunOptions& options);

}  // namespace tverify::count3
