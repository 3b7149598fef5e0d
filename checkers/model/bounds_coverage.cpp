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

std::vector<DataBox> boxes_at(const std::map<int, std::vector<DataBox>>& by_length, int n) {
  const auto it = by_length.find(n);
  return it == by_length.end() ? std::vector<DataBox>{} : it->second;
}

std::vector<std::uint64_t> members_of(const std::vector<DataBox>& boxes, int n, const BoundsMethod& m) {
  if (listed_size(boxes) > max_listed_members)
    throw UsageError(fmt::format(
        "the bounds leave more than {} inputs of length {} to account for one by one; lower --lengths or use "
        "--method enumerate",
        max_listed_members, n));
  return members_in_domain_order(boxes, n, m.min_length, m.V);
}

// The inputs of one length that no decided box holds, in domain order.
struct LengthInputs {
  int length = 0;
  std::vector<std::uint64_t> wrong;      // in a box that fails whole
  std::vector<std::uint64_t> undecided;  // in no such box: listed when the exact pass may reach them
  std::uint64_t undecided_count = 0;
  std::vector<std::uint64_t> to_check;  // what the exact pass checks: the undecided ones, and the first wrong ones
                                        // (the counterexamples enumeration would list)
};

LengthInputs inputs_of_length(const BoundsCover& cover, const BoundsMethod& m, int n, bool list, std::size_t limit) {
  LengthInputs out{n};
  out.wrong = members_of(boxes_at(cover.wrong, n), n, m);
  std::vector<DataBox> undecided = boxes_at(cover.open, n);
  for (const DataBox& box : boxes_at(cover.unexplored, n)) undecided.push_back(box);
  if (!list && whole_length(undecided, m.V)) {
    out.undecided_count = inputs_of_length(m.V, n) - out.wrong.size();
    return out;
  }
  const auto members = members_of(undecided, n, m);
  std::set_difference(members.begin(), members.end(), out.wrong.begin(), out.wrong.end(),
                      std::back_inserter(out.undecided));
  out.undecided_count = out.undecided.size();
  const auto first_wrong = out.wrong.begin() + static_cast<long>(std::min(limit, out.wrong.size()));
  std::merge(out.undecided.begin(), out.undecided.end(), out.wrong.begin(), first_wrong,
             std::back_inserter(out.to_check));
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
  const std::size_t limit = check.options.max_counterexamples;
  const std::uint64_t left = m.max_boxes ? *m.max_boxes - cover.boxes : UINT64_MAX;
  std::vector<LengthInputs> lengths;
  std::vector<std::uint64_t> to_check;
  for (int n = m.min_length; n <= m.max_length; ++n) {
    lengths.push_back(inputs_of_length(cover, m, n, left > 0, limit));
    to_check.insert(to_check.end(), lengths.back().to_check.begin(), lengths.back().to_check.end());
  }
  if (left > 0) check_budget(to_check.size(), m.budget, "the inputs the bounds leave to check one by one");
  const std::uint64_t reached = std::min<std::uint64_t>(to_check.size(), left);
  BoundsCoverage out;
  out.tally = tally_inputs(check, reached, [&](std::uint64_t k) { return to_check[k]; });
  std::uint64_t by_bounds = 0, failed_whole = 0, unknown = 0, position = 0;
  for (const LengthInputs& length : lengths) {
    Tally& t = tally_of_length(out.tally, length.length, limit);
    const auto none = cover.no_instances.find(length.length);
    const std::uint64_t decided = inputs_of_length(m.V, length.length) - length.wrong.size() - length.undecided_count -
                                  (none == cover.no_instances.end() ? 0 : none->second);
    t.checked += decided, t.passed += decided, by_bounds += decided;
    // The wrong inputs the exact pass does not check fail without it; the undecided ones it does not reach are
    // unknown.
    std::uint64_t wrong_unchecked = length.wrong.size(), undecided_unreached = length.undecided_count;
    for (std::size_t k = 0; k < length.to_check.size(); ++k, ++position) {
      const bool wrong = std::binary_search(length.wrong.begin(), length.wrong.end(), length.to_check[k]);
      if (position < reached) (wrong ? wrong_unchecked : undecided_unreached) -= 1;
    }
    t.checked += wrong_unchecked + undecided_unreached;
    t.failed += wrong_unchecked, failed_whole += wrong_unchecked;
    t.unknown += undecided_unreached, unknown += undecided_unreached;
  }
  std::erase_if(out.tally.by_length, [](const auto& entry) { return entry.second.checked == 0; });  // no instance
  out.details = {{"method", "bounds"},
                 {"box_evaluations", cover.boxes},
                 {"inputs_decided_by_bounds", by_bounds},
                 {"inputs_failed_by_bounds", failed_whole},
                 {"inputs_checked_one_by_one", reached},
                 {"inputs_unknown_at_budget", unknown},
                 {"lengths_without_prefix_plan", cover.lengths_without_plan},
                 {"decided_boxes", decided_boxes_json(cover, m.V)}};
  if (m.max_boxes) out.details["max_boxes"] = *m.max_boxes;
  if (unknown > 0) {
    const std::uint64_t total = check.cases->size();
    out.budget_reason =
        fmt::format("--max-boxes {} reached: {} of the {} inputs decided ({:.4g}%)", *m.max_boxes, total - unknown,
                    total, 100.0 * static_cast<double>(total - unknown) / static_cast<double>(total));
  }
  return out;
}

}  // namespace tverify::model
