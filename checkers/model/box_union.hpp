// The number of sequences in a union of boxes of one length, counted without listing them: the boxes the bounds
// leave open for different targets overlap, and past a few hundred million members listing them does not fit.
#pragma once

#include "checkers/model/task_abstraction.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tverify::model {

// |union of `boxes`| for boxes of one length over V tokens. Splits on one position at a time: the tokens of a
// position that the same boxes hold are counted together, and a box holding every token at every position left covers
// all of them. nullopt when that takes more than `max_steps` steps (a step: a token of a box's set looked at, or a
// group of tokens counted), so the time stays bounded where the boxes overlap in too many ways to count so.
std::optional<std::uint64_t> union_size(const std::vector<DataBox>& boxes, long long V, std::uint64_t max_steps);

}  // namespace tverify::model
