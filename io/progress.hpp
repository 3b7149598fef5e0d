// A progress line on stderr for long enumerations: count, rate and time left. Shown when enabled (the CLI enables it
// when stderr is a terminal and CI is not set, or with --progress); otherwise the object does nothing.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace tverify {

class ProgressBar {
 public:
  ProgressBar(std::string label, std::uint64_t total, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void advance(std::uint64_t done) { done_.fetch_add(done, std::memory_order_relaxed); }

  // Whether a progress bar should be shown: stderr is a terminal and the CI variable is unset.
  static bool wanted();

 private:
  void draw(bool final);

  std::string label_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  std::chrono::steady_clock::time_point start_;
  bool enabled_;
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread painter_;
};

}  // namespace tverify
