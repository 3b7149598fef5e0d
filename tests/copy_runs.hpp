// Comparing two runs of the copy transformer step by step (the differential tests of the fast copy path).
#pragma once

#include "constructions/copy/transformer.hpp"

#include <catch2/catch.hpp>

#include <set>

namespace tverify::testing {

inline std::set<copy::Token> tied_set(const copy::CopyStep& s) { return {s.tied.begin(), s.tied.end()}; }

// Whether the two runs took the same decision at every step and end alike (no test assertion).
inline bool same_run(const copy::CopyRun& a, const copy::CopyRun& b) {
  if (a.steps.size() != b.steps.size()) return false;
  for (std::size_t k = 0; k < a.steps.size(); ++k)
    if (a.steps[k].margin != b.steps[k].margin || a.steps[k].output != b.steps[k].output ||
        tied_set(a.steps[k]) != tied_set(b.steps[k]))
      return false;
  return a.copied == b.copied && a.decided == b.decided && a.failure() == b.failure() && a.output == b.output;
}

inline void expect_same_run(const copy::CopyRun& exact, const copy::CopyRun& fast) {
  REQUIRE(exact.steps.size() == fast.steps.size());
  for (std::size_t k = 0; k < exact.steps.size(); ++k) {
    INFO("step " << k + 1);
    CHECK(exact.steps[k].margin == fast.steps[k].margin);
    CHECK(exact.steps[k].output == fast.steps[k].output);
    CHECK(tied_set(exact.steps[k]) == tied_set(fast.steps[k]));
  }
  CHECK(exact.copied == fast.copied);
  CHECK(exact.decided == fast.decided);
  CHECK(exact.failure() == fast.failure());
  CHECK(exact.output == fast.output);
}

}  // namespace tverify::testing
