#include "checkers/model/bounds_coverage.hpp"

#include "checkers/errors.hpp"
#include "checkers/model/bounds_search.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tverify::model {

namespace {

// The most members the boxes of one length may list for the exact pass (8 bytes each).
constexpr std::uint64_t max_listed_members = std::uint64_t{1} << 27;

std::uint64_t inputs_of_length(long long V, int n) {
  std::uint64_t p = 1;
  for (int k = 0; k < n; ++k) p *= static_cast<std::uint64_t>(V);
  return p;
}

bool whole_length(const std::vector<DataBox>& boxes, long long V) {
  return std::any_of(boxes.begin(), boxes.end(), [V](const DataBox& box) {
    return std::all_of(box.begin(), box.end(),
                       [V](const auto& set) { return static_cast<long long>(set.size()) == V; });
  });
}

std::uint64_t listed_size(const std::vector<DataBox>& boxes) {
  std::uint64_t sum = 0;
  for (const DataBox& box : boxes) sum += box_size(box);
  return sum;
}

Json decided_boxes_json(const BoundsCover& cover, long long V) {
  Json list = Json::array();
  for (const DecidedBox& d : cover.decided)
    list.push_back({{"length", d.length},
                    {"target", d.target},
                    {"box", box_text(d.box, V)},
                    {"margin", fmt::format("{:.4g}", d.margin)}});
  return list;
}

// The inputs the bounds left undecided at each length, listed (ascending, lengths in order) when the exact pass
// will check them, else only counted.
struct UndecidedInputs {
  std::vector<std::uint64_t> listed;
  std::map<int, std::uint64_t> count;
  bool counted_exactly = true;  // false: a count is the boxes' sizes added, an upper bound
};

UndecidedInputs undecided_inputs(const BoundsCover& cover, const BoundsMethod& m, bool list) {
  UndecidedInputs out;
  for (int n = m.min_length; n <= m.max_length; ++n) {
    std::vector<DataBox> boxes;
    for (const auto* part : {&cover.open, &cover.unexplored})
      if (const auto it = part->find(n); it != part->end())
        boxes.insert(boxes.end(), it->second.begin(), it->second.end());
    const std::uint64_t all = inputs_of_length(m.V, n), sizes = listed_size(boxes);
    if (!list && whole_length(boxes, m.V)) {
      out.count[n] = all;
      continue;
    }
    if (sizes > max_listed_members) {
      if (list)
        throw UsageError(
            fmt::format("the bounds leave more than {} inputs of length {} to check one by one; lower --lengths or use "
                        "--method enumerate",
                        max_listed_members, n));
      out.count[n] = std::min(sizes, all);
      out.counted_exactly = false;
      continue;
    }
    const auto members = members_in_domain_order(boxes, n, m.min_length, m.V);
    out.count[n] = members.size();
    if (list) out.listed.insert(out.listed.end(), members.begin(), members.end());
  }
  return out;
}

BoundsCoverage enumerated(const ExactCheck& check, const BoundsMethod& m, const std::string& reason) {
  if (m.required) throw UsageError("--method bounds needs a graph it can bound over sets of inputs: " + reason);
  check_budget(check.cases->size(), m.budget, "the domain (" + check.cases->describe() + ")");
  BoundsCoverage out;
  out.tally = tally_inputs(check, check.cases->size(), [](std::uint64_t k) { return k; });
  out.details = {{"method", "enumerate"}, {"bounds_unavailable", reason}};
  return out;
}

}  // namespace

BoundsCoverage cover_with_bounds(const ExactCheck& check, const BoundsMethod& m) {
  BoundsRequest request{check.model,  check.cases->task(),  &m.abstraction, m.V,        m.min_length,
                        m.max_length, check.limits.classes, check.decode,   m.max_boxes};
  const BoundsCover cover = search_bounds(request, check.options);
  if (!cover.no_box_evaluation.empty()) return enumerated(check, m, cover.no_box_evaluation);
  const std::uint64_t left = m.max_boxes ? *m.max_boxes - cover.boxes : UINT64_MAX;
  const UndecidedInputs undecided = undecided_inputs(cover, m, left > 0);
  if (left > 0) check_budget(undecided.listed.size(), m.budget, "the inputs the bounds leave to check one by one");
  const std::uint64_t reached = std::min<std::uint64_t>(undecided.listed.size(), left);
  BoundsCoverage out;
  out.tally = tally_inputs(check, reached, [&](std::uint64_t k) { return undecided.listed[k]; });
  const std::size_t limit = check.options.max_counterexamples;
  std::uint64_t by_bounds = 0, beyond_budget = 0, position = 0;
  for (const auto& [n, count] : undecided.count) {
    Tally& t = tally_of_length(out.tally, n, limit);
    const std::uint64_t decided = inputs_of_length(m.V, n) - count;
    t.checked += decided, t.passed += decided, by_bounds += decided;
    const std::uint64_t unreached = count - (std::min(position + count, reached) - std::min(position, reached));
    t.checked += unreached, t.unknown += unreached, beyond_budget += unreached;
    position += count;
  }
  out.details = {{"method", "bounds"},
                 {"box_evaluations", cover.boxes},
                 {"inputs_decided_by_bounds", by_bounds},
                 {"inputs_checked_one_by_one", reached},
                 {"inputs_unknown_at_budget", beyond_budget},
                 {"decided_boxes", decided_boxes_json(cover, m.V)}};
  if (m.max_boxes) out.details["max_boxes"] = *m.max_boxes;
  if (beyond_budget > 0) {
    const std::uint64_t total = check.cases->size();
    out.budget_reason = fmt::format("--max-boxes {} reached: {} of the {} inputs decided ({:.4g}%){}", *m.max_boxes,
                                    total - beyond_budget, total,
                                    100.0 * static_cast<double>(total - beyond_budget) / static_cast<double>(total),
                                    undecided.counted_exactly ? "" : ", at least");
  }
  return out;
}

}  // namespace tverify::model
