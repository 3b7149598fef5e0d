// A check that keeps a checkpoint (checkers/enumeration_checkpoint.hpp): the CLI's `check --checkpoint FILE
// [--resume] [--checkpoint-every SECONDS]` and the Python package's check(checkpoint=..., resume=...).
#pragma once

#include "checkers/construction.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace tverify {

struct CheckpointRequest {
  std::string path;  // empty: no checkpoint
  bool resume = false;
  std::chrono::seconds every{30};
};

// c.check(...), keeping the checkpoint `request` names (resumed from it with request.resume). UsageError for --resume
// without a file, and for a checkpoint that cannot be resumed (checkers/enumeration_checkpoint.hpp).
CheckReport resumable_check(const Construction& c, const ParamValues& params, const std::string& variant,
                            const std::vector<std::string>& claims, const RunOptions& options,
                            const CheckpointRequest& request);

}  // namespace tverify
