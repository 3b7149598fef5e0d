#include "model/op_table.hpp"

#include "model/ops_einsum.hpp"
#include "model/ops_nonlinear.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

namespace tverify::model {

namespace {

using ops::Inputs;

template <class T>
const Tensor<T>& x_of(const Inputs<T>& in, const Node& node) {
  return ops::input(in, 0, node);
}
template <class T>
const Tensor<T>& y_of(const Inputs<T>& in, const Node& node) {
  return ops::input(in, 1, node);
}
template <class T>
const Tensor<T>* optional_input(const Inputs<T>& in, std::size_t i) {
  return ops::has_input(in, i) ? in[i] : nullptr;
}

template <class T>
const std::vector<std::int64_t>* optional_integers(const Inputs<T>& in, std::size_t i, const std::string& what) {
  return ops::has_input(in, i) ? &integers_of(*in[i], what) : nullptr;
}

template <class T>
const std::vector<std::int64_t>& integers(const Inputs<T>& in, std::size_t i, const Node& node,
                                          const std::string& what) {
  return integers_of(ops::input(in, i, node), what);
}

// A scalar integer input (CumSum's axis, Trilu's k): one element, else ModelError.
template <class T>
std::int64_t single_integer(const Inputs<T>& in, std::size_t i, const Node& node, const std::string& what) {
  const auto& values = integers(in, i, node, what);
  if (values.size() != 1)
    throw ModelError(what + " must hold one integer (it holds " + std::to_string(values.size()) + ")");
  return values.front();
}

template <class T>
Tensor<T> as_real(const Tensor<T>& t) {
  return t.is_real() ? t : ops::cast(t, 1);
}

// The tensor a Constant node holds (value, value_float(s), value_int(s)).
ExactTensor constant_value(const Node& node) {
  if (const Attribute* a = node.attribute("value")) return a->tensor;
  if (const Attribute* a = node.attribute("value_float")) return ExactTensor::real({}, {{a->f, 0}});
  if (const Attribute* a = node.attribute("value_int")) return ExactTensor::integer({}, {a->i});
  if (const Attribute* a = node.attribute("value_ints"))
    return ExactTensor::integer({static_cast<std::int64_t>(a->ints.size())}, a->ints);
  if (const Attribute* a = node.attribute("value_floats")) {
    std::vector<Extended<Exact>> values;
    for (const auto& f : a->floats) values.push_back({f, 0});
    return ExactTensor::real({static_cast<std::int64_t>(values.size())}, std::move(values));
  }
  throw ModelError(node.label() + " holds no value tverify reads (value, value_float(s), value_int(s))");
}

template <class T>
Tensor<T> relu_of(const Tensor<T>& a) {
  return ops::unary(
      a, [](const Extended<T>& x) { return maximum(x, ops::real_zero<T>()); },
      [](std::int64_t x) { return std::max<std::int64_t>(x, 0); });
}

// |x| = max(x, -x), exact; an integer's overflows at INT64_MIN.
template <class T>
Tensor<T> abs_of(const Tensor<T>& a) {
  return ops::unary(
      a, [](const Extended<T>& x) { return maximum(x, -x); },
      [](std::int64_t x) { return ops::no_overflow(x == INT64_MIN, x, "Abs") < 0 ? -x : x; });
}

template <class T>
Tensor<T> negation_of(const Tensor<T>& a) {
  return ops::unary(
      a, [](const Extended<T>& v) { return -v; },
      [](std::int64_t v) { return -ops::no_overflow(v == INT64_MIN, v, "Neg"); });
}

// Not is defined on booleans only.
template <class T>
Tensor<T> not_of(const Tensor<T>& a) {
  if (a.kind != ElementKind::Boolean) throw ModelError("Not of a tensor that is not boolean");
  return ops::unary(
      a, [](const Extended<T>&) -> Extended<T> { throw ModelError("Not of a real tensor"); },
      [](std::int64_t v) -> std::int64_t { return v == 0; });
}

template <class T>
Tensor<T> power_of(const Tensor<T>& base, const Tensor<T>& exponent) {
  if (!base.is_real()) throw ModelError("Pow of an integer base");
  return ops::binary(
      base, as_real(exponent), [](const Extended<T>& x, const Extended<T>& e) { return ops::power(x, e); },
      [](std::int64_t x, std::int64_t) { return x; });
}

// Dropout at inference is the identity; training mode drops at random, which is no function of x.
template <class T>
Tensor<T> dropout_of(const Node& node, const Inputs<T>& in) {
  if (const auto* training = optional_integers(in, 2, "Dropout's training_mode"))
    for (std::int64_t t : *training)
      if (t != 0) throw ModelError("Dropout in training mode (training_mode true) is random");
  return x_of(in, node);
}

template <class T>
Tensor<T> shape_of(const Node& node, const Inputs<T>& in) {
  const Attribute* end = node.attribute("end");
  return ops::shape_of(x_of(in, node), node.int_attribute("start", 0),
                       end ? std::optional<std::int64_t>(end->i) : std::nullopt);
}

template <class T>
Tensor<T> reduction_of(const Node& node, const Inputs<T>& in) {
  const std::vector<std::int64_t>* axes_input = optional_integers(in, 1, node.op + "'s axes");
  return ops::reduce(node.op, x_of(in, node), ops::reduction_axes(node, x_of(in, node).shape.size(), axes_input),
                     node.int_attribute("keepdims", 1) != 0);
}

template <class T>
Tensor<T> constant_of_shape(const Node& node, const Inputs<T>& in) {
  const Attribute* value = node.attribute("value");
  if (ops::input(in, 0, node).shape.size() != 1) throw ModelError("ConstantOfShape's shape must be a 1-D tensor");
  if (value && value->tensor.size() != 1) throw ModelError("ConstantOfShape's value must hold one element");
  return ops::filled(integers(in, 0, node, "ConstantOfShape's shape"),
                     value ? ops::converted<T>(value->tensor) : Tensor<T>::real({1}, {ops::real_zero<T>()}));
}

// Since opset 13 Split's sizes are an input (a `split` attribute is no attribute of it); from 18 it may take
// num_outputs instead.
template <class T>
std::vector<Tensor<T>> split_of(const Node& node, const Inputs<T>& in) {
  if (node.attribute("split"))
    throw ModelError("Split takes its sizes as an input from opset 13 on, not as an attribute");
  const Tensor<T>& x = x_of(in, node);
  const auto* sizes = optional_integers(in, 1, "Split's split");
  const Attribute* parts = node.attribute("num_outputs");
  if (parts && sizes) throw ModelError("Split takes its sizes or num_outputs, not both");
  const std::int64_t axis = node.int_attribute("axis", 0);
  if (!parts) return ops::split(x, axis, sizes, node.outputs.size());
  const std::vector<std::int64_t> chunks =
      ops::chunk_sizes(x.shape[normalized_axis(axis, x.shape.size())], node.int_attribute("num_outputs", 0));
  return ops::split(x, axis, &chunks, node.outputs.size());
}

// F's evaluation in scalar type T, with a single output wrapped as the node's one output.
template <class F, class T>
std::vector<Tensor<T>> evaluation_in(const Node& node, const std::vector<const Tensor<T>*>& in) {
  using Result = decltype(F{}(node, in));
  if constexpr (std::is_same_v<Result, std::vector<Tensor<T>>>) {
    return F{}(node, in);
  } else {
    std::vector<Tensor<T>> out;
    out.push_back(F{}(node, in));
    return out;
  }
}

// One generic evaluation (a lambda without captures, over `in` of any scalar type), instantiated for every type.
template <class F, class... Ts>
EvaluationScalars::Evaluations evaluations(ScalarTypes<Ts...>) {
  return {&evaluation_in<F, Ts>...};
}
template <class F>
EvaluationScalars::Evaluations eval(F) {
  return evaluations<F>(EvaluationScalars{});
}

constexpr auto Rational = OpArithmetic::Rational;
constexpr auto ExpLog = OpArithmetic::ExpLog;
constexpr auto Enclosed = OpArithmetic::Enclosed;
using Out = OutputType;
using Rule = PrefixRule;

// The evaluations several rows share: the element-wise ops ops::elementwise, ops::arithmetic, ops::comparison and
// ops::logical apply by name, and the reductions.
constexpr auto unary_by_name = [](const Node& node, const auto& in) {
  return ops::elementwise(node.op, x_of(in, node));
};
constexpr auto arithmetic = [](const Node& node, const auto& in) {
  return ops::arithmetic(node.op, x_of(in, node), y_of(in, node));
};
constexpr auto comparison = [](const Node& node, const auto& in) {
  return ops::comparison(node.op, x_of(in, node), y_of(in, node));
};
constexpr auto logical = [](const Node& node, const auto& in) {
  return ops::logical(node.op, x_of(in, node), y_of(in, node));
};
constexpr auto reduction = [](const Node& node, const auto& in) { return reduction_of(node, in); };

std::vector<OpSpec> rows() {
  return {
      {"Abs", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval([](const Node& node, const auto& in) {
         return abs_of(x_of(in, node));
       })},
      {"Add", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval(arithmetic)},
      {"And", Rational, Out::Bool, Rule::Elementwise, {}, eval(logical)},
      {"Cast", Rational, Out::CastTarget, Rule::Elementwise, {}, eval([](const Node& node, const auto& in) {
         return ops::cast(x_of(in, node), node.int_attribute("to", 1));
       })},
      {"Concat", Rational, Out::OfFirstInput, Rule::Concat, {}, eval([](const Node& node, const auto& in) {
         return ops::concat(in, node.int_attribute("axis", 0));
       })},
      {"Constant", Rational, Out::Declared, Rule::Constant, {}, eval([](const Node& node, const auto& in) {
         return ops::converted<ops::ScalarOf<decltype(in)>>(constant_value(node));
       })},
      {"ConstantOfShape",
       Rational,
       Out::Declared,
       Rule::ValuesCompared,
       {0},
       eval([](const Node& node, const auto& in) { return constant_of_shape(node, in); })},
      {"CumSum", Rational, Out::OfFirstInput, Rule::CumSum, {1}, eval([](const Node& node, const auto& in) {
         return ops::cumsum(x_of(in, node), single_integer(in, 1, node, "CumSum's axis"),
                            node.int_attribute("exclusive", 0) != 0, node.int_attribute("reverse", 0) != 0);
       })},
      {"Div", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval(arithmetic)},
      {"Dropout", Rational, Out::OfFirstInput, Rule::Dropout, {1, 2}, eval([](const Node& node, const auto& in) {
         return dropout_of(node, in);
       })},
      {"Einsum", Rational, Out::OfFirstInput, Rule::Einsum, {}, eval([](const Node& node, const auto& in) {
         const Attribute* equation = node.attribute("equation");
         if (!equation || equation->kind != Attribute::Kind::String)
           throw ModelError("Einsum has no string attribute 'equation'");
         return ops::einsum(equation->s, in);
       })},
      {"Equal", Rational, Out::Bool, Rule::Elementwise, {}, eval(comparison)},
      {"Erf", Enclosed, Out::OfFirstInput, Rule::Elementwise, {}, eval(unary_by_name)},
      {"Exp", ExpLog, Out::OfFirstInput, Rule::Elementwise, {}, eval(unary_by_name)},
      {"Expand", Rational, Out::OfFirstInput, Rule::Expand, {1}, eval([](const Node& node, const auto& in) {
         return ops::expand(x_of(in, node), integers(in, 1, node, "Expand's shape"));
       })},
      {"Gather", Rational, Out::OfFirstInput, Rule::Gather, {}, eval([](const Node& node, const auto& in) {
         return ops::gather(x_of(in, node), y_of(in, node), node.int_attribute("axis", 0));
       })},
      {"Gemm", Rational, Out::OfFirstInput, Rule::Gemm, {}, eval([](const Node& node, const auto& in) {
         return ops::gemm(node, x_of(in, node), y_of(in, node), optional_input(in, 2));
       })},
      {"Greater", Rational, Out::Bool, Rule::Elementwise, {}, eval(comparison)},
      {"GreaterOrEqual", Rational, Out::Bool, Rule::Elementwise, {}, eval(comparison)},
      {"Identity", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval([](const Node& node, const auto& in) {
         return x_of(in, node);
       })},
      {"LayerNormalization",
       Enclosed,
       Out::OfFirstInput,
       Rule::LayerNormalization,
       {},
       eval([](const Node& node, const auto& in) {
         return ops::layer_normalization(node, x_of(in, node), y_of(in, node), optional_input(in, 2));
       })},
      {"Less", Rational, Out::Bool, Rule::Elementwise, {}, eval(comparison)},
      {"LessOrEqual", Rational, Out::Bool, Rule::Elementwise, {}, eval(comparison)},
      {"Log", ExpLog, Out::OfFirstInput, Rule::Elementwise, {}, eval(unary_by_name)},
      {"LogSoftmax", Enclosed, Out::OfFirstInput, Rule::Normalization, {}, eval([](const Node& node, const auto& in) {
         return ops::softmax(x_of(in, node), node.int_attribute("axis", -1), true);
       })},
      {"MatMul", Rational, Out::OfFirstInput, Rule::MatMul, {}, eval([](const Node& node, const auto& in) {
         return ops::matmul(x_of(in, node), y_of(in, node));
       })},
      {"Max", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval([](const Node&, const auto& in) {
         return ops::extremum(in, true);
       })},
      {"Min", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval([](const Node&, const auto& in) {
         return ops::extremum(in, false);
       })},
      {"Mul", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval(arithmetic)},
      {"Neg", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval([](const Node& node, const auto& in) {
         return negation_of(x_of(in, node));
       })},
      {"Not", Rational, Out::Bool, Rule::Elementwise, {}, eval([](const Node& node, const auto& in) {
         return not_of(x_of(in, node));
       })},
      {"OneHot", Rational, Out::OfThirdInput, Rule::OneHot, {1}, eval([](const Node& node, const auto& in) {
         return ops::one_hot(x_of(in, node), y_of(in, node), ops::input(in, 2, node), node.int_attribute("axis", -1));
       })},
      {"Or", Rational, Out::Bool, Rule::Elementwise, {}, eval(logical)},
      {"Pow", OpArithmetic::Power, Out::OfFirstInput, Rule::Elementwise, {}, eval([](const Node& node, const auto& in) {
         return power_of(x_of(in, node), y_of(in, node));
       })},
      {"Range",
       Rational,
       Out::OfFirstInput,
       Rule::ValuesCompared,
       {0, 1, 2},
       eval([](const Node& node, const auto& in) {
         return ops::range(x_of(in, node), y_of(in, node), ops::input(in, 2, node));
       })},
      {"ReduceMax", Rational, Out::OfFirstInput, Rule::Reduction, {1}, eval(reduction)},
      {"ReduceMean", Rational, Out::OfFirstInput, Rule::Reduction, {1}, eval(reduction)},
      {"ReduceMin", Rational, Out::OfFirstInput, Rule::Reduction, {1}, eval(reduction)},
      {"ReduceProd", Rational, Out::OfFirstInput, Rule::Reduction, {1}, eval(reduction)},
      {"ReduceSum", Rational, Out::OfFirstInput, Rule::Reduction, {1}, eval(reduction)},
      {"Relu", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval([](const Node& node, const auto& in) {
         return relu_of(x_of(in, node));
       })},
      {"Reshape", Rational, Out::OfFirstInput, Rule::Reshape, {1}, eval([](const Node& node, const auto& in) {
         return ops::reshape(x_of(in, node), integers(in, 1, node, "Reshape's shape"),
                             node.int_attribute("allowzero", 0) != 0);
       })},
      {"ScatterND", Rational, Out::OfFirstInput, Rule::ValuesCompared, {1}, eval([](const Node& node, const auto& in) {
         const Attribute* reduction = node.attribute("reduction");
         return ops::scatter_nd(x_of(in, node), y_of(in, node), ops::input(in, 2, node),
                                reduction ? reduction->s : std::string("none"));
       })},
      {"Shape", Rational, Out::Int64, Rule::ShapeOf, {}, eval([](const Node& node, const auto& in) {
         return shape_of(node, in);
       })},
      {"Sigmoid", ExpLog, Out::OfFirstInput, Rule::Elementwise, {}, eval(unary_by_name)},
      {"Slice", Rational, Out::OfFirstInput, Rule::Slice, {1, 2, 3, 4}, eval([](const Node& node, const auto& in) {
         return ops::slice(x_of(in, node), integers(in, 1, node, "Slice's starts"),
                           integers(in, 2, node, "Slice's ends"), optional_integers(in, 3, "Slice's axes"),
                           optional_integers(in, 4, "Slice's steps"));
       })},
      {"Softmax", ExpLog, Out::OfFirstInput, Rule::Normalization, {}, eval([](const Node& node, const auto& in) {
         return ops::softmax(x_of(in, node), node.int_attribute("axis", -1), false);
       })},
      {"Split", Rational, Out::OfFirstInput, Rule::Split, {1}, eval([](const Node& node, const auto& in) {
         return split_of(node, in);
       })},
      {"Sqrt", ExpLog, Out::OfFirstInput, Rule::Elementwise, {}, eval(unary_by_name)},
      {"Squeeze", Rational, Out::OfFirstInput, Rule::Squeeze, {1}, eval([](const Node& node, const auto& in) {
         return ops::squeeze(x_of(in, node), optional_integers(in, 1, "Squeeze's axes"));
       })},
      {"Sub", Rational, Out::OfFirstInput, Rule::Elementwise, {}, eval(arithmetic)},
      {"Tanh", Enclosed, Out::OfFirstInput, Rule::Elementwise, {}, eval(unary_by_name)},
      {"Transpose", Rational, Out::OfFirstInput, Rule::Transpose, {}, eval([](const Node& node, const auto& in) {
         const Attribute* perm = node.attribute("perm");
         return ops::transpose(x_of(in, node), perm ? perm->ints : std::vector<std::int64_t>{});
       })},
      {"Trilu", Rational, Out::OfFirstInput, Rule::Trilu, {1}, eval([](const Node& node, const auto& in) {
         const std::int64_t k = ops::has_input(in, 1) ? single_integer(in, 1, node, "Trilu's k") : 0;
         return ops::trilu(x_of(in, node), k, node.int_attribute("upper", 1) != 0);
       })},
      {"Unsqueeze", Rational, Out::OfFirstInput, Rule::Squeeze, {1}, eval([](const Node& node, const auto& in) {
         return ops::unsqueeze(x_of(in, node), integers(in, 1, node, "Unsqueeze's axes"));
       })},
      {"Where", Rational, Out::OfSecondInput, Rule::Elementwise, {}, eval([](const Node& node, const auto& in) {
         return ops::where(x_of(in, node), y_of(in, node), ops::input(in, 2, node));
       })},
  };
}

}  // namespace

const std::vector<OpSpec>& op_table() {
  static const std::vector<OpSpec> table = [] {
    std::vector<OpSpec> sorted = rows();
    std::sort(sorted.begin(), sorted.end(), [](const OpSpec& a, const OpSpec& b) { return a.name < b.name; });
    return sorted;
  }();
  return table;
}

const OpSpec* find_op(std::string_view name) {
  const auto& table = op_table();
  const auto it = std::lower_bound(table.begin(), table.end(), name,
                                   [](const OpSpec& op, std::string_view n) { return op.name < n; });
  return it != table.end() && it->name == name ? &*it : nullptr;
}

const OpSpec& op_of(const Node& node) {
  if (const OpSpec* op = find_op(node.op)) return *op;
  throw std::logic_error("no row of the op table for " + node.label());
}

std::string supported_ops_text() {
  std::string out;
  for (const OpSpec& op : op_table()) out += (out.empty() ? "" : ", ") + std::string(op.name);
  return out;
}

}  // namespace tverify::model
