// Runs work(w) for w = 0..workers-1 on as many threads (w = 0 on the calling thread) and rethrows the first exception
// any of them threw, after all have finished. Each thread widens MPFR's exponent range first and each spawned thread
// frees its MPFR caches before it ends (core/thread_caches.hpp). The caller
// splits the work by w; results merged in w order are then the same for any thread count when the split is by
// contiguous ranges.
#pragma once

#include "core/thread_caches.hpp"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace tverify {

template <class Work>
void run_workers(unsigned workers, Work work) {
  workers = std::max(1u, workers);
  std::vector<std::exception_ptr> errors(workers);
  auto guarded = [&](unsigned w) {
    try {
      widen_exponent_range();
      work(w);
    } catch (...) { errors[w] = std::current_exception(); }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w)
    pool.emplace_back([&guarded, w] {
      guarded(w);
      release_thread_caches();
    });
  guarded(0);
  for (auto& t : pool) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace tverify
