// The printed parameter points of Attention with Markov (points.hpp) as named tensors, block by block ("e", "p", "W_Q",
// ..., "b", "a"), prefixed by the point's name ("theta_star.W_1"). A rational entry is exact; an entry that involves a
// logarithm or a square root of one is kept as its affine form in the symbols of Appendix B (l1, l2, l3, s, w), with
// its enclosure.
#pragma once

#include "constructions/markov/points.hpp"
#include "core/named_weights.hpp"

#include <string>
#include <vector>

namespace tverify::markov {

std::vector<NamedWeights> point_weights(const std::string& name, const SymbolicPoint& point);

}  // namespace tverify::markov
