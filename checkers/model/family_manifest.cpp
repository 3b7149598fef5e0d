#include "checkers/model/family_manifest.hpp"

#include "io/errors.hpp"
#include "io/files.hpp"
#include "io/sha256.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

namespace tverify::model {
namespace {

// The columns of the family sweep's table beside the parameter's: a parameter may not take one of their names.
const std::vector<std::string> column_names{"value_exact", "verdict",    "inputs",          "failed",
                                            "unknown",     "error_rate", "error_rate_upper"};

bool is_parameter_name(const std::string& name) {
  if (name.empty() || name.size() > 40 || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.';
  });
}

// The exact value of `v`, and its text as written; `at` names the line in messages.
std::pair<Exact, std::string> exact_value(const Json& v, const std::string& at) {
  if (v.is_number_integer()) return {parse_exact(v.dump()), v.dump()};
  if (v.is_number())
    throw UsageError(at + ": the value " + v.dump() + " is a binary floating-point number; write it as a string (\"" +
                     v.dump() + "\") so that it is exact");
  if (!v.is_string()) throw UsageError(at + ": the value must be an integer, or a string such as \"1/2\" or \"0.25\"");
  const std::string text = v.get<std::string>();
  try {
    if (text.empty() || text.size() > 100) throw std::invalid_argument("length");
    return {parse_exact(text), text};
  } catch (const std::exception&) {
    throw UsageError(at + ": the value '" + text.substr(0, 100) +
                     "' is not an exact number (an integer, p/q or a decimal such as 0.25)");
  }
}

}  // namespace

Family read_family(const std::string& path) {
  const std::string what = "--family '" + path + "'";
  const std::string bytes = read_text_file(path, what, 16u << 20);
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  Family family;
  family.sha256 = sha256_hex(bytes);
  std::istringstream lines(bytes);
  std::string line;
  for (std::size_t number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string at = what + " line " + std::to_string(number);
    const Json j = parse_json_text(line, at);
    if (!j.is_object() || j.size() != 2 || !j.contains("onnx"))
      throw UsageError(at + ": must be an object of two fields, \"onnx\" (the model's path) and one parameter's value");
    if (!j["onnx"].is_string() || j["onnx"].get<std::string>().empty())
      throw UsageError(at + ": \"onnx\" must be the model's path, a non-empty string");
    const auto parameter =
        std::find_if(j.items().begin(), j.items().end(), [](const auto& item) { return item.key() != "onnx"; });
    const std::string name = parameter.key();
    if (!is_parameter_name(name))
      throw UsageError(at + ": the parameter's name '" + name.substr(0, 40) +
                       "' must be a letter or _ then letters, digits, _, - or . (at most 40)");
    if (std::find(column_names.begin(), column_names.end(), name) != column_names.end())
      throw UsageError(at + ": the parameter's name '" + name + "' is a column of the sweep's table; rename it");
    if (family.parameter.empty()) family.parameter = name;
    if (name != family.parameter)
      throw UsageError(at + ": names the parameter '" + name + "'; the lines before name '" + family.parameter + "'");
    if (family.members.size() == max_family_members)
      throw UsageError(what + ": more than " + std::to_string(max_family_members) + " models");
    auto [value, text] = exact_value(parameter.value(), at);
    for (const FamilyMember& m : family.members)
      if (m.value == value)
        throw UsageError(at + ": " + name + " = " + text + " is the value of an earlier line (" + m.value_text + ")");
    const std::filesystem::path onnx = j["onnx"].get<std::string>();
    family.members.push_back(
        {std::move(value), std::move(text), (onnx.is_absolute() ? onnx : folder / onnx).string(), onnx.string()});
  }
  if (family.members.empty()) throw UsageError(what + ": no model (one JSON object per line)");
  std::sort(family.members.begin(), family.members.end(),
            [](const FamilyMember& a, const FamilyMember& b) { return a.value < b.value; });
  // The figure places each value at its double: each must be a normal finite number (or 0), and no two the same.
  for (std::size_t i = 0; i < family.members.size(); ++i) {
    const FamilyMember& m = family.members[i];
    const double x = m.value.convert_to<double>();
    if (m.value != 0 && !std::isnormal(x))
      throw UsageError(what + ": " + family.parameter + " = " + m.value_text +
                       " is beyond what the figure can place (a double from about 1e-300 to 1e300 in magnitude)");
    if (i > 0 && x == family.members[i - 1].value.convert_to<double>())
      throw UsageError(what + ": " + family.parameter + " = " + family.members[i - 1].value_text + " and " +
                       m.value_text + " fall on the same point of the figure (the same double)");
  }
  return family;
}

}  // namespace tverify::model
