// Z3 proofs for the copy construction of Repeat After Me (Appendix C).
//   copy.lemma_c3      Lemma C.3 for every K >= 1 and a > b > 0, exp replaced by positive variables
//   copy.gadget_ghat   the case analysis of ghat (Lemma C.4 proof) over the values its inputs take
//   copy.gadget_gtilde the case analysis of gtilde
//   copy.gadget_gstar  the case analysis of gstar
//   copy.scores        for fixed small (D, n, L), one query over symbolic tokens: the score claim of Theorem 2.3's
//                      proof for every string without a repeated n-gram (text reading), one-hot embedding
// Every sat model is replayed in exact arithmetic; only a replayed model counts as a counterexample.
#pragma once

#include "constructions/copy/transformer.hpp"
#include "proofs/z3_query.hpp"

#include <string>
#include <vector>

namespace tverify::proofs {

ProofResult prove_lemma_c3(const QueryOptions& options);
ProofResult prove_gadget_ghat(copy::TransformerVariant variant, const QueryOptions& options);
ProofResult prove_gadget_gtilde(copy::TransformerVariant variant, const QueryOptions& options);
ProofResult prove_gadget_gstar(const QueryOptions& options);
// copy.scores for every string without a repeated n-gram under `reading` (Definition 2.2: windows of n tokens, or of
// n + 1 in the formula). The transformer must use the one-hot embedding.
ProofResult prove_scores_symbolic(const copy::CopyTransformer& transformer, copy::NgramReading reading,
                                  const QueryOptions& options);

}  // namespace tverify::proofs
