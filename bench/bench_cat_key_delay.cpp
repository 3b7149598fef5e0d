// Throughput of the exhaustive cat.thm1.key_delay check: V = 3, N = 2, every sequence of length 3..10 (88,560
// sequences), the valid NAR instances among them decoded by the CAT layer (exact convolutions and inner products,
// interval softmax and certified nearest-neighbour decoding).
#include "checkers/cat/cat_construction.hpp"
#include "checkers/registry.hpp"

#include <benchmark/benchmark.h>

namespace {

void BM_KeyDelayExhaustive(benchmark::State& state) {
  using namespace tverify;
  RunOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  const auto& construction = find_construction("cat");
  const ParamValues params = ParamValues::parse(construction.params(), {{"V", "3"}, {"N", "2"}, {"L", "10"}});
  const cat::CatSetup setup = cat::make_setup(params, "key_delay");
  std::uint64_t instances = 0;
  for (auto _ : state) {
    const ClaimResult r = cat::check_recall(cat::cat_claim_specs().thm1_key_delay, setup, options);
    instances = r.details["valid_instances"].get<std::uint64_t>();
    benchmark::DoNotOptimize(r);
  }
  state.counters["instances/s"] = benchmark::Counter(
      static_cast<double>(instances) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["valid_instances"] = static_cast<double>(instances);
}
BENCHMARK(BM_KeyDelayExhaustive)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
