#include "model/evaluator.hpp"

#include "model/integer_types.hpp"
#include "model/ops_nonlinear.hpp"
#include "core/precision_ladder.hpp"

#include <algorithm>
#include <deque>
#include <functional>

namespace tverify::model {

namespace {

template <class T>
Tensor<T> converted(const ExactTensor& t) {
  if (!t.is_real()) return Tensor<T>::integer(t.shape, t.ints, t.kind);
  std::vector<Extended<T>> reals;
  reals.reserve(t.reals.size());
  for (const auto& x : t.reals)
    reals.push_back(x.finite() ? Extended<T>{from_exact<T>(x.value), 0} : Extended<T>::infinity(x.inf));
  return Tensor<T>::real(t.shape, std::move(reals));
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
const std::vector<std::int64_t>* optional_integers(const ops::Inputs<T>& in, std::size_t i, const std::string& what) {
  return ops::has_input(in, i) ? &integers_of(*in[i], what) : nullptr;
}

template <class T>
const std::vector<std::int64_t>& integers(const ops::Inputs<T>& in, std::size_t i, const Node& node,
                                          const std::string& what) {
  return integers_of(ops::input(in, i, node), what);
}

// A scalar integer input (CumSum's axis, Trilu's k): one element, else ModelError.
template <class T>
std::int64_t single_integer(const ops::Inputs<T>& in, std::size_t i, const Node& node, const std::string& what) {
  const auto& values = integers(in, i, node, what);
  if (values.size() != 1)
    throw ModelError(what + " must hold one integer (it holds " + std::to_string(values.size()) + ")");
  return values.front();
}

template <class T>
Tensor<T> as_real(const Tensor<T>& t) {
  return t.is_real() ? t : ops::cast(t, 1);
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
Tensor<T> power_of(const Tensor<T>& base, const Tensor<T>& exponent) {
  if (!base.is_real()) throw ModelError("Pow of an integer base");
  return ops::binary(
      base, as_real(exponent), [](const Extended<T>& x, const Extended<T>& e) { return ops::power(x, e); },
      [](std::int64_t x, std::int64_t) { return x; });
}

// Shape and movement ops.
template <class T>
std::optional<Tensor<T>> moved(const Node& node, const ops::Inputs<T>& in) {
  const std::string& op = node.op;
  auto x = [&]() -> const Tensor<T>& { return ops::input(in, 0, node); };
  if (op == "Identity") return x();
  if (op == "Dropout") {  // inference: the identity; training mode drops at random, which is no function of x
    if (const auto* training = optional_integers(in, 2, "Dropout's training_mode"))
      for (std::int64_t t : *training)
        if (t != 0) throw ModelError("Dropout in training mode (training_mode true) is random");
    return x();
  }
  if (op == "Reshape")
    return ops::reshape(x(), integers(in, 1, node, "Reshape's shape"), node.int_attribute("allowzero", 0) != 0);
  if (op == "Transpose") {
    const Attribute* perm = node.attribute("perm");
    return ops::transpose(x(), perm ? perm->ints : std::vector<std::int64_t>{});
  }
  if (op == "Unsqueeze") return ops::unsqueeze(x(), integers(in, 1, node, "Unsqueeze's axes"));
  if (op == "Squeeze") return ops::squeeze(x(), optional_integers(in, 1, "Squeeze's axes"));
  if (op == "Concat") return ops::concat(in, node.int_attribute("axis", 0));
  if (op == "Slice")
    return ops::slice(x(), integers(in, 1, node, "Slice's starts"), integers(in, 2, node, "Slice's ends"),
                      optional_integers(in, 3, "Slice's axes"), optional_integers(in, 4, "Slice's steps"));
  if (op == "Shape") {
    const Attribute* end = node.attribute("end");
    return ops::shape_of(x(), node.int_attribute("start", 0), end ? std::optional<std::int64_t>(end->i) : std::nullopt);
  }
  if (op == "Expand") return ops::expand(x(), integers(in, 1, node, "Expand's shape"));
  if (op == "Gather") return ops::gather(x(), ops::input(in, 1, node), node.int_attribute("axis", 0));
  if (op == "Trilu") {
    const std::int64_t k = ops::has_input(in, 1) ? single_integer(in, 1, node, "Trilu's k") : 0;
    return ops::trilu(x(), k, node.int_attribute("upper", 1) != 0);
  }
  if (op == "Cast") return ops::cast(x(), node.int_attribute("to", 1));
  return std::nullopt;
}

template <class T>
std::optional<Tensor<T>> computed(const Node& node, const ops::Inputs<T>& in) {
  const std::string& op = node.op;
  auto x = [&]() -> const Tensor<T>& { return ops::input(in, 0, node); };
  auto y = [&]() -> const Tensor<T>& { return ops::input(in, 1, node); };
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") return ops::arithmetic(op, x(), y());
  if (op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual")
    return ops::comparison(op, x(), y());
  if (op == "And" || op == "Or") return ops::logical(op, x(), y());
  if (op == "Not") {  // defined on booleans only
    if (x().kind != ElementKind::Boolean) throw ModelError("Not of a tensor that is not boolean");
    return ops::unary(
        x(), [](const Extended<T>&) -> Extended<T> { throw ModelError("Not of a real tensor"); },
        [](std::int64_t v) -> std::int64_t { return v == 0; });
  }
  if (op == "Neg")
    return ops::unary(
        x(), [](const Extended<T>& v) { return -v; },
        [](std::int64_t v) { return -ops::no_overflow(v == INT64_MIN, v, "Neg"); });
  if (op == "Relu") return relu_of(x());
  if (op == "Abs") return abs_of(x());
  if (op == "Max" || op == "Min") return ops::extremum(in, op == "Max");
  if (op == "Where") return ops::where(x(), y(), ops::input(in, 2, node));
  if (op == "MatMul") return ops::matmul(x(), y());
  if (op == "Gemm") return ops::gemm(node, x(), y(), ops::has_input(in, 2) ? in[2] : nullptr);
  if (op == "ReduceSum" || op == "ReduceMean" || op == "ReduceMax" || op == "ReduceMin") {
    // ReduceSum from opset 13 and the others from 18 take their axes as an input (and noop_with_empty_axes); the
    // others before 18 as an attribute (the reader refuses a form the model's opset does not have).
    const Attribute* attribute = node.attribute("axes");
    if (attribute && op == "ReduceSum")
      throw ModelError("ReduceSum takes its axes as an input from opset 13 on, not as an attribute");
    const auto* axes = attribute ? &attribute->ints : optional_integers(in, 1, op + "'s axes");
    const bool noop = !attribute && node.int_attribute("noop_with_empty_axes", 0) != 0;
    return ops::reduce(op, x(), ops::reduced_axes(x().shape.size(), axes, noop),
                       node.int_attribute("keepdims", 1) != 0);
  }
  if (op == "CumSum")
    return ops::cumsum(x(), single_integer(in, 1, node, "CumSum's axis"), node.int_attribute("exclusive", 0) != 0,
                       node.int_attribute("reverse", 0) != 0);
  if (op == "Range") return ops::range(x(), y(), ops::input(in, 2, node));
  if (op == "ConstantOfShape") {
    const Attribute* value = node.attribute("value");
    if (ops::input(in, 0, node).shape.size() != 1) throw ModelError("ConstantOfShape's shape must be a 1-D tensor");
    if (value && value->tensor.size() != 1) throw ModelError("ConstantOfShape's value must hold one element");
    return ops::filled(integers(in, 0, node, "ConstantOfShape's shape"),
                       value ? converted<T>(value->tensor) : Tensor<T>::real({1}, {ops::real_zero<T>()}));
  }
  if (op == "Pow") return power_of(x(), y());
  if (op == "Exp" || op == "Log" || op == "Sqrt" || op == "Erf" || op == "Tanh" || op == "Sigmoid")
    return ops::elementwise(op, x());
  if (op == "Softmax" || op == "LogSoftmax")
    return ops::softmax(x(), node.int_attribute("axis", -1), op == "LogSoftmax");
  if (op == "LayerNormalization")
    return ops::layer_normalization(node, x(), y(), ops::has_input(in, 2) ? in[2] : nullptr);
  return std::nullopt;
}

// The node's outputs, in order (Split has several; the others one, with Dropout's mask and LayerNormalization's
// statistics left out: tverify refuses a graph that reads them).
template <class T>
std::vector<Tensor<T>> run_node(const Node& node, const ops::Inputs<T>& in) {
  if (node.op == "Split") {  // since opset 13 the sizes are an input; a `split` attribute is no attribute of it
    if (node.attribute("split"))
      throw ModelError("Split takes its sizes as an input from opset 13 on, not as an attribute");
    const Tensor<T>& x = ops::input(in, 0, node);
    const auto* sizes = optional_integers(in, 1, "Split's split");
    const Attribute* parts = node.attribute("num_outputs");  // opset 18
    if (parts && sizes) throw ModelError("Split takes its sizes or num_outputs, not both");
    const std::int64_t axis = node.int_attribute("axis", 0);
    if (!parts) return ops::split(x, axis, sizes, node.outputs.size());
    const std::vector<std::int64_t> chunks =
        ops::chunk_sizes(x.shape[normalized_axis(axis, x.shape.size())], node.int_attribute("num_outputs", 0));
    return ops::split(x, axis, &chunks, node.outputs.size());
  }
  if (auto out = moved(node, in)) return {std::move(*out)};
  if (auto out = computed(node, in)) return {std::move(*out)};
  throw std::logic_error("no evaluation for supported op " + node.op);
}

}  // namespace

template <class T>
Weights<T> convert_weights(const Graph& graph) {
  Weights<T> w;
  for (const auto& [slot, tensor] : graph.constants) w.by_slot.emplace(slot, converted<T>(tensor));
  for (const auto& node : graph.nodes)
    if (node.op == "Constant") {
      try {
        w.by_slot.emplace(node.outputs.front(), converted<T>(constant_value(node)));
      } catch (const ModelError& e) { throw ModelError(node.label() + ": " + e.what()); }
    }
  return w;
}

namespace {

// The values of one evaluation: each slot points into the weights or into the values computed.
template <class T>
struct Evaluation {
  std::vector<const Tensor<T>*> value;
  std::deque<Tensor<T>> computed;
};

// Each value a node computes, as it is made.
template <class T>
using OutputObserver = std::function<void(const Tensor<T>&)>;

template <class T>
void run_graph(const Graph& graph, const Weights<T>& weights, const std::vector<std::int64_t>& tokens,
               const PrefixPlan* plan, Evaluation<T>& e, const OutputObserver<T>& observe = {}) {
  e.value.assign(static_cast<std::size_t>(graph.slot_count), nullptr);
  for (const auto& [slot, tensor] : weights.by_slot) e.value[static_cast<std::size_t>(slot)] = &tensor;
  const auto n = static_cast<std::int64_t>(tokens.size());
  if (const auto narrow = graph.narrow_integers.find(graph.input_slot); narrow != graph.narrow_integers.end()) try {
      require_in_range(tokens, narrow->second);
    } catch (const ModelError& err) { throw ModelError("the token input '" + graph.input_name + "': " + err.what()); }
  e.computed.push_back(Tensor<T>::integer(graph.input_dims.size() == 2 ? Shape{1, n} : Shape{n}, tokens));
  e.value[static_cast<std::size_t>(graph.input_slot)] = &e.computed.back();
  for (std::size_t k = 0; k < graph.nodes.size(); ++k) {
    const Node& node = graph.nodes[k];
    if (node.op == "Constant") continue;
    ops::Inputs<T> in;
    for (int slot : node.inputs) in.push_back(slot < 0 ? nullptr : e.value[static_cast<std::size_t>(slot)]);
    if (plan && plan->by_node[k]) {
      const PrefixCheck& check = *plan->by_node[k];
      if (!ops::has_input(in, check.input) || !passes(check, *in[check.input])) throw PrefixBroken{};
    }
    try {
      std::vector<Tensor<T>> out = run_node(node, in);
      for (std::size_t j = 0; j < node.outputs.size() && j < out.size(); ++j) {
        if (node.outputs[j] < 0) continue;
        if (const auto narrow = graph.narrow_integers.find(node.outputs[j]);
            narrow != graph.narrow_integers.end() && out[j].kind == ElementKind::Integer)
          require_in_range(out[j].ints, narrow->second);
        e.computed.push_back(std::move(out[j]));
        e.value[static_cast<std::size_t>(node.outputs[j])] = &e.computed.back();
        if (observe) observe(e.computed.back());
      }
    } catch (const ModelError& err) {
      throw ModelError(node.label() + ": " + err.what());
    } catch (const NotANumber& err) { throw ModelError(node.label() + ": " + err.what() + " has no value"); }
  }
}

}  // namespace

template <class T>
Tensor<T> evaluate(const Graph& graph, const Weights<T>& weights, const std::vector<std::int64_t>& tokens,
                   const PrefixPlan* plan) {
  Evaluation<T> e;
  run_graph(graph, weights, tokens, plan, e);
  const Tensor<T>* out = e.value[static_cast<std::size_t>(graph.output_slot)];
  if (!out) throw ModelError("the graph output '" + graph.output_name + "' is never computed");
  return *out;
}

template <class T>
std::vector<std::optional<Tensor<T>>> evaluate_slots(const Graph& graph, const Weights<T>& weights,
                                                     const std::vector<std::int64_t>& tokens) {
  Evaluation<T> e;
  run_graph(graph, weights, tokens, nullptr, e);
  std::vector<std::optional<Tensor<T>>> slots;
  for (const Tensor<T>* t : e.value) slots.push_back(t ? std::optional<Tensor<T>>(*t) : std::nullopt);
  return slots;
}

template <class T>
EvaluationSize measure_evaluation(const Graph& graph, const Weights<T>& weights,
                                  const std::vector<std::int64_t>& tokens,
                                  const std::function<void(const EvaluationSize&)>& after_each_value) {
  EvaluationSize size;
  Evaluation<T> e;
  try {
    run_graph<T>(graph, weights, tokens, nullptr, e, [&](const Tensor<T>& t) {
      const auto elements = static_cast<std::uint64_t>(t.size());
      (t.is_real() ? size.real_elements : size.integer_elements) += elements;
      if (t.is_real()) size.largest_real = std::max(size.largest_real, elements);
      ++size.tensors;
      after_each_value(size);
    });
  } catch (const Undecided&) {
    size.stopped = "a comparison this precision cannot decide";
  } catch (const ModelError& err) { size.stopped = err.what(); }
  return size;
}

using TokenIds = std::vector<std::int64_t>;

template Weights<Exact> convert_weights<Exact>(const Graph&);
template Tensor<Exact> evaluate<Exact>(const Graph&, const Weights<Exact>&, const TokenIds&, const PrefixPlan*);

// The double-precision rung below the ladder, and every rung of the evaluators' precision ladder.
template Weights<ExpLogNumber> convert_weights<ExpLogNumber>(const Graph&);
template Tensor<ExpLogNumber> evaluate(const Graph&, const Weights<ExpLogNumber>&, const TokenIds&, const PrefixPlan*);
template Weights<DoubleInterval> convert_weights<DoubleInterval>(const Graph&);
template Tensor<DoubleInterval> evaluate(const Graph&, const Weights<DoubleInterval>&, const TokenIds&,
                                         const PrefixPlan*);
static_assert(std::is_same_v<std::remove_const_t<decltype(standard_rungs)>, Rungs<64, 256, 1024, 4096, 16384>>,
              "instantiate the evaluation at every rung of standard_rungs (the model checker climbs a subset)");
template Weights<Interval<64>> convert_weights<Interval<64>>(const Graph&);
template Weights<Interval<256>> convert_weights<Interval<256>>(const Graph&);
template Weights<Interval<1024>> convert_weights<Interval<1024>>(const Graph&);
template Weights<Interval<4096>> convert_weights<Interval<4096>>(const Graph&);
template Weights<Interval<16384>> convert_weights<Interval<16384>>(const Graph&);
template Tensor<Interval<64>> evaluate(const Graph&, const Weights<Interval<64>>&, const TokenIds&, const PrefixPlan*);
template Tensor<Interval<256>> evaluate(const Graph&, const Weights<Interval<256>>&, const TokenIds&,
                                        const PrefixPlan*);
template Tensor<Interval<1024>> evaluate(const Graph&, const Weights<Interval<1024>>&, const TokenIds&,
                                         const PrefixPlan*);
template Tensor<Interval<4096>> evaluate(const Graph&, const Weights<Interval<4096>>&, const TokenIds&,
                                         const PrefixPlan*);
template Tensor<Interval<16384>> evaluate(const Graph&, const Weights<Interval<16384>>&, const TokenIds&,
                                          const PrefixPlan*);

// The probes of model/prefix_analysis.hpp, taken exactly, in double intervals or at the first MPFI rung.
template EvaluationSize measure_evaluation(const Graph&, const Weights<DoubleInterval>&, const TokenIds&,
                                           const std::function<void(const EvaluationSize&)>&);
template EvaluationSize measure_evaluation(const Graph&, const Weights<Interval<256>>&, const TokenIds&,
                                           const std::function<void(const EvaluationSize&)>&);

template std::vector<std::optional<Tensor<Exact>>> evaluate_slots(const Graph&, const Weights<Exact>&, const TokenIds&);
template std::vector<std::optional<Tensor<DoubleInterval>>> evaluate_slots(const Graph&, const Weights<DoubleInterval>&,
                                                                           const TokenIds&);
template std::vector<std::optional<Tensor<Interval<256>>>> evaluate_slots(const Graph&, const Weights<Interval<256>>&,
                                                                          const TokenIds&);

}  // namespace tverify::model
