// The claims of the CAT paper that tverify checks. Every statement is about the reconstruction that docs/cat.md
// writes out (the paper's text lost its formulas); `tverify list cat` prints them.
#include "checkers/cat/cat_claims.hpp"

namespace tverify::cat {

namespace {

// A recall claim is about the variants whose name starts with `prefix` ("ar" for Corollary 1).
std::function<std::string(const ParamValues&, const std::string&)> recall_claim_of(std::string prefix) {
  return [prefix](const ParamValues&, const std::string& variant) -> std::string {
    if (variant.rfind(prefix, 0) == 0) return "";
    return "is checked with --variant " + prefix + " (this run: " + variant + ")";
  };
}

}  // namespace

const CatClaimSpecs& cat_claim_specs() {
  static const CatClaimSpecs specs{
      {"cat.signatures",
       "Appendix C.1, proof of Theorem 1",
       "For almost all F each N-gram has a unique signature (its convolved, row-normalized embedding).",
       "every N-gram over [V] has a non-zero signature and no two distinct N-grams have the same normalized "
       "signature, exactly (cos^2 rational); Gamma = min over distinct N-grams of 1 - cos, enclosed; also whether a "
       "zero-padded partial window at the start has a full N-gram's direction [reconstruction]",
       {"V", "N", "filter", "embedding"}},
      {"cat.thm1.key_delay",
       "Sec. 4, Theorem 1 (key delay)",
       "For almost all choices of F, there is a scalar c depending on F such that the CAT layer (key delay) solves "
       "the NAR problem of Def. 3 for all input sequences up to length L.",
       "the layer with F_q = F, F_k = F delayed one step, v = x, and c from the sufficient condition of docs/cat.md "
       "(or --c), decodes the target on every valid NAR instance of length N+1..L, each decision certified "
       "[reconstruction]",
       {"V", "N", "L", "filter", "c", "embedding"},
       DecidedBy::Check,
       recall_claim_of("key_delay")},
      {"cat.thm1.value_delay",
       "Sec. 4, Theorem 1 (value delay)",
       "The same with value delay: queries and keys use the same filter, values are delayed.",
       "the layer with F_q = F_k = F, v_t = x_{t+1} (v = 0 past the end), c as above, decodes the target on every "
       "valid NAR instance of length N+1..L [reconstruction]",
       {"V", "N", "L", "filter", "c", "embedding"},
       DecidedBy::Check,
       recall_claim_of("value_delay")},
      {"cat.cor1",
       "Sec. 4, Corollary 1",
       "A CAT layer employing 1-D convolution on key embeddings with the delay filter solves AR.",
       "N = 1, F = (1), keys delayed one step: the target on every valid AR instance of length 2..L [reconstruction]",
       {"V", "L", "c", "embedding"},
       DecidedBy::Check,
       recall_claim_of("ar")},
      {"cat.mqnar",
       "Sec. 3.2.1, Definition 5 (MQNAR) with the layer of Theorem 1",
       "Multi-query N-gram AR: every N-gram query with an earlier occurrence is answered by the value after it.",
       "every valid MQNAR instance of length <= L (each query has at most one earlier occurrence): at every query "
       "position with a match, the layer (causal) decodes the value after it; queries without a match are counted "
       "apart (the layer has no no-match output) [reconstruction]",
       {"V", "N", "L", "filter", "c", "embedding"}},
      {"cat.filters",
       "Theorem 1 and Appendix C.1: 'for almost all choices of F'",
       "For almost all F the N-gram signatures are distinct (a non-zero fourth-order polynomial in F vanishes only "
       "on a null set).",
       "seeded random filters of length N with entries k/2^20, k uniform in [-2^20, 2^20]: the fraction with distinct "
       "signatures (exact); and explicit filters where they are not: constant filters (N >= 2), filters with a "
       "zero leading entry, F = (1, -1, ...) with a zero signature",
       {"V", "N", "embedding", "samples", "seed"}},
  };
  return specs;
}

}  // namespace tverify::cat
