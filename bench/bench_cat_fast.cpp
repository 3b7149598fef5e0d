// The CAT fast path: one probe of the worst-case NAR family (every b^p g t b^r g of length L, V = 4, N = 2,
// key_delay_full, geometric filter, c = 12, at which no instance fails up to L = 2^20 (see `tverify sweep cat --fast`),
// so every one of the 3 * 4^4 = 768 instances is checked for validity and decoded at its last position), by the fast
// path (keys grouped by window) for L from 2^10 to 2^20, and by the exact evaluator (every instance materialised) for L
// from 2^6 to 2^10, in the same run.
#include "checkers/cat/cat_construction.hpp"
#include "checkers/registry.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace tverify;

const cat::CatSetup& setup() {
  static const cat::CatSetup s = cat::make_setup(
      ParamValues::parse(find_construction("cat").params(), {{"V", "4"}, {"N", "2"}, {"L", "64"}, {"c", "12"}}),
      "key_delay_full");
  return s;
}

void BM_FamilyProbeFast(benchmark::State& state) {
  const auto length = static_cast<std::uint64_t>(state.range(0));
  bool failed = false;
  for (auto _ : state) failed = cat::worst_case_failure_fast(setup().config, 4, 2, length).has_value();
  state.counters["L"] = static_cast<double>(length);
  state.counters["fails"] = failed;
}
BENCHMARK(BM_FamilyProbeFast)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 20)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_FamilyProbeExact(benchmark::State& state) {
  const int length = static_cast<int>(state.range(0));
  const cat::CatLayer layer(setup().config);
  bool failed = false;
  for (auto _ : state) failed = cat::worst_case_failure(layer, 4, 2, length).has_value();
  state.counters["L"] = length;
  state.counters["fails"] = failed;
}
BENCHMARK(BM_FamilyProbeExact)
    ->RangeMultiplier(4)
    ->Range(1 << 6, 1 << 10)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
