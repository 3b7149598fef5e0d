// Throughput of the exhaustive copy.alg1 + copy.lemma2_4 check (both readings) over [D]^L.
#include "checkers/copy/copy_claims.hpp"

#include <benchmark/benchmark.h>

#include <thread>

namespace {

void BM_StringClaims(benchmark::State& state) {
  using namespace tverify;
  RunOptions options;
  options.threads = static_cast<unsigned>(state.range(2));
  const auto domain =
      copy::make_string_domain(2, static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), options);
  for (auto _ : state) {
    auto results = copy::check_string_claims(domain, copy::Alg1Variant::Corrected,
                                             {copy::NgramReading::Text, copy::NgramReading::Formula},
                                             {.alg1 = true, .lemma2_4 = true}, options);
    benchmark::DoNotOptimize(results);
  }
  state.counters["strings/s"] = benchmark::Counter(
      static_cast<double>(domain.size) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
// Args: n, L, threads. Wall-clock rates (UseRealTime), since the work is split across threads.
BENCHMARK(BM_StringClaims)->Args({3, 16, 1})->Args({3, 16, 2})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
