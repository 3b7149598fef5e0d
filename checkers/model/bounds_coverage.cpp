#include "checkers/model/bounds_coverage.hpp"

#include "io/errors.hpp"
#include "checkers/model/bounds_search.hpp"
#include "checkers/model/box_union.hpp"
#include "core/interval.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tverify::model {

namespace {

// The most members the boxes of one length may list for the exact pass (8 bytes each).
constexpr std::uint64_t max_listed_members = std::uint64_t{1} << 27;
// The most steps union_size may take counting the members of one length's boxes without listing them.
constexpr std::uint64_t max_union_steps = std::uint64_t{1} << 26;

bool whole_length(const std::vector<DataBox>& boxes, long long V) {
  return std::any_of(boxes.begin(), boxes.end(), [V](const DataBox& box) {
    return std::all_of(box.begin(), box.end(),
                       [V](const auto& set) { return static_cast<long long>(set.size()) == V; });
  });
}

// The boxes' sizes added up, saturating at 2^64 - 1 (the boxes of every target of a length may hold n V^n members).
std::uint64_t listed_size(const std::vector<DataBox>& boxes) {
  std::uint64_t sum = 0;
  for (const DataBox& box : boxes) sum += std::min(box_size(box), UINT64_MAX - sum);
  return sum;
}

Json decided_boxes_json(const BoundsCover& cover, long long V) {
  Json list = Json::array();
  for (const DecidedBox& d : cover.decided)
    list.push_back({{"length", d.length},
                    {"target", d.target},
                    {"box", box_text(d.box, V)},
                    {"margin", decimal_at_most(Exact(d.margin), 4)}});  // rounded down, as the bound
  return list;
}

// The first decided box of lowest margin bound, in tree order (the certificate's decided_boxes order).
void keep_lowest_box(const BoundsCover& cover, long long V, BoundsCoverage& out) {
  const auto lowest = std::min_element(cover.decided.begin(), cover.decided.end(),
                                       [](const DecidedBox& a, const DecidedBox& b) { return a.margin < b.margin; });
  if (lowest == cover.decided.end()) return;
  out.lowest_box_margin = lowest->margin;
  out.lowest_box = {{"length", lowest->length}, {"target", lowest->target}, {"box", box_text(lowest->box, V)}};
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

// The inputs of one length that no decided box holds, in domain order, when the exact pass runs.
struct LengthInputs {
  int length = 0;
  std::vector<std::uint64_t> wrong;     // in a box that fails whole
  std::uint64_t undecided = 0;          // in no decided and no failing box (instances of the task or not)
  std::vector<std::uint64_t> to_check;  // what the exact pass checks: the undecided ones, and the first wrong ones
                                        // (the counterexamples enumeration would list)
};

LengthInputs length_inputs(const BoundsCover& cover, const BoundsMethod& m, int n, std::size_t limit) {
  LengthInputs out{n};
  out.wrong = members_of(boxes_at(cover.wrong, n), n, m);
  std::vector<DataBox> boxes = boxes_at(cover.open, n);
  for (const DataBox& box : boxes_at(cover.unexplored, n)) boxes.push_back(box);
  const auto members = members_of(boxes, n, m);
  std::vector<std::uint64_t> undecided;
  std::set_difference(members.begin(), members.end(), out.wrong.begin(), out.wrong.end(),
                      std::back_inserter(undecided));
  out.undecided = undecided.size();
  const auto first_wrong = out.wrong.begin() + static_cast<long>(std::min(limit, out.wrong.size()));
  std::merge(undecided.begin(), undecided.end(), out.wrong.begin(), first_wrong, std::back_inserter(out.to_check));
  return out;
}

// With the budget spent before the exact pass: the inputs of one length in no decided box, and the instances of the
// task among them (all unknown, those of failing boxes too, whose counterexamples were never checked). Counted by
// listing them; past max_listed_members, the inputs by union_size, exactly, and the instances bounded by them (for a
// task of some instances); where union_size gives up, both are the boxes' sizes added up, an upper bound.
struct UnreachedInputs {
  std::uint64_t inputs = 0, instances = 0;
  bool exact = true;
};

UnreachedInputs unreached_inputs(const BoundsCover& cover, const BoundsMethod& m, int n, const ModelCases& cases) {
  std::vector<DataBox> boxes;
  for (const auto* part : {&cover.open, &cover.unexplored, &cover.wrong})
    for (const DataBox& box : boxes_at(*part, n)) boxes.push_back(box);
  const std::uint64_t all = sequences_of_length(m.V, n), sizes = listed_size(boxes);
  const bool whole = whole_length(boxes, m.V);
  if (whole || sizes > max_listed_members) {
    const auto counted = whole ? all : union_size(boxes, m.V, max_union_steps);
    const std::uint64_t inputs = counted ? *counted : std::min(sizes, all);
    return {inputs, inputs, (counted || inputs == all) && !cases.task()->is_instance};
  }
  UnreachedInputs out;
  for (std::uint64_t index : members_in_domain_order(boxes, n, m.min_length, m.V)) {
    ++out.inputs;
    out.instances += !cases.task()->is_instance || cases.at(index).instance;
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

std::uint64_t no_instances_of(const BoundsCover& cover, int n) {
  const auto it = cover.no_instances.find(n);
  return it == cover.no_instances.end() ? 0 : it->second;
}

// The exact pass over the inputs the bounds left, in domain order, as far as the budget reaches. An input it does not
// reach is unknown (if an instance of the task); a failing box's inputs it does not check are failures, unless the
// pass stopped before that length's last input (then unknown: their counterexamples were not all checked).
void tally_with_exact_pass(const ExactCheck& check, const BoundsCover& cover, const BoundsMethod& m, std::uint64_t left,
                           BoundsCoverage& out, Json& counts) {
  const std::size_t limit = check.options.max_counterexamples;
  std::vector<LengthInputs> lengths;
  std::vector<std::uint64_t> to_check;
  for (int n = m.min_length; n <= m.max_length; ++n) {
    lengths.push_back(length_inputs(cover, m, n, limit));
    to_check.insert(to_check.end(), lengths.back().to_check.begin(), lengths.back().to_check.end());
  }
  check_budget(to_check.size(), m.budget, "the inputs the bounds leave to check one by one");
  const std::uint64_t reached = std::min<std::uint64_t>(to_check.size(), left);
  out.tally = tally_inputs(check, reached, [&](std::uint64_t k) { return to_check[k]; });
  std::uint64_t by_bounds = 0, failed_whole = 0, unknown = 0, position = 0, one_by_one = 0;
  const bool instances_only = static_cast<bool>(check.cases->task()->is_instance);
  for (const LengthInputs& length : lengths) {
    Tally& t = tally_of_length(out.tally, length.length, limit);
    const std::uint64_t decided = sequences_of_length(m.V, length.length) - length.wrong.size() - length.undecided -
                                  no_instances_of(cover, length.length);
    t.checked += decided, t.passed += decided, by_bounds += decided;
    std::uint64_t wrong_unchecked = length.wrong.size(), unreached = 0;
    for (std::size_t k = 0; k < length.to_check.size(); ++k, ++position) {
      const std::uint64_t index = length.to_check[k];
      const bool instance = !instances_only || check.cases->at(index).instance;
      one_by_one += position < reached && instance;
      if (std::binary_search(length.wrong.begin(), length.wrong.end(), index)) {
        if (position < reached) --wrong_unchecked;
        continue;
      }
      if (position >= reached && instance) ++unreached;
    }
    const bool length_done = position <= reached;
    (length_done ? t.failed : t.unknown) += wrong_unchecked;
    (length_done ? failed_whole : unknown) += wrong_unchecked;
    t.checked += wrong_unchecked + unreached, t.unknown += unreached, unknown += unreached;
  }
  counts = {{"inputs_decided_by_bounds", by_bounds},
            {"inputs_failed_by_bounds", failed_whole},
            {"inputs_checked_one_by_one", one_by_one},
            {"inputs_unknown_at_budget", unknown}};
}

// The budget spent before the exact pass: every input of the domain no decided box holds is unknown.
void tally_budget_spent(const ExactCheck& check, const BoundsCover& cover, const BoundsMethod& m, BoundsCoverage& out,
                        Json& counts, bool& exact) {
  std::uint64_t by_bounds = 0, unknown = 0;
  for (int n = m.min_length; n <= m.max_length; ++n) {
    const UnreachedInputs left = unreached_inputs(cover, m, n, *check.cases);
    exact = exact && left.exact;
    Tally& t = tally_of_length(out.tally, n, check.options.max_counterexamples);
    const std::uint64_t decided = sequences_of_length(m.V, n) - left.inputs - no_instances_of(cover, n);
    t.checked += decided + left.instances, t.passed += decided, t.unknown += left.instances;
    by_bounds += decided, unknown += left.instances;
  }
  counts = {{"inputs_decided_by_bounds", by_bounds},
            {"inputs_failed_by_bounds", 0},
            {"inputs_checked_one_by_one", 0},
            {"inputs_unknown_at_budget", unknown}};
}

}  // namespace

BoundsCoverage cover_with_bounds(const ExactCheck& check, const BoundsMethod& m) {
  BoundsRequest request{check.model,  check.cases->task(),  &m.abstraction, m.V,        m.min_length,
                        m.max_length, check.limits.classes, check.decode,   m.max_boxes};
  const BoundsCover cover = search_bounds(request, check.options);
  if (!cover.no_box_evaluation.empty()) return enumerated(check, m, cover.no_box_evaluation);
  const std::uint64_t left = m.max_boxes ? *m.max_boxes - cover.boxes : UINT64_MAX;
  BoundsCoverage out;
  Json counts;
  bool exact = true;
  if (left > 0)
    tally_with_exact_pass(check, cover, m, left, out, counts);
  else
    tally_budget_spent(check, cover, m, out, counts, exact);
  std::erase_if(out.tally.by_length, [](const auto& entry) { return entry.second.checked == 0; });  // no instance
  out.details = {{"method", "bounds"}, {"box_evaluations", cover.boxes}};
  for (const auto& [key, value] : counts.items()) out.details[key] = value;
  out.details["lengths_without_prefix_plan"] = cover.lengths_without_plan;
  out.details["decided_boxes"] = decided_boxes_json(cover, m.V);
  keep_lowest_box(cover, m.V, out);
  if (m.max_boxes) out.details["max_boxes"] = *m.max_boxes;
  const std::uint64_t unknown = counts["inputs_unknown_at_budget"].get<std::uint64_t>();
  if (unknown > 0) {
    std::uint64_t total = 0;  // the instances of the task in the domain
    for (const auto& [n, t] : out.tally.by_length) total += t.checked;
    out.budget_reason = fmt::format(
        "--max-boxes {} reached: {} of the {} inputs decided ({:.4g}%){}", *m.max_boxes, total - unknown, total,
        100.0 * static_cast<double>(total - unknown) / static_cast<double>(total), exact ? "" : ", at least");
  }
  return out;
}

}  // namespace tverify::model
