// The prefix plans of one model (model/prefix_plan.hpp), made once for each span of lengths a
// generation reads and shared by the worker threads.
#pragma once

#include "model/prefix_analysis.hpp"

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tverify::model {

struct LoadedModel;

class PrefixPlans {
 public:
  PrefixPlans() = default;
  // No plans: every generation step by step (the reference of the differential tests).
  static std::shared_ptr<PrefixPlans> step_by_step();

  // make's plan, made on the first call for these lengths; nullptr when there is none (the generation then runs step
  // by step).
  const PrefixPlan* plan(const LoadedModel& model, std::size_t first, std::size_t last);

  // The plan for a generation that reads prefixes of `first` to `last` tokens, or why there is none (the graph is
  // not shown prefix-consistent there, or cannot be evaluated on tokens 0 at one of those lengths).
  std::variant<PrefixPlan, std::string> make(const LoadedModel& model, std::size_t first, std::size_t last);

 private:
  // Both under the lock: probes are kept for every length asked.
  std::variant<PrefixPlan, std::string> made(const LoadedModel& model, std::size_t first, std::size_t last);
  const std::optional<Probe>& probe(const LoadedModel& model, std::size_t length);

  bool planned_ = true;
  std::mutex mutex_;
  std::map<std::pair<std::size_t, std::size_t>, std::variant<PrefixPlan, std::string>> plans_;
  std::map<std::size_t, std::optional<Probe>> probes_;  // by length; nullopt: the graph fails on tokens 0
};

}  // namespace tverify::model
