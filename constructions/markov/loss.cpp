#include "constructions/markov/loss.hpp"

#include "core/autodiff.hpp"
#include "core/parallel.hpp"

#include <stdexcept>

namespace tverify::markov {

std::uint64_t prefix_count(int N) { return (std::uint64_t{2} << N) - 2; }

std::pair<int, std::uint64_t> prefix_at(std::uint64_t index) {
  int n = 1;
  while (index + 2 >= (std::uint64_t{2} << n)) ++n;
  return {n, index + 2 - (std::uint64_t{1} << n)};
}

namespace {

// visit(n, bits, acc) for every prefix. The prefixes are cut into a fixed grid of contiguous parts that depends on
// N alone, threads take parts in turn, and the parts' accumulators are merged in order: interval sums round outward
// and are not associative, so this is what makes the enclosures the same for any thread count.
template <class Acc, class Visit, class Merge>
Acc over_prefixes(int N, unsigned threads, Acc init, Visit visit, Merge merge) {
  const std::uint64_t count = prefix_count(N);
  const unsigned parts = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(count, 64)));
  std::vector<Acc> partial(parts, init);
  const unsigned workers = std::max(1u, std::min(threads, parts));
  run_workers(workers, [&](unsigned w) {
    for (unsigned part = w; part < parts; part += workers)
      for (std::uint64_t i = count * part / parts; i < count * (part + 1) / parts; ++i) {
        const auto [n, bits] = prefix_at(i);
        visit(n, bits, partial[part]);
      }
  });
  for (unsigned part = 1; part < parts; ++part) merge(partial[0], partial[part]);
  return partial[0];
}

Real inverse_sqrt(int d) { return reciprocal(sqrt(Real(d))); }

// P(x_1..x_n) / N: the weight of one prefix's term in eq. (3).
Real prefix_weight(const MarkovChain& chain, std::uint64_t bits, int n, int N) {
  return Real(Exact(chain.prefix_probability(bits, n) / N));
}

// The tape of one prefix: every parameter an input (slot = its index; a = e when tied), then the logit.
struct PrefixTape {
  Tape<Real> tape;
  TapeVar<Real> logit;

  PrefixTape(const Point& point, std::uint64_t bits, int n, const Real& inv_sqrt_d) {
    std::vector<TapeVar<Real>> inputs;
    for (int i = 0; i < point.layout.size(); ++i) inputs.push_back(tape.input(point.values[i], i));
    const ModelWeights<TapeVar<Real>> w{point.layout.shapes(), point.layout, std::move(inputs)};
    logit = markov::logit(w, bits, n, inv_sqrt_d);
  }
};

}  // namespace

Real population_loss(const MarkovChain& chain, const Point& point, unsigned threads) {
  const Shapes& s = point.layout.shapes();
  const Real inv_sqrt_d = inverse_sqrt(s.d);
  const auto w = weights_of(point);
  return over_prefixes(
      s.N, threads, Real(0),
      [&](int n, std::uint64_t bits, Real& acc) {
        const Real g = logit(w, bits, n, inv_sqrt_d);
        const Real k(chain.kernel(bit(bits, n - 1)));
        acc += prefix_weight(chain, bits, n, s.N) * (softplus(g) - k * g);
      },
      [](Real& into, const Real& from) { into += from; });
}

Real kl_form_of_loss(const MarkovChain& chain, const Point& point) {
  const Shapes& s = point.layout.shapes();
  const Real inv_sqrt_d = inverse_sqrt(s.d);
  const auto w = weights_of(point);
  Real mean_kl(0);
  for (std::uint64_t i = 0; i < prefix_count(s.N); ++i) {
    const auto [n, bits] = prefix_at(i);
    const Real f = sigmoid(logit(w, bits, n, inv_sqrt_d));
    const Exact k = chain.kernel(bit(bits, n - 1));
    const Real kl = Real(k) * log(Real(k) / f) + Real(Exact(1 - k)) * log(Real(Exact(1 - k)) / (Real(1) - f));
    mean_kl += prefix_weight(chain, bits, n, s.N) * kl;
  }
  return mean_kl + chain.entropy_rate();
}

Derivatives loss_derivatives(const MarkovChain& chain, const Point& point, bool with_hessian, unsigned threads) {
  const Shapes& s = point.layout.shapes();
  const int size = point.layout.size();
  const Real inv_sqrt_d = inverse_sqrt(s.d);
  Derivatives init{Real(0), std::vector<Real>(size, Real(0)), with_hessian ? Matrix<Real>(size, size) : Matrix<Real>(),
                   0};
  Derivatives out = over_prefixes(
      s.N, threads, init,
      [&](int n, std::uint64_t bits, Derivatives& acc) {
        PrefixTape t(point, bits, n, inv_sqrt_d);
        const Real k(chain.kernel(bit(bits, n - 1)));
        const auto term = t.tape.linear(softplus(t.logit), Real(1), t.logit, -k);
        const Real weight = prefix_weight(chain, bits, n, s.N);
        acc.loss += weight * t.tape.value(term);
        const std::vector<Real> adj = t.tape.adjoints(term, weight);
        t.tape.add_gradient(adj, acc.gradient);
        acc.kinks += t.tape.kinks();
        if (!with_hessian) return;
        std::vector<Real> column(size, Real(0));
        Tape<Real>::Workspace workspace;
        for (int j = 0; j < size; ++j) {
          std::fill(column.begin(), column.end(), Real(0));
          t.tape.add_hessian_column(adj, j, column, workspace);
          for (int i = 0; i < size; ++i)
            if (!is_zero(column[i])) acc.hessian(i, j) += column[i];
        }
      },
      [&](Derivatives& into, const Derivatives& from) {
        into.loss += from.loss;
        for (int i = 0; i < size; ++i) into.gradient[i] += from.gradient[i];
        into.kinks += from.kinks;
        if (with_hessian)
          for (int i = 0; i < size; ++i)
            for (int j = 0; j < size; ++j) into.hessian(i, j) += from.hessian(i, j);
      });
  if (with_hessian)
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < i; ++j)
        out.hessian(i, j) = out.hessian(j, i) = intersect(out.hessian(i, j), out.hessian(j, i));
  return out;
}

std::vector<Real> lemma2_gradient(const MarkovChain& chain, const Point& point) {
  const Shapes& s = point.layout.shapes();
  const Real inv_sqrt_d = inverse_sqrt(s.d);
  std::vector<Real> gradient(point.layout.size(), Real(0));
  for (std::uint64_t i = 0; i < prefix_count(s.N); ++i) {
    const auto [n, bits] = prefix_at(i);
    PrefixTape t(point, bits, n, inv_sqrt_d);
    const Real f = sigmoid(t.tape.value(t.logit));
    const Real k(chain.kernel(bit(bits, n - 1)));
    const Real seed = -(prefix_weight(chain, bits, n, s.N) * (k - f));
    t.tape.add_gradient(t.tape.adjoints(t.logit, seed), gradient);
  }
  return gradient;
}

void for_each_prediction(const Point& point, const std::function<void(int, std::uint64_t, const Real&)>& visit) {
  const Shapes& s = point.layout.shapes();
  const Real inv_sqrt_d = inverse_sqrt(s.d);
  const auto w = weights_of(point);
  for (std::uint64_t i = 0; i < prefix_count(s.N); ++i) {
    const auto [n, bits] = prefix_at(i);
    visit(n, bits, sigmoid(logit(w, bits, n, inv_sqrt_d)));
  }
}

Real loss_without_attention(const MarkovChain& chain, const Point& point) {
  if (!point.block_is_zero("W_O"))
    throw std::invalid_argument("the large-N evaluator needs W_O = 0 exactly (attention switched off)");
  const Shapes& s = point.layout.shapes();
  const auto w = weights_of(point);
  Real total(0);
  for (int n = 1; n <= s.N; ++n)
    for (int x = 0; x <= 1; ++x) {
      const Real g = logit_without_attention(w, x, n);
      const Real k(chain.kernel(x));
      total += Real(chain.stationary(x)) * (softplus(g) - k * g);
    }
  return total / Real(s.N);
}

}  // namespace tverify::markov
