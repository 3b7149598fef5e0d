// A claim's counts over a domain and its smallest counterexamples: what each chunk of an enumeration accumulates
// (checkers/enumerate.hpp) and merges in domain order, and what fills the claim's result.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/verdict.hpp"

#include <cstdint>
#include <vector>

namespace tverify {

struct Tally {
  std::uint64_t checked = 0, passed = 0, failed = 0, unknown = 0;
  std::vector<Counterexample> counterexamples{};
  std::size_t limit = 10;

  void pass() { ++checked, ++passed; }
  void fail(Counterexample c) {
    ++checked, ++failed;
    if (counterexamples.size() < limit) counterexamples.push_back(std::move(c));
  }
  void merge(Tally&& o) {
    checked += o.checked, passed += o.passed, failed += o.failed, unknown += o.unknown;
    append_limited(counterexamples, std::move(o.counterexamples), limit);
  }
  void fill(ClaimResult& r) const;  // counts, counterexamples, verdict
};

}  // namespace tverify
