#include "model/prefix_analysis.hpp"

#include "model/op_table.hpp"
#include "model/ops_einsum.hpp"
#include "model/ops_linear.hpp"

#include <algorithm>
#include <map>

namespace tverify::model {

std::vector<bool> token_dependent_slots(const Graph& graph) {
  std::vector<bool> dependent(static_cast<std::size_t>(graph.slot_count), false);
  dependent[static_cast<std::size_t>(graph.input_slot)] = true;
  for (const Node& node : graph.nodes) {
    if (op_of(node).prefix_rule == PrefixRule::ShapeOf) continue;
    const bool any = std::any_of(node.inputs.begin(), node.inputs.end(),
                                 [&](int s) { return s >= 0 && dependent[static_cast<std::size_t>(s)]; });
    for (int s : node.outputs)
      if (s >= 0) dependent[static_cast<std::size_t>(s)] = any;
  }
  return dependent;
}

namespace {

template <class T>
std::optional<std::vector<Extended<Exact>>> exact_reals(const Tensor<T>& t) {
  std::vector<Extended<Exact>> out;
  out.reserve(t.reals.size());
  for (const Extended<T>& x : t.reals) {
    if (!x.finite()) {
      out.push_back(Extended<Exact>::infinity(x.inf));
      continue;
    }
    const std::optional<Exact> point = ops::exact_point(x);
    if (!point) return std::nullopt;
    out.push_back({*point, 0});
  }
  return out;
}

bool same(const Extended<Exact>& a, const Extended<Exact>& b) {
  return a.inf == b.inf && (a.inf != 0 || a.value == b.value);
}

// What is known of one slot over the probed lengths.
struct Facts {
  bool dependent = false;      // on the tokens' values
  bool regular = false;        // probed at every length, one rank, each axis a sequence axis or of one extent
  bool consistent = false;     // shown prefix-consistent
  std::vector<bool> sequence;  // per axis: its extent is the length

  std::size_t sequence_axes() const {
    return static_cast<std::size_t>(std::count(sequence.begin(), sequence.end(), true));
  }
};

class Analysis {
 public:
  Analysis(const Graph& graph, const std::vector<std::int64_t>& lengths, const std::vector<Probe>& probes)
      : graph_(graph), lengths_(lengths), probes_(probes), facts_(static_cast<std::size_t>(graph.slot_count)) {
    plan_.by_node.resize(graph.nodes.size());
  }

  std::variant<PrefixPlan, std::string> run() {
    const std::vector<bool> dependent = token_dependent_slots(graph_);
    for (int s = 0; s < graph_.slot_count; ++s) {
      Facts& f = facts_[static_cast<std::size_t>(s)];
      f.dependent = dependent[static_cast<std::size_t>(s)];
      learn_shape(s, f);
      f.consistent = f.regular && (s == graph_.input_slot || graph_.constants.count(s) > 0);
    }
    // A parameter input (a shape, an axis, a bound, a count) must not depend on the tokens' values: then every shape
    // depends on the length only, and a Shape's value is no function of the tokens.
    for (const Node& node : graph_.nodes)
      for (std::size_t i : op_of(node).parameter_inputs)
        if (has(node, i) && input(node, i).dependent)
          return node.label() + " takes a shape, axis or bound computed from the tokens' values";
    std::string reason;
    for (std::size_t k = 0; k < graph_.nodes.size(); ++k) {
      const Node& node = graph_.nodes[k];
      const bool kept = holds_weight(op_of(node)) || keeps(k, node);
      for (int s : node.outputs) {
        if (s < 0) continue;
        Facts& f = facts_[static_cast<std::size_t>(s)];
        f.consistent = f.regular && (kept || (!f.dependent && leading_blocks(s)));
        if (!f.consistent && f.dependent && reason.empty())
          reason = node.label() + " is not shown to give, on a prefix, the leading block of its value";
      }
    }
    const Facts& out = facts_[static_cast<std::size_t>(graph_.output_slot)];
    const std::vector<bool> rows =
        out.sequence.size() == 3 ? std::vector<bool>{false, true, false} : std::vector<bool>{true, false};
    if (!out.consistent) return reason.empty() ? std::string("the output is not shown prefix-consistent") : reason;
    if (out.sequence != rows) return std::string("the output's sequence axis is not its row axis");
    return plan_;
  }

 private:
  const Graph& graph_;
  const std::vector<std::int64_t>& lengths_;
  const std::vector<Probe>& probes_;
  std::vector<Facts> facts_;
  PrefixPlan plan_;

  const std::optional<SlotProbe>& at(int slot, std::size_t t) const {
    return probes_[t][static_cast<std::size_t>(slot)];
  }
  const SlotProbe& longest(int slot) const { return *at(slot, probes_.size() - 1); }
  const Facts& facts(int slot) const { return facts_[static_cast<std::size_t>(slot)]; }

  void learn_shape(int slot, Facts& f) const {
    for (std::size_t t = 0; t < probes_.size(); ++t)
      if (!at(slot, t)) return;  // a slot never computed (an optional output left out)
    for (std::size_t t = 0; t < probes_.size(); ++t)
      if (at(slot, t)->shape.size() != longest(slot).shape.size()) return;
    const std::size_t rank = longest(slot).shape.size();
    for (std::size_t j = 0; j < rank; ++j) {
      bool sequence = true, fixed = true;
      for (std::size_t t = 0; t < probes_.size(); ++t) {
        const std::int64_t extent = at(slot, t)->shape[j];
        sequence = sequence && extent == lengths_[t];
        fixed = fixed && extent == longest(slot).shape[j];
      }
      if (!sequence && !fixed) return;
      f.sequence.push_back(sequence);
    }
    f.regular = true;
  }

  // Every probe's value, known exactly, is the leading block of the longest probe's value.
  bool leading_blocks(int slot) const {
    const SlotProbe& last = longest(slot);
    const bool real = last.exact.has_value();
    if (real == false && last.ints.size() != static_cast<std::size_t>(element_count(last.shape))) return false;
    const Shape last_strides = strides_of(last.shape);
    for (std::size_t t = 0; t + 1 < probes_.size(); ++t) {
      const SlotProbe& p = *at(slot, t);
      if (p.exact.has_value() != real) return false;
      const Shape strides = strides_of(p.shape);
      for (std::int64_t flat = 0; flat < element_count(p.shape); ++flat) {
        std::int64_t in_last = 0;
        for (std::size_t j = 0; j < p.shape.size(); ++j) in_last += flat / strides[j] % p.shape[j] * last_strides[j];
        const auto i = static_cast<std::size_t>(flat), l = static_cast<std::size_t>(in_last);
        if (real ? !same((*p.exact)[i], (*last.exact)[l]) : p.ints.at(i) != last.ints[l]) return false;
      }
    }
    return true;
  }

  bool has(const Node& node, std::size_t i) const { return i < node.inputs.size() && node.inputs[i] >= 0; }
  const Facts& input(const Node& node, std::size_t i) const { return facts(node.inputs[i]); }
  bool data(const Node& node, std::size_t i) const { return has(node, i) && input(node, i).consistent; }
  // A parameter with one value at every length.
  bool invariant(const Node& node, std::size_t i) const {
    if (!has(node, i)) return true;
    const Facts& f = input(node, i);
    return !f.dependent && f.consistent && f.sequence_axes() == 0;
  }
  const std::vector<std::int64_t>& values(const Node& node, std::size_t i, std::size_t t) const {
    return at(node.inputs[i], t)->ints;
  }

  // `from` broadcast to `to`: each axis of `from` is of extent 1 or a sequence axis exactly where `to` has one.
  bool fits(int from, int to) const {
    const std::size_t ra = facts(from).sequence.size(), ro = facts(to).sequence.size();
    return ra <= ro && aligned(from, ra, to, ro - ra);
  }

  // The first `count` axes of `from` against those of `to` from `offset` on: each of extent 1 (repeated) or a
  // sequence axis exactly where `to` has one.
  bool aligned(int from, std::size_t count, int to, std::size_t offset) const {
    for (std::size_t j = 0; j < count; ++j) {
      const bool repeated = !facts(from).sequence[j] && longest(from).shape[j] == 1;
      if (!repeated && facts(from).sequence[j] != facts(to).sequence[j + offset]) return false;
    }
    return true;
  }

  // The products of the extents between sequence axes (before the first, between each two, after the last).
  std::vector<std::int64_t> gaps(int slot) const {
    std::vector<std::int64_t> g{1};
    for (std::size_t j = 0; j < facts(slot).sequence.size(); ++j) {
      if (facts(slot).sequence[j])
        g.push_back(1);
      else
        g.back() *= longest(slot).shape[j];
    }
    return g;
  }

  bool keeps(std::size_t k, const Node& node) {
    if (node.outputs.empty() || node.outputs.front() < 0) return false;
    const int out = node.outputs.front();
    if (!facts(out).regular) return false;
    switch (op_of(node).prefix_rule) {
      case PrefixRule::Elementwise:
        for (std::size_t i = 0; i < node.inputs.size(); ++i)
          if (has(node, i) && (!data(node, i) || !fits(node.inputs[i], out))) return false;
        return true;
      case PrefixRule::Dropout: return data(node, 0) && fits(node.inputs[0], out);
      case PrefixRule::Transpose: return data(node, 0);
      case PrefixRule::Squeeze: return data(node, 0) && invariant(node, 1);
      case PrefixRule::Reshape: return data(node, 0) && gaps(node.inputs[0]) == gaps(out);
      case PrefixRule::Expand: return data(node, 0) && fits(node.inputs[0], out);
      case PrefixRule::Concat: return concatenated(node, out);
      case PrefixRule::Split: return data(node, 0) && invariant(node, 1) && !along_sequence(node);
      case PrefixRule::Slice: return sliced(node, out);
      case PrefixRule::Gather: return data(node, 0) && data(node, 1) && !along_sequence(node);
      case PrefixRule::Trilu: {
        const std::vector<bool>& s = input(node, 0).sequence;
        return data(node, 0) && invariant(node, 1) && s.size() >= 2 && s[s.size() - 2] == s.back();
      }
      case PrefixRule::MatMul: return multiplied(k, node, out);
      case PrefixRule::Gemm: return gemm(node, out);
      case PrefixRule::Normalization: return normalized(k, node);
      case PrefixRule::LayerNormalization: return layer_normalized(node);
      case PrefixRule::Reduction: return reduced(node);
      case PrefixRule::CumSum: return summed(node);
      // OneHot: each output entry is a function of one index (and its place along the new axis, of fixed extent).
      case PrefixRule::OneHot:
        return data(node, 0) && invariant(node, 1) && invariant(node, 2) &&
               !facts(out).sequence[normalized_axis(node.int_attribute("axis", -1), facts(out).sequence.size())];
      case PrefixRule::Einsum: return contracted(k, node, out);
      case PrefixRule::ValuesCompared:  // Range, ConstantOfShape, ScatterND: their values are compared instead
      case PrefixRule::ShapeOf:
      case PrefixRule::Constant: return false;
    }
    return false;
  }

  // Whether the node's `axis` attribute (Split's, Gather's) names a sequence axis of its first input.
  bool along_sequence(const Node& node) const {
    const std::vector<bool>& s = input(node, 0).sequence;
    return s[normalized_axis(node.int_attribute("axis", 0), s.size())];
  }

  bool concatenated(const Node& node, int out) const {
    const std::size_t axis = normalized_axis(node.int_attribute("axis", 0), facts(out).sequence.size());
    if (facts(out).sequence[axis]) return false;
    for (std::size_t i = 0; i < node.inputs.size(); ++i)
      if (!data(node, i) || input(node, i).sequence != facts(out).sequence) return false;
    return true;
  }

  // Slice: along a sequence axis only the whole axis (step 1, the same extent); along any other, the same bounds at
  // every length.
  bool sliced(const Node& node, int out) const {
    if (!data(node, 0) || !invariant(node, 3) || !invariant(node, 4)) return false;
    const std::vector<bool>& s = input(node, 0).sequence;
    if (s != facts(out).sequence) return false;
    const std::size_t entries = longest(node.inputs[1]).ints.size();
    for (std::size_t j = 0; j < entries; ++j) {
      const std::size_t axis = has(node, 3) ? normalized_axis(values(node, 3, 0).at(j), s.size()) : j;
      const std::int64_t step = has(node, 4) ? values(node, 4, 0).at(j) : 1;
      if (s[axis]) {
        if (step != 1) return false;
        continue;
      }
      for (std::size_t t = 0; t < probes_.size(); ++t)
        for (std::size_t bound : {1, 2})
          if (values(node, bound, t).at(j) != values(node, bound, 0).at(j)) return false;
    }
    return true;
  }

  // MatMul (numpy's: a 1-D operand is a row on the left, a column on the right): a sum over a non-sequence axis
  // keeps consistency; over a sequence axis, under a ZeroAbove check of the factor whose other axis holds the
  // queries. Leading (batch) axes broadcast as an element-wise op's do.
  bool multiplied(std::size_t k, const Node& node, int out) {
    if (!data(node, 0) || !data(node, 1)) return false;
    const Facts &a = input(node, 0), &b = input(node, 1);
    const std::size_t ra = a.sequence.size(), rb = b.sequence.size();
    const std::size_t batch_a = ra >= 2 ? ra - 2 : 0, batch_b = rb >= 2 ? rb - 2 : 0;
    const std::size_t batch_out = facts(out).sequence.size() - (ra >= 2) - (rb >= 2);
    if (!aligned(node.inputs[0], batch_a, out, batch_out - batch_a) ||
        !aligned(node.inputs[1], batch_b, out, batch_out - batch_b))
      return false;
    const bool summed_a = a.sequence[ra - 1], summed_b = b.sequence[rb == 1 ? 0 : rb - 2];
    if (summed_a != summed_b) return false;
    if (!summed_a) return true;
    using Kind = PrefixCheck::Kind;
    if (ra >= 2 && a.sequence[ra - 2])
      plan_.by_node[k] = PrefixCheck{Kind::ZeroAbove, 0, ra - 2, ra - 1};
    else if (rb >= 2 && b.sequence[rb - 1])
      plan_.by_node[k] = PrefixCheck{Kind::ZeroAbove, 1, rb - 1, rb - 2};
    else
      return false;
    return true;
  }

  // Einsum: each label a sequence axis in every term that has it, or in none. A sum over labels that are not sequence
  // axes keeps consistency; a sum over one that is (attention weights times values), as MatMul's does, under a
  // ZeroAbove check of an operand whose only other sequence axis is in the output (the queries).
  bool contracted(std::size_t k, const Node& node, int out) {
    const Attribute* equation = node.attribute("equation");
    if (!equation || equation->kind != Attribute::Kind::String) return false;
    std::vector<std::size_t> ranks;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
      if (!data(node, i)) return false;
      ranks.push_back(input(node, i).sequence.size());
    }
    ops::EinsumTerms terms;
    try {
      terms = ops::einsum_terms(equation->s, ranks);
    } catch (const ModelError&) { return false; }
    std::map<int, bool> sequence;  // label -> whether it is a sequence axis
    const auto agrees = [&](int label, bool is_sequence) {
      return sequence.emplace(label, is_sequence).first->second == is_sequence;
    };
    for (std::size_t i = 0; i < terms.operands.size(); ++i)
      for (std::size_t j = 0; j < terms.operands[i].size(); ++j)
        if (!agrees(terms.operands[i][j], input(node, i).sequence[j])) return false;
    if (terms.output.size() != facts(out).sequence.size()) return false;
    for (std::size_t j = 0; j < terms.output.size(); ++j)
      if (!agrees(terms.output[j], facts(out).sequence[j])) return false;
    std::vector<int> summed;  // the sequence labels summed over
    for (const auto& [label, is_sequence] : sequence)
      if (is_sequence && std::find(terms.output.begin(), terms.output.end(), label) == terms.output.end())
        summed.push_back(label);
    if (summed.empty()) return true;
    if (summed.size() > 1) return false;
    for (std::size_t i = 0; i < terms.operands.size(); ++i) {
      const std::vector<int>& labels = terms.operands[i];
      const auto key = std::find(labels.begin(), labels.end(), summed.front());
      if (key == labels.end() || input(node, i).sequence_axes() != 2 ||
          std::count(labels.begin(), labels.end(), summed.front()) != 1)
        continue;
      for (std::size_t q = 0; q < labels.size(); ++q)
        if (input(node, i).sequence[q] && labels[q] != summed.front() &&
            std::find(terms.output.begin(), terms.output.end(), labels[q]) != terms.output.end()) {
          plan_.by_node[k] =
              PrefixCheck{PrefixCheck::Kind::ZeroAbove, i, q, static_cast<std::size_t>(key - labels.begin())};
          return true;
        }
    }
    return false;
  }

  bool gemm(const Node& node, int out) const {
    if (!data(node, 0) || !data(node, 1) || (has(node, 2) && (!data(node, 2) || !fits(node.inputs[2], out))))
      return false;
    const std::size_t summed_a = node.int_attribute("transA", 0) != 0 ? 0 : 1;
    const std::size_t summed_b = node.int_attribute("transB", 0) != 0 ? 1 : 0;
    return !input(node, 0).sequence.at(summed_a) && !input(node, 1).sequence.at(summed_b);
  }

  // Softmax: along a non-sequence axis, row by row; along the keys, under a MaskedAbove check.
  bool normalized(std::size_t k, const Node& node) {
    if (!data(node, 0)) return false;
    const std::vector<bool>& s = input(node, 0).sequence;
    const std::size_t axis = normalized_axis(node.int_attribute("axis", -1), s.size());
    if (!s[axis]) return true;
    if (input(node, 0).sequence_axes() != 2) return false;
    std::size_t query = 0;
    while (query == axis || !s[query]) ++query;
    plan_.by_node[k] = PrefixCheck{PrefixCheck::Kind::MaskedAbove, 0, query, axis};
    return true;
  }

  bool layer_normalized(const Node& node) const {
    if (!data(node, 0) || !data(node, 1) || (has(node, 2) && !data(node, 2))) return false;
    const std::vector<bool>& s = input(node, 0).sequence;
    const std::size_t axis = normalized_axis(node.int_attribute("axis", -1), s.size());
    const bool along_sequence = std::any_of(s.begin() + static_cast<long>(axis), s.end(), [](bool b) { return b; });
    return !along_sequence && input(node, 1).sequence_axes() == 0 &&
           (!has(node, 2) || input(node, 2).sequence_axes() == 0);
  }

  bool reduced(const Node& node) const {
    if (!data(node, 0)) return false;
    if (!node.attribute("axes") && !invariant(node, 1)) return false;
    const std::vector<bool>& s = input(node, 0).sequence;
    const std::vector<bool> axes = ops::reduction_axes(node, s.size(), has(node, 1) ? &values(node, 1, 0) : nullptr);
    for (std::size_t j = 0; j < s.size(); ++j)
      if (axes[j] && s[j]) return false;
    return true;
  }

  // CumSum: entry i of a forward sum along a sequence axis sums entries 0..i (or 0..i-1).
  bool summed(const Node& node) const {
    if (!data(node, 0) || !invariant(node, 1)) return false;
    const std::vector<bool>& s = input(node, 0).sequence;
    const std::size_t axis = normalized_axis(values(node, 1, 0).at(0), s.size());
    return !s[axis] || node.int_attribute("reverse", 0) == 0;
  }
};

}  // namespace

std::vector<bool> weight_slots(const Graph& graph) {
  std::vector<bool> weights(static_cast<std::size_t>(graph.slot_count), false);
  for (const auto& [slot, tensor] : graph.constants) weights[static_cast<std::size_t>(slot)] = true;
  for (const Node& node : graph.nodes)
    if (holds_weight(op_of(node)))
      for (int s : node.outputs)
        if (s >= 0) weights[static_cast<std::size_t>(s)] = true;
  return weights;
}

template <class T>
Probe probe_of(const std::vector<std::optional<Tensor<T>>>& slots, const std::vector<bool>& token_dependent,
               const std::vector<bool>& weights) {
  Probe probe(slots.size());
  for (std::size_t s = 0; s < slots.size(); ++s) {
    if (!slots[s]) continue;
    SlotProbe p{slots[s]->shape, {}, std::nullopt};
    if (!token_dependent[s]) {
      if (!slots[s]->is_real())
        p.ints = slots[s]->ints;
      else if (!weights[s])
        p.exact = exact_reals(*slots[s]);
    }
    probe[s] = std::move(p);
  }
  return probe;
}

template Probe probe_of(const std::vector<std::optional<Tensor<Exact>>>&, const std::vector<bool>&,
                        const std::vector<bool>&);
template Probe probe_of(const std::vector<std::optional<Tensor<DoubleInterval>>>&, const std::vector<bool>&,
                        const std::vector<bool>&);
template Probe probe_of(const std::vector<std::optional<Tensor<Interval<256>>>>&, const std::vector<bool>&,
                        const std::vector<bool>&);

std::variant<PrefixPlan, std::string> prefix_plan(const Graph& graph, const std::vector<std::int64_t>& lengths,
                                                  const std::vector<Probe>& probes) {
  return Analysis(graph, lengths, probes).run();
}

}  // namespace tverify::model
