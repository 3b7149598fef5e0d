// A construction's weights as data: named tensors of exact quadratic surds (rationals, or a + b sqrt(r) for the
// unit-norm embedding of Lemma C.2), row-major, in the orientation the construction's own code applies them.
#pragma once

#include "core/quadratic.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace tverify {

struct NamedWeights {
  std::string name;                // "h1.W_q", "Psi", ...
  std::vector<std::size_t> shape;  // [] for a scalar
  std::vector<QuadraticSurd> values;
  std::string meaning;             // what the tensor is, with the paper's lemma or equation
};

}  // namespace tverify
