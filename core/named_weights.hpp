// A construction's weights as data: named tensors of exact quadratic surds (rationals, or a + b sqrt(r) for the
// unit-norm embedding of Lemma C.2), row-major, in the orientation the construction's own code applies them. An entry
// that is neither (a logarithm of the Markov points) is kept symbolically, with an enclosure of its value.
#pragma once

#include "core/quadratic.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tverify {

// constant + sum coefficient * symbol (the symbols are defined in the tensor's meaning); the value lies in
// [lower, upper].
struct SymbolicEntry {
  Exact constant;
  std::vector<std::pair<std::string, Exact>> terms;
  Exact lower, upper;
};

struct NamedWeights {
  std::string name;                // "h1.W_q", "Psi", ...
  std::vector<std::size_t> shape;  // [] for a scalar
  std::vector<QuadraticSurd> values;
  std::string meaning;  // what the tensor is, with the paper's lemma or equation
  // Empty when every entry is a surd; else one per entry: the entry when it is symbolic (values[i] is then 0).
  std::vector<std::optional<SymbolicEntry>> symbolic{};
};

}  // namespace tverify
