// Every ONNX op tverify evaluates, declared once (model/op_table.cpp): its name, how it computes, which of its inputs
// are parameters (a shape, an axis, a bound), its rule for prefix consistency (model/prefix_analysis.hpp), the element
// type of its outputs (model/integer_types.hpp), and its evaluation in every scalar type a graph is evaluated in. The
// reader refuses an op the table does not hold; docs/model.md's list of supported ops is checked against it
// (tests/test_op_table.cpp).
#pragma once

#include "core/double_interval.hpp"
#include "core/exact.hpp"
#include "core/exp_log.hpp"
#include "core/interval.hpp"
#include "model/graph.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace tverify::model {

// How an op computes on exact inputs.
enum class OpArithmetic {
  Rational,  // a rational function: a graph of such ops evaluates exactly
  Power,     // Pow: rational with an integer exponent, exp-log otherwise
  ExpLog,    // Exp, Log, Sqrt, Sigmoid, Softmax: exact in exp-log arithmetic (core/exp_log.hpp) where values stay in it
  Enclosed,  // enclosed in intervals only (Erf, Tanh, LayerNormalization, LogSoftmax)
};

// The ONNX element type of an op's outputs.
enum class OutputType {
  OfFirstInput,
  OfSecondInput,  // Where: its first input is the condition
  OfThirdInput,   // OneHot: its values
  Int64,          // Shape
  Bool,           // comparisons and logical ops
  CastTarget,     // Cast: its `to` attribute
  Declared,       // Constant, ConstantOfShape: the tensor the node holds
};

// How prefix analysis shows an op's value on a prefix of the tokens to be the leading block of its value on the whole
// sequence (model/prefix_analysis.cpp has each rule).
enum class PrefixRule {
  Elementwise,  // each input fits the output's shape
  Dropout,
  Transpose,
  Squeeze,  // Squeeze and Unsqueeze
  Reshape,
  Expand,
  Concat,
  Split,
  Slice,
  Gather,
  Trilu,
  MatMul,
  Gemm,
  Normalization,  // Softmax and LogSoftmax
  LayerNormalization,
  Reduction,
  CumSum,
  OneHot,
  Einsum,
  ValuesCompared,  // Range, ConstantOfShape, ScatterND: their values at each length are compared instead
  ShapeOf,         // Shape: a function of its input's shape only, never of the tokens' values
  Constant,
};

// One op's evaluation in scalar type T: the node's outputs, in order, from its inputs (nullptr for an optional input
// left out).
template <class T>
using OpEvaluation = std::vector<Tensor<T>> (*)(const Node&, const std::vector<const Tensor<T>*>&);

// The scalar types a graph is evaluated in: exactly, in exp-log arithmetic, in double intervals, and at every rung of
// standard_rungs (core/precision_ladder.hpp).
template <class... Ts>
struct ScalarTypes {
  using Evaluations = std::tuple<OpEvaluation<Ts>...>;
};
using EvaluationScalars = ScalarTypes<Exact, ExpLogNumber, DoubleInterval, Interval<64>, Interval<256>, Interval<1024>,
                                      Interval<4096>, Interval<16384>>;

struct OpSpec {
  std::string_view name;
  OpArithmetic arithmetic;
  OutputType output_type;
  PrefixRule prefix_rule;
  // The inputs that give a shape, an axis, a bound or a count rather than data.
  std::vector<std::size_t> parameter_inputs;
  EvaluationScalars::Evaluations evaluations;

  template <class T>
  std::vector<Tensor<T>> evaluate(const Node& node, const std::vector<const Tensor<T>*>& in) const {
    return std::get<OpEvaluation<T>>(evaluations)(node, in);
  }
};

// A Constant node: its value is a weight, converted once per precision rather than computed for each input.
inline bool holds_weight(const OpSpec& op) { return op.prefix_rule == PrefixRule::Constant; }

// The table, by name.
const std::vector<OpSpec>& op_table();
// The op's row; nullptr for an op tverify does not evaluate.
const OpSpec* find_op(std::string_view name);
// The node's row; std::logic_error for an op the reader would have refused.
const OpSpec& op_of(const Node& node);
// The supported ops, comma-separated, for messages and docs.
std::string supported_ops_text();

}  // namespace tverify::model
