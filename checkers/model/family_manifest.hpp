// The --family manifest of `sweep model --vary family`: JSON Lines, one model per line, each line an object with the
// model's path under "onnx" and its value of one parameter under the parameter's name, the same name on every line:
//   {"beta": "1/2", "onnx": "runs/beta-0.5.onnx"}
//   {"beta": 2, "onnx": "runs/beta-2.onnx"}
// A value is exact: a JSON integer, or a string holding an integer, a fraction p/q or a decimal ("0.25"); a JSON
// number with a fraction or exponent is refused (its binary value is rarely the one meant), and so are a value whose
// double is not a normal finite number and two values of the same double (the figure could not place them). The
// parameter may not take the name of one of the sweep table's other columns (verdict, error_rate, ...). A relative
// path is read from the manifest's folder. Every defect is a UsageError naming the file and, for a line, the line.
#pragma once

#include "core/exact.hpp"

#include <string>
#include <vector>

namespace tverify::model {

struct FamilyMember {
  Exact value;
  std::string value_text;       // as written in the manifest
  std::string onnx;             // resolved against the manifest's folder
  std::string onnx_as_written;  // as the manifest gives it: what certificates record, wherever they are read from
};

struct Family {
  std::string parameter;
  std::vector<FamilyMember> members;  // by increasing value, no value twice
  std::string sha256;                 // of the manifest's bytes
};

inline constexpr std::size_t max_family_members = 1000;

Family read_family(const std::string& path);

}  // namespace tverify::model
