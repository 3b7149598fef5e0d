#include "checkers/sequence_domain.hpp"

#include <fmt/format.h>

#include <limits>

namespace tverify {

SequenceDomain make_sequence_domain(int max_length, long long lo, long long hi, const RunOptions& options,
                                    int min_length) {
  SequenceDomain d;
  d.min_length = min_length;
  d.max_length = max_length;
  d.lo = lo;
  d.hi = hi;
  const BigInt values = BigInt(hi) - lo + 1;
  BigInt total = 0, power = 1;
  for (int m = 1; m <= max_length; ++m) {
    power *= values;
    if (m < min_length) continue;
    d.first_index.push_back(static_cast<std::uint64_t>(total));
    total += power;
    if (total > BigInt(std::numeric_limits<std::int64_t>::max()))
      throw UsageError(
          fmt::format("sequences of length {}..{} over the values {}..{} number more than 2^63, above "
                      "--max-inputs {}; lower the length or the number of values",
                      min_length, max_length, lo, hi, options.max_inputs));
  }
  d.size = static_cast<std::uint64_t>(total);
  check_budget(d.size, options, fmt::format("sequences of length {}..{} over {}..{}", min_length, max_length, lo, hi));
  return d;
}

Sequence SequenceDomain::at(std::uint64_t index) const {
  int m = max_length;
  while (m > min_length && first_index[static_cast<std::size_t>(m - min_length)] > index) --m;
  std::uint64_t rest = index - first_index[static_cast<std::size_t>(m - min_length)];
  const auto values = static_cast<std::uint64_t>(hi - lo + 1);
  Sequence x(static_cast<std::size_t>(m));
  for (int i = m - 1; i >= 0; --i) {
    x[static_cast<std::size_t>(i)] = lo + static_cast<long long>(rest % values);
    rest /= values;
  }
  return x;
}

std::string SequenceDomain::describe() const {
  return fmt::format(
      "every sequence of length {}..{} over the values {}..{} ({} sequences; shorter first, then "
      "lexicographic)",
      min_length, max_length, lo, hi, size);
}

}  // namespace tverify
