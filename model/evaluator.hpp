// Evaluates an ONNX graph on one token sequence over a scalar type T: Exact when every op is rational (the whole
// evaluation is then exact), or Interval<B> (every irrational op enclosed, so each output is an enclosure of the
// exact real the model computes). Nothing is rounded to floating point.
//
// Failures: ModelError naming the node (a shape error, an index outside the embedding, an indeterminate form such as
// inf - inf); Undecided when an interval comparison inside the graph (Where, Equal, Less, Cast) cannot be decided at
// this precision, so the caller retries at a higher one.
#pragma once

#include "model/graph.hpp"
#include "model/prefix_plan.hpp"
#include "model/token_box.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tverify::model {

// The model's constant tensors (initializers and Constant nodes) in T, made once per precision.
template <class T>
struct Weights {
  std::map<int, Tensor<T>> by_slot;
};

template <class T>
Weights<T> convert_weights(const Graph& graph);

// The graph's output for `tokens` (fed as [seq] or [1, seq], as the graph's input says). With a plan, each of its
// checks is made on the node's input before the node runs; PrefixBroken when one fails.
template <class T>
Tensor<T> evaluate(const Graph& graph, const Weights<T>& weights, const std::vector<std::int64_t>& tokens,
                   const PrefixPlan* plan = nullptr);

// Every value of the evaluation, by slot (nullopt for a slot never computed: an optional output left out).
template <class T>
std::vector<std::optional<Tensor<T>>> evaluate_slots(const Graph& graph, const Weights<T>& weights,
                                                     const std::vector<std::int64_t>& tokens);

// Why a graph has no box evaluation: the token input feeds an op other than an embedding lookup or Shape.
struct BoxUnsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An enclosure of the graph's output over every member of `box`, for T an interval type. The token input is read as
// an embedding lookup (a Gather along axis 0 of a table): at each position, the hull of the rows its tokens select.
// Every other op is its interval evaluation, which encloses its output over every member of its inputs'
// enclosures. BoxUnsupported when the token input feeds anything but such a Gather or Shape; Undecided where a
// comparison inside the graph differs across the box; ModelError as `evaluate`. With a plan, each check is made on
// the enclosure (an entry exactly -inf or exactly 0 for every member), PrefixBroken when one fails.
template <class T>
Tensor<T> evaluate_box(const Graph& graph, const Weights<T>& weights, const TokenBox& box,
                       const PrefixPlan* plan = nullptr);

// The values one evaluation makes: how many tensors, their elements (real and integer) and the largest real one.
// `stopped` says why the evaluation ended early (a model error, or a comparison the scalar type cannot decide); the
// counts then cover the values made before.
struct EvaluationSize {
  std::uint64_t tensors = 0, real_elements = 0, integer_elements = 0;
  std::uint64_t largest_real = 0;  // the elements of the largest real value
  std::string stopped;
};

// Evaluates the graph on `tokens`, counting each value it makes; `after_each_value` sees the running counts and may
// throw to end the evaluation (a budget passed).
template <class T>
EvaluationSize measure_evaluation(const Graph& graph, const Weights<T>& weights,
                                  const std::vector<std::int64_t>& tokens,
                                  const std::function<void(const EvaluationSize&)>& after_each_value);

}  // namespace tverify::model
