// Time of the certified full Hessian of the population loss at theta_pi: weight-tied, N = 8, d = 4, m = 4, r = 16 (229
// parameters), p = 1/2, q = 4/5; every one of the 510 prefixes on its own tape, one forward tangent and reverse sweep
// per parameter (core/autodiff.hpp), 128-bit MPFI intervals. Target: under 60 s on 2 cores.
#include "constructions/markov/loss.hpp"
#include "constructions/markov/points.hpp"

#include <benchmark/benchmark.h>

namespace {

void BM_HessianAtThetaPi(benchmark::State& state) {
  using namespace tverify::markov;
  const MarkovChain chain(tverify::Exact(1, 2), tverify::Exact(4, 5));
  const Shapes shapes{4, 4, 16, 8, true};
  const Point point = make_point(PointKind::Pi, chain, shapes, Arbitrary{}).point;
  for (auto _ : state) {
    const Derivatives d = loss_derivatives(chain, point, true, static_cast<unsigned>(state.range(0)));
    benchmark::DoNotOptimize(d);
  }
  state.counters["parameters"] = point.layout.size();
  state.counters["hessian_entries"] = static_cast<double>(point.layout.size()) * point.layout.size();
}
BENCHMARK(BM_HessianAtThetaPi)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
