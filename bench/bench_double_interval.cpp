// Cost of the double-interval rung's transcendental enclosures (core/double_interval.hpp): MPFR's erf rounded to
// nearest at 53 bits against 24 bits (the precision the rung uses for erf), and exp, on arguments that do not repeat
// (no cache hits), as GELU's hidden units give them.
#include "core/double_interval.hpp"

#include <benchmark/benchmark.h>

namespace {

using tverify::double_rounding::mpfr_enclosure;

// Arguments spread over [-4, 4), one per call.
double argument(std::int64_t i) { return -4.0 + 8.0 * static_cast<double>(i % 100003) / 100003.0; }

template <tverify::double_rounding::MpfrFunction F, mpfr_prec_t Bits>
void BM_Enclosure(benchmark::State& state) {
  std::int64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(mpfr_enclosure<F, Bits>(argument(i++)));
}
BENCHMARK(BM_Enclosure<mpfr_erf, 53>)->Name("erf/53bits");
BENCHMARK(BM_Enclosure<mpfr_erf, 24>)->Name("erf/24bits");
BENCHMARK(BM_Enclosure<mpfr_exp, 53>)->Name("exp/53bits");

}  // namespace

BENCHMARK_MAIN();
