// Every sequence of length min..max over the integer values lo..hi (shorter first, then lexicographic, x_1 most
// significant), by index, for the threaded enumeration engine.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/tally.hpp"
#include "checkers/verdict.hpp"
#include "core/exact.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tverify {

using Sequence = std::vector<long long>;

struct SequenceDomain {
  int min_length = 1, max_length = 1;
  long long lo = 0, hi = 0;
  std::uint64_t size = 0;                  // sum over m of (hi - lo + 1)^m
  std::vector<std::uint64_t> first_index;  // first_index[m - min_length]: index of the first sequence of length m

  Sequence at(std::uint64_t index) const;
  std::string describe() const;
};

// Throws UsageError when the domain exceeds the run budget (or 2^63 sequences) and --force was not given.
SequenceDomain make_sequence_domain(int max_length, long long lo, long long hi, const RunOptions& options,
                                    int min_length = 1);

}  // namespace tverify
