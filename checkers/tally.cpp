#include "checkers/tally.hpp"

namespace tverify {

void Tally::fill(ClaimResult& r) const {
  r.checked = checked;
  r.passed = passed;
  r.failed = failed;
  r.unknown = unknown;
  r.counterexamples = counterexamples;
  r.set_verdict_from_counts();
}

}  // namespace tverify
