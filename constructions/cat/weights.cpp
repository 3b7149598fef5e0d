#include "constructions/cat/weights.hpp"

namespace tverify::cat {

namespace {

NamedWeights vector_weights(std::string name, const std::vector<Exact>& values, std::string meaning) {
  return {std::move(name), {values.size()}, {values.begin(), values.end()}, std::move(meaning)};
}

NamedWeights scalar_weight(std::string name, const Exact& value, std::string meaning) {
  return {std::move(name), {}, {QuadraticSurd(value)}, std::move(meaning)};
}

}  // namespace

std::vector<NamedWeights> cat_layer_weights(const CatConfig& config) {
  const TokenEmbedding& e = config.embedding;
  NamedWeights embedding{"embedding",
                         {e.size(), e.dim()},
                         {},
                         "the token embeddings e(0), ..., e(V-1), unit vectors "
                         "(CAT paper, Sec. 4), one per row"};
  for (const auto& row : e.vectors) embedding.values.insert(embedding.values.end(), row.begin(), row.end());
  const bool key_delay = config.delay == Delay::Key;
  Filter key_filter = config.filter;
  if (key_delay) key_filter.insert(key_filter.begin(), Exact(0));  // F delayed by one step
  return {embedding,
          vector_weights("query_filter", config.filter,
                         "F_q = F: q_t = c norm(sum_i F_i x_{t-i}), F_0 weighing the newest token"),
          vector_weights("key_filter", key_filter,
                         key_delay ? "F_k = F delayed by one step (key delay): k_s = c norm(sum_i F_i x_{s-1-i})"
                                   : "F_k = F (value delay): k_s = c norm(sum_i F_i x_{s-i})"),
          scalar_weight("value_offset", Exact(key_delay ? 0 : 1),
                        "v_s = x_{s + value_offset}: 0 for key delay, 1 for value delay (anti-causal, 0 past the last "
                        "token)"),
          scalar_weight("c_squared", config.c_squared,
                        "the logit scale c^2 (inverse temperature): q_t . k_s = c^2 "
                        "cos(q_t, k_s)"),
          scalar_weight("full_windows", Exact(config.full_windows ? 1 : 0),
                        "1: keys whose window reaches before the first token are masked out of the softmax "
                        "(tverify's correction, docs/errata.md); 0: every key up to the query is attended")};
}

}  // namespace tverify::cat
