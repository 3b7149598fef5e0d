// Whether a graph is prefix-consistent (model/prefix_plan.hpp), derived op by op.
//
// A graph where a shape, axis, bound, count or Range argument depends on the tokens' values gets no plan. In any
// other the shapes depend on the length only, so the graph is first evaluated once at every length the generation
// passes through, on tokens 0 (probes), which gives each tensor's shape at every length. An axis whose extent is the
// length at every probe is a sequence axis; every other axis must keep one extent. Then each tensor the output is
// computed from is shown consistent:
// - the token input is; a tensor that does not depend on the tokens' values (a constant, a position table, a mask,
//   ALiBi biases) is when its probe values, compared exactly, are the leading blocks of its value at the longest
//   length (an enclosure that is not a point is not compared);
// - an element-wise op (with broadcasting that keeps each sequence axis a sequence axis), a movement op (Transpose,
//   Reshape keeping each sequence axis with the same extents between them, Slice, Concat or Split off the sequence
//   axes, Gather of a non-sequence axis, Expand, Trilu), a matrix product over a non-sequence axis, and a softmax,
//   LayerNormalization, reduction or CumSum along non-sequence axes, keep it when their inputs have it; a forward
//   CumSum along a sequence axis keeps it too (entry i sums entries 0..i);
// - a softmax along a sequence axis, and a matrix product summing over one, keep it under a check that the
//   evaluation makes on the evaluated sequence (PrefixCheck).
// Anything else (a mean over the sequence, an op reading the last position, a length-dependent scale) gives no plan,
// and generation is evaluated step by step.
#pragma once

#include "model/graph.hpp"
#include "model/prefix_plan.hpp"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tverify::model {

// One tensor of a probe: its shape, and for a tensor that does not depend on the tokens' values its elements when
// they are known exactly: integers (shapes, axes, bounds), and reals whose enclosures are points (the weights'
// reals are left out: they are the same at every length).
struct SlotProbe {
  Shape shape;
  std::vector<std::int64_t> ints;
  std::optional<std::vector<Extended<Exact>>> exact;
};
using Probe = std::vector<std::optional<SlotProbe>>;  // by slot, at one length

// Which slots depend on the tokens' values, not only on their number: reached from the token input other than
// through Shape.
std::vector<bool> token_dependent_slots(const Graph& graph);

// The slots of the graph's weights: initializers and Constant nodes.
std::vector<bool> weight_slots(const Graph& graph);

template <class T>
Probe probe_of(const std::vector<std::optional<Tensor<T>>>& slots, const std::vector<bool>& token_dependent,
               const std::vector<bool>& weights);

// The plan for prefixes at `lengths` (ascending, at least two), probes[t] taken at lengths[t]; or why the graph was
// not shown prefix-consistent, naming the node.
std::variant<PrefixPlan, std::string> prefix_plan(const Graph& graph, const std::vector<std::int64_t>& lengths,
                                                  const std::vector<Probe>& probes);

}  // namespace tverify::model
