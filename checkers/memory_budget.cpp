#include "checkers/memory_budget.hpp"

#include "io/errors.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cctype>
#include <fstream>

namespace tverify {

namespace {

constexpr const char* size_range = "a whole number of bytes or of K, M, G or T (1K = 1024 bytes), from 1M to 1024T";

std::uint64_t suffix_factor(char suffix) {
  switch (std::toupper(static_cast<unsigned char>(suffix))) {
    case 'K': return std::uint64_t{1} << 10;
    case 'M': return std::uint64_t{1} << 20;
    case 'G': return std::uint64_t{1} << 30;
    case 'T': return std::uint64_t{1} << 40;
    default: return 0;
  }
}

std::uint64_t physical_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

}  // namespace

std::uint64_t parse_memory_size(const std::string& text, const std::string& option) {
  const auto refuse = [&] {
    return UsageError(fmt::format("{} '{}' is no size: give {}", option, text.substr(0, 40), size_range));
  };
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 16 || text.size() > digits + 1) throw refuse();
  const std::uint64_t factor = digits == text.size() ? 1 : suffix_factor(text.back());
  if (factor == 0) throw refuse();
  const std::uint64_t count = std::stoull(text.substr(0, digits));
  if (count > max_max_memory / factor || count * factor < min_max_memory) throw refuse();
  return count * factor;
}

std::uint64_t default_max_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") return kib * 1024 / 2;
  }
  return physical_bytes() / 2;
}

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
}

std::string memory_text(std::uint64_t bytes) {
  constexpr const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} bytes", bytes) : fmt::format("{:.1f} {}", value, units[unit]);
}

MemoryBudget memory_budget(std::uint64_t max_memory, bool adjustable) {
  return {max_memory == 0 ? default_max_memory() : max_memory, max_memory == 0, adjustable};
}

void require_within_budget(const MemoryEstimate& estimate, const MemoryBudget& budget, const std::string& to_lower) {
  if (estimate.bytes <= budget.bytes) return;
  const std::string limit =
      budget.adjustable
          ? fmt::format("above --max-memory {}{}; raise --max-memory or {}", memory_text(budget.bytes),
                        budget.defaulted ? " (the default: half of the available memory)" : "", to_lower)
          : fmt::format("above {}, half of the available memory; {}", memory_text(budget.bytes), to_lower);
  throw UsageError(fmt::format("this run needs an estimated {} ({} bytes: {}), {}", memory_text(estimate.bytes),
                               estimate.bytes, estimate.parts, limit));
}

}  // namespace tverify
