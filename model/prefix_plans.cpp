#include "model/prefix_plans.hpp"

#include "model/loaded_model.hpp"

namespace tverify::model {

namespace {

// The graph's values for `length` tokens 0, in the given arithmetic (where the analysis plans, any tokens give the
// same shapes, and the same values of every tensor that does not depend on their values); nullopt when it fails to
// evaluate.
template <class T>
std::optional<Probe> probe_in(const LoadedModel& model, const Weights<T>& weights, std::size_t length) {
  try {
    const Graph& g = model.graph;
    return probe_of(evaluate_slots(g, weights, Tokens(length, 0)), token_dependent_slots(g), weight_slots(g));
  } catch (const Undecided&) {
  } catch (const DoubleRangeExceeded&) {
  } catch (const ModelError&) {}
  return std::nullopt;
}

}  // namespace

const std::optional<Probe>& PrefixPlans::probe(const LoadedModel& model, std::size_t length) {
  auto it = probes_.find(length);
  if (it != probes_.end()) return it->second;
  std::optional<Probe> p;
  if (model.graph.rational)
    p = probe_in(model, model.exact, length);
  else if (model.double_rung())
    p = probe_in(model, *model.doubles, length);
  if (!p && !model.graph.rational) p = probe_in(model, model.rung_weights<model_rungs.first>(), length);
  return probes_.emplace(length, std::move(p)).first->second;
}

std::shared_ptr<PrefixPlans> PrefixPlans::step_by_step() {
  auto none = std::make_shared<PrefixPlans>();
  none->planned_ = false;
  return none;
}

std::variant<PrefixPlan, std::string> PrefixPlans::made(const LoadedModel& model, std::size_t first, std::size_t last) {
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
  try {
    return prefix_plan(model.graph, lengths, probes);
  } catch (const ModelError& e) {  // an axis or index the probes accepted at no length
    return std::string(e.what());
  } catch (const std::out_of_range& e) {
    return std::string("a parameter of the graph has fewer entries than its axes: ") + e.what();
  }
}

const PrefixPlan* PrefixPlans::plan(const LoadedModel& model, std::size_t first, std::size_t last) {
  if (!planned_) return nullptr;
  const std::lock_guard<std::mutex> lock(mutex_);
  auto it = plans_.find({first, last});
  if (it == plans_.end()) it = plans_.emplace(std::pair{first, last}, made(model, first, last)).first;
  return std::get_if<PrefixPlan>(&it->second);
}

std::variant<PrefixPlan, std::string> PrefixPlans::make(const LoadedModel& model, std::size_t first, std::size_t last) {
  const std::lock_guard<std::mutex> lock(mutex_);
  return made(model, first, last);
}

}  // namespace tverify::model
