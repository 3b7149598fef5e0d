#include "model/case_check.hpp"

#include "core/readout.hpp"
#include "model/model_ladder.hpp"
#include "model/read_value.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tverify::model {

namespace {

// The certified argmax of one row of logits: the class, or the classes tied for the top; and its margin.
struct Argmax {
  std::int64_t winner = 0;
  std::vector<std::int64_t> tied;  // empty unless an exact tie
  // The winner's logit minus the largest other one: 0 for a tie, inf for one class; nullopt when this rung cannot
  // enclose it (the argmax, which is all a verdict reads, is decided regardless).
  std::optional<ReadValue> margin;
};

// min over k != winner of row[winner] - row[k], enclosed at this rung. Only shown and compared, never part of a
// verdict: a failure to enclose it (a difference past the double range, exp-log arithmetic that cannot form or
// compare it) leaves it out instead of sending the input up the ladder.
template <class T>
std::optional<ReadValue> margin_of(const Extended<T>* row, std::int64_t classes, std::int64_t winner) {
  try {
    std::optional<Extended<T>> smallest;
    for (std::int64_t k = 0; k < classes; ++k) {
      if (k == winner) continue;
      const Extended<T> d = row[k].inf < 0 || row[winner].inf > 0 ? Extended<T>::infinity(1) : row[winner] - row[k];
      smallest = smallest ? minimum(*smallest, d) : d;
    }
    return read_value(smallest ? *smallest : Extended<T>::infinity(1));
  } catch (const Undecided&) {
  } catch (const std::exception&) {}
  return std::nullopt;
}

// Infinite logits are compared exactly: a single +inf wins, -inf entries lose to any finite one.
template <class T>
Argmax argmax_of(const Extended<T>* row, std::int64_t classes) {
  std::vector<std::int64_t> top, finite;
  for (std::int64_t k = 0; k < classes; ++k) {
    if (row[k].inf > 0) top.push_back(k);
    if (row[k].finite()) finite.push_back(k);
  }
  if (top.empty() && finite.empty())
    for (std::int64_t k = 0; k < classes; ++k) top.push_back(k);
  const ReadValue zero = ReadValue::printed("0", Exact(0), 0);
  if (!top.empty())
    return top.size() == 1 ? Argmax{top[0], {}, margin_of(row, classes, top[0])} : Argmax{top[0], top, zero};
  Vector<T> scores;
  for (std::int64_t k : finite) scores.push_back(row[k].value);
  const ArgmaxReadout r = argmax_readout(scores);
  if (r.margin == Margin::Undecided) throw Undecided{};
  const std::int64_t winner = finite[r.winner];
  if (r.margin == Margin::Certified) return {winner, {}, margin_of(row, classes, winner)};
  Argmax tie{winner, {}, zero};
  for (std::size_t j = 0; j < scores.size(); ++j)
    if (is_greater(scores[r.winner], scores[j]) == Tri::False) tie.tied.push_back(finite[j]);
  return tie;
}

// The logits of every position of `sequence`, as rows of `classes` entries.
template <class T>
struct Logits {
  Tensor<T> tensor;
  std::int64_t classes = 0;
  const Extended<T>* row(std::size_t position) const {
    return &tensor.reals[position * static_cast<std::size_t>(classes)];
  }
};

template <class T>
Logits<T> logits_of(const LoadedModel& model, const Weights<T>& weights, const Tokens& sequence,
                    const CaseLimits& limits, const PrefixPlan* plan = nullptr) {
  Tensor<T> out = evaluate(model.graph, weights, sequence, plan);
  const auto n = static_cast<std::int64_t>(sequence.size());
  const Shape& s = out.shape;
  const bool fits = out.is_real() && ((s.size() == 3 && s[0] == 1 && s[1] == n) || (s.size() == 2 && s[0] == n));
  if (!fits)
    throw ModelError(
        fmt::format("the output '{}' has shape {} for {} input tokens; tverify reads real logits of "
                    "shape [1, seq, classes] or [seq, classes]",
                    model.graph.output_name, shape_text(s), n));
  const std::int64_t classes = s.empty() ? 0 : s.back();
  if (classes == 0)
    throw ModelError(fmt::format("the output '{}' has 0 classes (shape {}); an argmax needs at least one",
                                 model.graph.output_name, shape_text(s)));
  if (classes < limits.classes)
    throw ModelError(
        fmt::format("the model's output has {} classes; the task's outputs need {} (a token layout "
                    "this model cannot express)",
                    classes, limits.classes));
  return {std::move(out), classes};
}

// One read position: its certified argmax, or none when this precision cannot decide it.
struct Reading {
  std::optional<Argmax> argmax;
  std::size_t position = 0;
};

template <class T>
Reading read_at(const Logits<T>& logits, std::size_t position) {
  try {
    return {argmax_of(logits.row(position), logits.classes), position};
  } catch (const Undecided&) { return {std::nullopt, position}; }
}

nlohmann::ordered_json got_entry(const Reading& r) {
  if (!r.argmax) return "undecided";
  if (r.argmax->tied.empty()) return r.argmax->winner;
  return fmt::format("tie {}", fmt::join(r.argmax->tied, ","));
}

// A decided reading that is not the target (a negative target: none, as `eval` reads every position).
bool wrong(const Reading& r, std::int64_t target) {
  return target >= 0 && r.argmax && (!r.argmax->tied.empty() || r.argmax->winner != target);
}

// The smallest margin of the readings, and its position; nullopt when one of them has none.
std::optional<ReadValue> smallest_margin(const std::vector<Reading>& readings, std::size_t& position) {
  std::optional<ReadValue> smallest;
  for (const Reading& r : readings) {
    if (!r.argmax->margin) return std::nullopt;
    if (!smallest || r.argmax->margin->lower_below(*smallest)) {
      smallest = r.argmax->margin;
      position = r.position;
    }
  }
  return smallest;
}

// The case's outcome from its readings: wrong when any decided reading is wrong (whatever the undecided ones are);
// otherwise Undecided is thrown when a reading is undecided, so that the caller climbs.
CaseOutcome outcome_of(const std::vector<Reading>& readings, const Tokens& targets) {
  CaseOutcome out;
  out.kind = CaseOutcome::Kind::Right;
  bool undecided = false;
  for (std::size_t i = 0; i < readings.size(); ++i) {
    const Reading& r = readings[i];
    out.got.push_back(got_entry(r));
    out.expected.push_back(targets[i]);
    undecided = undecided || !r.argmax;
    if (out.kind == CaseOutcome::Kind::Wrong || !wrong(r, targets[i])) continue;
    out.kind = CaseOutcome::Kind::Wrong;
    if (!r.argmax->tied.empty())
      out.detail = fmt::format("position {}: exact tie between classes {}, expected {}", r.position,
                               fmt::join(r.argmax->tied, ", "), targets[i]);
    else
      out.detail = fmt::format("position {}: argmax {}, expected {}", r.position, r.argmax->winner, targets[i]);
  }
  if (undecided && out.kind != CaseOutcome::Kind::Wrong) throw Undecided{};
  if (readings.size() < targets.size()) {
    for (std::size_t i = readings.size(); i < targets.size(); ++i) out.expected.push_back(targets[i]);
    if (out.kind == CaseOutcome::Kind::Right) {
      out.kind = CaseOutcome::Kind::Wrong;
      out.detail = "generation stopped early";
    }
  }
  if (out.kind == CaseOutcome::Kind::Right) out.margin = smallest_margin(readings, out.margin_position);
  return out;
}

CaseOutcome unknown_at(unsigned bits) {
  CaseOutcome unknown;
  unknown.detail = fmt::format("a comparison or argmax is undecided at the ladder's ceiling of {} bits", bits);
  unknown.bits = bits;
  return unknown;
}

// A decided reading ends a generation when it is wrong or its token is not one the model reads.
bool ends_generation(const Reading& r, std::int64_t target, const CaseLimits& limits) {
  return wrong(r, target) || r.argmax->winner > limits.max_token;
}

// The certified argmax at the last position of `sequence`, at the lowest rung that decides it, and that rung.
std::pair<std::optional<Reading>, unsigned> last_reading(const LoadedModel& model, const Tokens& sequence,
                                                         const CaseLimits& limits, const PrefixPlan* plan) {
  const std::size_t position = sequence.size() - 1;
  return lowest_deciding<Reading>(model, [&](const auto& weights) {
    const auto logits = logits_of(model, weights, sequence, limits, plan);
    return Reading{argmax_of(logits.row(position), logits.classes), position};  // Undecided: climb
  });
}

// The readings of the teacher-forced sequence's logits from target `first` on: each decided one in turn, up to the
// first that ends generation or the last, stopping before an undecided one.
template <class T>
std::vector<Reading> decided_readings(const Logits<T>& logits, const TaskCase& c, std::size_t first,
                                      const CaseLimits& limits) {
  std::vector<Reading> read;
  for (std::size_t i = first; i < c.targets.size(); ++i) {
    Reading r = read_at(logits, c.read_from + i);
    if (!r.argmax) break;
    read.push_back(r);
    if (ends_generation(r, c.targets[i], limits)) break;
  }
  return read;
}

// Generation read from evaluations of the teacher-forced sequence (model/prefix_plan.hpp): the
// readings are generation's, up to and including the first that ends it. The whole sequence is evaluated at the
// lowest rung that evaluates its graph; a reading that rung cannot decide climbs the ladder on the prefix its
// generation step evaluates, and the readings after it continue on the whole sequence. nullopt when the model is
// not shown prefix-consistent for these lengths, or the sequence breaks a check, fails to evaluate, or has an op no
// rung decides (perhaps in a row after the first wrong token, which generation never computes): generation then
// runs step by step.
std::optional<CaseOutcome> teacher_forced(const LoadedModel& model, const TaskCase& c, const CaseLimits& limits) {
  const PrefixPlan* plan = model.prefix_plans->plan(model, c.read_from + 1, c.sequence.size());
  if (!plan) return std::nullopt;
  try {
    std::vector<Reading> readings;
    unsigned bits = 0;
    while (readings.size() < c.targets.size()) {
      const std::size_t first = readings.size();
      const auto [read, rung] = lowest_deciding<std::vector<Reading>>(model, [&](const auto& weights) {
        return decided_readings(logits_of(model, weights, c.sequence, limits, plan), c, first, limits);
      });
      if (!read) return std::nullopt;
      bits = std::max(bits, rung);
      readings.insert(readings.end(), read->begin(), read->end());
      if (readings.size() == c.targets.size()) break;
      if (!read->empty() && ends_generation(read->back(), c.targets[readings.size() - 1], limits)) break;
      const auto cut = static_cast<long>(c.read_from + readings.size()) + 1;  // up to the next reading's position
      const auto [reading, climbed] =
          last_reading(model, Tokens(c.sequence.begin(), c.sequence.begin() + cut), limits, plan);
      bits = std::max(bits, climbed);
      if (!reading) return unknown_at(bits);
      readings.push_back(*reading);
      if (ends_generation(*reading, c.targets[readings.size() - 1], limits)) break;
    }
    CaseOutcome out = outcome_of(readings, c.targets);
    out.bits = bits;
    return out;
  } catch (const PrefixBroken&) { return std::nullopt; } catch (const ModelError&) {
    return std::nullopt;
  }
}

// Autoregressive generation, step by step: each step climbs the ladder on its own (a step that needs more bits does
// not send the steps before it up again), and generation stops at the first wrong token, which decides the case.
CaseOutcome stepwise(const LoadedModel& model, const TaskCase& c, const CaseLimits& limits) {
  std::vector<Reading> readings;
  Tokens sequence(c.sequence.begin(), c.sequence.begin() + static_cast<long>(c.read_from) + 1);
  unsigned bits = 0;
  for (std::size_t i = 0; i < c.targets.size(); ++i) {
    const auto [reading, rung] = last_reading(model, sequence, limits, nullptr);
    bits = std::max(bits, rung);
    readings.push_back(reading ? *reading : Reading{std::nullopt, sequence.size() - 1});
    const Reading& r = readings.back();
    if (!r.argmax || ends_generation(r, c.targets[i], limits)) break;
    sequence.push_back(r.argmax->winner);
  }
  try {
    CaseOutcome out = outcome_of(readings, c.targets);
    out.bits = bits;
    return out;
  } catch (const Undecided&) { return unknown_at(bits); }
}

// The outputs at the target positions of one evaluation (every one, or the last).
template <class T>
CaseOutcome read_case(const LoadedModel& model, const Weights<T>& weights, const TaskCase& c, Decode decode,
                      const CaseLimits& limits) {
  std::vector<Reading> readings;
  const std::size_t m = c.targets.size();
  const Logits<T> logits = logits_of(model, weights, c.sequence, limits);
  for (std::size_t i = decode == Decode::Last ? m - 1 : 0; i < m; ++i)
    readings.push_back(read_at(logits, c.read_from + i));
  if (decode == Decode::Last) return outcome_of(readings, Tokens{c.targets.back()});
  return outcome_of(readings, c.targets);
}

CaseOutcome checked(const LoadedModel& model, const TaskCase& c, Decode decode, const CaseLimits& limits) {
  if (decode == Decode::Generate) {
    if (auto out = teacher_forced(model, c, limits)) return *out;
    return stepwise(model, c, limits);
  }
  const auto [outcome, bits] = lowest_deciding<CaseOutcome>(
      model, [&](const auto& weights) { return read_case(model, weights, c, decode, limits); });
  if (!outcome) return unknown_at(bits);
  CaseOutcome out = *outcome;
  out.bits = bits;
  return out;
}

// The logits, argmax and margin of every position, at the rung `logits` came from; Undecided when an argmax is not
// decided there.
template <class T>
std::vector<PositionLogits> positions_of(const Logits<T>& logits, std::size_t length) {
  std::vector<PositionLogits> out;
  for (std::size_t p = 0; p < length; ++p) {
    const Extended<T>* row = logits.row(p);
    const Argmax a = argmax_of(row, logits.classes);
    PositionLogits position{{}, got_entry(Reading{a, p}), a.margin};
    for (std::int64_t k = 0; k < logits.classes; ++k) position.logits.push_back(read_value(row[k]));
    out.push_back(std::move(position));
  }
  return out;
}

std::string on_input(const Tokens& tokens, const ModelError& e) {
  return fmt::format("on the input [{}]: {}", fmt::join(tokens, ", "), e.what());
}

}  // namespace

std::variant<std::optional<LogitsReading>, std::string> read_logits(const LoadedModel& model, const Tokens& tokens) {
  CaseLimits limits;
  limits.max_token = INT64_MAX;
  try {
    const auto [positions, bits] = lowest_deciding<std::vector<PositionLogits>>(model, [&](const auto& weights) {
      return positions_of(logits_of(model, weights, tokens, limits), tokens.size());
    });
    if (!positions) return std::optional<LogitsReading>{};
    return std::optional<LogitsReading>{LogitsReading{*positions, bits}};
  } catch (const ModelError& e) { return on_input(tokens, e); }
}

std::variant<CaseOutcome, std::string> check_case(const LoadedModel& model, const TaskCase& c, Decode decode,
                                                  const CaseLimits& limits) {
  try {
    return checked(model, c, decode, limits);
  } catch (const ModelError& e) {
    // Generation's input is its prompt, as its counterexamples show it; the error may come from any step.
    const auto shown = decode == Decode::Generate ? c.read_from + 1 : c.sequence.size();
    return on_input(Tokens(c.sequence.begin(), c.sequence.begin() + static_cast<long>(shown)), e);
  }
}

}  // namespace tverify::model
