#include "constructions/markov/hessian_closed_form.hpp"

namespace tverify::markov {

std::vector<int> alpha_indices(const Layout& layout) {
  std::vector<int> idx{layout.index("b")};
  if (layout.has("a"))
    for (int j = 0; j < layout.shapes().d; ++j) idx.push_back(layout.index("a", 0, j));
  for (int j = 0; j < layout.shapes().d; ++j) idx.push_back(layout.index("e", 0, j));
  return idx;
}

Matrix<Exact> closed_form_h_alpha(const MarkovChain& chain, const Point& point) {
  const Shapes& s = point.layout.shapes();
  const int d = s.d;
  std::vector<Exact> u(d, Exact(0));
  Matrix<Exact> P(d, d);
  for (int n = 0; n < s.N; ++n) {
    const auto pn = point.exact_row("p", n);
    for (int i = 0; i < d; ++i) {
      u[i] += pn[i] / s.N;
      for (int j = 0; j < d; ++j) P(i, j) += pn[i] * pn[j] / s.N;
    }
  }
  const Exact scale = chain.pi0() * chain.pi1(), shift = chain.switching() - 1;
  const int size = s.tied ? 1 + d : 1 + 2 * d;
  Matrix<Exact> h(size, size);
  h(0, 0) = scale;
  for (int i = 0; i < d; ++i) {
    h(0, 1 + i) = h(1 + i, 0) = scale * u[i];
    for (int j = 0; j < d; ++j) h(1 + i, 1 + j) = scale * (P(i, j) + (s.tied && i == j ? 2 * shift : Exact(0)));
    if (!s.tied) h(1 + i, 1 + d + i) = h(1 + d + i, 1 + i) = scale * shift;
  }
  return h;
}

}  // namespace tverify::markov
