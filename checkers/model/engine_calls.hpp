// The model engine's calls as commands make them: the engine's refusals (values naming the node) become usage errors
// (exit 2) naming the --onnx file.
#pragma once

#include "model/case_check.hpp"
#include "model/loaded_model.hpp"

#include <optional>
#include <string>

namespace tverify::model {

// The model at `path` with its SHA-256; UsageError naming the file and what is wrong.
LoadedModel read_model_file(const std::string& path, std::optional<int> weights_as_decimal);

// The rows of the embedding the token input indexes (model/loaded_model.hpp); UsageError when an axis is unreadable.
std::optional<std::int64_t> embedding_rows_of(const LoadedModel& model);

// The case's outcome (model/case_check.hpp); UsageError naming the file, the input and the node.
CaseOutcome outcome_of_case(const LoadedModel& model, const TaskCase& c, Decode decode, const CaseLimits& limits);

// The certified logits of every position (model/case_check.hpp: read_logits); UsageError as above.
std::optional<LogitsReading> logits_of_input(const LoadedModel& model, const Tokens& tokens);

}  // namespace tverify::model
