#include "checkers/registry.hpp"

#include "checkers/cat/cat_construction.hpp"
#include "checkers/copy/copy_construction.hpp"
#include "checkers/count3/count3_construction.hpp"
#include "checkers/markov/markov_construction.hpp"
#include "checkers/model/model_construction.hpp"
#include "checkers/suggest.hpp"

namespace tverify {

const std::vector<std::unique_ptr<Construction>>& all_constructions() {
  static const auto registry = [] {
    std::vector<std::unique_ptr<Construction>> r;
    for (auto make : {copy::copy_construction, count3::count3_construction, cat::cat_construction,
                      markov::markov_construction, model::model_construction})
      r.push_back(std::make_unique<Construction>(make()));
    return r;
  }();
  return registry;
}

const Construction& find_construction(const std::string& name) {
  std::string known;
  std::vector<std::string> names;
  for (const auto& c : all_constructions()) {
    if (c->name() == name) return *c;
    known += (known.empty() ? "" : ", ") + c->name();
    names.push_back(c->name());
  }
  throw UsageError("construction '" + name + "' does not exist (available: " + known + ")" + did_you_mean(name, names));
}

}  // namespace tverify
