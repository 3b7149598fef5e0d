// The exhaustive exact check of copy.thm2_3 for D = 2, n = 3, L = 16 (65,536 strings), layer 1 and scores exact, every
// generation step's argmax certified in interval arithmetic. Target: >= 10,000 strings/s on 2 cores. Each iteration
// builds a fresh transformer, so the per-window memo starts cold.
#include "checkers/copy/transformer_claims.hpp"

#include <benchmark/benchmark.h>

namespace {

void BM_Thm2_3Exhaustive(benchmark::State& state) {
  using namespace tverify;
  using namespace tverify::copy;
  RunOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  const auto domain = make_string_domain(2, 3, 16, options);
  const CopyTransformerConfig config{2, 3, 16, EmbeddingKind::OneHot, TransformerVariant::Corrected, std::nullopt};
  for (auto _ : state) {
    auto results =
        check_transformer_claims(domain, config, {NgramReading::Text}, {false, false, false, true, false}, options);
    benchmark::DoNotOptimize(results);
  }
  state.counters["strings/s"] = benchmark::Counter(
      static_cast<double>(domain.size) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Thm2_3Exhaustive)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
