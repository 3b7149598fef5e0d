// The memory a model check needs, estimated before it starts: what the process holds after loading the model, the
// weights at each interval rung not yet converted (an input may climb to any of them), and per thread one
// evaluation's values, with its largest twice more (the output's copy, an op's temporaries), at the costliest scalar
// the evaluation may use (exact rationals for a rational graph, the top interval rung otherwise). The values' sizes
// come from a probe: one evaluation of the longest sequence in double intervals, which counts the elements of every
// tensor the graph makes (an evaluation keeps all of them).
//
// What the estimate cannot see: rationals longer than four limbs (a deep exact product), exact exp-log numbers, and
// the values after a node whose shape depends on a comparison the probe cannot decide (the probe stops there and
// says so in the estimate's parts).
#pragma once

#include "checkers/memory_budget.hpp"
#include "model/loaded_model.hpp"

#include <cstddef>

namespace tverify::model {

// The estimate for `threads` threads evaluating sequences of at most `longest` tokens. The probe stops as soon as its
// running count passes `budget` (bytes), so that it never holds more than the budget; the estimate is then a lower
// bound above the budget.
MemoryEstimate model_memory_estimate(const LoadedModel& model, std::size_t longest, unsigned threads,
                                     std::uint64_t budget);

}  // namespace tverify::model
