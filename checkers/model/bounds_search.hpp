// Branch and bound over boxes of data sequences (docs/model.md, "--method bounds"): for each length and each target,
// a tree of boxes, each decided for all its members by the model's bounds (model/box_decision.hpp) against the
// task's expected classes over it (checkers/model/task_abstraction.hpp), or split on a position the target reads.
// A box on which the bounds put some other class above every expected one fails whole. What no tree decides is left
// open: its members are then checked one by one by the exact engine, as enumeration checks them, so that verdicts,
// counterexamples and error rates are the same as enumeration's.
//
// The trees are a function of the model, the task and the domain: each is explored breadth-first in a fixed order,
// the trees are numbered by (length, target), and a box budget is counted in that order, whatever the number of
// threads or ranks.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/wire.hpp"
#include "checkers/model/task_abstraction.hpp"
#include "model/case_check.hpp"
#include "model/loaded_model.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tverify::model {

struct BoundsRequest {
  const LoadedModel* model = nullptr;
  const Task* task = nullptr;
  const TaskAbstraction* abstraction = nullptr;
  long long V = 0;
  int min_length = 1, max_length = 1;
  std::int64_t classes = 0;
  Decode decode = Decode::Every;           // Generate: read from the teacher-forced sequence under the prefix plan
  std::optional<std::uint64_t> max_boxes;  // box evaluations and exact leaves together
};

// A box on which one target is the expected class for every member, with the margin the bounds gave.
struct DecidedBox {
  int length = 0;
  std::size_t target = 0;
  DataBox box;
  double margin = 0;
};

void to_json(Json& j, const DecidedBox& d);
void from_json(const Json& j, DecidedBox& d);

struct BoundsCover {
  std::uint64_t boxes = 0;  // box evaluations
  std::vector<DecidedBox> decided;
  // Per length: the boxes some target left open, whose members the exact engine checks.
  std::map<int, std::vector<DataBox>> open;
  // Per length: the sequences in boxes of no instance of the task (not checked, not counted).
  std::map<int, std::uint64_t> no_instances;
  // Per length: the boxes on which some target is certainly wrong for every member: each member fails.
  std::map<int, std::vector<DataBox>> wrong;
  // Per length: the boxes the box budget left unexplored (their members are unknown unless another target's open
  // box holds them and the budget reaches them).
  std::map<int, std::vector<DataBox>> unexplored;
  std::string no_box_evaluation;  // non-empty: the graph has none, and nothing was decided
  // The lengths whose generation the graph is not shown prefix-consistent for: checked one by one.
  std::vector<int> lengths_without_plan;
};

BoundsCover search_bounds(const BoundsRequest& request, const RunOptions& options);

// The sequences of length n over V tokens: V^n (below 2^63 in any domain tverify numbers).
std::uint64_t sequences_of_length(long long V, int n);

// The number of members of a box.
std::uint64_t box_size(const DataBox& box);

// The inputs of `length` in the boxes, each once, ascending, numbered as the domain of lengths from `min_length`
// over V tokens numbers them (shorter first, then lexicographic).
std::vector<std::uint64_t> members_in_domain_order(const std::vector<DataBox>& boxes, int length, int min_length,
                                                   long long V);

// "*" for a position holding every token, else its tokens comma-separated; positions joined by " | ".
std::string box_text(const DataBox& box, long long V);

}  // namespace tverify::model
