// The CAT layer of Theorem 1 / Corollary 1 (layer.hpp) as named tensors: the token embeddings, the query, key and
// value filters as the layer applies them, the logit scale c^2 and whether partial windows are masked. W_q = W_k = c I
// and W_v = I (Definition 1 as reconstructed in docs/cat.md) hold no further numbers.
#pragma once

#include "constructions/cat/layer.hpp"
#include "core/named_weights.hpp"

#include <vector>

namespace tverify::cat {

std::vector<NamedWeights> cat_layer_weights(const CatConfig& config);

}  // namespace tverify::cat
