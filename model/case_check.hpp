// One input of a model check: the model is evaluated on the task's sequence, each output read as a certified argmax
// (core/readout.hpp: an exact tie is a failure, as everywhere in tverify), and compared with the task's targets.
// A rational model is evaluated once, exactly; any other climbs the precision ladder until every comparison inside
// the graph and every argmax is decided, and is `unknown` for this input when the ladder's ceiling does not decide.
#pragma once

#include "model/loaded_model.hpp"
#include "model/read_value.hpp"
#include "model/task_case.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <variant>

namespace tverify::model {

// How outputs are read: the argmax at each target position of one evaluation (teacher forcing for generated
// targets), the argmax at the last target position only, or autoregressive generation from the prompt.
enum class Decode { Every, Last, Generate };

// `got` and `expected` are JSON arrays as certificates print them.
struct CaseOutcome {
  enum class Kind { Right, Wrong, Unknown };
  Kind kind = Kind::Unknown;
  nlohmann::ordered_json got = nlohmann::ordered_json::array();  // each read position's certified argmax ("tie a,b")
  nlohmann::ordered_json expected = nlohmann::ordered_json::array();
  std::string detail;  // what was wrong, or why unknown
  unsigned bits = 0;   // the precision that decided (0: exact)
  // Right: the smallest margin of its read positions (the winner's logit minus the largest other one), and where.
  std::optional<ReadValue> margin;
  std::size_t margin_position = 0;
};

struct CaseLimits {
  std::int64_t classes = 0;    // the output classes the task's targets need
  std::int64_t max_token = 0;  // the largest token id the model reads (for generation)
};

// One position's certified logits, its argmax ("tie a,b" for an exact tie) and its margin.
// A logit or margin is nullopt where the rung cannot enclose it (an exp-log value no enclosure up to 16,384 bits
// separates from 0, a difference past the double range).
struct PositionLogits {
  std::vector<std::optional<ReadValue>> logits;
  nlohmann::ordered_json winner;
  std::optional<ReadValue> margin;
};
struct LogitsReading {
  std::vector<PositionLogits> positions;
  unsigned bits = 0;  // the rung that decided every argmax (0: exact)
};

// The logits of every position of `tokens`, at the lowest rung that decides every position's argmax; nullopt when
// the ladder's ceiling does not. Or why the model cannot be evaluated on it, as check_case says it.
std::variant<std::optional<LogitsReading>, std::string> read_logits(const LoadedModel& model, const Tokens& tokens);

// The case's outcome; or why the model cannot be evaluated on it (a shape or index error or an indeterminate form,
// naming the node, or an output that is no logits or has fewer classes than the task needs).
std::variant<CaseOutcome, std::string> check_case(const LoadedModel& model, const TaskCase& c, Decode decode,
                                                  const CaseLimits& limits);

}  // namespace tverify::model
