// A model file read for checking: its graph, the file's SHA-256 (what a certificate records), and its weights in
// exact arithmetic (a rational graph) or, for a graph with irrational ops, in double intervals (the first rung, when
// every weight is within the double range), in exact exp-log arithmetic (when every irrational op is one it
// computes: core/exp_log.hpp) and at each rung of the precision ladder an input reaches.
#pragma once

#include "core/precision_ladder.hpp"
#include "model/evaluator.hpp"
#include "model/prefix_plans.hpp"
#include "model/task_case.hpp"

#include <cfenv>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <variant>

namespace tverify::model {

// The weights at one rung, converted the first time an input reaches that rung (by whichever thread does), so that
// a run whose inputs are all decided lower never holds them: at 16,384 bits an interval weight takes 4 KiB.
template <unsigned Bits>
struct RungSlot {
  std::once_flag converted;
  std::optional<Weights<Interval<Bits>>> weights;
};
template <class Ladder>
struct LadderSlots;
template <unsigned... Bits>
struct LadderSlots<Rungs<Bits...>> {
  using type = std::tuple<RungSlot<Bits>...>;
};
// The model checker's ladder above its double-interval rung: the standard ladder without its 64-bit rung, which adds
// only 11 bits to the doubles' 53.
inline constexpr Rungs<256, 1024, 4096, 16384> model_rungs{};
using RungSlots = LadderSlots<std::remove_const_t<decltype(model_rungs)>>::type;
// The code of the exact exp-log rung in an outcome's `bits`: above the double rung's 53 and below the first MPFI
// rung, so that the largest code an input used names its highest rung (certificates print it as "exp-log").
inline constexpr unsigned exp_log_rung = 54;
// A rung's name in certificates: "exact" (a rational graph), "exp-log", or its bits.
inline std::string rung_name(unsigned bits) {
  return bits == 0 ? "exact" : bits == exp_log_rung ? "exp-log" : std::to_string(bits);
}

struct LoadedModel {
  Graph graph;
  std::string path;    // the file it was read from, as its reader named it (the engine's reasons do not use it)
  std::string sha256;  // of the file's bytes, lowercase hex (set by its reader)
  std::optional<int> weights_as_decimal;
  Weights<Exact> exact;                            // a rational graph
  std::optional<Weights<DoubleInterval>> doubles;  // a graph with irrational ops, weights within the double range
  std::optional<Weights<ExpLogNumber>> exp_log;    // a graph whose irrational ops exp-log arithmetic computes
  std::shared_ptr<RungSlots> intervals = std::make_shared<RungSlots>();  // a graph with irrational ops
  // Made as generations ask for them, by any thread: the one mutable part, behind its own lock.
  std::shared_ptr<PrefixPlans> prefix_plans = std::make_shared<PrefixPlans>();

  // Whether the double-interval rung can be used on this thread: the weights are within the double range, and the
  // rounding mode is round-to-nearest, which the rung's error-free transformations assume.
  bool double_rung() const { return doubles && std::fegetround() == FE_TONEAREST; }

  // "exact" or "interval"
  std::string evaluation() const { return graph.rational ? "exact" : "interval"; }

  // The weights at rung Bits of model_rungs, converted on first use. load_model converts the first rung, so that a
  // weight no rung can hold is refused at load; a higher rung holds the same values to more bits.
  template <unsigned Bits>
  const Weights<Interval<Bits>>& rung_weights() const {
    RungSlot<Bits>& slot = std::get<RungSlot<Bits>>(*intervals);
    std::call_once(slot.converted, [&] { slot.weights = convert_weights<Interval<Bits>>(graph); });
    return *slot.weights;
  }
  template <unsigned Bits>
  bool rung_converted() const {
    return std::get<RungSlot<Bits>>(*intervals).weights.has_value();
  }
};

// The model whose ONNX bytes these are, read and converted; or why it cannot be checked, as words that follow the
// model's name ("has no output", "node 'mm' (MatMul) ...").
std::variant<LoadedModel, std::string> load_model(const std::string& bytes, std::optional<int> weights_as_decimal);

// The number of rows of the embedding the token input indexes (the smallest over Gathers reading the input), when a
// Gather reads the input directly; or why a Gather's axis cannot be read.
std::variant<std::optional<std::int64_t>, std::string> embedding_rows(const LoadedModel& model);

}  // namespace tverify::model
