// The transformer claims of Repeat After Me (Lemmas C.1, C.2, C.4, the score claim in the proof of Theorem 2.3,
// Theorem 2.3 itself and its error bound), checked over every string of [D]^L. Positions are those of
// docs/positions.md: s_1 = <BOS>, s_2..s_{L+1} = x, s_{L+2} = <COPY>; Appendix C's L is L_C = L + 1.
#pragma once

#include "checkers/copy/copy_claims.hpp"
#include "constructions/copy/transformer.hpp"

#include <vector>

namespace tverify::copy {

struct TransformerClaimSpecs {
  ClaimSpec lemma_c1, lemma_c2, lemma_c4, scores, thm2_3, err;
};
const TransformerClaimSpecs& transformer_claim_specs();

struct TransformerClaimSelection {
  bool lemma_c1 = false, lemma_c4 = false, scores = false, thm2_3 = false, err = false;
  bool any() const { return lemma_c1 || lemma_c4 || scores || thm2_3 || err; }
};

// One pass over [D]^L for the selected claims; thm2_3, scores and err give one result per reading.
std::vector<ClaimResult> check_transformer_claims(const StringDomain& domain, const CopyTransformerConfig& config,
                                                  const std::vector<NgramReading>& readings,
                                                  const TransformerClaimSelection& selection,
                                                  const RunOptions& options);

// Lemma C.2's properties of its embedding for alphabet size D (variant paper: +-1/sqrt(d) as printed).
ClaimResult check_lemma_c2(int alphabet, TransformerVariant variant);

// The proof of Theorem 2.3 bounds the scores only when 2L + 2 <= K = D^n (copy.scores' hypothesis): marks `r` as
// outside its hypotheses, with the reason, when (D, n, L) is not.
void mark_scores_hypotheses(ClaimResult& r, int alphabet, int n, int length);

}  // namespace tverify::copy
