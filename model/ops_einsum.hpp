// Einsum (opset 12) over real tensors, as numpy.einsum reads an equation: each letter labels an axis; a label in
// several operands is the same axis (its extents must agree); a label repeated within one operand takes its diagonal;
// "..." stands for an operand's remaining leading axes, broadcast against the other operands' like numpy's; the
// output is the term after "->", or without one the ellipsis axes and then every letter used once, in ASCII order.
// Every label not in the output is summed over. An equation outside this grammar is refused, naming it.
#pragma once

#include "model/ops_linear.hpp"

#include <cctype>
#include <map>

namespace tverify::model::ops {

// Labels: a letter's code (below 128), and 128 + i for the i-th ellipsis axis (right-aligned across operands).
struct EinsumTerms {
  std::vector<std::vector<int>> operands;  // each operand's axis labels
  std::vector<int> output;
};

inline constexpr int einsum_ellipsis_label = 128;

// One term's letters, with -1 where its "..." stands.
inline std::vector<int> einsum_term(const std::string& term, const std::string& equation) {
  std::vector<int> labels;
  for (std::size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (std::isalpha(static_cast<unsigned char>(c))) {
      labels.push_back(c);
    } else if (term.compare(i, 3, "...") == 0 && std::find(labels.begin(), labels.end(), -1) == labels.end()) {
      labels.push_back(-1);
      i += 2;
    } else {
      throw ModelError("Einsum's equation '" + equation +
                       "' is outside what tverify reads (letters, one '...' per term, ',' and '->')");
    }
  }
  return labels;
}

// Replaces a term's -1 by the ellipsis labels of an operand of this rank (its last `ellipsis` axes of the broadcast
// ones, of which there are `widest`).
inline std::vector<int> einsum_expanded(const std::vector<int>& term, std::size_t ellipsis, std::size_t widest) {
  std::vector<int> out;
  for (int label : term) {
    if (label != -1) {
      out.push_back(label);
      continue;
    }
    for (std::size_t i = 0; i < ellipsis; ++i)
      out.push_back(einsum_ellipsis_label + static_cast<int>(widest - ellipsis + i));
  }
  return out;
}

inline std::vector<std::string> einsum_split(const std::string& text, char at) {
  std::vector<std::string> parts{""};
  for (char c : text) {
    if (c == at)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

// The equation's terms for operands of these ranks.
inline EinsumTerms einsum_terms(const std::string& written, const std::vector<std::size_t>& ranks) {
  std::string equation;
  for (char c : written)
    if (c != ' ') equation += c;
  const std::size_t arrow = equation.find("->");
  const std::vector<std::string> inputs = einsum_split(equation.substr(0, arrow), ',');
  if (inputs.size() != ranks.size())
    throw ModelError("Einsum's equation '" + written + "' has " + std::to_string(inputs.size()) + " terms for " +
                     std::to_string(ranks.size()) + " inputs");
  std::vector<std::vector<int>> terms;
  std::vector<std::size_t> ellipses;
  std::size_t widest = 0;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    terms.push_back(einsum_term(inputs[k], written));
    const bool has_ellipsis = std::find(terms[k].begin(), terms[k].end(), -1) != terms[k].end();
    const std::size_t letters = terms[k].size() - (has_ellipsis ? 1 : 0);
    if (letters > ranks[k] || (!has_ellipsis && letters != ranks[k]))
      throw ModelError("Einsum's term '" + inputs[k] + "' of '" + written + "' does not fit input " +
                       std::to_string(k + 1) + " of rank " + std::to_string(ranks[k]));
    ellipses.push_back(ranks[k] - letters);
    widest = std::max(widest, ellipses.back());
  }
  EinsumTerms out;
  std::map<int, int> uses;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    out.operands.push_back(einsum_expanded(terms[k], ellipses[k], widest));
    for (int label : out.operands.back()) ++uses[label];
  }
  if (arrow == std::string::npos) {  // implicit: the ellipsis axes, then each letter used once, in ASCII order
    for (const auto& [label, count] : uses)
      if (label >= einsum_ellipsis_label) out.output.push_back(label);
    for (const auto& [label, count] : uses)
      if (label < einsum_ellipsis_label && count == 1) out.output.push_back(label);
    return out;
  }
  const std::vector<int> result = einsum_term(equation.substr(arrow + 2), written);
  const bool ellipsis_out = std::find(result.begin(), result.end(), -1) != result.end();
  if (widest > 0 && !ellipsis_out)
    throw ModelError("Einsum's equation '" + written + "' drops the axes its '...' stands for from the output");
  out.output = einsum_expanded(result, widest, widest);
  for (std::size_t i = 0; i < out.output.size(); ++i) {
    const int label = out.output[i];
    if (!uses.count(label) || std::count(out.output.begin(), out.output.end(), label) > 1)
      throw ModelError("Einsum's output in '" + written + "' names an axis no input has, or one axis twice");
  }
  return out;
}

// The extent of every label: a letter's agrees across its axes; an ellipsis axis broadcasts (extents equal or 1).
inline std::map<int, std::int64_t> einsum_extents(const EinsumTerms& terms, const std::vector<Shape>& shapes,
                                                  const std::string& equation) {
  std::map<int, std::int64_t> extent;
  for (std::size_t k = 0; k < shapes.size(); ++k)
    for (std::size_t j = 0; j < shapes[k].size(); ++j) {
      const int label = terms.operands[k][j];
      const std::int64_t d = shapes[k][j];
      auto [it, first] = extent.emplace(label, d);
      if (first || it->second == d) continue;
      if (label >= einsum_ellipsis_label && (d == 1 || it->second == 1)) {
        it->second = std::max(it->second, d);
        continue;
      }
      throw ModelError("Einsum's equation '" + equation + "' gives one axis the extents " + std::to_string(it->second) +
                       " and " + std::to_string(d));
    }
  return extent;
}

template <class T>
Tensor<T> einsum(const std::string& equation, const Inputs<T>& in) {
  std::vector<Shape> shapes;
  for (const Tensor<T>* t : in) {
    if (!t) throw ModelError("Einsum has an input left out");
    if (!t->is_real()) throw ModelError("Einsum of integer tensors");
    shapes.push_back(t->shape);
  }
  std::vector<std::size_t> ranks;
  for (const Shape& s : shapes) ranks.push_back(s.size());
  const EinsumTerms t = einsum_terms(equation, ranks);
  const std::map<int, std::int64_t> extent = einsum_extents(t, shapes, equation);
  // Every label, the output's first: one index per label, stepped as an odometer.
  std::vector<int> labels = t.output;
  for (const auto& [label, d] : extent)
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
  Shape out_shape, summed_shape;
  for (std::size_t i = 0; i < labels.size(); ++i)
    (i < t.output.size() ? out_shape : summed_shape).push_back(extent.at(labels[i]));
  check_size(out_shape);
  const std::int64_t terms_per_element = std::max<std::int64_t>(element_count(summed_shape), 1);
  if (element_count(out_shape) > max_products / terms_per_element)
    throw ModelError("an Einsum of more than 2^32 multiply-adds, above what an op may take");
  // Each operand's stride per label (0 on a broadcast axis of extent 1).
  std::vector<std::vector<std::int64_t>> stride(in.size(), std::vector<std::int64_t>(labels.size(), 0));
  for (std::size_t k = 0; k < in.size(); ++k) {
    const Shape strides = strides_of(shapes[k]);
    for (std::size_t j = 0; j < shapes[k].size(); ++j) {
      const auto at =
          static_cast<std::size_t>(std::find(labels.begin(), labels.end(), t.operands[k][j]) - labels.begin());
      if (shapes[k][j] != 1 || extent.at(labels[at]) == 1) stride[k][at] += strides[j];
    }
  }
  Tensor<T> out = Tensor<T>::real(out_shape, {});
  out.reals.reserve(static_cast<std::size_t>(element_count(out_shape)));
  const std::size_t outer = t.output.size();
  Shape index(labels.size(), 0);
  for_each_index(out_shape, [&](const Shape& o, std::int64_t) {
    std::copy(o.begin(), o.end(), index.begin());
    Extended<T> sum = real_zero<T>();
    for_each_index(summed_shape, [&](const Shape& s, std::int64_t) {
      std::copy(s.begin(), s.end(), index.begin() + static_cast<long>(outer));
      Extended<T> product{T(1L), 0};
      for (std::size_t k = 0; k < in.size(); ++k) {
        std::int64_t flat = 0;
        for (std::size_t l = 0; l < labels.size(); ++l) flat += index[l] * stride[k][l];
        product = product * in[k]->reals[static_cast<std::size_t>(flat)];
      }
      sum = sum + product;
    });
    out.reals.push_back(sum);
  });
  return out;
}

}  // namespace tverify::model::ops
