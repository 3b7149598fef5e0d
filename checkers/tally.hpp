// A claim's counts over a domain and its smallest counterexamples: what each chunk of an enumeration accumulates
// (checkers/enumerate.hpp) and merges in domain order, and what fills the claim's result.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/verdict.hpp"
#include "checkers/wire.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tverify {

struct Tally {
  std::uint64_t checked = 0, passed = 0, failed = 0, unknown = 0;
  std::vector<Counterexample> counterexamples{};
  std::size_t limit = 10;
  // Numbers a claim reports beside its counts (inputs set aside, events met on the way), added up over the chunks.
  std::map<std::string, std::uint64_t> counts{};

  void pass() { ++checked, ++passed; }
  void fail(Counterexample c) {
    ++checked, ++failed;
    if (counterexamples.size() < limit) counterexamples.push_back(std::move(c));
  }
  void merge(Tally&& o) {
    checked += o.checked, passed += o.passed, failed += o.failed, unknown += o.unknown;
    append_limited(counterexamples, std::move(o.counterexamples), limit);
    for (const auto& [name, n] : o.counts) counts[name] += n;
  }
  std::uint64_t count(const std::string& name) const {
    const auto it = counts.find(name);
    return it == counts.end() ? 0 : it->second;
  }
  void fill(ClaimResult& r) const;  // counts, counterexamples, verdict
};

inline void to_json(Json& j, const Tally& t) {
  put_fields(j, t.checked, t.passed, t.failed, t.unknown, t.counterexamples, t.limit, t.counts);
}
inline void from_json(const Json& j, Tally& t) {
  get_fields(j, t.checked, t.passed, t.failed, t.unknown, t.counterexamples, t.limit, t.counts);
}

}  // namespace tverify
