// The copy transformer of Theorem 2.3 (constructions/copy/transformer.hpp) as an ONNX model, weight for weight, for
// `tverify export copy` and `tverify check model`: input the token sequence <BOS>, x, <COPY>, ... (int64, [seq]),
// output the readout z . Psi(x) of every token x at every position (float64, [seq, D + 2]), whose argmax at the last
// position is the next generated token.
//
// The graph computes the construction's exact real weights: rationals as exact float64 or Div of integers
// (model/onnx_writer.hpp), the C.2 embedding's +-1/sqrt(r) as A + B * Sqrt(r), the proof's
// tau = d ln(8 K d) as d * (Log(8 d) + n * Log(D)). Layer 1's heads are the literal Hard-ALiBi heads of Lemma C.1
// (scores (x W_q) . (x W_k) = 0 plus a 0 / -inf window bias, softmax, x W_v); layer 2 is softmax(tau T^key T^query)
// under a causal 0 / -inf mask.
#pragma once

#include "constructions/copy/transformer.hpp"

#include <cstdint>
#include <string>

namespace tverify::copy {

// The number of weights the exported model holds (both MLP matrices dominate), computed without building it.
std::uint64_t exported_weight_count(int alphabet, int n, EmbeddingKind embedding);

// The serialized ONNX model (opset 17).
std::string copy_transformer_onnx(const CopyTransformer& transformer);

}  // namespace tverify::copy
