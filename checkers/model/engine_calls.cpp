#include "checkers/model/engine_calls.hpp"

#include "io/errors.hpp"
#include "io/files.hpp"
#include "io/sha256.hpp"

namespace tverify::model {

LoadedModel read_model_file(const std::string& path, std::optional<int> weights_as_decimal) {
  const std::string what = "--onnx '" + path + "'";
  const std::string bytes = read_text_file(path, what, 256u << 20);
  auto loaded = load_model(bytes, weights_as_decimal);
  if (auto* reason = std::get_if<std::string>(&loaded)) throw UsageError(what + " " + *reason);
  LoadedModel model = std::move(std::get<LoadedModel>(loaded));
  model.path = path;
  model.sha256 = sha256_hex(bytes);
  return model;
}

std::optional<std::int64_t> embedding_rows_of(const LoadedModel& model) {
  auto rows = embedding_rows(model);
  if (auto* reason = std::get_if<std::string>(&rows)) throw UsageError("--onnx '" + model.path + "': " + *reason);
  return std::get<std::optional<std::int64_t>>(rows);
}

CaseOutcome outcome_of_case(const LoadedModel& model, const TaskCase& c, Decode decode, const CaseLimits& limits) {
  auto outcome = check_case(model, c, decode, limits);
  if (auto* reason = std::get_if<std::string>(&outcome)) throw UsageError("--onnx '" + model.path + "': " + *reason);
  return std::get<CaseOutcome>(outcome);
}

std::optional<LogitsReading> logits_of_input(const LoadedModel& model, const Tokens& tokens) {
  auto read = read_logits(model, tokens);
  if (auto* reason = std::get_if<std::string>(&read)) throw UsageError("--onnx '" + model.path + "': " + *reason);
  return std::get<std::optional<LogitsReading>>(read);
}

}  // namespace tverify::model
