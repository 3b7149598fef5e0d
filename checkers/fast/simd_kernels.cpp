#include "checkers/fast/simd_kernels.hpp"

#include <limits>

namespace tverify::fast {

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
  for (std::size_t j = 0; j < count; ++j) {
    c += values[j] == top;
    const std::int32_t below = values[j] < top ? values[j] : std::numeric_limits<std::int32_t>::min();
    second = below > second ? below : second;
  }
  top_count = c;
  runner_up = second;
}

bool cpu_has_avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace tverify::fast
