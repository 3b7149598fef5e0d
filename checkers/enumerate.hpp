// The enumeration engine: every input index of a domain in a fixed order, cut into a fixed grid of contiguous chunks
// that depends on the domain's size only (never on the thread count). Threads take chunks from a shared counter; each
// chunk fills its own accumulator, visiting its indices in order, and the accumulators are merged in chunk order. So
// the result is the same for any thread count, even when merging is not associative (interval sums) or keeps the
// first witnesses met. `visit` may write only to the accumulator it is given. Before a run, check_budget refuses
// domains above --max-inputs unless --force was given. A RunMonitor in the options sees the count of visited inputs
// and can stop the run after any input (Interrupted). Under MPI (checkers/cluster.hpp) the chunks are handed out to
// every rank's threads as they ask (rank 0 dispenses), and each rank's accumulators and errors, encoded exactly
// (checkers/wire.hpp), reach rank 0, which merges all of them in chunk order and sends every rank the result: the
// same result as one process's. With a checkpoint in the options (checkers/enumeration_checkpoint.hpp), the chunks
// it restores are not visited again, and each chunk that finishes is added to it.
#pragma once

#include "checkers/cluster.hpp"
#include "checkers/enumeration_checkpoint.hpp"
#include "io/errors.hpp"
#include "io/progress.hpp"
#include "checkers/rank_merge.hpp"
#include "checkers/run_monitor.hpp"
#include "core/thread_caches.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tverify {

struct RunOptions {
  unsigned threads = 1;
  std::uint64_t max_inputs = 10'000'000;
  bool force = false;
  bool progress = false;
  std::size_t max_counterexamples = 10;
  std::uint64_t max_memory = 0;                 // --max-memory in bytes; 0: the default (checkers/memory_budget.hpp)
  RunMonitor* monitor = nullptr;                // optional: progress counts and a stop request (the Python package)
  EnumerationCheckpoint* checkpoint = nullptr;  // optional: check --checkpoint
};

// Throws UsageError when `count` inputs exceed the budget and --force was not given.
void check_budget(std::uint64_t count, const RunOptions& options, const std::string& what);

// The number of chunks of a domain of `count` inputs: a function of `count` alone. 256 (or one per input, and one for
// an empty domain), and more for large domains, chunks of about 4,096 inputs up to 65,536 chunks, so that the many
// ranks of a cluster share them.
inline std::uint64_t chunk_count(std::uint64_t count) {
  const std::uint64_t grid = std::clamp<std::uint64_t>(count / 4096, 256, 65536);
  return std::max<std::uint64_t>(1, std::min(count, grid));
}

// The first index of chunk c of `chunks` (c = chunks: count): the first count % chunks chunks hold one index more.
// No product of count and c is formed, so domains up to 2^64 do not overflow.
inline std::uint64_t chunk_begin(std::uint64_t count, std::uint64_t chunks, std::uint64_t c) {
  return c * (count / chunks) + std::min(c, count % chunks);
}

// One input visited under a monitor: counted, and the run stopped if the caller asked.
inline void observed(RunMonitor& monitor) {
  monitor.done.fetch_add(1, std::memory_order_relaxed);
  if (monitor.stop.load(std::memory_order_relaxed)) throw Interrupted{};
}

// The chunks of enumeration `e` that the checkpoint restores, as accumulators in `partial`, marked in `restored`;
// returns the chunks left to visit, in order. UsageError naming the checkpoint when an accumulator is not an Acc.
template <class Acc>
std::vector<std::uint64_t> restore_chunks(const EnumerationCheckpoint& checkpoint, std::size_t e,
                                          std::vector<Acc>& partial, std::vector<char>& restored) {
  for (const auto& [c, saved] : checkpoint.restored(e)) {
    try {
      partial[c] = saved.template get<Acc>();
    } catch (const std::exception&) {
      throw UsageError("--resume: " + checkpoint.what() + ": the accumulator of chunk " + std::to_string(c) +
                       " of enumeration " + std::to_string(e + 1) + " is not one this run writes");
    }
    restored[c] = 1;
  }
  std::vector<std::uint64_t> left;
  for (std::uint64_t c = 0; c < partial.size(); ++c)
    if (!restored[c]) left.push_back(c);
  return left;
}

// visit(index, accumulator) for every index in [0, count); merge(into, from) joins the accumulator of the next chunk.
// Acc converts to and from Json (checkers/wire.hpp) for the ranks of a cluster and for checkpoints.
template <class Acc, class Visit, class Merge>
Acc enumerate_indices(std::uint64_t count, const RunOptions& options, const std::string& label, Visit visit,
                      Merge merge) {
  const std::uint64_t chunks = chunk_count(count);
  std::vector<Acc> partial(chunks);
  std::vector<std::exception_ptr> errors(chunks);
  std::vector<char> ran(chunks, 0), restored(chunks, 0);
  EnumerationCheckpoint* const checkpoint = options.checkpoint;
  const std::optional<std::size_t> saved = checkpoint ? checkpoint->begin(label, count, chunks) : std::nullopt;
  std::vector<std::uint64_t> left;
  if (saved) {
    left = restore_chunks(*checkpoint, *saved, partial, restored);
  } else {
    for (std::uint64_t c = 0; c < chunks; ++c) left.push_back(c);
  }
  ProgressBar progress(label, count, options.progress);
  if (options.monitor) options.monitor->total += count;
  std::uint64_t restored_inputs = 0;
  for (std::uint64_t c = 0; c < chunks; ++c)
    if (restored[c]) restored_inputs += chunk_begin(count, chunks, c + 1) - chunk_begin(count, chunks, c);
  progress.advance(restored_inputs);
  if (options.monitor) options.monitor->done += restored_inputs;
  Cluster* const cluster = active_cluster();
  // Under MPI a finished chunk's accumulator goes to rank 0 with the rank's next request (and every one at the end,
  // with the merge); alone it is added here. An error writing the checkpoint on rank 0 ends the enumeration with it,
  // once every rank has stopped taking chunks.
  ResultSink to_checkpoint;
  std::exception_ptr checkpoint_failed;
  if (saved && cluster)
    to_checkpoint = [&](const std::string& result) {
      if (checkpoint_failed) return;
      try {
        const Json entry = Json::from_cbor(result);
        checkpoint->finished(*saved, entry.at(0).get<std::uint64_t>(), entry.at(1));
      } catch (...) { checkpoint_failed = std::current_exception(); }
    };
  std::unique_ptr<ItemDispenser> shared = cluster ? cluster->dispense(left.size(), &progress, to_checkpoint) : nullptr;
  std::atomic<std::uint64_t> next{0};
  auto take = [&](FinishedItem finished) { return shared ? shared->take(std::move(finished)) : next++; };
  auto work = [&] {
    FinishedItem finished;
    for (std::uint64_t item = take({}); item < left.size(); item = take(std::move(finished))) {
      const std::uint64_t c = left[item];
      const std::uint64_t lo = chunk_begin(count, chunks, c), hi = chunk_begin(count, chunks, c + 1);
      ran[c] = 1;
      finished = {hi - lo, {}};
      try {
        constexpr std::uint64_t step = 1024;
        for (std::uint64_t start = lo; start < hi; start += step) {
          const std::uint64_t end = std::min(hi, start + step);
          for (std::uint64_t i = start; i < end; ++i) {
            visit(i, partial[c]);
            if (options.monitor) observed(*options.monitor);
          }
          progress.advance(end - start);
        }
        if (saved && cluster)
          finished.result = cbor_bytes(Json::array({c, partial[c]}));
        else if (saved)
          checkpoint->finished(*saved, c, partial[c]);
      } catch (...) { errors[c] = std::current_exception(); }
    }
  };
  const std::uint64_t threads = std::max<std::uint64_t>(1, std::min<std::uint64_t>(options.threads, chunks));
  std::vector<std::thread> workers;
  for (std::uint64_t t = 1; t < threads; ++t)
    workers.emplace_back([&work] {
      widen_exponent_range();
      work();
      release_thread_caches();
    });
  widen_exponent_range();
  work();
  for (auto& w : workers) w.join();
  shared.reset();  // under MPI: every rank has stopped taking chunks
  if (cluster) {
    std::optional<Acc> merged;
    std::exception_ptr failed = checkpoint_failed;
    try {
      merged = merged_across_ranks(*cluster, ran, partial, errors, merge, [&](std::uint64_t c, const Acc& acc) {
        if (!saved || failed) return;
        try {
          checkpoint->finished(*saved, c, acc);
        } catch (...) { failed = std::current_exception(); }
      });
    } catch (...) { failed = failed ? failed : std::current_exception(); }
    if (saved) checkpoint->end();
    if (failed) std::rethrow_exception(failed);
    return std::move(*merged);
  }
  if (saved) checkpoint->end();
  for (auto& e : errors)  // the smallest failing chunk's error, whatever the thread count
    if (e) std::rethrow_exception(e);
  Acc result = std::move(partial[0]);
  for (std::uint64_t c = 1; c < chunks; ++c) merge(result, std::move(partial[c]));
  return result;
}

// Appends `from` to `into`, keeping the first `limit` (the smallest, as ranges are merged in order).
template <class T>
void append_limited(std::vector<T>& into, std::vector<T>&& from, std::size_t limit) {
  for (auto& x : from) {
    if (into.size() >= limit) break;
    into.push_back(std::move(x));
  }
}

}  // namespace tverify
