// A caller's window on a running check: how many inputs the enumerations have visited out of how many, and a request
// to stop. The Python package polls it from the interpreter's thread (a tqdm bar, Ctrl-C); the CLI passes none.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>

namespace tverify {

struct RunMonitor {
  std::atomic<std::uint64_t> done{0};   // inputs visited, over every enumeration of the run
  std::atomic<std::uint64_t> total{0};  // inputs of the enumerations started so far
  std::atomic<bool> stop{false};        // set by the caller; the enumeration throws Interrupted at its next step
};

// A run stopped at its caller's request: no result, nothing written.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace tverify
