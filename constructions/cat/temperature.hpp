// The sufficient temperature condition tverify derives for the reconstructed Theorem 1 (docs/cat.md), and the choice
// of c from it. With unit embeddings, Delta the minimum distance between distinct embeddings, and
// Gamma' = min(Gamma, 1) the cosine gap between the query's signature and every other key (1 for a zero key):
//   the output decodes to the target if  w_match * Delta / 2 > sum of the other weights,
// which holds for every sequence of length <= L when
//   key delay:   c^2 > ln(2 (L - 1) / Delta) / Gamma'    (one matching key, L - 1 others)
//   value delay: c^2 > ln(2 (L - 2) / Delta) / Gamma'    (two matching keys, the query's own with value 0)
// (proof: <o, e_t - e_v> >= w |e_t - e_v|^2 / 2 - R |e_t - e_v| and |e_t - e_v| >= Delta).
#pragma once

#include "constructions/cat/layer.hpp"
#include "core/interval.hpp"

namespace tverify::cat {

// The right-hand side of the condition, enclosed; `others` = L - 1 (key delay) or L - 2 (value delay), >= 1.
Interval<128> required_c_squared(long others, const Exact& delta_squared, const Interval<128>& gamma);
// The smallest c = k/64 (k integer) whose square certainly exceeds the requirement.
Exact choose_c(long others, const Exact& delta_squared, const Interval<128>& gamma);
// The largest L for which c^2 satisfies the condition (Gamma' and Delta as above), by the closed form
// L - 1 < (Delta / 2) exp(c^2 Gamma') (key delay; value delay: L - 2 < ...), certified; 0 if undecidable.
long sufficient_length(const Exact& c_squared, const Exact& delta_squared, const Interval<128>& gamma, Delay delay);

}  // namespace tverify::cat
