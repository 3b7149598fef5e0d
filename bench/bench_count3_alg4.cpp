// Throughput of the exhaustive count3.alg4 check: every sequence of length 1..7 over the values 0..6 (960,799
// sequences, 823,543 of them of length 7) through Algorithm 4 in the exact RASP interpreter, each compared
// with eq. (4).
#include "checkers/count3/count3_claims.hpp"

#include <benchmark/benchmark.h>

namespace {

void BM_Alg4Exhaustive(benchmark::State& state) {
  using namespace tverify;
  RunOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  const auto inputs = count3::InputSource::exhaustive(make_sequence_domain(7, 0, 6, options));
  for (auto _ : state) {
    auto result = count3::check_alg4(inputs, {}, options);
    benchmark::DoNotOptimize(result);
  }
  state.counters["sequences/s"] = benchmark::Counter(
      static_cast<double>(inputs.size()) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
// Arg: threads. Wall-clock rates (UseRealTime), since the work is split across threads.
BENCHMARK(BM_Alg4Exhaustive)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
