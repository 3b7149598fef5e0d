#include "checkers/model/prefix_plans.hpp"

#include "checkers/model/loaded_model.hpp"

#include <cfenv>

namespace tverify::model {

namespace {

// The graph's values for `length` tokens 0, in the given arithmetic (where the analysis plans, any tokens give the
// same shapes, and the same values of every tensor that does not depend on their values); nullopt when it fails to
// evaluate.
template <class T>
std::optional<Probe> probe_in(const LoadedModel& model, const Weights<T>& weights, std::size_t length) {
  try {
    return probe_of(evaluate_slots(model.graph, weights, Tokens(length, 0)), token_dependent_slots(model.graph));
  } catch (const Undecided&) {
  } catch (const DoubleRangeExceeded&) {
  } catch (const ModelError&) {
  }
  return std::nullopt;
}

}  // namespace

const std::optional<Probe>& PrefixPlans::probe(const LoadedModel& model, std::size_t length) {
  auto it = probes_.find(length);
  if (it != probes_.end()) return it->second;
  std::optional<Probe> p;
  if (model.graph.rational) p = probe_in(model, model.exact, length);
  else if (model.doubles && std::fegetround() == FE_TONEAREST) p = probe_in(model, *model.doubles, length);
  if (!p && !model.graph.rational) p = probe_in(model, std::get<0>(model.intervals), length);
  return probes_.emplace(length, std::move(p)).first->second;
}

std::variant<PrefixPlan, std::string> PrefixPlans::make(const LoadedModel& model, std::size_t first,
                                                        std::size_t last) {
  if (first >= last) {  // one length: the evaluation is the generation's single step
    PrefixPlan none;
    none.by_node.resize(model.graph.nodes.size());
    return none;
  }
  std::vector<Probe> probes;
  std::vector<std::int64_t> lengths;
  for (std::size_t length = first; length <= last; ++length) {
    const std::optional<Probe>& p = probe(model, length);
    if (!p) return "the graph cannot be evaluated on " + std::to_string(length) + " tokens 0";
    probes.push_back(*p);
    lengths.push_back(static_cast<std::int64_t>(length));
  }
  return prefix_plan(model.graph, lengths, probes);
}

const PrefixPlan* PrefixPlans::plan(const LoadedModel& model, std::size_t first, std::size_t last) {
  if (!planned_) return nullptr;
  const std::lock_guard<std::mutex> lock(mutex_);
  auto it = plans_.find({first, last});
  if (it == plans_.end()) it = plans_.emplace(std::pair{first, last}, make(model, first, last)).first;
  return std::get_if<PrefixPlan>(&it->second);
}

}  // namespace tverify::model
