// A seeded generator of small valid ONNX graphs for tests/test_onnx_fuzz.cpp. A graph reads the token input, embeds
// it as x = E[tokens] (a real [seq, width] tensor), passes x through one to four recipes and ends in real logits of
// shape [seq, classes]. Each recipe exercises one op of the model evaluator in a valid way (with the helper nodes
// it needs) and returns a new real [seq, width]; together the recipes cover every op the evaluator supports
// (model/op_table.cpp), and a run of consecutive graphs goes through every recipe. A graph is a plain
// description, constants and nodes, that a test can edit before model::OnnxWriter writes it.
#pragma once

#include "model/onnx_writer.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace tverify::testing {

using Rng = std::mt19937_64;
using Shape = std::vector<std::int64_t>;

// An initializer: an int64 tensor or a real one (rationals, written exactly).
struct ConstantSpec {
  std::string name;
  bool real = false;
  Shape shape;
  std::vector<std::int64_t> integers;
  std::vector<Exact> reals;

  std::size_t count() const { return real ? reals.size() : integers.size(); }
};

struct NodeSpec {
  std::string op;
  std::vector<std::string> inputs;  // "" leaves an optional input out
  std::vector<model::OnnxAttribute> attributes;
  std::string output;
};

struct GraphSpec {
  std::vector<ConstantSpec> constants;
  std::vector<NodeSpec> nodes;
  std::int64_t classes = 0;
};

inline const std::string token_input_name = "tokens";
inline const std::string logits_name = "logits";

inline std::string shape_text(const Shape& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

inline std::string attribute_text(const model::OnnxAttribute& a) {
  if (const auto* i = std::get_if<std::int64_t>(&a.value)) return a.name + "=" + std::to_string(*i);
  if (const auto* text = std::get_if<std::string>(&a.value)) return a.name + "='" + *text + "'";
  return a.name + "=" + shape_text(std::get<std::vector<std::int64_t>>(a.value));
}

inline std::string constant_text(const ConstantSpec& c) {
  std::string values;
  for (std::size_t i = 0; i < c.count(); ++i)
    values += (i ? ", " : "") + (c.real ? exact_to_string(c.reals[i]) : std::to_string(c.integers[i]));
  return c.name + " = " + (c.real ? "real" : "int64") + shape_text(c.shape) + " {" + values + "}";
}

inline std::string node_text(const NodeSpec& n) {
  std::string text = n.output + " = " + n.op + "(";
  for (std::size_t i = 0; i < n.inputs.size(); ++i) {
    if (i > 0) text += ", ";
    text += n.inputs[i].empty() ? std::string("''") : n.inputs[i];
  }
  text += ")";
  for (const auto& a : n.attributes) text.append(" ").append(attribute_text(a));
  return text;
}

// The graph as text, one constant or node a line, for a failure's message.
inline std::string describe(const GraphSpec& g) {
  std::string text = "input " + token_input_name + ": int64[seq]\n";
  for (const auto& c : g.constants) text.append("  ").append(constant_text(c)).append("\n");
  for (const auto& n : g.nodes) text.append("  ").append(node_text(n)).append("\n");
  return text + "output " + logits_name + ": real[seq, " + std::to_string(g.classes) + "]\n";
}

// The model's protobuf bytes, written by model::OnnxWriter.
inline std::string serialized(const GraphSpec& g) {
  model::OnnxWriter w("fuzz");
  w.token_input(token_input_name);
  for (const auto& c : g.constants) {
    if (c.real)
      w.rationals(c.name, c.shape, c.reals);
    else
      w.integers(c.name, c.shape, c.integers);
  }
  for (const auto& n : g.nodes) w.node(n.op, n.inputs, n.attributes, n.output);
  w.output(logits_name, g.classes);
  return w.serialized();
}

// Builds a GraphSpec: constants and nodes with fresh names, and the random choices of the recipes.
class GraphBuilder {
 public:
  explicit GraphBuilder(Rng& rng) : rng_(rng) {}

  std::int64_t pick(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_);
  }
  bool coin() { return pick(0, 1) == 1; }
  template <class T>
  const T& one_of(const std::vector<T>& options) {
    return options[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(options.size()) - 1))];
  }

  std::string integers(const Shape& shape, const std::vector<std::int64_t>& values) {
    graph.constants.push_back({"c" + std::to_string(++constants_), false, shape, values, {}});
    return graph.constants.back().name;
  }
  std::string reals(const Shape& shape, const std::vector<Exact>& values) {
    graph.constants.push_back({"c" + std::to_string(++constants_), true, shape, {}, values});
    return graph.constants.back().name;
  }
  std::string node(const std::string& op, const std::vector<std::string>& inputs,
                   const std::vector<model::OnnxAttribute>& attributes = {}, const std::string& output = "") {
    graph.nodes.push_back({op, inputs, attributes, output.empty() ? "v" + std::to_string(++nodes_) : output});
    return graph.nodes.back().output;
  }

  // A small real: a multiple of 1/4 in [-2, 2], sometimes 1/3 (written as a quotient of integer tensors).
  Exact small_real(bool nonzero = false) {
    if (pick(0, 9) == 0) return Exact(1, 3);
    std::int64_t k = pick(-8, 8);
    if (nonzero && k == 0) k = 1;
    return Exact(k, 4);
  }
  std::vector<Exact> small_reals(std::int64_t count, bool nonzero = false) {
    std::vector<Exact> values;
    for (std::int64_t i = 0; i < count; ++i) values.push_back(small_real(nonzero));
    return values;
  }
  // Integers given as an initializer or as a Constant node (value_ints), at random.
  std::string integer_list(const std::vector<std::int64_t>& values) {
    if (coin()) return integers({static_cast<std::int64_t>(values.size())}, values);
    return node("Constant", {}, {{"value_ints", values}});
  }

  GraphSpec graph;

 private:
  Rng& rng_;
  int constants_ = 0, nodes_ = 0;
};

// The real [seq, width] tensor the recipes pass along.
struct Activation {
  std::string name;
  std::int64_t width = 0;
};

namespace recipes {

using Attributes = std::vector<model::OnnxAttribute>;
using Ints = std::vector<std::int64_t>;
inline constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

// A real constant that broadcasts against [seq, width]: of shape [width], [1, width], [1] or a scalar.
inline std::string row_constant(GraphBuilder& b, std::int64_t width, bool nonzero = false) {
  const Shape shape = b.one_of(std::vector<Shape>{{width}, {1, width}, {1}, {}});
  std::int64_t count = 1;
  for (std::int64_t d : shape) count *= d;
  return b.reals(shape, b.small_reals(count, nonzero));
}

inline Activation added(GraphBuilder& b, const Activation& x, const std::string& other) {
  return {b.node("Add", {x.name, other}), x.width};
}

// Abs, Neg, Relu, Identity, Tanh, Erf, Sigmoid: op(x).
inline Activation unary(GraphBuilder& b, const Activation& x, const std::string& op) {
  return {b.node(op, {x.name}), x.width};
}

// Exp(-|x|), in (0, 1]: exponentials of exponentials stay small.
inline Activation exponential(GraphBuilder& b, const Activation& x, const std::string&) {
  return {b.node("Exp", {b.node("Neg", {b.node("Abs", {x.name})})}), x.width};
}

// Sqrt(|x|) and Log(|x| + 1): defined on every input, never -inf.
inline Activation root_or_logarithm(GraphBuilder& b, const Activation& x, const std::string& op) {
  std::string argument = b.node("Abs", {x.name});
  if (op == "Log") argument = b.node("Add", {argument, b.reals({}, {1})});
  return {b.node(op, {argument}), x.width};
}

// Pow: x^2 with a real exponent, x^3 with an int64 one (both rational), or (|x| + 1)^(1/2) (enclosed).
inline Activation power(GraphBuilder& b, const Activation& x, const std::string&) {
  switch (b.pick(0, 2)) {
    case 0: return {b.node("Pow", {x.name, b.reals({}, {2})}), x.width};
    case 1: return {b.node("Pow", {x.name, b.integers({1}, {3})}), x.width};
    default: {
      const std::string base = b.node("Add", {b.node("Abs", {x.name}), b.reals({}, {1})});
      return {b.node("Pow", {base, b.reals({}, {Exact(1, 2)})}), x.width};
    }
  }
}

// Dropout at inference: the identity, with its optional ratio and training_mode (false) inputs given or not.
inline Activation dropout(GraphBuilder& b, const Activation& x, const std::string&) {
  std::vector<std::string> inputs{x.name};
  if (b.coin()) inputs.push_back(b.reals({}, {Exact(1, 2)}));
  if (b.coin()) {
    if (inputs.size() == 1) inputs.push_back("");
    inputs.push_back(b.integers({}, {0}));
  }
  return {b.node("Dropout", inputs), x.width};
}

// Add, Sub, Mul, Div by a constant broadcast along the rows (Div by a nonzero one), or Add, Sub, Mul of x and x.
inline Activation arithmetic(GraphBuilder& b, const Activation& x, const std::string& op) {
  if (op != "Div" && b.pick(0, 3) == 0) return {b.node(op, {x.name, x.name}), x.width};
  return {b.node(op, {x.name, row_constant(b, x.width, op == "Div")}), x.width};
}

// Max, Min of x and zero to two constants.
inline Activation extremum(GraphBuilder& b, const Activation& x, const std::string& op) {
  std::vector<std::string> inputs{x.name};
  for (std::int64_t k = b.pick(0, 2); k > 0; --k) inputs.push_back(row_constant(b, x.width));
  return {b.node(op, inputs), x.width};
}

inline const std::vector<std::string>& comparison_ops() {
  static const std::vector<std::string> ops{"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"};
  return ops;
}

inline bool is_comparison(const std::string& op) {
  return std::find(comparison_ops().begin(), comparison_ops().end(), op) != comparison_ops().end();
}

inline std::string comparison(GraphBuilder& b, const Activation& x, const std::string& op) {
  return b.node(op, {x.name, row_constant(b, x.width)});
}

// A boolean [seq, width]: op(x, c) for a comparison op, And / Or of two comparisons, Not of one.
inline std::string condition(GraphBuilder& b, const Activation& x, const std::string& op) {
  if (is_comparison(op)) return comparison(b, x, op);
  const std::string first = comparison(b, x, b.one_of(comparison_ops()));
  if (op == "And" || op == "Or") return b.node(op, {first, comparison(b, x, b.one_of(comparison_ops()))});
  if (op == "Not") return b.node("Not", {first});
  return first;
}

// The comparisons, And, Or, Not and Where: x where the condition holds, -x or a constant elsewhere.
inline Activation selection(GraphBuilder& b, const Activation& x, const std::string& op) {
  const std::string otherwise = b.coin() ? b.node("Neg", {x.name}) : row_constant(b, x.width);
  return {b.node("Where", {condition(b, x, op), x.name, otherwise}), x.width};
}

// Cast: a condition to reals added to x, x truncated to int64 and back, or x to float64 (the identity on reals).
inline Activation cast(GraphBuilder& b, const Activation& x, const std::string&) {
  switch (b.pick(0, 2)) {
    case 0: return added(b, x, b.node("Cast", {comparison(b, x, "Greater")}, {{"to", std::int64_t{1}}}));
    case 1:
      return {b.node("Cast", {b.node("Cast", {x.name}, {{"to", std::int64_t{7}}})}, {{"to", std::int64_t{11}}}),
              x.width};
    default: return {b.node("Cast", {x.name}, {{"to", std::int64_t{11}}}), x.width};
  }
}

// MatMul by a [width, n] matrix, or by a [width] vector (then the [seq] result is unsqueezed to [seq, 1]).
inline Activation matmul(GraphBuilder& b, const Activation& x, const std::string&) {
  if (b.pick(0, 3) == 0) {
    const std::string column = b.node("MatMul", {x.name, b.reals({x.width}, b.small_reals(x.width))});
    return {b.node("Unsqueeze", {column, b.integer_list({1})}), 1};
  }
  const std::int64_t n = b.pick(1, 3);
  return {b.node("MatMul", {x.name, b.reals({x.width, n}, b.small_reals(x.width * n))}), n};
}

// Gemm(x, B, C): B [width, n] or, with transB, [n, width]; C broadcast or left out.
inline Activation gemm(GraphBuilder& b, const Activation& x, const std::string&) {
  const std::int64_t n = b.pick(1, 3);
  const bool transposed = b.coin();
  Attributes attributes;
  if (transposed || b.coin()) attributes.push_back({"transB", std::int64_t{transposed ? 1 : 0}});
  std::vector<std::string> inputs{
      x.name, b.reals(transposed ? Shape{n, x.width} : Shape{x.width, n}, b.small_reals(x.width * n))};
  if (b.coin()) inputs.push_back(row_constant(b, n));
  return {b.node("Gemm", inputs, attributes), n};
}

// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd over the row (a [seq, 1] result), over the positions or over
// everything (added back to x); with keepdims 0 or 1. ReduceSum takes its axes as an input, the others as an
// attribute (opset 17).
inline Activation reduction(GraphBuilder& b, const Activation& x, const std::string& op) {
  const bool keep = b.coin();
  const int over = static_cast<int>(b.pick(0, 2));  // 0: the row, 1: the positions, 2: every axis
  std::vector<std::string> inputs{x.name};
  Attributes attributes{{"keepdims", std::int64_t{keep ? 1 : 0}}};
  if (over < 2) {
    const std::int64_t axis = over == 0 ? b.one_of(Ints{1, -1}) : b.one_of(Ints{0, -2});
    if (op == "ReduceSum")
      inputs.push_back(b.integer_list({axis}));
    else
      attributes.push_back({"axes", Ints{axis}});
  } else if (op == "ReduceSum" && b.coin()) {
    inputs.push_back(b.integers({0}, {}));  // no axes: every axis (noop_with_empty_axes is 0)
  }
  const std::string reduced = b.node(op, inputs, attributes);
  if (over != 0) return added(b, x, reduced);
  if (keep) return {reduced, 1};
  return {b.node("Unsqueeze", {reduced, b.integer_list({1})}), 1};
}

// CumSum along either axis (a scalar or one-element axis), inclusive or exclusive, forward or reverse.
inline Activation cumulative(GraphBuilder& b, const Activation& x, const std::string&) {
  const std::int64_t axis = b.one_of(Ints{0, 1, -1, -2});
  const std::string axis_input = b.coin() ? b.integers({}, {axis}) : b.integers({1}, {axis});
  Attributes attributes;
  if (b.coin()) attributes.push_back({"exclusive", b.pick(0, 1)});
  if (b.coin()) attributes.push_back({"reverse", b.pick(0, 1)});
  return {b.node("CumSum", {x.name, axis_input}, attributes), x.width};
}

// Softmax, LogSoftmax along the row (the default axis -1, or 1) or along the positions (0, -2).
inline Activation softmax(GraphBuilder& b, const Activation& x, const std::string& op) {
  Attributes attributes;
  if (b.coin()) attributes.push_back({"axis", b.one_of(Ints{0, 1, -1, -2})});
  return {b.node(op, {x.name}, attributes), x.width};
}

// LayerNormalization over the row (axis -1 or 1) or over everything (axis 0), with a scale and an optional bias.
inline Activation layer_normalization(GraphBuilder& b, const Activation& x, const std::string&) {
  const std::int64_t axis = b.one_of(Ints{-1, 1, 0});
  const Shape normalized = axis == 0 ? Shape{1, x.width} : Shape{x.width};
  std::int64_t count = x.width;
  std::vector<std::string> inputs{x.name, b.reals(normalized, b.small_reals(count))};
  if (b.coin()) inputs.push_back(b.reals(normalized, b.small_reals(count)));
  Attributes attributes;
  if (axis != -1 || b.coin()) attributes.push_back({"axis", axis});
  return {b.node("LayerNormalization", inputs, attributes), x.width};
}

// Transpose to [width, seq] and back (the default perm reverses the axes), or [1, seq, width] to [seq, 1, width]
// squeezed back to [seq, width].
inline Activation transpose(GraphBuilder& b, const Activation& x, const std::string&) {
  if (b.coin()) {
    const std::string turned = b.node("Transpose", {x.name}, {{"perm", Ints{1, 0}}});
    return {b.node("Transpose", {turned}), x.width};
  }
  const std::string batched = b.node("Unsqueeze", {x.name, b.integer_list({0})});
  const std::string moved = b.node("Transpose", {batched}, {{"perm", Ints{1, 0, 2}}});
  return {b.node("Squeeze", {moved, b.integer_list({1})}), x.width};
}

// Unsqueeze at any axis of the rank-3 result and Squeeze it again.
inline Activation unsqueeze_squeeze(GraphBuilder& b, const Activation& x, const std::string&) {
  const std::int64_t axis = b.one_of(Ints{0, 1, 2, -1, -2, -3});
  const std::string grown = b.node("Unsqueeze", {x.name, b.integer_list({axis})});
  return {b.node("Squeeze", {grown, b.integer_list({axis})}), x.width};
}

// Reshape to [seq, width] through 0 (copy the dimension) and -1 (infer it), or to [seq, width, 1] and back.
inline Activation reshape(GraphBuilder& b, const Activation& x, const std::string&) {
  Attributes attributes;
  if (b.coin()) attributes.push_back({"allowzero", std::int64_t{0}});
  switch (b.pick(0, 2)) {
    case 0: return {b.node("Reshape", {x.name, b.integer_list({0, -1})}, attributes), x.width};
    case 1: return {b.node("Reshape", {x.name, b.integer_list({-1, x.width})}, attributes), x.width};
    default: {
      const std::string deeper = b.node("Reshape", {x.name, b.integer_list({0, x.width, 1})}, attributes);
      return {b.node("Reshape", {deeper, b.integer_list({0, -1})}), x.width};
    }
  }
}

// Concat of x with zero to two copies of x or -x along the row.
inline Activation concat(GraphBuilder& b, const Activation& x, const std::string&) {
  std::vector<std::string> inputs{x.name};
  const std::int64_t more = x.width > 3 ? 0 : b.pick(0, 2);
  for (std::int64_t k = 0; k < more; ++k) inputs.push_back(b.coin() ? x.name : b.node("Neg", {x.name}));
  return {b.node("Concat", inputs, {{"axis", b.one_of(Ints{1, -1})}}), x.width * (more + 1)};
}

// An empty part of the row ([seq, 0]), reversed (still empty), concatenated to x.
inline Activation empty_slice_reversed(GraphBuilder& b, const Activation& x) {
  const std::string none = b.node("Slice", {x.name, b.integers({1}, {0}), b.integers({1}, {0}), b.integers({1}, {1})});
  const std::string reversed = b.node("Slice", {none, b.integers({1}, {-1}), b.integers({1}, {int64_min}),
                                                b.integers({1}, {1}), b.integers({1}, {-1})});
  return {b.node("Concat", {x.name, reversed}, {{"axis", std::int64_t{1}}}), x.width};
}

// Slice of the row: a range [s, e) (either end from the back or past the end), every second entry, or the row
// reversed (step -1); the axes given as [1], [-1] or left out (then the positions are kept whole by a first slice).
// Or an empty slice, reversed.
inline Activation slice(GraphBuilder& b, const Activation& x, const std::string&) {
  if (b.pick(0, 4) == 0) return empty_slice_reversed(b, x);
  const std::int64_t w = x.width;
  std::int64_t start = 0, end = w, step = 1, width = w;
  switch (b.pick(0, 2)) {
    case 0: {
      const std::int64_t s = b.pick(0, w - 1), e = b.pick(s + 1, w);
      start = b.coin() ? s : s - w;
      end = e < w && b.coin() ? e - w : (e == w && b.coin() ? int64_max : e);
      width = e - s;
      break;
    }
    case 1: step = 2, width = (w + 1) / 2; break;
    default: start = -1, end = b.coin() ? int64_min : -(w + 1), step = -1; break;
  }
  const bool steps = step != 1 || b.coin();
  std::vector<std::string> inputs{x.name};
  if (b.coin()) {  // axes left out: starts and ends cover axis 0 (whole) and axis 1
    inputs.push_back(b.integer_list({0, start}));
    inputs.push_back(b.integer_list({int64_max, end}));
    if (steps) inputs.insert(inputs.end(), {"", b.integer_list({1, step})});
  } else {
    inputs.push_back(b.integer_list({start}));
    inputs.push_back(b.integer_list({end}));
    inputs.push_back(b.integer_list({b.one_of(Ints{1, -1})}));
    if (steps) inputs.push_back(b.integer_list({step}));
  }
  return {b.node("Slice", inputs), width};
}

// Split of the row into one part (the writer gives a node one output), its size given or left out; or of the
// positions into one part, the size left out.
inline Activation split(GraphBuilder& b, const Activation& x, const std::string&) {
  if (b.coin()) return {b.node("Split", {x.name}, {{"axis", b.one_of(Ints{0, -2})}}), x.width};
  return {b.node("Split", {x.name, b.integer_list({x.width})}, {{"axis", b.one_of(Ints{1, -1})}}), x.width};
}

// Gather along the row: one to three indices (negative ones from the back), or one scalar index (a [seq] result,
// unsqueezed to [seq, 1]).
inline Activation gather(GraphBuilder& b, const Activation& x, const std::string&) {
  const Attributes axis{{"axis", b.one_of(Ints{1, -1})}};
  if (b.pick(0, 3) == 0) {
    const std::string column = b.node("Gather", {x.name, b.integers({}, {b.pick(-x.width, x.width - 1)})}, axis);
    return {b.node("Unsqueeze", {column, b.integer_list({-1})}), 1};
  }
  Ints indices;
  for (std::int64_t k = b.pick(1, 3); k > 0; --k) indices.push_back(b.pick(-x.width, x.width - 1));
  return {b.node("Gather", {x.name, b.integers({static_cast<std::int64_t>(indices.size())}, indices)}, axis),
          static_cast<std::int64_t>(indices.size())};
}

// x beside the one-hot rows of the tokens (OneHot, [seq, depth]), with depth 1 to 4 (tokens 0..2: a depth below 3
// leaves some rows all off), real values [off, on], axis -1 or 1.
inline Activation one_hot(GraphBuilder& b, const Activation& x, const std::string&) {
  const std::int64_t depth = b.pick(1, 4);
  const std::string rows = b.node("OneHot", {token_input_name, b.integers({}, {depth}), b.reals({2}, b.small_reals(2))},
                                  {{"axis", b.one_of(Ints{-1, 1})}});
  return {b.node("Concat", {x.name, rows}, {{"axis", std::int64_t{1}}}), x.width + depth};
}

// ScatterND into x: the first or last row replaced by (or, opset 16's reductions, added to or multiplied by) a row of
// constants, or one element of it.
inline Activation scatter(GraphBuilder& b, const Activation& x, const std::string&) {
  const std::int64_t row = b.one_of(Ints{0, -1});
  Attributes attributes;
  if (b.coin()) attributes.push_back({"reduction", std::string(b.coin() ? "add" : "mul")});
  if (b.coin())
    return {b.node("ScatterND", {x.name, b.integers({1, 1}, {row}), b.reals({1, x.width}, b.small_reals(x.width))},
                   attributes),
            x.width};
  const Ints element{row, b.pick(-x.width, x.width - 1)};
  return {b.node("ScatterND", {x.name, b.integers({1, 2}, element), b.reals({1}, b.small_reals(1))}, attributes),
          x.width};
}

// Einsum as attention code writes it: x times a [width, n] matrix, x scaled column-wise by a vector, or x itself
// through an ellipsis.
inline Activation einsum(GraphBuilder& b, const Activation& x, const std::string&) {
  const auto equation = [](const char* e) { return Attributes{{"equation", std::string(e)}}; };
  switch (b.pick(0, 2)) {
    case 0: {
      const std::int64_t n = b.pick(1, 3);
      return {b.node("Einsum", {x.name, b.reals({x.width, n}, b.small_reals(x.width * n))}, equation("ij,jk->ik")), n};
    }
    case 1:
      return {b.node("Einsum", {x.name, b.reals({x.width}, b.small_reals(x.width))}, equation("ij,j->ij")), x.width};
    default: return {b.node("Einsum", {x.name}, equation("...j->...j")), x.width};
  }
}

// Zeros of x's shape (Shape, ConstantOfShape) added to x: the whole shape, the row's width (start 1 or -1) or the
// positions alone (end 1, unsqueezed to [seq, 1]).
inline Activation shape(GraphBuilder& b, const Activation& x, const std::string&) {
  switch (b.pick(0, 2)) {
    case 0: return added(b, x, b.node("ConstantOfShape", {b.node("Shape", {x.name})}));
    case 1: {
      const std::string width = b.node("Shape", {x.name}, {{"start", b.one_of(Ints{1, -1})}});
      return added(b, x, b.node("ConstantOfShape", {width}));
    }
    default: {
      const std::string positions = b.node("Shape", {x.name}, {{"start", std::int64_t{0}}, {"end", std::int64_t{1}}});
      const std::string zeros = b.node("ConstantOfShape", {positions});
      return added(b, x, b.node("Unsqueeze", {zeros, b.integer_list({1})}));
    }
  }
}

// ConstantOfShape of a constant shape, [1, width] or [width], added to x.
inline Activation constant_of_shape(GraphBuilder& b, const Activation& x, const std::string&) {
  const Ints dims = b.coin() ? Ints{1, x.width} : Ints{x.width};
  return added(b, x, b.node("ConstantOfShape", {b.integer_list(dims)}));
}

// Range of `width` values added to x: integers up or down (cast to reals), up to x's own width, or reals.
inline Activation range(GraphBuilder& b, const Activation& x, const std::string&) {
  const std::int64_t w = x.width;
  switch (b.pick(0, 3)) {
    case 0: {
      const std::string up = b.node("Range", {b.integers({}, {0}), b.integers({}, {w}), b.integers({}, {1})});
      return added(b, x, b.node("Cast", {up}, {{"to", std::int64_t{1}}}));
    }
    case 1: {
      const std::string down = b.node("Range", {b.integers({}, {w - 1}), b.integers({}, {-1}), b.integers({}, {-1})});
      return added(b, x, b.node("Cast", {down}, {{"to", std::int64_t{11}}}));
    }
    case 2: {
      const std::string limit = b.node("Shape", {x.name}, {{"start", std::int64_t{1}}});
      const std::string up = b.node("Range", {b.integers({}, {0}), limit, b.integers({}, {1})});
      return added(b, x, b.node("Cast", {up}, {{"to", std::int64_t{1}}}));
    }
    default:
      return added(b, x, b.node("Range", {b.reals({}, {0}), b.reals({}, {Exact(w, 2)}), b.reals({}, {Exact(1, 2)})}));
  }
}

// Expand of x to [1, 1] or [1, width] (x's own shape), or of a row constant to x's shape, added to x.
inline Activation expand(GraphBuilder& b, const Activation& x, const std::string&) {
  if (b.coin()) return {b.node("Expand", {x.name, b.integer_list({1, b.coin() ? 1 : x.width})}), x.width};
  return added(b, x, b.node("Expand", {row_constant(b, x.width), b.node("Shape", {x.name})}));
}

// Trilu: the upper or lower triangle of [seq, width], its diagonal offset k given or left out.
inline Activation trilu(GraphBuilder& b, const Activation& x, const std::string&) {
  std::vector<std::string> inputs{x.name};
  if (b.coin()) inputs.push_back(b.integers({}, {b.pick(-2, 2)}));
  Attributes attributes;
  if (b.coin()) attributes.push_back({"upper", b.pick(0, 1)});
  return {b.node("Trilu", inputs, attributes), x.width};
}

// A Constant node's integers (value_ints, or one value_int) cast to reals and added to x.
inline Activation constant(GraphBuilder& b, const Activation& x, const std::string&) {
  Ints values;
  for (std::int64_t k = 0; k < x.width; ++k) values.push_back(b.pick(-2, 2));
  const model::OnnxAttribute value =
      b.coin() ? model::OnnxAttribute{"value_ints", values} : model::OnnxAttribute{"value_int", b.pick(-2, 2)};
  return added(b, x, b.node("Cast", {b.node("Constant", {}, {value})}, {{"to", std::int64_t{1}}}));
}

}  // namespace recipes

using Recipe = Activation (*)(GraphBuilder&, const Activation&, const std::string& op);

// The op each recipe is made for. Every op of the evaluator has one (tests/test_onnx_fuzz.cpp checks it against
// model::supported_ops_text()).
inline const std::vector<std::pair<std::string, Recipe>>& op_recipes() {
  using namespace recipes;
  static const std::vector<std::pair<std::string, Recipe>> table{{"Abs", unary},
                                                                 {"Neg", unary},
                                                                 {"Relu", unary},
                                                                 {"Identity", unary},
                                                                 {"Tanh", unary},
                                                                 {"Erf", unary},
                                                                 {"Sigmoid", unary},
                                                                 {"Exp", exponential},
                                                                 {"Sqrt", root_or_logarithm},
                                                                 {"Log", root_or_logarithm},
                                                                 {"Pow", power},
                                                                 {"Dropout", dropout},
                                                                 {"Add", arithmetic},
                                                                 {"Sub", arithmetic},
                                                                 {"Mul", arithmetic},
                                                                 {"Div", arithmetic},
                                                                 {"Max", extremum},
                                                                 {"Min", extremum},
                                                                 {"Equal", selection},
                                                                 {"Less", selection},
                                                                 {"Greater", selection},
                                                                 {"LessOrEqual", selection},
                                                                 {"GreaterOrEqual", selection},
                                                                 {"And", selection},
                                                                 {"Or", selection},
                                                                 {"Not", selection},
                                                                 {"Where", selection},
                                                                 {"Cast", cast},
                                                                 {"MatMul", matmul},
                                                                 {"Gemm", gemm},
                                                                 {"Einsum", einsum},
                                                                 {"ReduceSum", reduction},
                                                                 {"ReduceMean", reduction},
                                                                 {"ReduceProd", reduction},
                                                                 {"ReduceMax", reduction},
                                                                 {"ReduceMin", reduction},
                                                                 {"CumSum", cumulative},
                                                                 {"Softmax", softmax},
                                                                 {"LogSoftmax", softmax},
                                                                 {"LayerNormalization", layer_normalization},
                                                                 {"Transpose", transpose},
                                                                 {"Unsqueeze", unsqueeze_squeeze},
                                                                 {"Squeeze", unsqueeze_squeeze},
                                                                 {"Reshape", reshape},
                                                                 {"Concat", concat},
                                                                 {"Slice", slice},
                                                                 {"Split", split},
                                                                 {"Gather", gather},
                                                                 {"OneHot", one_hot},
                                                                 {"ScatterND", scatter},
                                                                 {"Shape", shape},
                                                                 {"ConstantOfShape", constant_of_shape},
                                                                 {"Range", range},
                                                                 {"Expand", expand},
                                                                 {"Trilu", trilu},
                                                                 {"Constant", constant}};
  return table;
}

// The logits: x widened to at least 2 entries (Concat with -x), plus a distinct multiple of 1/4 per class, so that
// classes tie only where x itself makes them.
inline void finish(GraphBuilder& b, Activation x) {
  if (x.width < 2) x = {b.node("Concat", {x.name, b.node("Neg", {x.name})}, {{"axis", std::int64_t{1}}}), 2 * x.width};
  std::vector<Exact> offsets;
  for (std::int64_t k = 0; k < x.width; ++k) offsets.push_back(Exact(k, 4));
  b.node("Add", {x.name, b.reals({x.width}, offsets)}, {}, logits_name);
  b.graph.classes = x.width;
}

// A valid graph: the embedding E [3, width] (token ids 0..2), the recipe `first` of op_recipes() (modulo its size:
// consecutive values go through every op), zero to three recipes drawn at random, the logits.
inline GraphSpec random_graph(Rng& rng, std::size_t first) {
  GraphBuilder b(rng);
  const std::int64_t width = b.pick(1, 3);
  const std::string embedding = b.reals({3, width}, b.small_reals(3 * width));
  recipes::Attributes axis;
  if (b.coin()) axis.push_back({"axis", std::int64_t{0}});
  Activation x{b.node("Gather", {embedding, token_input_name}, axis), width};
  const auto& [first_op, first_recipe] = op_recipes()[first % op_recipes().size()];
  x = first_recipe(b, x, first_op);
  for (std::int64_t k = b.pick(0, 3); k > 0; --k) {
    const auto& [op, recipe] = b.one_of(op_recipes());
    x = recipe(b, x, op);
  }
  finish(b, x);
  return std::move(b.graph);
}

}  // namespace tverify::testing
