// The exact check of a model on inputs one by one (model/case_check.hpp), tallied per input length: what enumeration
// does over the whole domain, and the bounds search over the inputs its boxes leave open.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/model/model_cases.hpp"
#include "checkers/tally.hpp"
#include "model/case_check.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace tverify::model {

// The smallest margin of the inputs decided right (CaseOutcome::margin), the first in domain order among equal
// lower ends, so that it does not depend on how the inputs were shared among threads or ranks.
struct SmallestMargin {
  ReadValue margin;
  Json input;
  std::size_t position = 0;
  std::uint64_t index = 0;  // the input's number in the domain
  // Whether this one comes before `other`: a lower lower end, or the same and earlier.
  bool before(const SmallestMargin& other) const;
};

// What one chunk of inputs accumulates: a tally per input length, how many inputs each precision decided, and the
// smallest margin.
struct ModelTally {
  std::map<int, Tally> by_length;
  std::map<unsigned, std::uint64_t> by_bits;
  std::vector<Json> unknown_inputs;
  std::optional<SmallestMargin> smallest_margin;
  std::uint64_t right_without_margin = 0;  // decided right at a rung that could not enclose a margin
  void keep_smaller(const std::optional<SmallestMargin>& candidate);
};

void to_json(Json& j, const ModelTally& t);
void from_json(const Json& j, ModelTally& t);

struct ExactCheck {
  const LoadedModel* model = nullptr;
  const ModelCases* cases = nullptr;
  Decode decode = Decode::Every;
  CaseLimits limits;
  RunOptions options;  // threads, progress, max_counterexamples (the tallies' limit)
};

// The length's tally in `t`, made with the run's counterexample limit when new.
Tally& tally_of_length(ModelTally& t, int length, std::size_t limit);

// Checks the inputs numbered input(0), ..., input(count - 1) (ascending, so that counterexamples come in domain
// order), each as enumeration checks it.
ModelTally tally_inputs(const ExactCheck& check, std::uint64_t count,
                        const std::function<std::uint64_t(std::uint64_t)>& input);

}  // namespace tverify::model
