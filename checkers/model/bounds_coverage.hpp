// A model check's domain covered by the bounds search (checkers/model/bounds_search.hpp) and exact leaves: the
// inputs of every box the bounds decide pass whole; every other input is checked one by one (model_tally.hpp), in
// domain order, so that counts, counterexamples and error rates are enumeration's. Under a box budget the inputs
// it does not reach are unknown.
#pragma once

#include "checkers/model/model_tally.hpp"
#include "checkers/model/task_abstraction.hpp"

#include <optional>
#include <string>

namespace tverify::model {

struct BoundsMethod {
  TaskAbstraction abstraction;
  long long V = 0;
  int min_length = 1, max_length = 1;
  bool required = false;  // --method bounds: a graph with no box evaluation is refused, not enumerated
  std::optional<std::uint64_t> max_boxes;
  RunOptions budget;  // --max-inputs and --force, for the inputs the bounds leave
};

struct BoundsCoverage {
  ModelTally tally;
  Json details;               // the certificate's details.bounds
  std::string budget_reason;  // non-empty when --max-boxes ended the run before every input was decided
  // The decided box whose bound on the margin is lowest (the first such in tree order), and that bound: a lower
  // bound on the margin of every member at the box's target. Null when no box was decided.
  Json lowest_box;
  double lowest_box_margin = 0;
};

// Throws UsageError when the graph has no box evaluation and the method is required, or when the bounds leave more
// inputs to check one by one than the run budget allows.
BoundsCoverage cover_with_bounds(const ExactCheck& check, const BoundsMethod& method);

}  // namespace tverify::model
