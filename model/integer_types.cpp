#include "model/integer_types.hpp"

#include "model/op_table.hpp"
#include "model/tensor.hpp"

#include <algorithm>

namespace tverify::model {

namespace {

// The type of a node's outputs, when the rules above give one.
std::optional<std::int64_t> output_type(const Node& node, const std::map<int, std::int64_t>& types) {
  std::size_t source = 0;
  switch (op_of(node).output_type) {
    case OutputType::CastTarget: return node.int_attribute("to", onnx_undefined);
    case OutputType::Int64: return onnx_int64;
    case OutputType::Bool: return onnx_bool;
    case OutputType::Declared: return std::nullopt;  // the reader records a Constant's type
    case OutputType::OfSecondInput: source = 1; break;
    case OutputType::OfThirdInput: source = 2; break;
    case OutputType::OfFirstInput: break;
  }
  if (source >= node.inputs.size()) return std::nullopt;
  const auto it = types.find(node.inputs[source]);
  return it == types.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
}

}  // namespace

bool is_narrow_integer_type(std::int64_t type) {
  return type == onnx_uint8 || type == onnx_int8 || type == onnx_uint16 || type == onnx_int16 || type == onnx_int32 ||
         type == onnx_uint32 || type == onnx_uint64;
}

std::pair<std::int64_t, std::int64_t> integer_range(std::int64_t type) {
  switch (type) {
    case onnx_uint8: return {0, 255};
    case onnx_int8: return {-128, 127};
    case onnx_uint16: return {0, 65535};
    case onnx_int16: return {-32768, 32767};
    case onnx_int32: return {INT32_MIN, INT32_MAX};
    case onnx_uint32: return {0, UINT32_MAX};
    case onnx_uint64: return {0, INT64_MAX};
    default: return {INT64_MIN, INT64_MAX};
  }
}

std::string onnx_type_name(std::int64_t type) {
  switch (type) {
    case onnx_float: return "float32";
    case onnx_uint8: return "uint8";
    case onnx_int8: return "int8";
    case onnx_uint16: return "uint16";
    case onnx_int16: return "int16";
    case onnx_int32: return "int32";
    case onnx_int64: return "int64";
    case onnx_string: return "string";
    case onnx_bool: return "bool";
    case onnx_float16: return "float16";
    case onnx_double: return "float64";
    case onnx_uint32: return "uint32";
    case onnx_uint64: return "uint64";
    case onnx_bfloat16: return "bfloat16";
    default: return "element type " + std::to_string(type);
  }
}

std::map<int, std::int64_t> narrow_integer_types(const Graph& graph, const std::map<int, std::int64_t>& declared) {
  std::map<int, std::int64_t> types = declared;
  for (const auto& node : graph.nodes) {
    if (op_of(node).output_type == OutputType::Declared) continue;
    const auto type = output_type(node, types);
    for (int slot : node.outputs)
      if (slot >= 0 && type) types[slot] = *type;
  }
  std::map<int, std::int64_t> narrow;
  for (const auto& [slot, type] : types)
    if (is_narrow_integer_type(type)) narrow[slot] = type;
  return narrow;
}

std::optional<std::string> unmodelled_narrow_integer_op(const Graph& graph, const std::map<int, std::int64_t>& narrow) {
  for (const auto& node : graph.nodes) {
    if (node.op != "ReduceMean" || node.inputs.empty()) continue;
    if (const auto it = narrow.find(node.inputs.front()); it != narrow.end())
      return node.label() + " averages " + onnx_type_name(it->second) + " integers, whose sum ONNX accumulates in " +
             onnx_type_name(it->second) + " and may wrap before the division; tverify does not model the wrap";
  }
  return std::nullopt;
}

void require_in_range(const std::vector<std::int64_t>& values, std::int64_t type) {
  const auto [lo, hi] = integer_range(type);
  for (std::int64_t v : values)
    if (v < lo || v > hi)
      throw ModelError("the " + onnx_type_name(type) + " value " + std::to_string(v) + " is outside " +
                       onnx_type_name(type) + "'s range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                       "], where ONNX wraps it around; tverify does not model the wrap");
}

}  // namespace tverify::model
