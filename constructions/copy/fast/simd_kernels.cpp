#include "constructions/copy/fast/simd_kernels.hpp"

#include <algorithm>
#include <limits>

namespace tverify::copy::fast {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define TVERIFY_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TVERIFY_CLONES
#endif

TVERIFY_CLONES
void add_scaled_column(std::int32_t* scores, const std::int32_t* column, std::int32_t weight, std::size_t count) {
  for (std::size_t j = 0; j < count; ++j) scores[j] += weight * column[j];
}

TVERIFY_CLONES
std::int32_t max_of(const std::int32_t* values, std::size_t count) {
  std::int32_t top = std::numeric_limits<std::int32_t>::min();
  for (std::size_t j = 0; j < count; ++j) top = values[j] > top ? values[j] : top;
  return top;
}

TVERIFY_CLONES
void top_count_and_runner_up(const std::int32_t* values, std::size_t count, std::int32_t top, std::size_t& top_count,
                             std::int32_t& runner_up) {
  std::size_t c = 0;
  std::int32_t second = std::numeric_limits<std::int32_t>::min();
  constexpr std::size_t chunk = std::size_t{1} << 30;  // a 32-bit count per chunk vectorizes with the 32-bit values
  for (std::size_t start = 0; start < count; start += chunk) {
    const std::size_t end = count - start < chunk ? count : start + chunk;
    std::uint32_t in_chunk = 0;
    for (std::size_t j = start; j < end; ++j) {
      const std::int32_t v = values[j];
      in_chunk += v == top;
      // v when v < top, else INT32_MIN, as a bit mask: GCC 12 vectorizes this max reduction, not the ?: form.
      const std::int32_t below = -static_cast<std::int32_t>(v < top);
      second = std::max(second, (v & below) | (std::numeric_limits<std::int32_t>::min() & ~below));
    }
    c += in_chunk;
  }
  top_count = c;
  runner_up = second;
}

TopLevel top_level(const std::int32_t* values, std::size_t count) {
  TopLevel level;
  level.top = max_of(values, count);
  top_count_and_runner_up(values, count, level.top, level.count, level.runner_up);
  level.first = static_cast<std::size_t>(std::find(values, values + count, level.top) - values);
  return level;
}

}  // namespace tverify::copy::fast
