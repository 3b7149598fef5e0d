// Confidence intervals of sampled rates: measurements in floating point, reported beside exact counts, never a
// verdict.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace tverify {

// Wilson score interval at 95% for k successes in m > 0 trials. Its lower end is exactly 0 at k = 0 and its upper end
// exactly 1 at k = m (centre and half-width are then equal), which doubles would miss by a rounding.
inline std::pair<double, double> wilson(std::uint64_t k, std::uint64_t m) {
  const double z = 1.959963984540054, n = static_cast<double>(m), p = static_cast<double>(k) / n;
  const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  return {k == 0 ? 0.0 : std::max(0.0, centre - half), k == m ? 1.0 : std::min(1.0, centre + half)};
}

}  // namespace tverify
