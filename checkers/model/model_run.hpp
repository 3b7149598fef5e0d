// One run of the model construction: the model file read, the domain of its task (or --expected file), the bounds
// method and the run's options (prepare_model_run), and the check of claim model.task or model.task_sample over it
// (check_task). `check model` runs it once; the sweeps (checkers/model/model_sweeps.hpp) once per length range or
// per model of a family.
#pragma once

#include "checkers/construction.hpp"
#include "checkers/memory_budget.hpp"
#include "checkers/model/bounds_coverage.hpp"
#include "checkers/model/engine_calls.hpp"
#include "checkers/model/model_cases.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tverify::model {

struct ModelRun {
  std::shared_ptr<const LoadedModel> model;
  std::shared_ptr<const ModelCases> cases;
  std::optional<BoundsMethod> bounds;
  std::string bounds_unavailable;  // why --method auto enumerates, when the task is the reason
  Decode decode = Decode::Every;
  CaseLimits limits;
  RunOptions options;  // the run's, its monitor (progress and a stop request from Python) included
};
// Whether the run checks a sample (--samples) rather than the whole domain.
bool sampled(const ParamValues& params);
const ClaimSpec& task_claim();
const ClaimSpec& sample_claim();

// --weights-as-decimal K, if given; the --onnx path (UsageError when absent).
std::optional<int> decimal_digits(const ParamValues& params);
const std::string& onnx_path(const ParamValues& params);

// Refuses a run of `threads` threads whose estimated memory (checkers/model/memory_estimate.hpp) is above the budget.
void require_memory(const LoadedModel& model, const std::vector<std::size_t>& lengths, unsigned threads,
                    const MemoryBudget& budget, const std::string& to_lower);

// Reads the model and builds the domain; every usage error of the run is met here, before any work. Fills the
// report's domain, arithmetic and options (the model's SHA-256 among them).
ModelRun prepare_model_run(const ParamValues& params, const std::string& variant, const ClaimSelection& claims,
                           const RunOptions& options, CheckReport& report);
// The same for the model in `onnx_file` (a family sweep's member) instead of --onnx (null: --onnx).
ModelRun prepare_model_run_of(const std::string* onnx_file, const ParamValues& params, const RunOptions& options,
                              CheckReport& report);

// part / whole exactly, as certificates write it ("0" for an empty whole).
std::string rate_text(std::uint64_t part, std::uint64_t whole);

// The claim `spec` (model.task or model.task_sample) over the run's domain: counts, the exact error rate per length
// in details.lengths, the smallest margin when every input was checked one by one.
std::vector<ClaimResult> check_task(const ModelRun& run, const ClaimSpec& spec);

}  // namespace tverify::model
