#include "constructions/cat/layer.hpp"

#include "core/elementary.hpp"
#include "core/interval.hpp"

#include <map>

namespace tverify::cat {

std::vector<ExactVector> convolve(const Filter& filter, const std::vector<ExactVector>& x, std::size_t shift) {
  const std::size_t dim = x.front().size();
  std::vector<ExactVector> out(x.size(), ExactVector(dim, Exact(0)));
  for (std::size_t t = 0; t < x.size(); ++t)
    for (std::size_t i = 0; i < filter.size(); ++i) {
      if (filter[i] == 0 || t < shift + i) continue;
      const ExactVector& row = x[t - shift - i];
      for (std::size_t d = 0; d < dim; ++d)
        if (row[d] != 0) out[t][d] += filter[i] * row[d];
    }
  return out;
}

CatLayer::CatLayer(CatConfig config) : config_(std::move(config)) {}

CatLayer::Streams CatLayer::streams(const Tokens& z) const {
  std::vector<ExactVector> x;
  for (int token : z) x.push_back(config_.embedding.vectors.at(static_cast<std::size_t>(token)));
  Streams s;
  s.queries = convolve(config_.filter, x, 0);
  if (config_.delay == Delay::Key) {
    s.keys = convolve(config_.filter, x, 1);  // F_k = F delayed by one step
    s.values = x;                              // F_v = identity
  } else {
    s.keys = s.queries;  // F_k = F_q = F
    for (std::size_t t = 0; t < x.size(); ++t)
      s.values.push_back(t + 1 < x.size() ? x[t + 1] : ExactVector(x.front().size(), Exact(0)));  // v_t = x_{t+1}
  }
  return s;
}

CatLayer::ExactScores CatLayer::exact_scores(const Streams& s, std::size_t t) const {
  ExactScores out;
  out.query_norm2 = dot(s.queries[t], s.queries[t]);
  // A key's window reaches before the first token when its newest token index minus N - 1 is negative.
  const std::size_t shift = config_.delay == Delay::Key ? 1 : 0;
  const std::size_t first_full = shift + config_.filter.size() - 1;
  for (std::size_t k = 0; k <= t; ++k) {
    if (config_.full_windows && k < first_full) continue;
    out.keys.push_back(k);
    out.dots.push_back(dot(s.queries[t], s.keys[k]));
    out.key_norms2.push_back(dot(s.keys[k], s.keys[k]));
  }
  return out;
}

template <unsigned Bits>
Decoded CatLayer::decode_at(const Streams& s, const ExactScores& e, const std::vector<int>& candidates) const {
  using I = Interval<Bits>;
  const I scale(config_.c_squared);
  std::vector<I> logits;
  for (std::size_t j = 0; j < e.keys.size(); ++j) {
    if (e.query_norm2 == 0 || e.key_norms2[j] == 0 || e.dots[j] == 0) {
      logits.push_back(I(0));  // a zero row normalizes to zero
      continue;
    }
    logits.push_back(scale * I(e.dots[j]) / sqrt(I(Exact(e.query_norm2 * e.key_norms2[j]))));
  }
  // softmax in O(keys) exponentials: w_j = e^{z_j - z_0} / sum_k e^{z_k - z_0} (an identity for every real z_0, so
  // the interval result encloses the exact weights; core's softmax spends O(keys^2) exponentials for tightness).
  std::vector<I> weights;
  I total(0);
  for (const I& z : logits) {
    weights.push_back(exp(I(z - logits.front())));
    total = total + weights.back();
  }
  for (I& w : weights) w = w / total;
  const std::size_t dim = config_.embedding.dim();
  std::vector<I> o(dim, I(0));
  for (std::size_t j = 0; j < e.keys.size(); ++j) {
    const ExactVector& v = s.values[e.keys[j]];
    for (std::size_t d = 0; d < dim; ++d)
      if (v[d] != 0) o[d] = o[d] + weights[j] * I(v[d]);
  }
  // Nearest neighbour among unit vectors: argmin |o - e|^2 = argmax <o, e>.
  Vector<I> closeness;
  for (int token : candidates) {
    const ExactVector& emb = config_.embedding.vectors[static_cast<std::size_t>(token)];
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

namespace {

// The logit of each key as an exact cosine key: (sign, cos^2) of <q, k> / sqrt(|q|^2 |k|^2); zero rows give 0.
std::pair<int, Exact> cosine_key(const CatLayer::ExactScores& e, std::size_t j) {
  if (e.query_norm2 == 0 || e.key_norms2[j] == 0 || e.dots[j] == 0) return {0, Exact(0)};
  return {e.dots[j] > 0 ? 1 : -1, e.dots[j] * e.dots[j] / (e.query_norm2 * e.key_norms2[j])};
}

}  // namespace

// <o, e_a> = <o, e_b> exactly? o = sum_j w_j v_j with w_j proportional to exp(c^2 cos_j). Group the keys by their
// exact cosine: <o, e_a - e_b> * Z = sum_groups exp(c^2 cos_g) D_g with D_g = sum_{j in g} <v_j, e_a - e_b> rational.
// The c^2 cos_g are distinct algebraic numbers (c^2 rational, cos_g = +-sqrt of a rational), so by the
// Lindemann-Weierstrass theorem the exponentials are linearly independent over the algebraic numbers: the sum is
// zero exactly when every D_g is.
bool CatLayer::exact_tie(const Streams& s, const ExactScores& e, int a, int b) const {
  const ExactVector& ea = config_.embedding.vectors[static_cast<std::size_t>(a)];
  const ExactVector& eb = config_.embedding.vectors[static_cast<std::size_t>(b)];
  std::map<std::pair<int, Exact>, Exact> groups;
  for (std::size_t j = 0; j < e.keys.size(); ++j) {
    const ExactVector& v = s.values[e.keys[j]];
    groups[cosine_key(e, j)] += dot(v, ea) - dot(v, eb);
  }
  for (const auto& [cosine, d] : groups)
    if (d != 0) return false;
  return true;
}

// Intervals cannot decide an exact tie. Merge the tokens whose closeness to o is exactly equal, decide among one
// representative per class, and call the result a Tie when the winning class has two or more tokens.
Decoded CatLayer::decode_modulo_ties(const Streams& s, const ExactScores& e) const {
  const int vocabulary = static_cast<int>(config_.embedding.size());
  std::vector<int> representatives, class_of(static_cast<std::size_t>(vocabulary), -1);
  std::vector<int> class_size;
  for (int v = 0; v < vocabulary; ++v) {
    for (std::size_t c = 0; c < representatives.size() && class_of[static_cast<std::size_t>(v)] < 0; ++c)
      if (exact_tie(s, e, representatives[c], v)) class_of[static_cast<std::size_t>(v)] = static_cast<int>(c);
    if (class_of[static_cast<std::size_t>(v)] < 0) {
      class_of[static_cast<std::size_t>(v)] = static_cast<int>(representatives.size());
      representatives.push_back(v);
      class_size.push_back(0);
    }
    ++class_size[static_cast<std::size_t>(class_of[static_cast<std::size_t>(v)])];
  }
  Decoded d = representatives.size() == 1 ? Decoded{representatives.front(), Margin::Certified, 512}
                                          : decode_at<512>(s, e, representatives);
  if (d.token && class_size[static_cast<std::size_t>(class_of[static_cast<std::size_t>(*d.token)])] > 1) {
    d.token.reset();
    d.margin = Margin::Tie;
  }
  return d;
}

std::vector<Decoded> CatLayer::decode(const Tokens& z, const std::vector<std::size_t>& queries) const {
  const Streams s = streams(z);
  std::vector<Decoded> out;
  for (std::size_t t : queries) {
    const ExactScores e = exact_scores(s, t);
    if (e.keys.empty()) {
      out.push_back({});  // nothing to attend to
      continue;
    }
    std::vector<int> tokens;
    for (int v = 0; v < static_cast<int>(config_.embedding.size()); ++v) tokens.push_back(v);
    Decoded d = decode_at<64>(s, e, tokens);
    if (d.margin == Margin::Undecided) d = decode_at<512>(s, e, tokens);
    if (d.margin == Margin::Undecided) d = decode_modulo_ties(s, e);
    out.push_back(d);
  }
  return out;
}

}  // namespace tverify::cat
