// The fast exact path of the copy construction: one full autoregressive copy of a repeat-free string, D = 16, n = 4
// (corrected construction, one-hot, the proof's tau), every decision certified; L from 2^10 to 2^16 (scaling: the
// construction attends over all keys at each of L steps, so the exponent should be 2). And the exhaustive copy.thm2_3
// domain D = 2, n = 3, L = 16 (65,536 strings, each generated until its first wrong token, as the exact check does)
// through the fast path, on 1 and 2 threads.
#include "constructions/copy/strings.hpp"
#include "constructions/copy/fast/copy_fast.hpp"

#include <benchmark/benchmark.h>

#include <numeric>
#include <stdexcept>
#include <thread>

namespace {

using namespace tverify;

const copy::CopyTransformer& transformer_for(int alphabet, int n, int length) {
  static std::map<std::tuple<int, int, int>, std::unique_ptr<copy::CopyTransformer>> cache;
  auto& t = cache[{alphabet, n, length}];
  if (!t)
    t = std::make_unique<copy::CopyTransformer>(copy::CopyTransformerConfig{
        alphabet, n, length, copy::EmbeddingKind::OneHot, copy::TransformerVariant::Corrected, {}});
  return *t;
}

// One full certified copy: L, threads, n, and whether steps use the key index (1) or scan every key (0).
void BM_FullCopy(benchmark::State& state) {
  const int length = static_cast<int>(state.range(0));
  const unsigned threads = static_cast<unsigned>(state.range(1));
  const int n = static_cast<int>(state.range(2));
  const copy::fast::FastCopy fast(transformer_for(16, n, length), {.key_index = state.range(3) != 0});
  // Two strings taken in turn: a table keeps the positions a string shares with the previous one, and these share
  // almost none, so each iteration computes the whole copy.
  const copy::TokenString xs[2] = {copy::repeat_free_string(16, n, static_cast<std::size_t>(length), 1),
                                   copy::repeat_free_string(16, n, static_cast<std::size_t>(length), 2)};
  copy::fast::FastStats stats;
  std::size_t turn = 0;
  for (auto _ : state) {
    const copy::TokenString& x = xs[turn++ % 2];
    const copy::fast::FastCopyRun r = fast.copy_string(x, threads, false);
    if (!r.run.copied) throw std::runtime_error("bench: the repeat-free string was not copied: " + r.run.failure());
    stats = r.stats;
  }
  state.counters["L"] = length;
  state.counters["steps_by_index"] = static_cast<double>(stats.by_index);
  state.counters["steps_scanned"] = static_cast<double>(stats.steps - stats.by_index);
  state.counters["steps_by_bound"] = static_cast<double>(stats.by_bound);
  state.counters["steps_by_levels"] = static_cast<double>(stats.by_levels);
  state.counters["steps_by_exact"] = static_cast<double>(stats.by_exact);
}
// Scanning every key (the construction attends over all of them): D = 16, n = 4, L = 2^10..2^16.
BENCHMARK(BM_FullCopy)
    ->ArgsProduct({{1024, 2048, 4096, 8192, 16384, 32768, 65536}, {1, 2}, {4}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
// D = 16, n = 4, L = 4096, scanning and with the key index, several copies each.
BENCHMARK(BM_FullCopy)
    ->ArgsProduct({{4096}, {2}, {4}, {0, 1}})
    ->Name("BM_FullCopyPaired")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(20);
// With the key index: D = 16, n = 4 at L = 4096 (one copy, as the scans above), and n = 5 at L = 2^12..2^20.
BENCHMARK(BM_FullCopy)
    ->Args({4096, 2, 4, 1})
    ->ArgsProduct({{4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576}, {2}, {5}, {1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

void BM_ExhaustiveThm23(benchmark::State& state) {
  const copy::fast::FastCopy fast(transformer_for(2, 3, 16));
  const auto threads = static_cast<std::uint64_t>(state.range(0));
  std::uint64_t copied = 0;
  copy::fast::FastStats stats;
  for (auto _ : state) {
    std::vector<std::uint64_t> per(threads, 0);
    std::vector<copy::fast::FastStats> per_stats(threads);
    std::vector<std::thread> pool;
    for (std::uint64_t t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        std::uint64_t mine = 0;  // locals: no false sharing of per[]
        copy::fast::FastStats my_stats;
        copy::TokenString x;  // one string and one result, reused string after string as an exhaustive check does
        copy::fast::FastCopyRun r;
        for (std::uint64_t i = (1u << 16) * t / threads; i < (1u << 16) * (t + 1) / threads; ++i) {
          copy::string_at(i, 2, 16, x);
          fast.copy_string(x, r, 1, false);
          mine += r.run.copied;
          my_stats.merge(r.stats);
        }
        per[t] = mine;
        per_stats[t] = my_stats;
      });
    for (auto& p : pool) p.join();
    copied = std::accumulate(per.begin(), per.end(), std::uint64_t{0});
    stats = {};
    for (const auto& s : per_stats) stats.merge(s);
  }
  state.counters["steps"] = static_cast<double>(stats.steps);
  state.counters["by_bound"] = static_cast<double>(stats.by_bound);
  state.counters["by_levels"] = static_cast<double>(stats.by_levels);
  state.counters["strings/s"] =
      benchmark::Counter(65536.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["copied"] = static_cast<double>(copied);
}
BENCHMARK(BM_ExhaustiveThm23)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
