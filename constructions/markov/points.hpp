// The printed parameter points of Attention with Markov (weight-tied unless the layout is untied):
//   theta_star, p + q <= 1 (eq. 7):  e = a = sqrt((1/d) log((1-p)(1-q)/(pq))) 1, p_n = 0, W_O = 0, W_2 = 0,
//                                     b = log(p/(1-p)); W_{K,Q,V}, W_1 arbitrary.
//   theta_star, p + q > 1 (eq. 10):   e = a = 1, p_n = -1/2 1, W_O = 0, W_1 = w* 1 1^T, W_2 = -W_1^T,
//                                     w* = sqrt((2/d^2)(1 - (1/d) log((1-p)(1-q)/(pq)))), b = log(p/(1-p)) + d/2;
//                                     W_{K,Q,V} arbitrary.
//   theta_pi (eq. 11):                e = a = 0, W_O = 0, W_2 = 0, b = log(p/q); p_n, W_{K,Q,V}, W_1 arbitrary.
// Untied (Thms. 3, 4): the same points with the separate readout a = e (a* = e*, a_pi = 0).
// Besides its enclosures, each entry is kept as an affine form in the symbols of the proofs (Appendix B):
//   l1 = log(p/(1-p)), l2 = log((1-q)/q), l3 = log(p/q), s = e*'s entry (d s^2 = l2 - l1), w = w* (d^2 w^2 =
//   2 (1 - (l2 - l1)/d)), so that Z3 can check the printed algebra with the logs as symbols (proofs/markov_proofs).
// Variant `corrected` (docs/errata.md M1): eq. 10's derivation sums the r hidden units as if r = d; for any r,
// w* = sqrt((2/(d r))(1 - (1/d) log(...))), i.e. d r w^2 = 2 (1 - (l2 - l1)/d). Equal to the printed w* when r = d.
#pragma once

#include "constructions/markov/model.hpp"

#include <map>

namespace tverify::markov {

// constant + sum coefficient * symbol.
struct Affine {
  Exact constant;
  std::map<std::string, Exact> symbols;
};

struct Arbitrary {
  enum class Fill { Zero, Constant, Random };
  Fill fill = Fill::Random;
  Exact constant = Exact(1, 2);  // Fill::Constant
  std::uint64_t seed = 1;        // Fill::Random: entries k/8, k uniform in [-8, 8]
};

enum class PointKind { Star, Pi };

enum class Variant { Paper, Corrected };

struct SymbolicPoint {
  Point point;
  std::vector<Affine> symbolic;  // one per parameter
  std::string equation;          // "eq. 7", "eq. 10", "eq. 11"
};

// Throws std::invalid_argument when the printed formula is undefined (eq. 7 needs p + q <= 1 under its square root,
// eq. 10's w* needs 1 - (1/d) log(...) >= 0: both hold by the paper's case split).
SymbolicPoint make_point(PointKind kind, const MarkovChain& chain, const Shapes& shapes, const Arbitrary& arbitrary,
                         Variant variant = Variant::Paper);

// Fills every entry of the point with seeded random rationals k/8 (for Lemma 1-2 checks at generic points).
Point random_point(const Shapes& shapes, std::uint64_t seed);

// The enclosures of the symbols for this chain: l1, l2, l3, s, w (s, w only where defined).
std::map<std::string, Real> symbol_values(const MarkovChain& chain, const Shapes& shapes, Variant variant);
// The coefficient c of w's defining relation c w^2 = 2 (1 - (l2 - l1)/d): d^2 (paper) or d r (corrected).
Exact w_relation_coefficient(const Shapes& shapes, Variant variant);

}  // namespace tverify::markov
