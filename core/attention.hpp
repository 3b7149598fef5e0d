// A single attention head with causal mask and the Hard-ALiBi window of Repeat After Me, Sec. 2.2:
//   o_i = sum_j softmax_j(tau * <W_k x_j, W_q x_i> + b_ij) W_v x_j,  b_ij = -inf for j <= i - m, 0 for j > i - m,
// with m = infinity allowed (plain causal softmax attention). Positions are 0-based here; the window formula is the
// paper's, which only depends on i - j.
// Over Exact the head is defined when all scores in the window are equal (e.g. W_k = W_q = 0, the averaging heads of
// Lemma C.1): the softmax is then uniform and rational. Otherwise use Interval (certified) or a floating type.
#pragma once

#include "core/elementary.hpp"
#include "core/linalg.hpp"

#include <optional>

namespace tverify {

struct HardAlibiWindow {
  std::optional<std::size_t> m;  // nullopt: m = infinity

  bool allows(std::size_t query, std::size_t key) const {
    if (key > query) return false;  // causal mask
    return !m || key + *m > query;  // j > i - m
  }
};

template <class T>
struct AttentionHead {
  Matrix<T> query, key, value;  // W_q, W_k, W_v: each (head dim) x (input dim)
  HardAlibiWindow window;
  T temperature = T(1);

  // The output at position i, attending over xs[0..i] within the window.
  Vector<T> forward_at(const std::vector<Vector<T>>& xs, std::size_t i) const {
    const bool scores_vanish = is_zero_matrix(query) || is_zero_matrix(key);  // W_q = 0 or W_k = 0: every score is 0
    const Vector<T> q = scores_vanish ? Vector<T>{} : query * xs.at(i);
    std::vector<T> scores;
    std::vector<std::size_t> keys;
    for (std::size_t j = 0; j <= i; ++j) {
      if (!window.allows(i, j)) continue;
      scores.push_back(scores_vanish ? T(0) : temperature * dot(key * xs[j], q));
      keys.push_back(j);
    }
    const std::vector<T> weights = softmax(scores);
    Vector<T> out(value.rows(), T(0));
    for (std::size_t s = 0; s < keys.size(); ++s) out = out + scaled(value * xs[keys[s]], weights[s]);
    return out;
  }

  std::vector<Vector<T>> forward(const std::vector<Vector<T>>& xs) const {
    std::vector<Vector<T>> out;
    for (std::size_t i = 0; i < xs.size(); ++i) out.push_back(forward_at(xs, i));
    return out;
  }
};

}  // namespace tverify
