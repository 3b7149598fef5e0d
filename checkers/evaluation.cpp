#include "checkers/evaluation.hpp"

#include "checkers/build_info.hpp"

namespace tverify {

void Evaluation::add_trace(std::string name, std::vector<std::size_t> shape, std::vector<QuadraticSurd> values,
                           std::string meaning) {
  trace.push_back({std::move(name), std::move(shape), std::move(values), std::move(meaning)});
}

Json tensor_json(const NamedWeights& tensor) {
  Json values = Json::array();
  for (std::size_t i = 0; i < tensor.values.size(); ++i) {
    const bool symbolic = i < tensor.symbolic.size() && tensor.symbolic[i];
    values.push_back(symbolic ? "[" + exact_to_string(tensor.symbolic[i]->lower) + ", " +
                                    exact_to_string(tensor.symbolic[i]->upper) + "]"
                              : tensor.values[i].to_string());
  }
  return Json{{"name", tensor.name}, {"shape", tensor.shape}, {"meaning", tensor.meaning}, {"values", values}};
}

Json evaluation_json(const Evaluation& evaluation, const std::string& command, const std::string& construction,
                     const std::string& variant, const Json& params, const std::string& input) {
  Json trace = Json::array();
  for (const auto& t : evaluation.trace) trace.push_back(tensor_json(t));
  return Json{{"tool", "tverify"}, {"version", tool_version()},    {"commit", tool_commit()}, {"command", command},
              {"verb", "eval"},    {"construction", construction}, {"variant", variant},      {"params", params},
              {"input", input},    {"result", evaluation.result},  {"trace", trace}};
}

}  // namespace tverify
