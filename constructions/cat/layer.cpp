#include "constructions/cat/layer.hpp"

namespace tverify::cat {

ExactVector filtered_row(const Filter& filter, const std::vector<const ExactVector*>& newest_first, std::size_t dim) {
  ExactVector row(dim, Exact(0));
  for (std::size_t i = 0; i < filter.size() && i < newest_first.size(); ++i) {
    if (newest_first[i] == nullptr || filter[i] == 0) continue;
    const ExactVector& r = *newest_first[i];
    for (std::size_t d = 0; d < dim; ++d)
      if (r[d] != 0) row[d] += filter[i] * r[d];
  }
  return row;
}

std::vector<ExactVector> convolve(const Filter& filter, const std::vector<ExactVector>& x, std::size_t shift) {
  std::vector<ExactVector> out;
  out.reserve(x.size());
  std::vector<const ExactVector*> newest_first(filter.size());
  for (std::size_t t = 0; t < x.size(); ++t) {
    for (std::size_t i = 0; i < filter.size(); ++i) newest_first[i] = t < shift + i ? nullptr : &x[t - shift - i];
    out.push_back(filtered_row(filter, newest_first, x.front().size()));
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
    s.values = x;                             // F_v = identity
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

AttentionLevels CatLayer::levels(const Streams& s, std::size_t t) const {
  const ExactScores e = exact_scores(s, t);
  AttentionLevels out(e.query_norm2, config_.embedding.dim());
  for (std::size_t j = 0; j < e.keys.size(); ++j) out.add(e.dots[j], e.key_norms2[j], BigInt(1), s.values[e.keys[j]]);
  return out;
}

std::vector<Decoded> CatLayer::decode(const Tokens& z, const std::vector<std::size_t>& queries) const {
  const Streams s = streams(z);
  std::vector<Decoded> out;
  for (std::size_t t : queries) out.push_back(decide_levels(levels(s, t), config_.embedding, config_.c_squared));
  return out;
}

}  // namespace tverify::cat
