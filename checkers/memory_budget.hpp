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

// UsageError, one line naming the estimate, its parts, the budget and what lowers the estimate, when the estimate
// is above `max_memory` (0: default_max_memory()).
void require_within_budget(const MemoryEstimate& estimate, std::uint64_t max_memory, const std::string& to_lower);

}  // namespace tverify
