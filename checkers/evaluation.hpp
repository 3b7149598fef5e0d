// What `eval` found on one input: the text it prints, the same results as data (`result`: outputs, flags, exact
// numbers as "p/q" strings, enclosures as "[lo, hi]"), and, traced, every intermediate block as a named exact
// tensor (`eval --json`, and numpy arrays or Fractions in Python).
#pragma once

#include "checkers/verdict.hpp"
#include "core/named_weights.hpp"

#include <string>
#include <vector>

namespace tverify {

struct Evaluation {
  std::string text;
  Json result = Json::object();
  std::vector<NamedWeights> trace{};

  // Adds a traced block: `values` row-major in `shape`.
  void add_trace(std::string name, std::vector<std::size_t> shape, std::vector<QuadraticSurd> values,
                 std::string meaning);
};

// A named tensor as JSON: name, shape, meaning, and the values as exact strings ("p/q", or a + b*sqrt(r)).
Json tensor_json(const NamedWeights& tensor);

// What `eval --json` writes: the tool and its build, the command, the construction, variant, parameters and input,
// the result and the trace.
Json evaluation_json(const Evaluation& evaluation, const std::string& command, const std::string& construction,
                     const std::string& variant, const Json& params, const std::string& input);

}  // namespace tverify
