// The model construction's sweeps: `--vary lengths` (one model, the error rate per length of --lengths) and
// `--vary family` (one model per line of a --family manifest, each checked as `check model` does, the error rate
// against the manifest's parameter, with the values where the verdict changes bracketed).
#pragma once

#include "checkers/construction.hpp"

#include <vector>

namespace tverify::model {

std::vector<SweepSpec> model_sweeps();
Json sweep_model(const ParamValues& params, const std::string& variant, const SweepRun& sweep, const RunOptions& run);

}  // namespace tverify::model
