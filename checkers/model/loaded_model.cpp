#include "checkers/model/loaded_model.hpp"

#include "checkers/errors.hpp"
#include "checkers/files.hpp"
#include "checkers/sha256.hpp"
#include "constructions/model/onnx_reader.hpp"

#include <fmt/format.h>

namespace tverify::model {

namespace {

std::optional<Weights<DoubleInterval>> double_weights(const Graph& graph) {
  try {
    return convert_weights<DoubleInterval>(graph);
  } catch (const DoubleRangeExceeded&) {
    return std::nullopt;  // a weight past the double range: the ladder starts at MPFI
  }
}

}  // namespace

LoadedModel load_model(const std::string& path, std::optional<int> weights_as_decimal) {
  const std::string what = "--onnx '" + path + "'";
  const std::string bytes = read_text_file(path, what, 256u << 20);
  auto read = read_onnx(bytes, ReadOptions{weights_as_decimal});
  if (auto* reason = std::get_if<std::string>(&read)) throw UsageError(what + " " + *reason);
  LoadedModel model;
  model.graph = std::move(std::get<Graph>(read));
  model.graph.drop_unread_constants();
  model.path = path;
  model.sha256 = sha256_hex(bytes);
  model.weights_as_decimal = weights_as_decimal;
  try {
    if (model.graph.rational)
      model.exact = convert_weights<Exact>(model.graph);
    else {
      model.doubles = double_weights(model.graph);
      if (model.graph.exp_log) model.exp_log = convert_weights<ExpLogNumber>(model.graph);
      model.rung_weights<model_rungs.first>();
    }
  } catch (const ModelError& e) { throw UsageError(what + ": " + e.what()); }
  return model;
}

std::optional<std::int64_t> embedding_rows(const LoadedModel& model) {
  std::optional<std::int64_t> rows;
  for (const auto& node : model.graph.nodes) {
    if (node.op != "Gather" || node.inputs.size() < 2 || node.inputs[1] != model.graph.input_slot) continue;
    const auto it = model.graph.constants.find(node.inputs[0]);
    if (it == model.graph.constants.end() || it->second.shape.empty()) continue;
    try {
      const std::size_t axis = normalized_axis(node.int_attribute("axis", 0), it->second.shape.size());
      rows = std::min(rows.value_or(INT64_MAX), it->second.shape[axis]);
    } catch (const ModelError& e) {  // an axis that is no integer, or out of range
      throw UsageError("--onnx '" + model.path + "': " + e.what());
    }
  }
  return rows;
}

}  // namespace tverify::model
