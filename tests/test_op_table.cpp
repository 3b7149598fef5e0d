// The op table (model/op_table.hpp) against docs/model.md's list of supported ops, and the table's own invariants.
#include "model/op_table.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

using tverify::model::OpArithmetic;
using tverify::model::OpSpec;

// The ops a paragraph of docs/model.md's "Supported ops" lists after `lead` ("Rational (exact):"), each item's first
// word, with parentheticals dropped.
std::set<std::string> documented_ops(const std::string& lead) {
  std::ifstream in(std::string(TVERIFY_SOURCE_DIR) + "/docs/model.md");
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  const std::size_t start = text.find(lead);
  REQUIRE(start != std::string::npos);
  const std::size_t end = text.find("\n\n", start);
  std::string paragraph = text.substr(start + lead.size(), end - start - lead.size());
  paragraph = std::regex_replace(paragraph, std::regex(R"(\([^)]*\))"), "");
  std::set<std::string> ops;
  const std::regex item(R"(([A-Za-z]+)[^,.]*[,.])");
  for (auto it = std::sregex_iterator(paragraph.begin(), paragraph.end(), item); it != std::sregex_iterator(); ++it)
    ops.insert((*it)[1]);
  return ops;
}

std::set<std::string> table_ops(bool rational) {
  std::set<std::string> ops;
  for (const OpSpec& op : tverify::model::op_table()) {
    const bool exact = op.arithmetic == OpArithmetic::Rational || op.arithmetic == OpArithmetic::Power;
    const bool enclosed = op.arithmetic != OpArithmetic::Rational;  // Pow is both, by its exponent
    if (rational ? exact : enclosed) ops.insert(std::string(op.name));
  }
  return ops;
}

}  // namespace

TEST_CASE("op table: docs/model.md lists exactly the table's ops, rational and enclosed", "[op_table]") {
  CHECK(documented_ops("Rational (exact):") == table_ops(true));
  CHECK(documented_ops("Enclosed (double intervals, then MPFI):") == table_ops(false));
}

TEST_CASE("op table: one row per op, found by name, with an evaluation in every scalar type", "[op_table]") {
  const auto& table = tverify::model::op_table();
  std::set<std::string_view> names;
  for (const OpSpec& op : table) {
    INFO(op.name);
    CHECK(names.insert(op.name).second);
    CHECK(tverify::model::find_op(op.name) == &op);
    std::apply([](auto... evaluation) { CHECK(((evaluation != nullptr) && ...)); }, op.evaluations);
  }
  CHECK(tverify::model::find_op("GatherND") == nullptr);
  CHECK(tverify::model::find_op("") == nullptr);
  CHECK(tverify::model::find_op("abs") == nullptr);  // ONNX op names are case-sensitive
}
