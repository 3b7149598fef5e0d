// One evaluation for every step of a generation: what makes it sound, checked while the graph runs.
//
// Autoregressive generation evaluates the graph on each prefix x_1..x_k of the sequence it builds and reads the last
// row of the output. A graph is prefix-consistent on a sequence x when its output, and every tensor the output is
// computed from, has on a prefix x_1..x_k the leading block (indices below k along each sequence axis) of its value
// on x. Then the last row of the output on x_1..x_k is row k of the output on x, and one evaluation of the
// teacher-forced sequence (the prompt followed by the expected tokens) gives every step's logits up to the first
// wrong token, which ends the generation either way.
//
// model/prefix_analysis.hpp derives from the graph which ops keep the property. Two ops keep it only
// for some values, so the evaluation checks those values on x itself, exactly, and throws PrefixBroken when one
// fails:
// - a softmax along a sequence axis (the keys) of scores whose other sequence axis holds the queries keeps it when
//   every score of a key after its query is exactly -inf (a causal mask): its weight is then exactly 0, and the
//   softmax of row i is the same over keys 0..k-1 as over all keys, for every k > i;
// - a product that sums over a sequence axis (attention weights times values) keeps it when every factor of a key
//   after its query is exactly 0, so the terms of keys k and later add nothing to rows below k.
#pragma once

#include "model/tensor.hpp"

#include <optional>
#include <vector>

namespace tverify::model {

// The values of one input of one node that decide prefix consistency on the evaluated sequence.
struct PrefixCheck {
  enum class Kind {
    MaskedAbove,  // every entry whose key index exceeds its query index is exactly -inf
    ZeroAbove,    // every entry whose key index exceeds its query index is exactly 0
  };
  Kind kind = Kind::MaskedAbove;
  std::size_t input = 0;       // which input of the node
  std::size_t query_axis = 0;  // its sequence axis of queries (rows of the output)
  std::size_t key_axis = 0;    // its sequence axis of keys (summed over)
};

// The checks of a prefix-consistent graph, by node index (none for most nodes).
struct PrefixPlan {
  std::vector<std::optional<PrefixCheck>> by_node;
};

// The evaluated sequence breaks a check: its generation must be evaluated step by step.
struct PrefixBroken {};

// Whether `t` passes `check`: every entry with key index > query index is exactly -inf or exactly 0.
template <class T>
bool passes(const PrefixCheck& check, const Tensor<T>& t) {
  if (!t.is_real() || check.query_axis >= t.shape.size() || check.key_axis >= t.shape.size()) return false;
  const Shape strides = strides_of(t.shape);
  const std::int64_t query_stride = strides[check.query_axis], key_stride = strides[check.key_axis];
  const std::int64_t queries = t.shape[check.query_axis], keys = t.shape[check.key_axis];
  for (std::int64_t flat = 0; flat < t.size(); ++flat) {
    const std::int64_t query = flat / query_stride % queries, key = flat / key_stride % keys;
    if (key <= query) continue;
    const Extended<T>& x = t.reals[static_cast<std::size_t>(flat)];
    const bool holds =
        check.kind == PrefixCheck::Kind::MaskedAbove ? x.inf < 0 : x.finite() && sign_of(x.value) == Sign::Zero;
    if (!holds) return false;
  }
  return true;
}

}  // namespace tverify::model
