#include "checkers/construction.hpp"

#include "checkers/cat/cat_construction.hpp"
#include "checkers/copy/copy_construction.hpp"
#include "checkers/count3/count3_construction.hpp"
#include "checkers/markov/markov_construction.hpp"

#include <algorithm>

namespace tverify {

const ClaimSpec& Construction::claim(const std::string& id) const {
  std::string known;
  for (const auto& c : claims()) {
    if (c.id == id) return c;
    known += (known.empty() ? "" : ", ") + c.id;
  }
  throw UsageError("--claim '" + id + "' is not a claim of " + name() + " (claims: " + known + ")");
}

CheckReport Construction::prove(const ParamValues&, const std::string&, const std::vector<std::string>&,
                                const ProofOptions&, const RunOptions&) const {
  throw UsageError("construction '" + name() + "' has no Z3 proofs yet");
}

Json Construction::sweep(const ParamValues&, const std::string&, const SweepRequest&, const RunOptions&) const {
  throw UsageError("construction '" + name() + "' has no sweeps yet");
}

void reject_unread_sweep_options(const SweepRequest& request, const std::string& sweep, const std::vector<std::string>& read) {
  const std::vector<std::pair<std::string, bool>> given{
      {"--fast", request.fast},          {"--resume", request.resume},           {"--resolution", !request.resolution.empty()},
      {"--L-max", !request.length_max.empty()}, {"--threshold", !request.threshold.empty()},
      {"--samples", !request.samples.empty()}, {"--seed", !request.seed.empty()}, {"--formats", !request.formats.empty()},
      {"--min-bits", request.min_bits}};
  std::string list;
  for (const auto& r : read) list += (list.empty() ? "" : ", ") + r;
  for (const auto& [option, is_given] : given)
    if (is_given && std::find(read.begin(), read.end(), option) == read.end())
      throw UsageError(option + " is not an option of " + sweep + " (its options: " + (list.empty() ? "none" : list) +
                       ")");
}

CheckReport Construction::new_report(const std::string& verb, const ParamValues& params, const std::string& variant,
                                     Json options) const {
  CheckReport report;
  report.verb = verb;
  report.construction = name();
  report.variant = variant;
  report.params = params.to_json();
  report.options = std::move(options);
  return report;
}

ClaimResult result_for(const ClaimSpec& spec) {
  ClaimResult r;
  r.id = spec.id;
  r.statement = spec.statement;
  return r;
}

const std::vector<std::unique_ptr<Construction>>& all_constructions() {
  static const auto registry = [] {
    std::vector<std::unique_ptr<Construction>> r;
    r.push_back(std::make_unique<copy::CopyConstruction>());
    r.push_back(std::make_unique<count3::Count3Construction>());
    r.push_back(std::make_unique<cat::CatConstruction>());
    r.push_back(std::make_unique<markov::MarkovConstruction>());
    return r;
  }();
  return registry;
}

const Construction& find_construction(const std::string& name) {
  std::string known;
  for (const auto& c : all_constructions()) {
    if (c->name() == name) return *c;
    known += (known.empty() ? "" : ", ") + c->name();
  }
  throw UsageError("construction '" + name + "' does not exist (available: " + known + ")");
}

}  // namespace tverify
