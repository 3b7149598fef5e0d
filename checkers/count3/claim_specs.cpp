// The claims of ENTP that tverify checks: id, where the paper states them, the paper's wording, and what exactly
// tverify checks. `tverify list count3` prints them.
#include "checkers/count3/count3_claims.hpp"

namespace tverify::count3 {

const Count3ClaimSpecs& count3_claim_specs() {
  static const Count3ClaimSpecs specs{
      {"count3.alg2_alg3",
       "Sec. 6 and Appendix E, Algorithms 2 and 3",
       "Algorithm 2 (O(n^2) time, O(1) space) and Algorithm 3 (O(n) time and space) compute Count3 (eq. 4).",
       "both algorithms, run as printed, return eq. (4) exactly on every input sequence",
       {"n", "values"}},
      {"count3.alg4",
       "Lemma 6.3, Appendix A.6 and Appendix F, Algorithm 4",
       "There exists an encoder E with L = O(1) and D = O(1) such that E(x_1, ..., x_m)_m = Count3(x_1, ..., x_m) "
       "for all sequences of length m <= n (Algorithm 4 is the RASP program of that encoder).",
       "Algorithm 4 run by the exact RASP interpreter (encoder: non-causal) on each input x_1..x_m; its output at "
       "position m equals eq. (4), exactly; the value range is independent of the length",
       {"n", "values", "distribution", "samples", "seed", "mean"}},
      {"count3.table5",
       "Appendix C.1, Table 5",
       "The 64-integer output printed in Table 5 is the seed extended by x.append(f(x)), f = Count3.",
       "x_{m+1} = Count3(x_1..x_m) for every m from 16 to 63, by eq. (4) and by Algorithms 2 and 3",
       {}},
      {"match3.alg5",
       "Sec. 6.2 and Appendix F, Algorithm 5",
       "Algorithm 5 satisfies D(x_1, ..., x_n)_n = Match3'(x_1, ..., x_n) for sequences of any length.",
       "as printed: its output at the last position equals Match3' on every input; as a decoder: run once with every "
       "attention causal, its output at each position j equals Match3'(x_1..x_j)",
       {"n", "values", "distribution", "samples", "seed", "mean"}},
      {"count3.alg6",
       "Remark 6.4 and Appendix F, Algorithm 6",
       "With linear chain-of-thought, a decoder can perform Count3 (Algorithm 6).",
       "Algorithm 6 generated autoregressively from x, EOS (EOS = -1): the chain of thought is y_i = (-x_i mod n)+1 "
       "for each i, then the match counts of z_j = (x_n + x_j mod n)+1, then Count3(x), then EOS; and one causal "
       "pass over the finished sequence predicts every generated token (it is a decoder)",
       {"n", "values", "distribution", "samples", "seed", "mean"}},
      {"count3.lemma_a6",
       "Lemma 6.3, Appendix A.6",
       "g(a, b) = ReLU(a - M ReLU(a - b + eps)) + ReLU(a - b), with 0 < eps < 1 and M >= 2n / eps, equals g (a if a < "
       "b, "
       "a - b if a >= b) on [2n - 1] x [n].",
       "exactly on every integer pair 0 <= a <= 2n - 1, 1 <= b <= n for n = 1..64, at eps = 1/2, 1/10, 9/10 with "
       "M = 2n/eps; also the largest eps and the smallest M that work; `tverify prove count3` proves it for all n with "
       "Z3",
       {},
       DecidedBy::CheckAndProve},
      {"count3.rasp_mlp",
       "Appendix A.6",
       "All linear element-wise operations in Algorithm 4 can be implemented trivially; g is the only nonlinear "
       "element-wise function, and it is implemented by the ReLU gadget on [2n - 1] x [n].",
       "every elementwise map Algorithm 4 applies, with every argument it receives on the inputs: affine maps and "
       "products with a constant pass; g passes when each argument lies in Lemma A.6's domain (n = the largest "
       "length); any other nonlinear map is not covered",
       {"n", "values", "distribution", "samples", "seed", "mean"}},
      {"entp.a2",
       "Sec. 3 and Appendix A.2",
       "T_D = D: a decoder's output at position i does not depend on later tokens.",
       "decoders with seeded random rational weights (D = 2, 2 layers, ReLU MLP width 3, positional embeddings): "
       "D(x_1..x_4)_i = D(x_1..x_i)_i for i = 1..4, proved by Z3 with every exponential of the softmax a free positive "
       "variable (so for exp in particular); interval enclosures could refute it",
       {}},
      {"entp.a3",
       "Sec. 4 and Appendix A.3",
       "One-layer encoders and decoders with the same parameters are equivalent: T_D = T_E.",
       "one-layer encoder and decoder with the same seeded random rational weights: E(x_1..x_i)_i = D(x_1..x_i)_i for "
       "i = 1..4, proved by Z3 with free positive exponentials",
       {}},
      {"entp.thm4_1",
       "Theorem 4.1, Appendix A.4",
       "The two-layer decoder D~ (W_K = W_Q = 0, W_V = I) maps (x1, x2, x3) to (2x1, x2 + (x1+x2)/2, "
       "x3 + (x1+x2+x3)/3) after layer 1 and to (4x1, (7x1+9x2)/4, (23x1+17x2+32x3)/18) after layer 2; "
       "4x1 = (7x1+9x2)/4 iff x1 = x2; no encoder replicates D~.",
       "exactly: both layers' outputs on the basis vectors and on seeded random rationals (D = 1 and 3) against the "
       "printed formulas; the two observations; the contradiction instantiated with explicit rational p1 != p2, "
       "y1, y2, c and encoders with seeded random weights",
       {}},
      {"entp.thm4_2",
       "Theorem 4.2, Appendix A.5",
       "The two-layer encoder E~ (W_K = W_Q = W_V = I) satisfies T_E~(x1, x2) = (4x1, alpha x1 + beta x2) with "
       "alpha, beta > 0 (eq. 5); no decoder with p1 != p2 replicates it.",
       "E~(x1)_1 = 4x1 exactly; alpha and beta enclosed in intervals and certified > 0 on seeded random inputs "
       "(D = 1, 2, 3); the contradiction with explicit p1 != p2 and decoders with seeded random weights "
       "(D(p1, p1) is constant, exactly; (0, beta x2) is not)",
       {}},
  };
  return specs;
}

}  // namespace tverify::count3
