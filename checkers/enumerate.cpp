#include "checkers/enumerate.hpp"

namespace tverify {

void check_budget(std::uint64_t count, const RunOptions& options, const std::string& what) {
  if (count > options.max_inputs && !options.force)
    throw UsageError(what + " has " + std::to_string(count) + " inputs, above --max-inputs " +
                     std::to_string(options.max_inputs) + "; raise --max-inputs or pass --force");
}

}  // namespace tverify
