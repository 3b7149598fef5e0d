#include "model/evaluator.hpp"

#include "model/integer_types.hpp"
#include "model/op_table.hpp"
#include "model/ops_elementwise.hpp"
#include "model/ops_shape.hpp"
#include "core/precision_ladder.hpp"
#include "core/thread_caches.hpp"

#include <algorithm>
#include <deque>
#include <functional>

namespace tverify::model {

template <class T>
Weights<T> convert_weights(const Graph& graph) {
  Weights<T> w;
  for (const auto& [slot, tensor] : graph.constants) w.by_slot.emplace(slot, ops::converted<T>(tensor));
  for (const auto& node : graph.nodes)
    if (holds_weight(op_of(node))) {
      try {
        w.by_slot.emplace(node.outputs.front(), std::move(op_of(node).evaluate<T>(node, {}).front()));
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

// The embedding lookup Gather(table, tokens) over a box: at each position, the hull of the rows its tokens select.
template <class T>
Tensor<T> hull_of_rows(const Node& node, const Tensor<T>& table, const Tensor<T>& tokens, const TokenBox& box) {
  if constexpr (!is_interval_v<T>) {
    throw std::logic_error("a box is evaluated in an interval type");
  } else {
    if (!table.is_real() || table.shape.empty() || node.int_attribute("axis", 0) != 0)
      throw BoxUnsupported(node.label() + " reads the tokens other than as rows of a real table");
    const std::int64_t rows = table.shape.front(), width = table.size() / std::max<std::int64_t>(rows, 1);
    Shape shape = tokens.shape;
    shape.insert(shape.end(), table.shape.begin() + 1, table.shape.end());
    std::vector<Extended<T>> out;
    for (const auto& set : box.positions)
      for (std::int64_t j = 0; j < width; ++j) {
        std::optional<Exact> lo, hi;
        for (std::int64_t t : set) {
          const Extended<T>& x = table.reals[static_cast<std::size_t>(ops::gathered_row(t, rows) * width + j)];
          if (!x.finite()) throw Undecided{};  // an infinite entry: this box is left to its members' evaluation
          lo = lo ? std::min(*lo, x.value.lower()) : x.value.lower();
          hi = hi ? std::max(*hi, x.value.upper()) : x.value.upper();
        }
        out.push_back({T::hull(*lo, *hi), 0});
      }
    return Tensor<T>::real(std::move(shape), std::move(out));
  }
}

// A node's outputs, with the token input read over `box` when there is one.
template <class T>
std::vector<Tensor<T>> outputs_of(const Graph& graph, const Node& node, const OpSpec& op, const ops::Inputs<T>& in,
                                  const TokenBox* box) {
  const bool reads_tokens = std::find(node.inputs.begin(), node.inputs.end(), graph.input_slot) != node.inputs.end();
  if (!box || !reads_tokens || op.prefix_rule == PrefixRule::ShapeOf) return op.evaluate(node, in);
  if (op.name == "Gather" && node.inputs.size() == 2 && node.inputs[1] == graph.input_slot &&
      node.inputs[0] != graph.input_slot)
    return {hull_of_rows(node, ops::input(in, 0, node), ops::input(in, 1, node), *box)};
  throw BoxUnsupported(node.label() +
                       " reads the token input, which a box evaluation takes only as an embedding "
                       "lookup (a Gather along axis 0) or through Shape");
}

template <class T>
void run_graph(const Graph& graph, const Weights<T>& weights, const std::vector<std::int64_t>& tokens,
               const PrefixPlan* plan, Evaluation<T>& e, const OutputObserver<T>& observe = {},
               const TokenBox* box = nullptr) {
  widen_exponent_range();  // a finite mask's e^-1e9 is then a positive number at every MPFI rung
  e.value.assign(static_cast<std::size_t>(graph.slot_count), nullptr);
  for (const auto& [slot, tensor] : weights.by_slot) e.value[static_cast<std::size_t>(slot)] = &tensor;
  const auto n = static_cast<std::int64_t>(tokens.size());
  if (const auto narrow = graph.narrow_integers.find(graph.input_slot); narrow != graph.narrow_integers.end()) try {
      require_in_range(tokens, narrow->second);
      if (box)
        for (const auto& set : box->positions) require_in_range(set, narrow->second);
    } catch (const ModelError& err) { throw ModelError("the token input '" + graph.input_name + "': " + err.what()); }
  e.computed.push_back(Tensor<T>::integer(graph.input_dims.size() == 2 ? Shape{1, n} : Shape{n}, tokens));
  e.value[static_cast<std::size_t>(graph.input_slot)] = &e.computed.back();
  for (std::size_t k = 0; k < graph.nodes.size(); ++k) {
    const Node& node = graph.nodes[k];
    const OpSpec& op = op_of(node);
    if (holds_weight(op)) continue;
    ops::Inputs<T> in;
    for (int slot : node.inputs) in.push_back(slot < 0 ? nullptr : e.value[static_cast<std::size_t>(slot)]);
    if (plan && plan->by_node[k]) {
      const PrefixCheck& check = *plan->by_node[k];
      if (!ops::has_input(in, check.input) || !passes(check, *in[check.input])) throw PrefixBroken{};
    }
    try {
      std::vector<Tensor<T>> out = outputs_of(graph, node, op, in, box);
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
Tensor<T> evaluate_box(const Graph& graph, const Weights<T>& weights, const TokenBox& box, const PrefixPlan* plan) {
  if (graph.output_slot == graph.input_slot) throw BoxUnsupported("the graph's output is its token input");
  for (const auto& set : box.positions)
    if (set.empty()) throw std::invalid_argument("a box position holds no token");
  Evaluation<T> e;
  run_graph(graph, weights, box.first_member(), plan, e, {}, &box);
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

// Bounds over boxes: in double intervals, then MPFI.
template Tensor<DoubleInterval> evaluate_box(const Graph&, const Weights<DoubleInterval>&, const TokenBox&,
                                             const PrefixPlan*);
template Tensor<Interval<256>> evaluate_box(const Graph&, const Weights<Interval<256>>&, const TokenBox&,
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
