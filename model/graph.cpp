#include "model/graph.hpp"

#include <algorithm>
#include <array>
#include <iterator>

namespace tverify::model {

namespace {

// Every op of the evaluator, rational ones first. Kept in one place: the reader refuses any other op, docs/model.md
// lists these.
constexpr std::array rational_ops{"Abs",
                                  "Add",
                                  "And",
                                  "Cast",
                                  "Concat",
                                  "Constant",
                                  "ConstantOfShape",
                                  "CumSum",
                                  "Div",
                                  "Dropout",
                                  "Equal",
                                  "Expand",
                                  "Gather",
                                  "Gemm",
                                  "Greater",
                                  "GreaterOrEqual",
                                  "Identity",
                                  "Less",
                                  "LessOrEqual",
                                  "MatMul",
                                  "Max",
                                  "Min",
                                  "Mul",
                                  "Neg",
                                  "Not",
                                  "Or",
                                  "Range",
                                  "ReduceMax",
                                  "ReduceMean",
                                  "ReduceMin",
                                  "ReduceSum",
                                  "Relu",
                                  "Reshape",
                                  "Shape",
                                  "Slice",
                                  "Split",
                                  "Squeeze",
                                  "Sub",
                                  "Transpose",
                                  "Trilu",
                                  "Unsqueeze",
                                  "Where",
                                  "Pow"};
// Pow is rational when its exponent is an integer; the evaluator encloses it otherwise.
constexpr std::array enclosed_ops{"Erf",  "Exp", "LayerNormalization", "Log", "LogSoftmax", "Sigmoid", "Softmax",
                                  "Sqrt", "Tanh"};

template <class List>
bool listed(const List& list, const std::string& op) {
  return std::find(list.begin(), list.end(), op) != list.end();
}

}  // namespace

const Attribute* Node::attribute(const std::string& key) const {
  const auto it = attributes.find(key);
  return it == attributes.end() ? nullptr : &it->second;
}

std::int64_t Node::int_attribute(const std::string& key, std::int64_t fallback) const {
  const Attribute* a = attribute(key);
  if (!a) return fallback;
  if (a->kind != Attribute::Kind::Int) throw ModelError(label() + ": attribute '" + key + "' must be an integer");
  return a->i;
}

Exact Node::float_attribute(const std::string& key, const Exact& fallback) const {
  const Attribute* a = attribute(key);
  if (!a) return fallback;
  if (a->kind != Attribute::Kind::Float) throw ModelError(label() + ": attribute '" + key + "' must be a float");
  return a->f;
}

std::optional<std::int64_t> Graph::fixed_length() const {
  if (input_dims.empty()) return std::nullopt;
  return input_dims.back().size;
}

void Graph::drop_unread_constants() {
  std::vector<bool> read(static_cast<std::size_t>(std::max(slot_count, 0)), false);
  for (const auto& node : nodes)
    for (int slot : node.inputs)
      if (slot >= 0 && slot < slot_count) read[static_cast<std::size_t>(slot)] = true;
  for (auto it = constants.begin(); it != constants.end();)
    it = it->first >= 0 && it->first < slot_count && !read[static_cast<std::size_t>(it->first)] &&
                 it->first != output_slot
             ? constants.erase(it)
             : std::next(it);
}

bool is_supported_op(const std::string& op) { return listed(rational_ops, op) || listed(enclosed_ops, op); }

bool is_rational_op(const std::string& op) { return listed(rational_ops, op); }

bool is_exp_log_op(const std::string& op) {
  return op == "Exp" || op == "Softmax" || op == "Sigmoid" || op == "Log" || op == "Sqrt";
}

std::string supported_ops_text() {
  std::vector<std::string> all(rational_ops.begin(), rational_ops.end());
  all.insert(all.end(), enclosed_ops.begin(), enclosed_ops.end());
  std::sort(all.begin(), all.end());
  std::string out;
  for (const auto& op : all) out += (out.empty() ? "" : ", ") + op;
  return out;
}

}  // namespace tverify::model
