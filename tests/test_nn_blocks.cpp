// core/attention, core/mlp, core/readout: the Hard-ALiBi head, the ReLU MLP and the argmax readout.
#include "core/attention.hpp"
#include "core/mlp.hpp"
#include "core/readout.hpp"

#include <catch2/catch.hpp>

using tverify::Exact;
using tverify::Matrix;
using tverify::Vector;

namespace {

// Lemma C.1 written out directly: h_t(x_1..x_i) = 1/min(t,i) * sum_{j=max(1,i-t+1)}^{i} x_j (1-based).
Vector<Exact> lemma_c1_average(const std::vector<Vector<Exact>>& xs, std::size_t i_one_based, std::size_t t) {
  const std::size_t first = i_one_based >= t ? i_one_based - t + 1 : 1;
  Vector<Exact> sum(xs[0].size(), Exact(0));
  for (std::size_t j = first; j <= i_one_based; ++j)
    for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += xs[j - 1][k];
  for (auto& s : sum) s /= Exact(static_cast<long>(std::min(t, i_one_based)));
  return sum;
}

}  // namespace

TEST_CASE("Hard-ALiBi window: b_ij = -inf for j <= i - m, causal, m = infinity allowed", "[attention]") {
  const tverify::HardAlibiWindow m2{2};
  CHECK(m2.allows(5, 5));
  CHECK(m2.allows(5, 4));
  CHECK_FALSE(m2.allows(5, 3));  // j = i - m
  CHECK_FALSE(m2.allows(3, 4));  // causal
  const tverify::HardAlibiWindow unbounded{};
  CHECK(unbounded.allows(100, 0));
}

TEST_CASE("an averaging Hard-ALiBi head (W_k = W_q = 0, W_v = I) computes h_t of Lemma C.1 exactly", "[attention]") {
  const std::vector<Vector<Exact>> xs = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
  for (std::size_t t = 1; t <= 4; ++t) {
    tverify::AttentionHead<Exact> head{Matrix<Exact>(3, 3), Matrix<Exact>(3, 3), Matrix<Exact>::identity(3),
                                       tverify::HardAlibiWindow{t}};
    const auto out = head.forward(xs);
    for (std::size_t i = 0; i < xs.size(); ++i) CHECK(out[i] == lemma_c1_average(xs, i + 1, t));
  }
}

TEST_CASE("a softmax head over intervals encloses the weights e/(1+e) and 1/(1+e)", "[attention]") {
  using I = tverify::Interval<128>;
  // W_q x_1 = (1, 0); key 0 is W_k x_0 = (1, 0) (score 1), key 1 is W_k x_1 = (0, 0) (score 0); W_v = I.
  tverify::AttentionHead<I> head{
      Matrix<I>{{I(1), I(1)}, {I(0), I(0)}}, Matrix<I>{{I(1), I(0)}, {I(0), I(0)}}, Matrix<I>::identity(2), {}};
  const std::vector<Vector<I>> xs = {{I(1), I(0)}, {I(0), I(1)}};
  const auto out = head.forward_at(xs, 1);
  // Reference at 1024 bits: e/(1+e) and 1/(1+e).
  using H = tverify::Interval<1024>;
  const H e = exp(H(1));
  const H w0 = e / (H(1) + e), w1 = H(1) / (H(1) + e);
  CHECK(out[0].lower() <= w0.lower());
  CHECK(w0.upper() <= out[0].upper());
  CHECK(out[1].lower() <= w1.lower());
  CHECK(w1.upper() <= out[1].upper());
}

TEST_CASE("ReLU MLP f(x) = U1 relu(U2 x + b2) + b1, by hand", "[mlp]") {
  tverify::ReluMlp<Exact> mlp{
      Matrix<Exact>{{1, -1}, {-1, 1}}, Matrix<Exact>{{1, 1}}, {Exact(0), Exact(-1)}, {Exact(2)}};
  // x = (3, 1): U2 x + b2 = (2, -3), relu -> (2, 0), U1 -> 2, + b1 -> 4.
  CHECK(mlp({Exact(3), Exact(1)}) == Vector<Exact>{Exact(4)});
  // x = (1, 3): (-2, 1) -> (0, 1) -> 1 -> 3.
  CHECK(mlp({Exact(1), Exact(3)}) == Vector<Exact>{Exact(3)});
}

TEST_CASE("argmax readout: certified, tie, undecided", "[readout]") {
  using tverify::Margin;
  const auto certified = tverify::argmax_readout(Vector<Exact>{Exact(1), Exact(3), Exact(2)});
  CHECK(certified.winner == 1);
  CHECK(certified.margin == Margin::Certified);
  CHECK(tverify::argmax_readout(Vector<Exact>{Exact(3), Exact(3)}).margin == Margin::Tie);
  using I = tverify::Interval<64>;
  const auto undecided = tverify::argmax_readout(Vector<I>{I::hull(0, 2), I(1)});
  CHECK(undecided.margin == Margin::Undecided);
  const auto decided = tverify::argmax_readout(Vector<I>{I(Exact(1, 3)), I(Exact(1, 2))});
  CHECK(decided.winner == 1);
  CHECK(decided.margin == Margin::Certified);
  // Entries 0 and 1 are the point 0, decided equal; entry 2 is [-1/10, 1/2] and may be the unique maximum (at 3/10,
  // say): nothing is decided, not a tie.
  const auto hidden_winner = tverify::argmax_readout(Vector<I>{I(0), I(0), I::hull(Exact(-1, 10), Exact(1, 2))});
  CHECK(hidden_winner.margin == Margin::Undecided);
  // With entry 2 decided below, the two equal points are a tie.
  CHECK(tverify::argmax_readout(Vector<I>{I(0), I(0), I::hull(Exact(-1, 2), Exact(-1, 10))}).margin == Margin::Tie);
}

TEST_CASE("embedding readout Phi(z) = argmax_x <z, Psi(x)>", "[readout]") {
  const auto psi = Matrix<Exact>::identity(3);
  const auto r = tverify::argmax_readout(psi * Vector<Exact>{Exact(1, 10), Exact(8, 10), Exact(1, 10)});
  CHECK(r.winner == 1);
  CHECK(r.margin == tverify::Margin::Certified);
}
