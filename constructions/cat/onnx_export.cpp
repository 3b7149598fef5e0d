#include "constructions/cat/onnx_export.hpp"

#include "model/onnx_writer.hpp"

#include <map>
#include <stdexcept>

namespace tverify::cat {

namespace {

using model::OnnxWriter;
using Ints = std::vector<std::int64_t>;

// The lowest common multiple of the denominators.
BigInt common_denominator(const std::vector<Exact>& values) {
  BigInt m = 1;
  for (const Exact& v : values) m = m / boost::multiprecision::gcd(m, denominator(v)) * denominator(v);
  return m;
}

std::vector<Exact> scaled(std::vector<Exact> values, const BigInt& by) {
  for (Exact& v : values) v *= by;
  return values;
}

struct Graph {
  OnnxWriter& w;
  std::string x;       // the embedded sequence, [seq, d] (of the integer embedding: see cat_layer_onnx)
  std::string length;  // [seq] as a one-entry int64 tensor
  std::int64_t dim;
  std::map<std::size_t, std::string> moved{};  // moved_down's nodes, by rows

  // x moved `rows` rows down: row t is x_{t - rows}, zero where t < rows.
  std::string moved_down(std::size_t rows) {
    if (rows == 0) return x;
    if (const auto found = moved.find(rows); found != moved.end()) return found->second;
    const auto r = static_cast<std::int64_t>(rows);
    const std::string zeros = w.rationals("zeros_" + std::to_string(rows), {r, dim},
                                          std::vector<Exact>(static_cast<std::size_t>(r * dim), Exact(0)));
    const std::string padded = w.node("Concat", {zeros, x}, {{"axis", std::int64_t{0}}});
    return moved[rows] = w.node("Slice", {padded, "first_row", length, "axis_0"});
  }
  // (F * X) moved `shift` rows down: row t = sum_i F_i x_{t - shift - i} (layer.hpp's convolve).
  std::string convolved(const Filter& filter, std::size_t shift, const std::string& name) {
    std::string sum;
    for (std::size_t i = 0; i < filter.size(); ++i) {
      if (filter[i] == 0) continue;
      const std::string tap = w.scalar(name + "_F" + std::to_string(i), filter[i]);
      const std::string term = w.node("Mul", {moved_down(shift + i), tap});
      sum = sum.empty() ? term : w.node("Add", {sum, term});
    }
    if (sum.empty()) return w.node("Mul", {x, w.scalar(name + "_zero_filter", Exact(0))}, {}, name);
    return w.node("Identity", {sum}, {}, name);
  }
  // Each row scaled to unit length; a zero row stays zero: r / (|r| + [|r|^2 = 0]).
  std::string normalized(const std::string& rows, const std::string& name) const {
    const std::string squared =
        w.node("ReduceSum", {w.node("Mul", {rows, rows}), "axis_1"}, {{"keepdims", std::int64_t{1}}});
    const std::string is_zero = w.node("Where", {w.node("Equal", {squared, "zero"}), "one", "zero"});
    return w.node("Div", {rows, w.node("Add", {w.node("Sqrt", {squared}), is_zero})}, {}, name);
  }
};

}  // namespace

std::string cat_layer_onnx(const CatConfig& c) {
  if (c.full_windows)
    throw std::invalid_argument("the masking of partial windows leaves the first queries without keys");
  const bool key_delay = c.delay == Delay::Key;
  OnnxWriter w(std::string("cat_layer_") + (key_delay ? "key_delay" : "value_delay"));
  const std::string tokens = w.token_input("tokens");
  const auto vocabulary = static_cast<std::int64_t>(c.embedding.size());
  const auto dim = static_cast<std::int64_t>(c.embedding.dim());
  std::vector<Exact> flat;
  for (const auto& row : c.embedding.vectors) flat.insert(flat.end(), row.begin(), row.end());
  const std::string embedding = w.rationals("embedding", {vocabulary, dim}, flat);
  w.integers("first_row", {1}, {0});
  w.integers("axis_0", {1}, {0});
  w.integers("axis_1", {1}, {1});
  w.scalar("zero", Exact(0));
  w.scalar("one", Exact(1));
  // The queries and keys are normalised, so any positive scale of them gives the same unit rows: they are computed
  // from the embedding and the filter times their common denominators, in integers. A row that cancels is then an
  // exact 0 even where the graph is enclosed in intervals (it has Sqrt), and the zero-row guard is decided.
  const std::string integer_embedding =
      w.rationals("embedding_times_denominator", {vocabulary, dim}, scaled(flat, common_denominator(flat)));
  Graph g{w, w.node("Gather", {integer_embedding, tokens}, {{"axis", std::int64_t{0}}}, "embedded_times_denominator"),
          w.node("Shape", {tokens}, {}, "length"), dim};
  const Filter integer_filter = scaled(c.filter, common_denominator(c.filter));

  // q_t = c norm((F * X)_t), k_s = c norm((F_k * X)_s) with F_k = F one step late (key delay) or F (value delay);
  // the scores q_t . k_s = c^2 cos(q_t, k_s) under the causal mask.
  const std::string query = g.normalized(g.convolved(integer_filter, 0, "F_q"), "unit_queries");
  const std::string key = key_delay ? g.normalized(g.convolved(integer_filter, 1, "F_k"), "unit_keys") : query;
  const std::string dots = w.node("MatMul", {query, w.node("Transpose", {key}, {{"perm", Ints{1, 0}}})});
  const std::string scores = w.node("Mul", {dots, w.scalar("c_squared", c.c_squared)}, {}, "scores");
  const std::string positions = w.node(
      "Range",
      {w.integers("zero_index", {}, {0}), w.node("Squeeze", {g.length, "axis_0"}), w.integers("one_index", {}, {1})});
  const std::string difference =
      w.node("Sub", {w.node("Unsqueeze", {positions, "axis_1"}), w.node("Unsqueeze", {positions, "axis_0"})}, {},
             "query_minus_key");
  const std::string causal = w.node(
      "Where", {w.node("GreaterOrEqual", {difference, "zero_index"}), "zero", w.minus_infinity("minus_infinity")}, {},
      "causal_bias");
  const std::string attention =
      w.node("Softmax", {w.node("Add", {scores, causal})}, {{"axis", std::int64_t{-1}}}, "attention");

  // v_s = x_s (key delay) or x_{s+1}, zero past the last token (value delay), from the embedding itself.
  std::string values = w.node("Gather", {embedding, tokens}, {{"axis", std::int64_t{0}}}, "embedded");
  if (!key_delay) {
    const std::string zero_row = w.rationals("zero_row", {1, dim}, std::vector<Exact>(static_cast<std::size_t>(dim)));
    const std::string padded = w.node("Concat", {values, zero_row}, {{"axis", std::int64_t{0}}});
    const std::string end = w.node("Add", {g.length, w.integers("one_row", {1}, {1})});
    values = w.node("Slice", {padded, w.integers("second_row", {1}, {1}), end, "axis_0"}, {}, "values");
  }
  const std::string output = w.node("MatMul", {attention, values}, {}, "attended");
  w.node("MatMul", {output, w.node("Transpose", {embedding}, {{"perm", Ints{1, 0}}})}, {}, "decoding_scores");
  w.output("decoding_scores", vocabulary);
  w.describe("construction",
             "the CAT layer of On the Power of Convolution Augmented Transformer, Theorem 1 / "
             "Corollary 1 (arXiv 2407.05591), as reconstructed in docs/cat.md");
  w.describe("variant", key_delay ? "key_delay" : "value_delay");
  w.describe("tokens", "0..V-1; the output token at each position is the argmax of its row of decoding_scores");
  return w.serialized();
}

}  // namespace tverify::cat
