// The copy transformer of Theorem 2.3 (Repeat After Me) as named tensors: the embedding Psi, the hard-ALiBi heads of
// layer 1 (Lemmas C.1, C.4), the ReLU MLP of the gadgets (Lemma C.3) and layer 2's inverse temperature when exact.
#pragma once

#include "constructions/copy/transformer.hpp"
#include "core/named_weights.hpp"

#include <vector>

namespace tverify::copy {

std::vector<NamedWeights> copy_transformer_weights(const CopyTransformer& t);

}  // namespace tverify::copy
