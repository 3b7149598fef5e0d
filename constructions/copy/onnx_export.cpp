#include "constructions/copy/onnx_export.hpp"

#include "model/onnx_writer.hpp"

#include <stdexcept>

namespace tverify::copy {

namespace {

using model::OnnxWriter;
using Ints = std::vector<std::int64_t>;

// Surds of one tensor: all rational, or sharing one radicand r (then A + B * Sqrt(r)).
std::string surd_tensor(OnnxWriter& w, const std::string& name, const Ints& shape, const std::vector<Surd>& values) {
  std::vector<Exact> rational, coefficient;
  unsigned long radicand = 0;
  for (const Surd& v : values) {
    rational.push_back(v.rational_part());
    coefficient.push_back(v.surd_coefficient());
    if (v.is_rational()) continue;
    if (radicand != 0 && v.radicand() != radicand)
      throw std::invalid_argument("the tensor '" + name + "' mixes square roots of different radicands");
    radicand = v.radicand();
  }
  if (radicand == 0) return w.rationals(name, shape, rational);
  const std::string root = w.node("Sqrt", {w.scalar(name + "_radicand", Exact(BigInt(radicand)))});
  const std::string surd = w.node("Mul", {w.rationals(name + "_coefficients", shape, coefficient), root});
  return w.node("Add", {w.rationals(name + "_rational", shape, rational), surd}, {}, name);
}

// The transpose of m as a [cols, rows] tensor: ONNX multiplies row vectors, x W^T.
std::string transposed(OnnxWriter& w, const std::string& name, const Matrix<Surd>& m) {
  std::vector<Surd> values;
  for (std::size_t c = 0; c < m.cols(); ++c)
    for (std::size_t r = 0; r < m.rows(); ++r) values.push_back(m(r, c));
  return surd_tensor(w, name, {static_cast<std::int64_t>(m.cols()), static_cast<std::int64_t>(m.rows())}, values);
}

std::string surd_vector(OnnxWriter& w, const std::string& name, const Vector<Surd>& v) {
  return surd_tensor(w, name, {static_cast<std::int64_t>(v.size())}, std::vector<Surd>(v.begin(), v.end()));
}

// Query index i minus key index j, [seq, seq] (int64), and the 0 / -inf bias of the keys a predicate of it admits.
struct Offsets {
  std::string difference, zero, minus_infinity;

  Offsets(OnnxWriter& w, const std::string& tokens) {
    const std::string length = w.node("Squeeze", {w.node("Shape", {tokens}), w.integers("axis_0", {1}, {0})});
    const std::string positions =
        w.node("Range", {w.integers("zero_index", {}, {0}), length, w.integers("one_index", {}, {1})});
    const std::string queries = w.node("Unsqueeze", {positions, w.integers("axis_1", {1}, {1})});
    const std::string keys = w.node("Unsqueeze", {positions, "axis_0"});
    difference = w.node("Sub", {queries, keys}, {}, "query_minus_key");
    zero = w.scalar("zero", Exact(0));
    minus_infinity = w.minus_infinity("minus_infinity");
  }

  // Keys j with 0 <= i - j (causal) and, with a window m, i - j < m.
  std::string bias(OnnxWriter& w, const std::string& name, std::optional<std::size_t> window) const {
    std::string allowed = w.node("GreaterOrEqual", {difference, "zero_index"});
    if (window) {
      const std::string limit = w.integers(name + "_window", {}, {static_cast<std::int64_t>(*window)});
      allowed = w.node("And", {allowed, w.node("Less", {difference, limit})});
    }
    return w.node("Where", {allowed, zero, minus_infinity}, {}, name);
  }
};

// One head of Lemma C.1 on the embedded sequence x: softmax(temperature (x W_q^T)(x W_k^T)^T + window bias) x W_v^T.
std::string head(OnnxWriter& w, const Offsets& offsets, const std::string& x, const AttentionHead<Surd>& h,
                 const std::string& name) {
  const std::string q = w.node("MatMul", {x, transposed(w, name + "_W_q", h.query)});
  const std::string k = w.node("MatMul", {x, transposed(w, name + "_W_k", h.key)});
  const std::string v = w.node("MatMul", {x, transposed(w, name + "_W_v", h.value)});
  const std::string qk = w.node("MatMul", {q, w.node("Transpose", {k}, {{"perm", Ints{1, 0}}})});
  const std::string scores = w.node("Mul", {qk, surd_tensor(w, name + "_temperature", {}, {h.temperature})});
  const std::string biased = w.node("Add", {scores, offsets.bias(w, name + "_window_bias", h.window.m)});
  return w.node("MatMul", {w.node("Softmax", {biased}, {{"axis", std::int64_t{-1}}}), v}, {}, name);
}

// tau: the given exact value, or the proof's d ln(8 K d) = d (ln(8 d) + n ln D).
std::string tau(OnnxWriter& w, const CopyTransformer& t) {
  const CopyTransformerConfig& c = t.config();
  if (c.tau) return w.scalar("tau", *c.tau);
  const std::string log_8d = w.node("Log", {w.scalar("eight_d", Exact(8 * t.dim()))});
  const std::string log_d = w.node("Log", {w.scalar("D", Exact(c.alphabet))});
  const std::string log_8kd = w.node("Add", {log_8d, w.node("Mul", {w.scalar("n", Exact(c.n)), log_d})});
  return w.node("Mul", {w.scalar("d", Exact(t.dim())), log_8kd}, {}, "tau");
}

std::string columns(OnnxWriter& w, const std::string& x, std::int64_t from, std::int64_t to, const std::string& name) {
  return w.node("Slice", {x, w.integers(name + "_from", {1}, {from}), w.integers(name + "_to", {1}, {to}), "axis_1"},
                {}, name);
}

}  // namespace

std::uint64_t exported_weight_count(int alphabet, int n, EmbeddingKind embedding) {
  const std::uint64_t d = static_cast<std::uint64_t>(embedding_dim(embedding, alphabet)),
                      un = static_cast<std::uint64_t>(n);
  const std::uint64_t inputs = (un + 1) * d, hidden = 2 * d + 2 * (un + 1) * d + 2 * un,
                      outputs = d + 2 * (un * d + un);
  return hidden * inputs + outputs * hidden + 3 * (un + 1) * d * d + 2 * static_cast<std::uint64_t>(alphabet + 2) * d;
}

std::string copy_transformer_onnx(const CopyTransformer& t) {
  const CopyTransformerConfig& c = t.config();
  OnnxWriter w(std::string("copy_transformer_") + to_string(c.variant) + "_" + to_string(c.embedding));
  const std::string tokens = w.token_input("tokens");
  const Offsets offsets(w, tokens);

  const Matrix<Surd>& psi = t.embedding();
  std::vector<Surd> psi_values;
  for (std::size_t r = 0; r < psi.rows(); ++r)
    for (std::size_t col = 0; col < psi.cols(); ++col) psi_values.push_back(psi(r, col));
  const auto tokens_count = static_cast<std::int64_t>(psi.rows()), d = static_cast<std::int64_t>(psi.cols());
  const std::string embedding = surd_tensor(w, "Psi", {tokens_count, d}, psi_values);
  const std::string x = w.node("Gather", {embedding, tokens}, {{"axis", std::int64_t{0}}}, "embedded");

  // Layer 1 (Lemma C.4): the heads h_1..h_{n+1}, concatenated, then the ReLU MLP of the gadgets.
  std::vector<std::string> heads;
  for (std::size_t k = 0; k < t.layer1_heads().size(); ++k)
    heads.push_back(head(w, offsets, x, t.layer1_heads()[k], "h" + std::to_string(k + 1)));
  const std::string u = w.node("Concat", heads, {{"axis", std::int64_t{1}}}, "heads");
  const ReluMlp<Surd>& mlp = t.layer1_mlp();
  std::string pre = w.node("MatMul", {u, transposed(w, "mlp_inner", mlp.inner)});
  if (!mlp.inner_bias.empty()) pre = w.node("Add", {pre, surd_vector(w, "mlp_inner_bias", mlp.inner_bias)});
  std::string y = w.node("MatMul", {w.node("Relu", {pre}, {}, "gadgets"), transposed(w, "mlp_outer", mlp.outer)});
  if (!mlp.outer_bias.empty()) y = w.node("Add", {y, surd_vector(w, "mlp_outer_bias", mlp.outer_bias)});
  const auto half = (static_cast<std::int64_t>(mlp.outer.rows()) - d) / 2;
  const std::string value = columns(w, y, 0, d, "T_value");
  const std::string key = columns(w, y, d, d + half, "T_key");
  const std::string query = columns(w, y, d + half, d + 2 * half, "T_query");

  // Layer 2 (proof of Theorem 2.3): H_i = sum_{j <= i} softmax(tau z)_j T^value_j, z_j = T^key_j . T^query_i.
  const std::string z = w.node("MatMul", {query, w.node("Transpose", {key}, {{"perm", Ints{1, 0}}})}, {}, "scores");
  const std::string scaled = w.node("Mul", {z, tau(w, t)});
  const std::string masked = w.node("Add", {scaled, offsets.bias(w, "causal_bias", std::nullopt)});
  const std::string attention = w.node("Softmax", {masked}, {{"axis", std::int64_t{-1}}}, "attention");
  const std::string h = w.node("MatMul", {attention, value}, {}, "layer2");
  // The readout: z . Psi(x) for every token x.
  const std::string psi_t = w.node("Transpose", {embedding}, {{"perm", Ints{1, 0}}});
  w.node("MatMul", {h, psi_t}, {}, "readout");
  w.output("readout", tokens_count);
  w.describe("construction", "the copy transformer of Repeat After Me, Theorem 2.3 (arXiv 2402.01032)");
  w.describe("variant", to_string(c.variant));
  w.describe("parameters", "D=" + std::to_string(c.alphabet) + " n=" + std::to_string(c.n) +
                               " embedding=" + to_string(c.embedding) + " tau=" + t.tau_description());
  w.describe("tokens", "0..D-1 the alphabet, D = <BOS>, D + 1 = <COPY>; read with check model --task copy --V D");
  return w.serialized();
}

}  // namespace tverify::copy
