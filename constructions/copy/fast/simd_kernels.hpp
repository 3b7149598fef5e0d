// The hot loops of the fast path, compiled twice (AVX2 and portable) and chosen at run time by the CPU (GCC function
// multi-versioning, target_clones): the same integer results either way.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tverify::copy::fast {

// Scores are 32-bit: IntegerLayer1 refuses weights whose score bound reaches 2^31, so nothing here overflows.
// scores[j] += weight * column[j] for j < count.
void add_scaled_column(std::int32_t* scores, const std::int32_t* column, std::int32_t weight, std::size_t count);

// The top score level of count >= 1 values: the largest value, how many equal it, the index of its first occurrence,
// and the largest value below it (INT32_MIN when none).
struct TopLevel {
  std::int32_t top = 0, runner_up = 0;
  std::size_t count = 0, first = 0;
};
TopLevel top_level(const std::int32_t* values, std::size_t count);
// The largest value.
std::int32_t max_of(const std::int32_t* values, std::size_t count);
// How many equal `top`, and the largest value below `top` (INT32_MIN when none).
void top_count_and_runner_up(const std::int32_t* values, std::size_t count, std::int32_t top, std::size_t& top_count,
                             std::int32_t& runner_up);

}  // namespace tverify::copy::fast
