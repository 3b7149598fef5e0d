#include "constructions/markov/weights.hpp"

namespace tverify::markov {

namespace {

// What each block is (Appendix A: the embedding x_n e + p_n, one attention layer, a ReLU feed-forward layer, the
// logit <a, z> + b).
std::string block_meaning(const std::string& block) {
  if (block == "e") return "e: token x_n at position n embeds to x_n e + p_n (Uni-embedding)";
  if (block == "p") return "p_1..p_N, the positional embeddings (row n - 1 is p_n)";
  if (block == "W_Q" || block == "W_K" || block == "W_V") return block + ", the attention's m x d projection";
  if (block == "W_O") return "W_O, the attention's d x m output projection";
  if (block == "W_1") return "W_1, the feed-forward layer's r x d first matrix";
  if (block == "W_2") return "W_2, the feed-forward layer's d x r second matrix";
  if (block == "b") return "b, the logit's bias: logit = <a, z> + b";
  if (block == "a") return "a, the readout vector of the untied model (tied: a = e)";
  return block;
}

constexpr const char* symbols_meaning =
    "symbols (Appendix B): l1 = log(p/(1-p)), l2 = log((1-q)/q), l3 = log(p/q), s with d s^2 = l2 - l1 and s >= 0 "
    "(e*'s entry, eq. 7), w = w* >= 0 (eq. 10: d^2 w^2 = 2 (1 - (l2 - l1)/d); variant corrected: d r w^2)";

}  // namespace

std::vector<NamedWeights> point_weights(const std::string& name, const SymbolicPoint& sp) {
  std::vector<NamedWeights> out;
  for (const Block& b : sp.point.layout.blocks()) {
    NamedWeights w;
    w.name = name + "." + b.name;
    if (b.name == "e" || b.name == "a")
      w.shape = {static_cast<std::size_t>(b.cols)};  // vectors
    else if (b.name != "b")
      w.shape = {static_cast<std::size_t>(b.rows), static_cast<std::size_t>(b.cols)};
    w.meaning = name + " (" + sp.equation + "): " + block_meaning(b.name);
    bool symbolic = false;
    for (int i = b.offset; i < b.offset + b.size(); ++i) {
      const Real& value = sp.point.values[static_cast<std::size_t>(i)];
      // Exact when the point holds it exactly, or when its enclosure is a point (p = 1/2 makes l1 = log 1 = 0).
      std::optional<Exact> exact = sp.point.exact[static_cast<std::size_t>(i)];
      if (!exact && value.lower() == value.upper()) exact = value.lower();
      w.values.push_back(exact ? QuadraticSurd(*exact) : QuadraticSurd(Exact(0)));
      if (exact) {
        w.symbolic.emplace_back();
        continue;
      }
      symbolic = true;
      const Affine& form = sp.symbolic[static_cast<std::size_t>(i)];
      w.symbolic.push_back(
          SymbolicEntry{form.constant, {form.symbols.begin(), form.symbols.end()}, value.lower(), value.upper()});
    }
    if (symbolic)
      w.meaning += "; " + std::string(symbols_meaning);
    else
      w.symbolic.clear();
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace tverify::markov
