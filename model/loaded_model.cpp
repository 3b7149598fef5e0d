#include "model/loaded_model.hpp"

#include "model/onnx_reader.hpp"

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

std::variant<LoadedModel, std::string> load_model(const std::string& bytes, std::optional<int> weights_as_decimal) {
  auto read = read_onnx(bytes, ReadOptions{weights_as_decimal});
  if (auto* reason = std::get_if<std::string>(&read)) return *reason;
  LoadedModel model;
  model.graph = std::move(std::get<Graph>(read));
  model.graph.drop_unread_constants();
  model.weights_as_decimal = weights_as_decimal;
  try {
    if (model.graph.rational)
      model.exact = convert_weights<Exact>(model.graph);
    else {
      model.doubles = double_weights(model.graph);
      if (model.graph.exp_log) model.exp_log = convert_weights<ExpLogNumber>(model.graph);
      model.rung_weights<model_rungs.first>();
    }
  } catch (const ModelError& e) { return std::string("has a weight tverify cannot convert: ") + e.what(); }
  return model;
}

std::variant<std::optional<std::int64_t>, std::string> embedding_rows(const LoadedModel& model) {
  std::optional<std::int64_t> rows;
  for (const auto& node : model.graph.nodes) {
    if (node.op != "Gather" || node.inputs.size() < 2 || node.inputs[1] != model.graph.input_slot) continue;
    const auto it = model.graph.constants.find(node.inputs[0]);
    if (it == model.graph.constants.end() || it->second.shape.empty()) continue;
    try {
      const std::size_t axis = normalized_axis(node.int_attribute("axis", 0), it->second.shape.size());
      rows = std::min(rows.value_or(INT64_MAX), it->second.shape[axis]);
    } catch (const ModelError& e) {  // an axis that is no integer, or out of range
      return std::string(e.what());
    }
  }
  return rows;
}

}  // namespace tverify::model
