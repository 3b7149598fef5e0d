// Evaluates an ONNX graph on one token sequence over a scalar type T: Exact when every op is rational (the whole
// evaluation is then exact), or Interval<B> (every irrational op enclosed, so each output is an enclosure of the
// exact real the model computes). Nothing is rounded to floating point.
//
// Failures: ModelError naming the node (a shape error, an index outside the embedding, an indeterminate form such as
// inf - inf); Undecided when an interval comparison inside the graph (Where, Equal, Less, Cast) cannot be decided at
// this precision, so the caller retries at a higher one.
#pragma once

#include "constructions/model/graph.hpp"
#include "constructions/model/prefix_plan.hpp"

#include <map>
#include <optional>
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

}  // namespace tverify::model
