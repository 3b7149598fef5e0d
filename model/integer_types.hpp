// ONNX integer element types narrower than tverify's int64 values. tverify computes every integer exactly in 64 bits;
// the specification computes in the value's own type, where numpy and ONNX Runtime wrap modulo 2^w. Both agree on
// every result inside the type's range (+, -, * and their sums are exact modulo 2^w, so an in-range result is the
// exact one), so the evaluator checks each narrow integer value it makes against its type's range and refuses one
// outside it, naming the node: a wrap is what tverify does not model.
//
// The types follow the specification's type rules: a value's declared type (the token input, an initializer, a
// Constant, ConstantOfShape's value), a Cast's `to`; Shape, Size, ArgMax, ArgMin and NonZero make int64;
// comparisons and logic make bool; Where takes its second input's type and every other op its first input's.
#pragma once

#include "model/graph.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace tverify::model {

// ONNX element type codes (onnx.proto's TensorProto.DataType).
enum OnnxType : std::int64_t {
  onnx_undefined = 0,
  onnx_float = 1,
  onnx_uint8 = 2,
  onnx_int8 = 3,
  onnx_uint16 = 4,
  onnx_int16 = 5,
  onnx_int32 = 6,
  onnx_int64 = 7,
  onnx_string = 8,
  onnx_bool = 9,
  onnx_float16 = 10,
  onnx_double = 11,
  onnx_uint32 = 12,
  onnx_uint64 = 13,
  onnx_bfloat16 = 16
};

bool is_narrow_integer_type(std::int64_t type);  // int8 ... uint32, and uint64 (whose top half int64 cannot hold)
// The values of an integer type as tverify holds them: [0, 255] for uint8, [0, 2^63 - 1] for uint64.
std::pair<std::int64_t, std::int64_t> integer_range(std::int64_t type);
// "uint8", "float16", ...; "element type N" for a code without a name here.
std::string onnx_type_name(std::int64_t type);

// The narrow integer type of every value that has one, by slot, from the types `declared` (by slot) and the nodes.
std::map<int, std::int64_t> narrow_integer_types(const Graph& graph, const std::map<int, std::int64_t>& declared);

// ModelError when an integer of `values` is outside the range of `type`.
void require_in_range(const std::vector<std::int64_t>& values, std::int64_t type);

// Why the graph computes on narrow integers in a way the range check cannot vouch for, naming the node: a ReduceMean,
// whose sum ONNX accumulates in the narrow type and may wrap before the division leaves an in-range mean. nullopt
// when there is none.
std::optional<std::string> unmodelled_narrow_integer_op(const Graph& graph, const std::map<int, std::int64_t>& narrow);

}  // namespace tverify::model
