#include "checkers/report.hpp"

#include <fmt/format.h>

namespace tverify {
namespace {

std::string params_text(const Json& params) {
  std::string out;
  for (const auto& [k, v] : params.items()) {
    out += (out.empty() ? "" : " ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  return out;
}

std::string latex_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '&' || c == '%' || c == '#' || c == '$' || c == '{' || c == '}') out += '\\';
    out += c;
  }
  return out;
}

struct Row {
  std::string construction, variant, params, claim, inputs, counts, verdict;
};

std::vector<Row> rows_of(const std::vector<Json>& certificates) {
  std::vector<Row> rows;
  for (const auto& cert : certificates) {
    const std::string inputs = cert.contains("domain") ? cert["domain"].value("inputs", Json(0)).dump() : "";
    for (const auto& c : cert["claims"]) {
      std::string claim = c.value("id", "");
      if (c.contains("reading")) claim += " (" + c["reading"].get<std::string>() + ")";
      std::string verdict = c.value("verdict", "");
      if (c.value("outside_hypotheses", false)) verdict += ", outside hypotheses";
      rows.push_back({cert.value("construction", ""), cert.value("variant", ""), params_text(cert["params"]), claim,
                      inputs,
                      fmt::format("{}/{}/{}", c.value("passed", 0ull), c.value("failed", 0ull),
                                  c.value("unknown", 0ull)),
                      verdict});
    }
  }
  return rows;
}

}  // namespace

std::string certificates_table(const std::vector<Json>& certificates, TableFormat format) {
  const auto rows = rows_of(certificates);
  std::string out;
  if (format == TableFormat::Markdown) {
    out += "| construction | variant | parameters | claim | domain inputs | passed/failed/unknown | verdict |\n";
    out += "|---|---|---|---|---|---|---|\n";
    for (const auto& r : rows)
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", r.construction, r.variant, r.params, r.claim,
                         r.inputs, r.counts, r.verdict);
    return out;
  }
  out += "\\begin{tabular}{lllllll}\n\\hline\n";
  out += "construction & variant & parameters & claim & domain inputs & passed/failed/unknown & verdict \\\\\n\\hline\n";
  for (const auto& r : rows)
    out += fmt::format("{} & {} & {} & {} & {} & {} & {} \\\\\n", latex_escape(r.construction),
                       latex_escape(r.variant), latex_escape(r.params), latex_escape(r.claim), r.inputs, r.counts,
                       latex_escape(r.verdict));
  out += "\\hline\n\\end{tabular}\n";
  return out;
}

}  // namespace tverify
