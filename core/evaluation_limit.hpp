// An evaluator that cannot run a configuration within its limits (memory, exponent range) throws EvaluationLimit with
// the reason. Evaluators do not know the command line: the command that called one turns the reason into a usage
// error naming its own options.
#pragma once

#include <stdexcept>

namespace tverify {

struct EvaluationLimit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tverify
