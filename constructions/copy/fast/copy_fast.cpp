// The fast copy path's driver: one FastCopy per transformer, its per-thread states, and the autoregressive copy of a
// string, step by step or in parallel blocks of steps (the stages that decide a step are in copy_stages.cpp).
#include "constructions/copy/fast/copy_table.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <exception>
#include <memory>
#include <thread>

namespace tverify::copy::fast {

using copy::CopyStep;

namespace {

std::uint64_t next_instance_id() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

// The threads a copy of `steps` steps runs on: at most `threads`, and at most one per `steps_per_thread` steps.
unsigned thread_count(std::size_t steps, unsigned threads, std::size_t steps_per_thread) {
  const std::size_t by_work = steps / std::max<std::size_t>(steps_per_thread, 1);
  return static_cast<unsigned>(std::clamp<std::size_t>(by_work, 1, std::max(threads, 1u)));
}

}  // namespace

FastCopy::FastCopy(const copy::CopyTransformer& transformer, FastCopyOptions options)
    : transformer_(transformer),
      layer1_(transformer),
      options_(options),
      interior_(options.key_index ? InteriorKeys::make(layer1_, transformer.config().alphabet) : std::nullopt),
      instance_(next_instance_id()) {}

// Each thread's states, by FastCopy instance. A worker thread's states end with it; the thread that destroys a
// FastCopy drops its own state then (~FastCopy), so a long-lived thread does not keep the table of every FastCopy it
// ever ran (at L = 10^6 a table takes gigabytes).
std::unordered_map<std::uint64_t, FastCopy::ThreadState>& FastCopy::thread_states() {
  thread_local std::unordered_map<std::uint64_t, ThreadState> states;
  return states;
}

FastCopy::~FastCopy() { thread_states().erase(instance_); }

// The calling thread's state for this FastCopy: its window cache (when windows are few) and its scratch space, whose
// weight-bound caches then serve every string the thread evaluates.
FastCopy::ThreadState& FastCopy::thread_state() const {
  auto& states = thread_states();
  auto found = states.find(instance_);
  if (found == states.end()) {
    found =
        states.emplace(instance_, ThreadState{WindowCache::make(layer1_, transformer_.config().n), {}, nullptr}).first;
    found->second.scratch.top_sum.resize(row_stride(layer1_.tokens()));
  }
  return found->second;
}

FastCopyRun FastCopy::copy_string(const TokenString& x, unsigned threads, bool keep_steps) const {
  FastCopyRun out;
  copy_string(x, out, threads, keep_steps);
  return out;
}

void FastCopy::copy_string(const TokenString& x, FastCopyRun& out, unsigned threads, bool keep_steps) const {
  ThreadState& state = thread_state();
  if (!state.table) state.table = std::make_unique<Table>(*this, state.rows ? &*state.rows : nullptr);
  Table& table = *state.table;
  table.reset(x);
  const std::size_t prompt = x.size() + 2;
  out.run.clear();
  out.stats = {};
  out.run.output.reserve(x.size());
  auto record = [&](CopyStep& step, std::size_t k) {
    step.target = x[k];
    return copy::record_step(out.run, step, k, keep_steps);
  };
  threads = thread_count(x.size(), threads, interior_ ? options_.steps_per_thread : options_.steps_per_thread / 8);
  if (threads == 1) {  // sequential: nothing is computed past the first failure
    for (std::size_t k = 0; k < x.size(); ++k) {
      table.extend_to(prompt - 1 + k);
      CopyStep step = decide(table, prompt - 1 + k, state.scratch, out.stats);
      if (!record(step, k)) return;
    }
    out.run.copied = true;
    return;
  }
  table.share(threads);  // the workers read the table concurrently
  // Blocks of steps in parallel, on the same workers from block to block (their scratch, weight-bound caches and
  // memory stay warm): every worker decides its steps of a block, then, once all have arrived, record_block records
  // the block in order; the earliest failure ends the run. A block gives each worker 64 steps when steps scan their
  // keys and 512 when the index stage decides most of them (each step then costs about a fiftieth as much, and the
  // synchronisation per block would take a visible share of the time).
  struct alignas(64) WorkerStats {  // a cache line each: workers count their steps without sharing lines
    FastStats stats;
  };
  std::vector<WorkerStats> stats(threads);
  const std::size_t block = (interior_ ? 512 : 64) * static_cast<std::size_t>(threads);
  std::vector<CopyStep> steps(std::min(block, x.size()));
  std::size_t start = 0;  // of the block being decided; written by record_block only
  bool done = x.empty(), copied = true;
  std::atomic<bool> aborted{false};  // a worker threw: it rethrows after the last block
  std::exception_ptr record_error;
  auto record_block = [&]() noexcept {
    const std::size_t end = std::min(x.size(), start + block);
    try {
      for (std::size_t k = start; k < end && !aborted; ++k)
        if (!record(steps[k - start], k)) {
          copied = false;
          break;
        }
    } catch (...) { record_error = std::current_exception(); }
    start = end;
    done = !copied || aborted || record_error || start == x.size();
  };
  std::barrier sync(static_cast<std::ptrdiff_t>(threads), record_block);
  run_workers(threads, [&](unsigned w) {
    Scratch& scratch = w == 0 ? state.scratch : thread_state().scratch;
    std::exception_ptr error;
    while (!done) {
      const std::size_t end = std::min(x.size(), start + block);
      try {
        for (std::size_t k = start + w; k < end && !error; k += threads)
          steps[k - start] = decide(table, prompt - 1 + k, scratch, stats[w].stats);
      } catch (...) {
        error = std::current_exception();
        aborted = true;
      }
      sync.arrive_and_wait();
    }
    if (error) std::rethrow_exception(error);
  });
  if (record_error) std::rethrow_exception(record_error);
  for (const auto& s : stats) out.stats.merge(s.stats);
  out.run.copied = copied;
}

}  // namespace tverify::copy::fast
