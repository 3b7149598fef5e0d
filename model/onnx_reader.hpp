// Reads an ONNX model (protobuf, parsed by Debian's libonnx) into a Graph. Weights stored as float16, bfloat16, float32
// or float64 are dyadic rationals and are entered exactly; integer tensors exactly. A model tverify cannot evaluate
// exactly as stored (not ONNX, truncated, an op outside the supported set, an opset outside 13..18, NaN in a tensor,
// external data, a token input that is not an integer sequence) is refused with the reason, never approximated.
#pragma once

#include "model/graph.hpp"

#include <optional>
#include <string>
#include <variant>

namespace tverify::model {

inline constexpr std::int64_t min_opset = 13, max_opset = 18;

struct ReadOptions {
  // Snap every real weight (initializers, Constant tensors and value_float(s)) to the nearest multiple of 10^-K, ties
  // away from 0: for a float export of intended decimal weights. nullopt: the stored values, exactly.
  std::optional<int> weights_as_decimal;
};

// The graph, or the reason the bytes are not a model tverify evaluates (one line, naming the node or tensor).
std::variant<Graph, std::string> read_onnx(const std::string& bytes, const ReadOptions& options = {});

}  // namespace tverify::model
