// The model checker's precision ladder (docs/model.md, "Arithmetic"), lowest rung first: exact rationals (a rational
// graph, whose every comparison it decides), double intervals (53 bits), exact exp-log arithmetic (exp_log_rung) and
// MPFI at each precision of model_rungs. Each rung names its number type, the weights it evaluates with, whether a
// model can use it, and which of the evaluator's failures leave an input undecided at that rung instead of ending it:
// - double intervals: an undecided comparison, an endpoint past the double range, and a ModelError, which their
//   coarser enclosures can cause (an exponent or a Range bound that is exact but not a point in doubles); MPFI
//   reproduces a real error. The rung is unusable when the thread's rounding mode is not round-to-nearest, which its
//   error-free transformations assume.
// - exp-log: an undecided sign, a value that leaves exp-log arithmetic (a softmax over scores an earlier softmax
//   made, a sum grown too large), and a ModelError, which may be a limit of the evaluator on an exact value rather
//   than the model's.
// - MPFI: an undecided comparison only; its errors are the model's.
#pragma once

#include "model/loaded_model.hpp"

#include <optional>

namespace tverify::model {

// The failures that leave an input undecided at a rung (it climbs on), as a list of exception types.
template <class... Failure>
struct ClimbsOn {};

struct ExactRung {
  using Number = Exact;
  static constexpr unsigned bits = 0;
  using climbs_on = ClimbsOn<>;
  static bool usable(const LoadedModel& m) { return m.graph.rational; }
  static const Weights<Exact>& weights(const LoadedModel& m) { return m.exact; }
};

struct DoubleRung {
  using Number = DoubleInterval;
  static constexpr unsigned bits = DoubleInterval::requested_bits;
  using climbs_on = ClimbsOn<Undecided, DoubleRangeExceeded, ModelError>;
  static bool usable(const LoadedModel& m) { return m.double_rung(); }
  static const Weights<DoubleInterval>& weights(const LoadedModel& m) { return *m.doubles; }
};

struct ExpLogRung {
  using Number = ExpLogNumber;
  static constexpr unsigned bits = exp_log_rung;
  using climbs_on = ClimbsOn<Undecided, NotExpLog, ModelError>;
  static bool usable(const LoadedModel& m) { return m.exp_log.has_value(); }
  static const Weights<ExpLogNumber>& weights(const LoadedModel& m) { return *m.exp_log; }
};

template <unsigned Bits>
struct MpfiRung {
  using Number = Interval<Bits>;
  static constexpr unsigned bits = Bits;
  using climbs_on = ClimbsOn<Undecided>;
  static bool usable(const LoadedModel& m) { return !m.graph.rational; }
  static const Weights<Interval<Bits>>& weights(const LoadedModel& m) { return m.rung_weights<Bits>(); }
};

template <class Mpfi>
struct ModelLadderOf;
template <unsigned... Bits>
struct ModelLadderOf<Rungs<Bits...>> {
  using type = Ladder<ExactRung, DoubleRung, ExpLogRung, MpfiRung<Bits>...>;
};
using ModelLadder = ModelLadderOf<std::remove_const_t<decltype(model_rungs)>>::type;

// f(), or nullopt when it fails in one of the ways listed: undecided at this rung.
template <class Result, class F>
std::optional<Result> attempt(F&& f, ClimbsOn<>) {
  return f();
}
template <class Result, class F, class Failure, class... Rest>
std::optional<Result> attempt(F&& f, ClimbsOn<Failure, Rest...>) {
  try {
    return attempt<Result>(f, ClimbsOn<Rest...>{});
  } catch (const Failure&) { return std::nullopt; }
}

// f(weights) at the lowest usable rung that decides it, with that rung's bits; nullopt, with the ceiling's bits, when
// no rung does. f throws Undecided at a rung that cannot decide; a failure its rung does not climb on propagates.
template <class Result, class F>
std::pair<std::optional<Result>, unsigned> lowest_deciding(const LoadedModel& model, F&& f) {
  const auto climbed = climb(
      ModelLadder{},
      [&]<class Rung>() -> std::optional<Result> {
        if (!Rung::usable(model)) return std::nullopt;
        return attempt<Result>([&] { return f(Rung::weights(model)); }, typename Rung::climbs_on{});
      },
      [](const std::optional<Result>& r) { return r.has_value(); });
  return {climbed.result, climbed.bits};
}

}  // namespace tverify::model
