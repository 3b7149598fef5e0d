#include "checkers/report.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tverify {
namespace {

using Cells = std::vector<std::string>;

std::string params_text(const Json& params) {
  std::string out;
  for (const auto& [k, v] : params.items())
    out += (out.empty() ? "" : " ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

std::string claim_name(const Json& c) {
  std::string name = c.value("id", "");
  if (c.contains("reading")) name += " (" + c["reading"].get<std::string>() + ")";
  return name;
}

// A vacuous verdict says what the check found outside the claim's hypotheses.
std::string verdict_text(const Json& c) {
  const std::string verdict = c.value("verdict", "");
  if (verdict != "vacuous") return verdict;
  return verdict + " (" + finding_text(verdict_from_string(c.value("finding", "unknown"))) + " outside hypotheses)";
}

std::string inputs_text(const Json& cert) {
  return cert.contains("domain") ? cert["domain"].value("inputs", Json(0)).dump() : "";
}

Cells certificate_cells(const Json& cert) {
  return {cert.value("construction", ""), cert.value("variant", ""), params_text(cert["params"])};
}

void per_claim(const std::vector<Json>& certs, Cells& header, std::vector<Cells>& rows) {
  header = {"construction", "variant", "parameters", "claim", "domain inputs", "passed/failed/unknown", "verdict",
            "summary"};
  for (const auto& cert : certs)
    for (const auto& c : cert["claims"]) {
      Cells row = certificate_cells(cert);
      row.insert(row.end(), {claim_name(c), inputs_text(cert),
                             fmt::format("{}/{}/{}", c.value("passed", 0ull), c.value("failed", 0ull),
                                         c.value("unknown", 0ull)),
                             verdict_text(c), c.value("summary", "")});
      rows.push_back(std::move(row));
    }
}

void per_certificate(const std::vector<Json>& certs, Cells& header, std::vector<Cells>& rows) {
  Cells claims;
  for (const auto& cert : certs)
    for (const auto& c : cert["claims"])
      if (std::find(claims.begin(), claims.end(), claim_name(c)) == claims.end()) claims.push_back(claim_name(c));
  header = {"construction", "variant", "parameters", "domain inputs"};
  header.insert(header.end(), claims.begin(), claims.end());
  for (const auto& cert : certs) {
    Cells row = certificate_cells(cert);
    row.push_back(inputs_text(cert));
    for (const auto& name : claims) {
      std::string cell;
      for (const auto& c : cert["claims"])
        if (claim_name(c) == name)
          cell = verdict_text(c) + (c.value("summary", "").empty() ? "" : ": " + c.value("summary", ""));
      row.push_back(cell);
    }
    rows.push_back(std::move(row));
  }
}

std::string latex_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '&' || c == '%' || c == '#' || c == '$' || c == '{' || c == '}') out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string render(const Cells& header, const std::vector<Cells>& rows, TableFormat format) {
  std::string out;
  auto line = [&](const Cells& cells) {
    if (format == TableFormat::Markdown) {
      out += "|";
      for (const auto& c : cells) out += " " + markdown_escape(c) + " |";
      out += "\n";
    } else {
      for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? " & " : "") + latex_escape(cells[i]);
      out += " \\\\\n";
    }
  };
  if (format == TableFormat::Latex) out += "\\begin{tabular}{" + std::string(header.size(), 'l') + "}\n\\hline\n";
  line(header);
  if (format == TableFormat::Markdown) {
    out += "|";
    for (std::size_t i = 0; i < header.size(); ++i) out += "---|";
    out += "\n";
  } else {
    out += "\\hline\n";
  }
  for (const auto& r : rows) line(r);
  if (format == TableFormat::Latex) out += "\\hline\n\\end{tabular}\n";
  return out;
}

// A sweep certificate: a line naming the sweep and its summary's numbers, then one row per probe.
std::string sweep_table(const Json& cert, TableFormat format) {
  const Json& sweep = cert["sweep"];
  std::string summary;
  for (const auto& [key, value] : cert["summary"].items())
    if (value.is_primitive())
      summary += (summary.empty() ? "" : "; ") + key + ": " + (value.is_string() ? value.get<std::string>() : value.dump());
  const std::string title =
      fmt::format("sweep {} --vary {}{} ({}; variant {}; {}): {}", cert.value("construction", ""),
                  sweep.value("vary", ""), sweep.value("fast", false) ? " --fast" : "", sweep.value("output", ""),
                  cert.value("variant", ""), params_text(cert["params"]), summary);
  std::vector<Cells> rows;
  for (const auto& row : cert["probes"]["rows"]) rows.push_back(row.get<Cells>());
  const std::string heading =
      format == TableFormat::Markdown ? markdown_escape(title) + "\n\n" : "% " + latex_escape(title) + "\n";
  return heading + render(cert["probes"]["columns"].get<Cells>(), rows, format);
}

}  // namespace

std::string certificates_table(const std::vector<Json>& certificates, TableFormat format, TableLayout layout) {
  std::vector<Json> claims, sweeps;
  for (const auto& cert : certificates) (cert.value("verb", "check") == "sweep" ? sweeps : claims).push_back(cert);
  std::string out;
  if (!claims.empty()) {
    Cells header;
    std::vector<Cells> rows;
    if (layout == TableLayout::PerClaim)
      per_claim(claims, header, rows);
    else
      per_certificate(claims, header, rows);
    out += render(header, rows, format);
  }
  for (const auto& sweep : sweeps) out += (out.empty() ? "" : "\n") + sweep_table(sweep, format);
  return out;
}

}  // namespace tverify
