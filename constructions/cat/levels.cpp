#include "constructions/cat/levels.hpp"

#include "core/elementary.hpp"
#include "core/interval.hpp"
#include "core/precision_ladder.hpp"

namespace tverify::cat {

void AttentionLevels::add(const Exact& dot, const Exact& key_norm2, const BigInt& count, const ExactVector& value) {
  auto found = levels_.find(KeyLess::View(dot, key_norm2));  // no copy of the key unless it is new
  if (found == levels_.end())
    found = levels_.emplace(std::pair(dot, key_norm2), ScoreLevel{0, ExactVector(dim_)}).first;
  ScoreLevel& level = found->second;
  level.keys += count;
  const bool single = count == 1;
  for (std::size_t d = 0; d < dim_; ++d) {
    if (value[d] == 0) continue;
    if (single)
      level.value_sum[d] += value[d];
    else
      level.value_sum[d] += Exact(count) * value[d];
  }
}

namespace {

bool zero_logit(const Exact& query_norm2, const std::pair<Exact, Exact>& level) {
  return query_norm2 == 0 || level.second == 0 || level.first == 0;  // a zero row normalizes to zero
}

template <unsigned Bits>
Decoded decide_at(const AttentionLevels& a, const TokenEmbedding& embedding, const Exact& c_squared,
                  const std::vector<int>& candidates) {
  using I = Interval<Bits>;
  const I scale(c_squared);
  std::vector<I> logits;
  for (const auto& [key, level] : a.levels())
    logits.push_back(
        zero_logit(a.query_norm2(), key) ? I(0) : scale * I(key.first) / sqrt(I(Exact(a.query_norm2() * key.second))));
  // softmax per level: one key of level g weighs e^{z_g - z_0} / sum_h n_h e^{z_h - z_0} (an identity for every
  // real z_0, so the interval result encloses the exact weights).
  std::vector<I> weights;
  I total(0);
  std::size_t g = 0;
  for (const auto& [key, level] : a.levels()) {
    weights.push_back(exp(I(logits[g++] - logits.front())));
    total = total + weights.back() * I(Exact(level.keys));
  }
  const std::size_t dim = embedding.dim();
  std::vector<I> o(dim, I(0));
  g = 0;
  for (const auto& [key, level] : a.levels()) {
    const I w = weights[g++] / total;
    for (std::size_t d = 0; d < dim; ++d)
      if (level.value_sum[d] != 0) o[d] = o[d] + w * I(level.value_sum[d]);
  }
  // Nearest neighbour among unit vectors: argmin |o - e|^2 = argmax <o, e>.
  Vector<I> closeness;
  for (int token : candidates) {
    const ExactVector& emb = embedding.vectors[static_cast<std::size_t>(token)];
    I c(0);
    for (std::size_t d = 0; d < dim; ++d)
      if (emb[d] != 0) c = c + o[d] * I(emb[d]);
    closeness.push_back(c);
  }
  const ArgmaxReadout r = argmax_readout(closeness);
  Decoded out;
  out.margin = r.margin;
  out.bits = Bits;
  if (r.margin == Margin::Certified) out.token = candidates[r.winner];
  return out;
}

// The logit of a level as an exact cosine key: (sign, cos^2) of <q, k> / sqrt(|q|^2 |k|^2); zero rows give 0.
std::pair<int, Exact> cosine_key(const Exact& query_norm2, const std::pair<Exact, Exact>& level) {
  if (zero_logit(query_norm2, level)) return {0, Exact(0)};
  return {level.first > 0 ? 1 : -1, level.first * level.first / (query_norm2 * level.second)};
}

// <o, e_a> = <o, e_b> exactly? o = sum_j w_j v_j with w_j proportional to exp(c^2 cos_j). Group the levels by their
// exact cosine: <o, e_a - e_b> * Z = sum_groups exp(c^2 cos_g) D_g with D_g = <V_g, e_a - e_b> rational. The
// c^2 cos_g are distinct algebraic numbers (c^2 rational, cos_g = +-sqrt of a rational), so by the
// Lindemann-Weierstrass theorem the exponentials are linearly independent over the algebraic numbers: the sum is
// zero exactly when every D_g is.
bool exact_tie(const AttentionLevels& a, const TokenEmbedding& embedding, int a_token, int b_token) {
  const ExactVector& ea = embedding.vectors[static_cast<std::size_t>(a_token)];
  const ExactVector& eb = embedding.vectors[static_cast<std::size_t>(b_token)];
  std::map<std::pair<int, Exact>, Exact> groups;
  for (const auto& [key, level] : a.levels())
    groups[cosine_key(a.query_norm2(), key)] += dot(level.value_sum, ea) - dot(level.value_sum, eb);
  for (const auto& [cosine, d] : groups)
    if (d != 0) return false;
  return true;
}

// Intervals cannot decide an exact tie. Merge the tokens whose closeness to o is exactly equal, decide among one
// representative per class, and call the result a Tie when the winning class has two or more tokens.
Decoded decide_modulo_ties(const AttentionLevels& a, const TokenEmbedding& embedding, const Exact& c_squared) {
  const int vocabulary = static_cast<int>(embedding.size());
  std::vector<int> representatives, class_of(static_cast<std::size_t>(vocabulary), -1);
  std::vector<int> class_size;
  for (int v = 0; v < vocabulary; ++v) {
    for (std::size_t c = 0; c < representatives.size() && class_of[static_cast<std::size_t>(v)] < 0; ++c)
      if (exact_tie(a, embedding, representatives[c], v)) class_of[static_cast<std::size_t>(v)] = static_cast<int>(c);
    if (class_of[static_cast<std::size_t>(v)] < 0) {
      class_of[static_cast<std::size_t>(v)] = static_cast<int>(representatives.size());
      representatives.push_back(v);
      class_size.push_back(0);
    }
    ++class_size[static_cast<std::size_t>(class_of[static_cast<std::size_t>(v)])];
  }
  constexpr unsigned bits = readout_rungs.ceiling;
  Decoded d = representatives.size() == 1 ? Decoded{representatives.front(), Margin::Certified, bits}
                                          : decide_at<bits>(a, embedding, c_squared, representatives);
  if (d.token && class_size[static_cast<std::size_t>(class_of[static_cast<std::size_t>(*d.token)])] > 1) {
    d.token.reset();
    d.margin = Margin::Tie;
  }
  return d;
}

}  // namespace

Decoded decide_levels(const AttentionLevels& levels, const TokenEmbedding& embedding, const Exact& c_squared) {
  if (levels.empty()) return {};  // nothing to attend to
  std::vector<int> tokens;
  for (int v = 0; v < static_cast<int>(embedding.size()); ++v) tokens.push_back(v);
  // Two rungs of the ladder (core/precision_ladder.hpp) suffice here: what the ceiling cannot decide is an exact tie of
  // readouts, which decide_modulo_ties finds exactly.
  Decoded d = climb(
                  readout_rungs, [&]<unsigned Bits>() { return decide_at<Bits>(levels, embedding, c_squared, tokens); },
                  [](const Decoded& r) { return r.margin != Margin::Undecided; })
                  .result;
  if (d.margin == Margin::Undecided) d = decide_modulo_ties(levels, embedding, c_squared);
  return d;
}

}  // namespace tverify::cat
