// The enumeration engine (GUIDE.md §6): every input index of a domain in a fixed order, split across threads by
// contiguous ranges. Each range fills its own accumulator and the accumulators are merged in range order, so the
// result does not depend on the thread count. Before a run, check_budget refuses domains above --max-inputs unless
// --force was given.
#pragma once

#include "checkers/errors.hpp"
#include "checkers/progress.hpp"
#include "core/thread_caches.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
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
};

// Throws UsageError when `count` inputs exceed the budget and --force was not given.
void check_budget(std::uint64_t count, const RunOptions& options, const std::string& what);

// visit(index, accumulator) for every index in [0, count); merge(into, from) joins the accumulator of the next range.
template <class Acc, class Visit, class Merge>
Acc enumerate_indices(std::uint64_t count, const RunOptions& options, const std::string& label, Visit visit,
                      Merge merge) {
  const std::uint64_t parts = std::max<std::uint64_t>(1, std::min<std::uint64_t>(options.threads, count));
  std::vector<Acc> partial(parts);
  std::vector<std::exception_ptr> errors(parts);
  ProgressBar progress(label, count, options.progress);
  auto work = [&](std::uint64_t part) {
    const std::uint64_t lo = count * part / parts, hi = count * (part + 1) / parts;
    try {
      constexpr std::uint64_t chunk = 1024;
      for (std::uint64_t start = lo; start < hi; start += chunk) {
        const std::uint64_t end = std::min(hi, start + chunk);
        for (std::uint64_t i = start; i < end; ++i) visit(i, partial[part]);
        progress.advance(end - start);
      }
    } catch (...) {
      errors[part] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (std::uint64_t part = 1; part < parts; ++part)
    workers.emplace_back([&work, part] {
      work(part);
      release_thread_caches();
    });
  work(0);
  for (auto& w : workers) w.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  Acc result = std::move(partial[0]);
  for (std::uint64_t part = 1; part < parts; ++part) merge(result, std::move(partial[part]));
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
