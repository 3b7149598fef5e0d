// The single-layer transformer of Attention with Markov, Appendix A, on binary inputs (Sec. 3, Uni-embedding):
//   u_n = x_n e + p_n;  q_n = W_Q u_n, k_i = W_K u_i, v_i = W_V u_i;  att_{n,i} = softmax_i(<q_n, k_i> / sqrt(d));
//   y_n = u_n + W_O sum_{i<=n} att_{n,i} v_i;  z_n = y_n + W_2 ReLU(W_1 y_n);  logit_n = <a, z_n> + b;
//   f(x_1..x_n) = sigmoid(logit_n).
// W_Q, W_K, W_V are m x d, W_O is d x m, W_1 is r x d, W_2 is d x r. Weight tying (Sec. 3.1) sets a = e: then `a` is
// not a parameter of its own. The parameters are one flat vector in the fixed block order of the paper's list
// theta = (e, {p_n}, W_Q, W_K, W_V, W_O, W_1, W_2, b, a).
#pragma once

#include "constructions/markov/chain.hpp"
#include "core/scalar.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tverify::markov {

struct Shapes {
  int d = 4, m = 4, r = 4, N = 4;
  bool tied = true;
};

struct Block {
  std::string name;  // "e", "p", "W_Q", "W_K", "W_V", "W_O", "W_1", "W_2", "b", "a"
  int offset = 0, rows = 0, cols = 0;
  int size() const { return rows * cols; }
};

class Layout {
 public:
  explicit Layout(Shapes shapes);
  const Shapes& shapes() const { return shapes_; }
  int size() const { return size_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  const Block& block(const std::string& name) const;  // throws std::out_of_range ("a" when tied)
  bool has(const std::string& name) const;
  int index(const std::string& name, int row = 0, int col = 0) const {
    return block(name).offset + row * block(name).cols + col;
  }
  std::string entry_name(int index) const;  // "W_Q[2,1]" (1-based), "p_3[2]", "e[1]", "b"

 private:
  Shapes shapes_;
  std::vector<Block> blocks_;
  int size_ = 0;
};

// A parameter point: every entry enclosed; entries that are rational are also kept exactly.
struct Point {
  explicit Point(Layout l) : layout(std::move(l)), values(layout.size(), Real(0)), exact(layout.size(), Exact(0)) {}
  Layout layout;
  std::vector<Real> values;
  std::vector<std::optional<Exact>> exact;

  void set(int index, const Exact& x) { values[index] = Real(x), exact[index] = x; }
  void set(int index, const Real& x) { values[index] = x, exact[index].reset(); }
  void fill(const std::string& block, const Exact& x);
  bool block_is_zero(const std::string& block) const;                     // every entry exactly 0
  std::vector<Exact> exact_row(const std::string& block, int row) const;  // throws unless every entry is rational
};

// The model's arithmetic over a value type V (Real, or TapeVar<Real> for derivatives); W(i) is the i-th parameter.
template <class V>
struct ModelWeights {
  const Shapes& shapes;
  const Layout& layout;
  std::vector<V> w;  // one per parameter, in layout order
  const V& at(const std::string& block, int row, int col) const { return w[layout.index(block, row, col)]; }
  const V& a(int i) const { return shapes.tied ? at("e", 0, i) : at("a", 0, i); }
};

Real reciprocal(const Real& x);
Real softplus(const Real& x);  // log(1 + e^x)
Real sigmoid(const Real& x);

namespace detail {

template <class V>
std::vector<V> mat_vec(const ModelWeights<V>& m, const std::string& block, const std::vector<V>& x) {
  const Block& b = m.layout.block(block);
  std::vector<V> out;
  for (int i = 0; i < b.rows; ++i) {
    V acc = m.at(block, i, 0) * x[0];
    for (int j = 1; j < b.cols; ++j) acc = acc + m.at(block, i, j) * x[j];
    out.push_back(acc);
  }
  return out;
}

template <class V>
V dot(const std::vector<V>& x, const std::vector<V>& y) {
  V acc = x[0] * y[0];
  for (std::size_t i = 1; i < x.size(); ++i) acc = acc + x[i] * y[i];
  return acc;
}

template <class V>
std::vector<V> plus(std::vector<V> x, const std::vector<V>& y) {
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = x[i] + y[i];
  return x;
}

// u_i = x_i e + p_i (Uni-embedding); position is 1-based.
template <class V>
std::vector<V> embed(const ModelWeights<V>& m, int token, int position) {
  std::vector<V> u;
  for (int j = 0; j < m.shapes.d; ++j)
    u.push_back(token ? m.at("e", 0, j) + m.at("p", position - 1, j) : m.at("p", position - 1, j));
  return u;
}

}  // namespace detail

// z_n = y + W_2 ReLU(W_1 y), logit = <a, z> + b (Appendix A (iii)-(iv)).
template <class V>
V readout(const ModelWeights<V>& m, const std::vector<V>& y) {
  std::vector<V> h = detail::mat_vec(m, "W_1", y);
  for (auto& x : h) x = relu(x);
  const std::vector<V> z = detail::plus(y, detail::mat_vec(m, "W_2", h));
  std::vector<V> a;
  for (int i = 0; i < m.shapes.d; ++i) a.push_back(m.a(i));
  return detail::dot(a, z) + m.at("b", 0, 0);
}

// logit_n for the prefix x_1..x_n (bit i of `bits` is x_{i+1}); inv_sqrt_d = 1 / sqrt(d), enclosed.
template <class V>
V logit(const ModelWeights<V>& m, std::uint64_t bits, int n, const Real& inv_sqrt_d) {
  std::vector<std::vector<V>> u;
  for (int i = 1; i <= n; ++i) u.push_back(detail::embed(m, bit(bits, i - 1), i));
  const std::vector<V> q = detail::mat_vec(m, "W_Q", u.back());
  std::vector<V> weights, values_sum;
  for (int i = 0; i < n; ++i) weights.push_back(exp(detail::dot(q, detail::mat_vec(m, "W_K", u[i])) * inv_sqrt_d));
  V total = weights[0];
  for (int i = 1; i < n; ++i) total = total + weights[i];
  const V inv_total = reciprocal(total);
  std::vector<V> mixed;
  for (int i = 0; i < n; ++i) {
    std::vector<V> v = detail::mat_vec(m, "W_V", u[i]);
    const V att = weights[i] * inv_total;
    for (auto& x : v) x = att * x;
    mixed = mixed.empty() ? v : detail::plus(mixed, v);
  }
  return readout(m, detail::plus(u.back(), detail::mat_vec(m, "W_O", mixed)));
}

// The same logit when W_O = 0 exactly: y_n = u_n, so the attention contributes nothing and the logit depends only on
// (x_n, n). Exact structural shortcut, not an approximation; the caller must check W_O = 0.
template <class V>
V logit_without_attention(const ModelWeights<V>& m, int token, int position) {
  return readout(m, detail::embed(m, token, position));
}

ModelWeights<Real> weights_of(const Point& point);

}  // namespace tverify::markov
