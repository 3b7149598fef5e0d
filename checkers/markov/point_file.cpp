#include "checkers/markov/point_file.hpp"

#include "io/errors.hpp"
#include "io/files.hpp"
#include "io/sha256.hpp"
#include "checkers/verdict.hpp"

#include <fmt/format.h>

namespace tverify::markov {

namespace {

std::string shape_text(const Block& b, const Shapes& s) {
  if (b.name == "b") return "a number";
  if (b.name == "e" || b.name == "a") return fmt::format("a list of d = {} numbers", s.d);
  const char* dims = b.name == "p"     ? "N x d"
                     : b.name == "W_O" ? "d x m"
                     : b.name == "W_1" ? "r x d"
                     : b.name == "W_2" ? "d x r"
                                       : "m x d";
  return fmt::format("a {} x {} matrix ({}, a list of rows)", b.rows, b.cols, dims);
}

// Weights of a trained or hand-set model are far inside this bound; past it the 128-bit enclosures of the loss lose
// their meaning (exp of a logit of 10^7 overflows nothing, but no digit of the loss would be certified).
const Exact max_entry(1'000'000);

// A JSON number is read as the decimal it is written as: the parser keeps the nearest double, whose shortest
// round-trip form (what dump() prints, and what Python's json writes for a float) is that decimal whenever it has at
// most 15 significant digits. A string holds any exact number ("1/3", "0.12345678901234567890").
Exact number(const Json& j, const std::string& where) {
  const std::string must =
      "an exact number with |x| <= 10^6 (a JSON number, read as the decimal it is written as, or "
      "a string such as \"1/3\"; got " +
      j.dump().substr(0, 60) + ")";
  try {
    Exact x;
    if (j.is_string())
      x = parse_exact(j.get<std::string>());
    else if (j.is_number())
      x = parse_exact(j.dump());  // an integer's digits exactly, past 2^63 too
    else
      throw UsageError("--point-file: " + where + " must be " + must);
    if (x > max_entry || x < -max_entry) throw UsageError("--point-file: " + where + " must be " + must);
    return x;
  } catch (const std::invalid_argument&) { throw UsageError("--point-file: " + where + " must be " + must); }
}

}  // namespace

PointFile read_point_file(const std::string& path, const Shapes& shapes) {
  const std::string what = "--point-file '" + path + "'";
  const std::string bytes = read_text_file(path, what);
  const Json j = parse_json_text(bytes, what);
  if (!j.is_object()) throw UsageError("--point-file must hold a JSON object with one key per parameter block");
  Point point{Layout(shapes)};
  for (const Block& b : point.layout.blocks()) {
    const std::string expected = shape_text(b, shapes);
    if (!j.contains(b.name))
      throw UsageError("--point-file: block " + b.name + " is missing (expected " + expected + ")");
    const Json& v = j[b.name];
    auto bad = [&] {
      return UsageError("--point-file: block " + b.name + " must be " + expected + " (got " + v.dump() + ")");
    };
    if (b.name == "b") {
      point.set(b.offset, number(v, "b"));
      continue;
    }
    const bool vector_block = b.name == "e" || b.name == "a";
    if (!v.is_array() || static_cast<int>(v.size()) != (vector_block ? b.cols : b.rows)) throw bad();
    for (int row = 0; row < b.rows; ++row) {
      const Json& r = vector_block ? v : v[row];
      if (!r.is_array() || static_cast<int>(r.size()) != b.cols) throw bad();
      for (int col = 0; col < b.cols; ++col)
        point.set(b.offset + row * b.cols + col, number(r[col], fmt::format("{}[{}]", b.name, row * b.cols + col)));
    }
  }
  for (const auto& [key, value] : j.items())
    if (!point.layout.has(key))
      throw UsageError("--point-file: '" + key + "' is not a parameter block of this model" +
                       (key == "a" ? " (a exists only without --tied)" : ""));
  return {point, sha256_hex(bytes)};
}

}  // namespace tverify::markov
