#include "io/progress.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace tverify {

bool ProgressBar::wanted() { return isatty(STDERR_FILENO) && std::getenv("CI") == nullptr; }

ProgressBar::ProgressBar(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), start_(std::chrono::steady_clock::now()), enabled_(enabled) {
  if (!enabled_) return;
  painter_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; })) draw(false);
  });
}

ProgressBar::~ProgressBar() {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  painter_.join();
  draw(true);
}

void ProgressBar::draw(bool final) {
  if (final) {  // the finished run's own output replaces the bar
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
    return;
  }
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  const double fraction = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1;
  const int width = 30;
  const int filled = static_cast<int>(fraction * width);
  const double left = rate > 0 ? static_cast<double>(total_ - done) / rate : 0;
  fmt::print(stderr, "\r{} [{:=<{}}{:<{}}] {}/{} {:.0f}/s, {:.0f}s left ", label_, "", filled, "", width - filled, done,
             total_, rate, left);
  std::fflush(stderr);
}

}  // namespace tverify
