// The CAT layer of Theorem 1 / Corollary 1 (constructions/cat/layer.hpp) as an ONNX model, for `tverify export cat`
// and `tverify check model`: input the token sequence z_1..z_T (int64, [seq]), output the decoding scores <o_t, e(v)>
// of every token v at every position t (float64, [seq, V]), whose argmax is the layer's output token (the nearest
// embedding to o_t: the embeddings are unit vectors).
//
// Every weight is rational and stored exactly (model/onnx_writer.hpp). The graph follows layer.hpp op
// for op: the causal filter as a sum of F_i times the embedded sequence moved i (+1 for the key delay) rows down
// (Concat of zero rows, then Slice to the sequence's length); norm as r / (|r| + [|r|^2 = 0]), so a zero row stays
// zero (the rows normalised are computed in integers, from the embedding and the filter times their common
// denominators: the same unit rows, and a row that cancels is an exact 0); the scores c^2 cos(q_t, k_s) under a
// causal 0 / -inf mask; softmax; the values x_s (key delay) or x_{s+1}, zero past the last token (value delay); then
// o_t . e(v) for every v. The masking of partial windows (`full_windows`) leaves
// the first queries with no key at all, which a softmax cannot express: the layer then decodes nothing there, and
// the export refuses it.
#pragma once

#include "constructions/cat/layer.hpp"

#include <string>

namespace tverify::cat {

// The serialized ONNX model (opset 17); requires !config.full_windows (std::invalid_argument otherwise).
std::string cat_layer_onnx(const CatConfig& config);

}  // namespace tverify::cat
