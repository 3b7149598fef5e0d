#include "constructions/copy/weights.hpp"

namespace tverify::copy {

namespace {

NamedWeights matrix(const std::string& name, const Matrix<Surd>& m, const std::string& meaning) {
  NamedWeights w{name, {m.rows(), m.cols()}, {}, meaning};
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c) w.values.push_back(m(r, c));
  return w;
}

NamedWeights vector(const std::string& name, const Vector<Surd>& v, const std::string& meaning) {
  return {name, {v.size()}, std::vector<Surd>(v.begin(), v.end()), meaning};
}

}  // namespace

std::vector<NamedWeights> copy_transformer_weights(const CopyTransformer& t) {
  std::vector<NamedWeights> out;
  out.push_back(matrix("Psi", t.embedding(), "the token embedding, one row per token (0..D-1, <BOS>, <COPY>)"));
  for (std::size_t k = 0; k < t.layer1_heads().size(); ++k) {
    const AttentionHead<Surd>& h = t.layer1_heads()[k];
    const std::string head = "h" + std::to_string(k + 1);
    const std::string of = " of layer 1's head " + head + " (Lemmas C.1, C.4), (head dim) x (input dim)";
    out.push_back(matrix(head + ".W_q", h.query, "the query matrix" + of));
    out.push_back(matrix(head + ".W_k", h.key, "the key matrix" + of));
    out.push_back(matrix(head + ".W_v", h.value, "the value matrix" + of));
    out.push_back({head + ".temperature", {}, {h.temperature}, "the inverse temperature of head " + head});
    if (h.window.m)  // keys j with i - m < j <= i; without a window every j <= i
      out.push_back({head + ".window",
                     {},
                     {Surd(static_cast<long>(*h.window.m))},
                     "the hard-ALiBi window m of head " + head + ": keys j with i - m < j <= i (Lemma C.1)"});
  }
  const ReluMlp<Surd>& mlp = t.layer1_mlp();
  const std::string gadgets = " of layer 1's ReLU MLP (the gadgets of Lemma C.3)";
  out.push_back(matrix("mlp.inner", mlp.inner, "the inner matrix" + gadgets));
  if (!mlp.inner_bias.empty()) out.push_back(vector("mlp.inner_bias", mlp.inner_bias, "the inner bias" + gadgets));
  out.push_back(matrix("mlp.outer", mlp.outer, "the outer matrix" + gadgets + ": rows T^value, T^key, T^query"));
  if (!mlp.outer_bias.empty()) out.push_back(vector("mlp.outer_bias", mlp.outer_bias, "the outer bias" + gadgets));
  if (t.config().tau)
    out.push_back({"tau", {}, {Surd(*t.config().tau)}, "layer 2's inverse temperature (proof of Theorem 2.3)"});
  return out;
}

}  // namespace tverify::copy
