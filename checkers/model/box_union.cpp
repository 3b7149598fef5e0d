#include "checkers/model/box_union.hpp"

#include <algorithm>
#include <map>

namespace tverify::model {

namespace {

struct UnionCount {
  long long V = 0;
  std::size_t length = 0;
  std::uint64_t steps_left = 0;

  bool step() { return steps_left > 0 && (--steps_left, true); }

  std::uint64_t sequences_from(std::size_t position) const {
    std::uint64_t n = 1;
    for (std::size_t p = position; p < length; ++p) n *= static_cast<std::uint64_t>(V);
    return n;
  }

  bool covers_the_rest(const DataBox& box, std::size_t position) const {
    return std::all_of(box.begin() + static_cast<long>(position), box.end(),
                       [this](const auto& set) { return static_cast<long long>(set.size()) == V; });
  }

  // |union of the boxes| restricted to positions from `position` on (every box agrees on the positions before it).
  std::optional<std::uint64_t> count(const std::vector<const DataBox*>& boxes, std::size_t position) {
    if (boxes.empty()) return 0;
    for (const DataBox* box : boxes)
      if (covers_the_rest(*box, position)) return sequences_from(position);
    // position < length here: at the end every box covers the (empty) rest.
    std::map<std::int64_t, std::vector<std::size_t>> holders;  // token -> the boxes holding it at `position`
    for (std::size_t b = 0; b < boxes.size(); ++b)
      for (std::int64_t token : (*boxes[b])[position]) {
        if (!step()) return std::nullopt;
        holders[token].push_back(b);
      }
    std::map<std::vector<std::size_t>, std::uint64_t> tokens_of;  // the same holders -> how many tokens
    for (const auto& [token, held_by] : holders) ++tokens_of[held_by];
    std::uint64_t total = 0;
    for (const auto& [held_by, tokens] : tokens_of) {
      if (!step()) return std::nullopt;
      std::vector<const DataBox*> rest;
      for (std::size_t b : held_by) rest.push_back(boxes[b]);
      const auto below = count(rest, position + 1);
      if (!below) return std::nullopt;
      total += tokens * *below;
    }
    return total;
  }
};

}  // namespace

std::optional<std::uint64_t> union_size(const std::vector<DataBox>& boxes, long long V, std::uint64_t max_steps) {
  if (boxes.empty()) return 0;
  UnionCount counter{V, boxes.front().size(), max_steps};
  std::vector<const DataBox*> all;
  for (const DataBox& box : boxes) all.push_back(&box);
  return counter.count(all, 0);
}

}  // namespace tverify::model
