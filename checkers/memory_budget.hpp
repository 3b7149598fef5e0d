// A run's memory budget (--max-memory): the sizes the option takes, its default (half of the memory the kernel
// says is available), the process's resident memory, and the refusal of a run whose estimate is above the budget.
// The budget only refuses or admits a run before it starts: nothing a run computes or records depends on it, so a
// certificate is the same on any machine.
#pragma once

#include <cstdint>
#include <string>

namespace tverify {

inline constexpr std::uint64_t min_max_memory = std::uint64_t{1} << 20;  // 1 MiB
inline constexpr std::uint64_t max_max_memory = std::uint64_t{1} << 50;  // 1 PiB

// A size as --max-memory takes it: a whole number of bytes, or of K, M, G or T (binary: 1K = 1024), in
// [1M, 1024T]; UsageError naming `option`, the text and the range otherwise.
std::uint64_t parse_memory_size(const std::string& text, const std::string& option);

// The default budget: half of /proc/meminfo's MemAvailable (half of physical memory when the kernel gives none).
std::uint64_t default_max_memory();

// The process's resident memory now (/proc/self/statm; 0 when it cannot be read).
std::uint64_t resident_bytes();

// "151.2 MiB": a size for messages.
std::string memory_text(std::uint64_t bytes);

// What a run is estimated to need at most, and of what (", "-separated parts, for the refusal's message).
struct MemoryEstimate {
  std::uint64_t bytes = 0;
  std::string parts;
};

// A run's budget, read once so that the estimate and the refusal compare with the same number: --max-memory, or the
// default.
struct MemoryBudget {
  std::uint64_t bytes = 0;
  bool defaulted = true;
  bool adjustable = true;  // the run takes --max-memory
};
// The budget of a run given `max_memory` (0: the default); `adjustable`: whether the run takes --max-memory.
MemoryBudget memory_budget(std::uint64_t max_memory, bool adjustable = true);

// UsageError, one line naming the estimate, its parts, the budget and what lowers the estimate, when the estimate
// is above the budget.
void require_within_budget(const MemoryEstimate& estimate, const MemoryBudget& budget, const std::string& to_lower);

}  // namespace tverify
