// The claims of Repeat After Me that need no transformer: Algorithm 1, Lemma 2.4, Theorem 2.7, Corollary 2.8.
#pragma once

#include "checkers/construction.hpp"
#include "constructions/copy/algorithm1.hpp"
#include "constructions/copy/strings.hpp"

#include <vector>

namespace tverify::copy {

struct CopyClaimSpecs {
  ClaimSpec alg1, lemma2_4, thm2_7, cor2_8;
};
const CopyClaimSpecs& copy_claim_specs();

struct StringDomain {
  int alphabet = 2;  // D
  int n = 1;
  int length = 1;          // L
  std::uint64_t size = 0;  // D^L
};

// D^L as a count, after the budget check; throws UsageError when it is over budget or beyond 2^63.
StringDomain make_string_domain(int alphabet, int n, int length, const RunOptions& options);

std::vector<NgramReading> readings_from(const std::string& choice);  // "text" | "formula" | "both"

struct StringClaimSelection {
  bool alg1 = false, lemma2_4 = false;
};

// copy.alg1 and copy.lemma2_4, one result per reading each, from one pass over [D]^L.
std::vector<ClaimResult> check_string_claims(const StringDomain& domain, Alg1Variant variant,
                                             const std::vector<NgramReading>& readings, StringClaimSelection want,
                                             const RunOptions& options);

// copy.thm2_7 (strict as printed, or >= corrected) and copy.cor2_8 for GSSMs with `states` states.
ClaimResult check_thm2_7(const StringDomain& domain, std::uint64_t states, bool strict, const RunOptions& options);
ClaimResult check_cor2_8(const StringDomain& domain, std::uint64_t states, const RunOptions& options);

}  // namespace tverify::copy
