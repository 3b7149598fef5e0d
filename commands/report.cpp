#include "commands/report.hpp"

#include "checkers/certificate.hpp"
#include "checkers/construction.hpp"
#include "io/errors.hpp"
#include "io/plot_labels.hpp"
#include "commands/column_words.hpp"
#include "commands/table_render.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>

namespace tverify {
namespace {

std::string params_text(const Json& params) {
  std::string out;
  for (const auto& [k, v] : params.items()) out += (out.empty() ? "" : " ") + k + "=" + json_text(v);
  return out;
}

void add_unique(Cells& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
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

// Entries of an object in words, "; "-separated: its parameters ("$D$ = 2"), or its summary's numbers; true and false
// as yes and no, null left out, and the entries the caption already says (which construction, sweep and variant).
std::string settings_words(const Json& object) {
  std::string out;
  for (const auto& [key, value] : object.items()) {
    if (!value.is_primitive() || value.is_null() || key == "construction" || key == "sweep" || key == "variant")
      continue;
    const std::string text = value.is_boolean() ? (value.get<bool>() ? "yes" : "no") : json_text(value);
    out += (out.empty() ? "" : "; ") + setting_words(column_words(key), text);
  }
  return out;
}

Table per_claim(const std::vector<Json>& certs) {
  Table t{"",
          {"construction", "variant", "parameters", "claim", "domain inputs", "passed/failed/unknown", "verdict",
           "summary"},
          {},
          4};
  for (const auto& cert : certs)
    for (const auto& c : cert["claims"]) {
      Cells row = certificate_cells(cert);
      row.insert(row.end(),
                 {claim_name(c), inputs_text(cert),
                  fmt::format("{}/{}/{}", c.value("passed", 0ull), c.value("failed", 0ull), c.value("unknown", 0ull)),
                  verdict_text(c), c.value("summary", "")});
      t.rows.push_back(std::move(row));
    }
  return t;
}

Table per_certificate(const std::vector<Json>& certs) {
  Cells claims;
  for (const auto& cert : certs)
    for (const auto& c : cert["claims"]) add_unique(claims, claim_name(c));
  Table t{"", {"construction", "variant", "parameters", "domain inputs"}, {}, 3};
  t.header.insert(t.header.end(), claims.begin(), claims.end());
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
    t.rows.push_back(std::move(row));
  }
  return t;
}

// The caption of a claims table: which constructions, how many certificates.
std::string claims_caption(const std::vector<Json>& certs) {
  Cells names;
  for (const auto& cert : certs) add_unique(names, cert.value("construction", ""));
  return fmt::format("Claims checked by tverify ({}), {} certificate{}", fmt::join(names, ", "), certs.size(),
                     certs.size() == 1 ? "" : "s");
}

// Which sweep made a certificate: "sweep copy --vary tau", with " --fast" for a fast sweep.
std::string sweep_kind(const Json& cert) {
  const Json& sweep = cert["sweep"];
  return fmt::format("sweep {} --vary {}{}", cert.value("construction", ""), sweep.value("vary", ""),
                     sweep.value("fast", false) ? " --fast" : "");
}

// The same in words, for LaTeX: "Sweep of copy over $\tau$ (fast path)".
std::string sweep_kind_words(const Json& cert) {
  const Json& sweep = cert["sweep"];
  return fmt::format("Sweep of {} over {}{}", plot_words(cert.value("construction", "")),
                     column_words(vary_key(sweep.value("vary", ""))), sweep.value("fast", false) ? " (fast path)" : "");
}

// Each header key in its words.
void name_columns(Table& t) {
  for (const auto& key : t.header) t.words[key] = column_words(key);
}

// A sweep certificate: its caption names the sweep and its summary's numbers; one row per probe.
Table sweep_table(const Json& cert) {
  std::string summary;
  for (const auto& [key, value] : cert["summary"].items())
    if (value.is_primitive()) summary += (summary.empty() ? "" : "; ") + key + ": " + json_text(value);
  Table t{fmt::format("{} ({}; variant {}; {}): {}", sweep_kind(cert), cert["sweep"].value("output", ""),
                      cert.value("variant", ""), params_text(cert["params"]), summary),
          cert["probes"]["columns"].get<Cells>(),
          {},
          1};
  const std::string summary_words = settings_words(cert["summary"]);
  t.latex_caption = fmt::format("{} ({}; variant {}; {}){}", sweep_kind_words(cert),
                                plot_words(cert["sweep"].value("output", "")), plot_words(cert.value("variant", "")),
                                settings_words(cert["params"]), summary_words.empty() ? "" : ": " + summary_words);
  name_columns(t);
  for (const auto& row : cert["probes"]["rows"]) t.rows.push_back(row.get<Cells>());
  return t;
}

// Certificates of one kind of sweep, one row each: construction, variant and every parameter (the key columns), then
// every other number of the summary (an entry named as a key column is that column). The probes stay in the
// certificates.
Table sweep_summary_table(const std::vector<Json>& certs) {
  Cells keys{"construction", "variant"}, summary;
  for (const auto& cert : certs)
    for (const auto& [key, value] : cert["params"].items()) add_unique(keys, key);
  for (const auto& cert : certs)
    for (const auto& [key, value] : cert["summary"].items())
      if (value.is_primitive() && std::find(keys.begin(), keys.end(), key) == keys.end()) add_unique(summary, key);
  const Cells params(keys.begin() + 2, keys.end());
  Table t{fmt::format("{}, {} certificate{}", sweep_kind(certs.front()), certs.size(), certs.size() == 1 ? "" : "s"),
          keys,
          {},
          keys.size()};
  t.header.insert(t.header.end(), summary.begin(), summary.end());
  t.constant_columns_in_caption = true;
  t.latex_caption =
      fmt::format("{}, {} certificate{}", sweep_kind_words(certs.front()), certs.size(), certs.size() == 1 ? "" : "s");
  name_columns(t);
  auto cell = [](const Json& object, const std::string& key) {
    return object.contains(key) && object[key].is_primitive() ? json_text(object[key]) : "";
  };
  for (const auto& cert : certs) {
    Cells row{cert.value("construction", ""), cert.value("variant", "")};
    for (const auto& key : params) row.push_back(cell(cert["params"], key));
    for (const auto& key : summary) row.push_back(cell(cert["summary"], key));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// The sweep certificates' tables: one per certificate, its probes as rows (PerClaim), or one per kind of sweep, in
// order of first appearance, its certificates as rows (PerCertificate).
std::vector<Table> sweep_tables(const std::vector<Json>& sweeps, TableLayout layout) {
  std::vector<Table> tables;
  if (layout == TableLayout::PerClaim) {
    for (const auto& cert : sweeps) tables.push_back(sweep_table(cert));
    return tables;
  }
  Cells kinds;
  for (const auto& cert : sweeps) add_unique(kinds, sweep_kind(cert));
  for (const auto& kind : kinds) {
    std::vector<Json> group;
    std::copy_if(sweeps.begin(), sweeps.end(), std::back_inserter(group),
                 [&](const Json& cert) { return sweep_kind(cert) == kind; });
    tables.push_back(sweep_summary_table(group));
  }
  return tables;
}

// The tool versions and commits the certificates were made with, for the note under a LaTeX table.
std::string provenance_note(const std::vector<Json>& certs) {
  Cells builds;
  for (const auto& cert : certs) {
    const std::string commit = cert.value("commit", "");
    const std::string build = "tverify " + cert.value("version", "?") + ", commit " +
                              (commit.size() > 12 ? commit.substr(0, 12) : commit) +
                              (commit.find("-dirty") != std::string::npos ? " (with local changes)" : "");
    add_unique(builds, build);
  }
  return fmt::format("Certificates made by {}; each re-runs with tverify recheck.", fmt::join(builds, "; "));
}

// Every column name of the tables, for the message of an unknown --columns entry.
void require_known_columns(const std::vector<Table>& tables, const std::vector<std::string>& names) {
  Cells known;
  for (const auto& t : tables)
    for (const auto& h : t.header) add_unique(known, h);
  for (const auto& name : names)
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw UsageError(
          fmt::format("--columns: '{}' is not a column of these tables (columns: {})", name, fmt::join(known, ", ")));
}

}  // namespace

std::string certificates_table(const std::vector<Json>& certificates, TableFormat format, TableLayout layout,
                               const std::vector<std::string>& columns) {
  std::vector<Json> claims, sweeps;
  for (const auto& cert : certificates) (cert.value("verb", "check") == "sweep" ? sweeps : claims).push_back(cert);
  std::vector<Table> tables = sweep_tables(sweeps, layout);
  if (!claims.empty()) {
    tables.insert(tables.begin(), layout == TableLayout::PerClaim ? per_claim(claims) : per_certificate(claims));
    tables.front().caption = claims_caption(claims);
  }
  if (!columns.empty()) require_known_columns(tables, columns);
  const std::string note = provenance_note(certificates);
  std::string out;
  for (auto& t : tables) {
    if (!columns.empty() && !keep_columns(t, columns)) continue;
    out += (out.empty() ? "" : "\n") +
           (format == TableFormat::Markdown
                ? markdown_table(t)
                : latex_table(t, note,
                              format == TableFormat::LatexTwoColumn ? LatexLayout::TwoColumn : LatexLayout::OneColumn));
  }
  return out;
}

}  // namespace tverify
