// The MPFR-bits evaluator of the copy construction (what `sweep copy --fast --min-bits` runs up to L = 10^5): one full
// generation of a repeat-free string at b bits by MpfrBitsCopy (the same tokens as FinitePrecisionCopy, the plain MPFR
// evaluator), corrected construction, one-hot, the proof's tau, at 3 bits: D = 16, n = 4 for L up to 2^16, and
// D = 18, n = 4 (D^n > 10^5, the sweep's configuration) for L = 10^5. Beside it, FinitePrecisionCopy itself where it
// finishes in reasonable time (L <= 256).
#include "constructions/copy/fast/mpfr_bits_copy.hpp"
#include "constructions/copy/strings.hpp"

#include <benchmark/benchmark.h>

#include <memory>
#include <stdexcept>

namespace {

using namespace tverify;

copy::CopyTransformer transformer(int alphabet, int length) {
  return copy::CopyTransformer(copy::CopyTransformerConfig{
      alphabet, 4, length, copy::EmbeddingKind::OneHot, copy::TransformerVariant::Corrected, {}});
}

// Arguments: L, D, threads (n = 4, 3 bits).
void BM_MpfrBitsCopy(benchmark::State& state) {
  const int length = static_cast<int>(state.range(0)), alphabet = static_cast<int>(state.range(1));
  const copy::CopyTransformer t = transformer(alphabet, length);
  const copy::fast::MpfrBitsCopy evaluator(t);
  const copy::TokenString x = copy::repeat_free_string(alphabet, 4, static_cast<std::size_t>(length), 1);
  copy::fast::BitsRun run;
  for (auto _ : state) run = evaluator.run(x, 3, static_cast<unsigned>(state.range(2)));
  if (run.refusal) state.SkipWithError(run.refusal->c_str());
  state.counters["copied"] = run.copied();
  state.counters["mpfr_steps"] = static_cast<double>(run.mpfr_steps);
}
BENCHMARK(BM_MpfrBitsCopy)
    ->ArgsProduct({{256, 4096, 16384, 65536}, {16}, {1, 2}})
    ->Args({100000, 18, 2})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);

void BM_FinitePrecisionCopy(benchmark::State& state) {
  const int length = static_cast<int>(state.range(0));
  const copy::CopyTransformer t = transformer(16, length);
  const copy::TokenString x = copy::repeat_free_string(16, 4, static_cast<std::size_t>(length), 1);
  bool copied = false;
  for (auto _ : state) {
    const copy::FinitePrecisionCopy reference(t, 3);  // a fresh memo each time
    copied = reference.copies(x);
  }
  state.counters["copied"] = copied;
}
BENCHMARK(BM_FinitePrecisionCopy)->Arg(64)->Arg(256)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
