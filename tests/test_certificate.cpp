// checkers/certificate and report: the format of docs/certificate.md, atomic writes, and the validation recheck relies
// on.
#include "checkers/certificate.hpp"
#include "io/errors.hpp"
#include "io/latex_text.hpp"
#include "checkers/sweep_output.hpp"
#include "commands/report.hpp"
#include "commands/table_render.hpp"

#include <catch2/catch.hpp>
#include <gmp.h>
#include <mpfi.h>
#include <mpfr.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace tverify;
namespace fs = std::filesystem;

namespace {

CheckReport sample_report() {
  CheckReport r;
  r.construction = "copy";
  r.variant = "paper";
  r.params = Json{{"D", 2}, {"n", 2}, {"L", 5}};
  r.arithmetic = "exact";
  r.domain_description = "every string";
  r.domain_inputs = 32;
  ClaimResult c;
  c.id = "copy.alg1";
  c.statement = "copies";
  c.verdict = Verdict::Refuted;
  c.checked = 32;
  c.passed = 20;
  c.failed = 12;
  c.counterexamples.push_back({Json({1, 1, 1, 1, 0}), Json({1, 1, 1, 1, 0}), Json({1, 1, 1, 1, 1}), "step 5"});
  r.claims.push_back(c);
  return r;
}

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / ("tverify-cert-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// A tau sweep's certificate, with what the report reads: its sweep, parameters, summary and probes.
Json tau_sweep_certificate(int L, const std::string& smallest_verified) {
  return Json{
      {"verb", "sweep"},
      {"construction", "copy"},
      {"variant", "corrected"},
      {"version", "0.1.0"},
      {"commit", "abc"},
      {"params", {{"D", 2}, {"n", 2}, {"L", L}}},
      {"sweep", {{"vary", "tau"}, {"fast", false}, {"output", "tau-L" + std::to_string(L)}}},
      {"summary", {{"construction", "copy"}, {"resolution", "1/16"}, {"smallest_verified_tau", smallest_verified}}},
      {"probes",
       {{"columns", {"tau", "verdict"}},
        {"rows", Json::array({Json::array({"1", "refuted"}), Json::array({smallest_verified, "verified"})})}}}};
}

}  // namespace

TEST_CASE("certificate fields follow docs/certificate.md", "[certificate]") {
  const Json j = certificate_json(sample_report(), "tverify check copy");
  for (const char* field : {"tool", "version", "commit", "command", "construction", "variant", "params", "arithmetic",
                            "domain", "claims", "elapsed_s"})
    CHECK(j.contains(field));
  CHECK(j["tool"] == "tverify");
  CHECK(j["domain"]["inputs"] == 32);
  const Json& claim = j["claims"][0];
  CHECK(claim["verdict"] == "refuted");
  CHECK(claim["checked"] == 32);
  CHECK(claim["passed"] == 20);
  CHECK(claim["failed"] == 12);
  CHECK(claim["counterexamples"][0]["got"] == Json({1, 1, 1, 1, 1}));
  // the libraries as linked into this test: the same version strings their own headers' functions give
  CHECK(j["libraries"]["gmp"] == std::string(gmp_version));
  CHECK(j["libraries"]["mpfr"] == std::string(mpfr_get_version()));
  CHECK(j["libraries"]["mpfi"] == std::string(mpfi_get_version()));
  CHECK(j["libraries"]["boost"].get<std::string>().rfind("1.", 0) == 0);
  CHECK(j["libraries"].contains("z3"));
}

TEST_CASE("library versions are recorded, not compared, and must be strings", "[certificate]") {
  Json stored = certificate_json(sample_report(), "cmd");
  const Json fresh = stored;
  stored["libraries"]["mpfr"] = "3.1.0";  // made elsewhere: the verdicts must still compare equal
  CHECK(compare_certificates(stored, fresh).empty());
  stored["libraries"]["mpfr"] = 3;
  CHECK_THROWS_WITH(validated_certificate(stored, "c"), Catch::Contains("libraries.mpfr"));
}

TEST_CASE("a written certificate loads back unchanged", "[certificate]") {
  const fs::path path = temp_dir() / "ok.json";
  const Json j = certificate_json(sample_report(), "cmd");
  write_json_atomically(path.string(), j);
  CHECK(load_certificate(path.string()) == j);
  CHECK_FALSE(fs::exists(path.string() + ".tmp"));
}

TEST_CASE("corrupt certificates are refused with a reason", "[certificate]") {
  const fs::path dir = temp_dir();
  const std::string full = certificate_json(sample_report(), "cmd").dump();
  write_text(dir / "truncated.json", full.substr(0, full.size() / 2));
  write_text(dir / "garbage.json", "this is not json");
  write_text(dir / "other.json", R"({"tool": "someone-else", "claims": []})");
  write_text(dir / "fields.json", R"({"tool": "tverify", "construction": "copy"})");
  write_text(dir / "badclaim.json",
             R"({"tool": "tverify", "construction": "copy", "variant": "paper", "params": {}, "claims": [{}]})");
  CHECK_THROWS_WITH(load_certificate((dir / "truncated.json").string()), Catch::Contains("truncated"));
  CHECK_THROWS_WITH(load_certificate((dir / "garbage.json").string()), Catch::Contains("not JSON"));
  CHECK_THROWS_WITH(load_certificate((dir / "other.json").string()), Catch::Contains("not a tverify certificate"));
  CHECK_THROWS_WITH(load_certificate((dir / "fields.json").string()), Catch::Contains("lacks the field"));
  CHECK_THROWS_WITH(load_certificate((dir / "badclaim.json").string()),
                    Catch::Contains("lacks the field \"claims[0].id\""));
  CHECK_THROWS_AS(load_certificate((dir / "missing.json").string()), UsageError);
  Json future = certificate_json(sample_report(), "cmd");
  CHECK(future["format_version"] == 1);
  future["format_version"] = 2;
  write_text(dir / "future.json", future.dump());
  CHECK_THROWS_WITH(load_certificate((dir / "future.json").string()),
                    Catch::Contains("has format_version 2; this tverify reads format 1"));
  future.erase("format_version");  // a certificate written before the field: format 1
  write_text(dir / "unversioned.json", future.dump());
  CHECK_NOTHROW(load_certificate((dir / "unversioned.json").string()));
}

TEST_CASE("ensure_writable refuses missing directories and directories as files, creating nothing", "[certificate]") {
  const fs::path dir = temp_dir();
  CHECK_THROWS_WITH(ensure_writable((dir / "no-such-dir" / "c.json").string()), Catch::Contains("does not exist"));
  CHECK_THROWS_WITH(ensure_writable(dir.string()), Catch::Contains("is a directory"));
  CHECK_NOTHROW(ensure_writable((dir / "fresh.json").string()));
  CHECK_FALSE(fs::exists(dir / "fresh.json"));
}

TEST_CASE("report tables list one row per claim, in Markdown and LaTeX", "[report]") {
  const std::vector<Json> certs{certificate_json(sample_report(), "cmd")};
  const std::string md = certificates_table(certs, TableFormat::Markdown);
  CHECK(md.find("| copy | paper | D=2 n=2 L=5 | copy.alg1 | 32 | 20/12/0 | refuted |") != std::string::npos);
  const std::string wide = certificates_table(certs, TableFormat::Markdown, TableLayout::PerCertificate);
  CHECK(wide.find("| construction | variant | parameters | domain inputs | copy.alg1 |") != std::string::npos);
  CHECK(wide.find("| copy | paper | D=2 n=2 L=5 | 32 | refuted |") != std::string::npos);
  Json with_pipe = certs.front();
  with_pipe["claims"][0]["summary"] = "bound 1 - |S|/D^L";
  CHECK(certificates_table({with_pipe}, TableFormat::Markdown).find("1 - \\|S\\|/D^L |") != std::string::npos);
  const std::string tex = certificates_table({with_pipe}, TableFormat::Latex);
  CHECK(tex.find("\\begin{longtable}") != std::string::npos);
  CHECK(tex.find("\\toprule") != std::string::npos);
  // One certificate: its construction, variant and parameters are the same in every row, so the caption says them.
  CHECK(tex.find("\\caption[{Claims checked by tverify (copy), 1 certificate (construction: copy; variant: paper; "
                 "parameters: D=2 n=2 L=5)}]") != std::string::npos);
  // The footnote counter is stepped once, before the table: a \footnotemark in the caption would step it twice.
  CHECK(tex.find("\\begingroup\\footnotesize\n\\stepcounter{footnote}\n\\begin{longtable}") == 0);
  CHECK(tex.find("\\footnotemark[\\value{footnote}]}") != std::string::npos);
  CHECK(tex.find("\\footnotetext[\\value{footnote}]{Certificates made by tverify") != std::string::npos);
  CHECK(tex.find("copy.\\allowbreak{}alg1") != std::string::npos);
  CHECK(tex.find("bound 1 - $|$S$|$/\\allowbreak{}D\\^{}L") != std::string::npos);
  CHECK(tex.find("|S|") == std::string::npos);  // no bare | < > _ reaches LaTeX
}

TEST_CASE("report --wide tabulates the certificates of one kind of sweep one row each", "[report]") {
  const std::vector<Json> certs{tau_sweep_certificate(4, "21/16"), tau_sweep_certificate(5, "3/2")};
  // One row per probe, one table per certificate.
  const std::string probes = certificates_table(certs, TableFormat::Markdown);
  CHECK(probes.find("| tau | verdict |\n|---|---|\n| 1 | refuted |\n| 21/16 | verified |") != std::string::npos);
  CHECK(probes.find("| 3/2 | verified |") != std::string::npos);
  // One table, one row per certificate: parameters, then the summary (its construction is the certificate's).
  const std::string md = certificates_table(certs, TableFormat::Markdown, TableLayout::PerCertificate);
  CHECK(md.find("sweep copy --vary tau, 2 certificates\n") == 0);
  CHECK(md.find("| construction | variant | D | n | L | resolution | smallest_verified_tau |\n") != std::string::npos);
  CHECK(md.find("| copy | corrected | 2 | 2 | 4 | 1/16 | 21/16 |\n| copy | corrected | 2 | 2 | 5 | 1/16 | 3/2 |") !=
        std::string::npos);
  CHECK(md.find("| 1 | refuted |") == std::string::npos);
  // LaTeX: the columns with one value in every row, parameters or summary, are said once in the caption, and
  // captions and column headers are in words, parameters in math (Markdown keeps the keys --columns selects by).
  const std::string tex = certificates_table(certs, TableFormat::Latex, TableLayout::PerCertificate);
  CHECK(tex.find("{Sweep of copy over $\\tau$, 2 certificates (construction: copy; variant: corrected; $D$ = 2; "
                 "$n$ = 2; resolution: 1/16)}") != std::string::npos);
  CHECK(tex.find("$L$ & smallest verified $\\tau$ \\tabularnewline\n\\midrule\n\\endfirsthead") != std::string::npos);
  CHECK(tex.find("tau_") == std::string::npos);
  CHECK(tex.find("tau\\_") == std::string::npos);
  // One table per certificate: its summary's numbers in the caption, in words.
  const std::string each = certificates_table({certs[0]}, TableFormat::Latex);
  CHECK(each.find("{Sweep of copy over $\\tau$ (tau-L4; variant corrected; $D$ = 2; $n$ = 2; $L$ = 4): "
                  "resolution: 1/16; smallest verified $\\tau$: 21/16") != std::string::npos);
  Json flagged = certs[0];  // a flag in words, a missing number left out
  flagged["summary"]["monotone_on_probes"] = true;
  flagged["summary"]["largest_failing_tau"] = nullptr;
  const std::string said = certificates_table({flagged}, TableFormat::Latex);
  CHECK(said.find("smallest verified $\\tau$: 21/16; monotone on probes: yes") != std::string::npos);
  CHECK(said.find("null") == std::string::npos);
  CHECK(each.find("$\\tau$ & verdict \\tabularnewline") != std::string::npos);
  CHECK(tex.find("5 & 3/2 \\tabularnewline") != std::string::npos);
  // Another kind of sweep gets its own table; a single certificate keeps every column.
  Json other = tau_sweep_certificate(4, "21/16");
  other["sweep"]["vary"] = "L";
  const std::string two =
      certificates_table({certs[0], other, certs[1]}, TableFormat::Latex, TableLayout::PerCertificate);
  CHECK(two.find("{Sweep of copy over $\\tau$, 2 certificates (") != std::string::npos);
  CHECK(
      two.find("{Sweep of copy over $L$, 1 certificate (construction: copy; variant: corrected; $D$ = 2; $n$ = 2)}") !=
      std::string::npos);
  CHECK(two.find("$L$ & resolution & smallest verified $\\tau$") != std::string::npos);
}

TEST_CASE("LaTeX escapes every special character and splits a table wider than a page", "[report]") {
  CHECK(latex_escape("a_b & 50% #1 $x$ {y} \\z ^ ~ < > |") ==
        "a\\_\\allowbreak{}b \\& 50\\% \\#1 \\$x\\$ \\{y\\} $\\backslash$z \\^{} \\~{} $<$ $>$ $|$");
  CHECK(latex_escape("\xcf\x84 \xe2\x89\xa4 1") == "$\\tau$ $\\le$ 1");  // tau, <= in UTF-8
  CHECK(latex_escape("\xe2\x98\x83") == "[U+2603]");                     // no unknown character stops pdflatex
  CHECK(latex_escape("d ln(8Kd) <= 19.4, x >= 0, a < b") == "d ln(8Kd) $\\le$ 19.4, x $\\ge$ 0, a $<$ b");
  Table wide{"wide", {"key"}, {{"k"}}, 1};
  for (int c = 1; c <= 10; ++c) {
    wide.header.push_back("c" + std::to_string(c));
    wide.rows[0].push_back(std::to_string(c));
  }
  const std::string tex = latex_table(wide, "note");
  CHECK(tex.find("{wide (part 1 of 2)\\footnotemark[\\value{footnote}]}") != std::string::npos);
  CHECK(tex.find("{wide (part 2 of 2)\\footnotemark[\\value{footnote}]}") != std::string::npos);
  CHECK(tex.find("key & c8 & c9 & c10 \\tabularnewline") != std::string::npos);  // the key column repeated in part 2
  CHECK(keep_columns(wide, {"c10", "key"}));
  CHECK(wide.header == Cells{"key", "c10"});
  CHECK_FALSE(keep_columns(wide, {"none"}));
}

TEST_CASE("two-column LaTeX: a table of many parts and rows is set (\\clearpage) every 8 floats over all its parts",
          "[certificate]") {
  // 64 columns of 12-character words (5 a part beside the key: 13 parts) and 60 rows (2 floats a part): 26 floats.
  Table t{"many", {"key"}, {}, 1};
  for (int c = 1; c <= 64; ++c) t.header.push_back(fmt::format("column{:06}", c));
  for (int r = 0; r < 60; ++r) {
    t.rows.push_back({fmt::format("row{}", r)});
    for (int c = 1; c <= 64; ++c) t.rows.back().push_back(fmt::format("value{:07}", r * c));
  }
  const std::string tex = latex_table(t, "note", LatexLayout::TwoColumn);
  std::size_t floats = 0, since_flush = 0, most = 0;
  for (std::size_t at = 0; (at = tex.find('\\', at)) != std::string::npos; ++at) {
    if (tex.compare(at, 14, "\\begin{table*}") == 0) most = std::max(most, ++since_flush), ++floats;
    if (tex.compare(at, 10, "\\clearpage") == 0) since_flush = 0;
  }
  CHECK(floats > 16);
  CHECK(most == 8);
  CHECK(tex.find("longtable") == std::string::npos);
  CHECK(tex.rfind("\\clearpage\n") == tex.size() - 11);  // and after the table
}

TEST_CASE("compare_certificates names every field that differs, timings and the command aside", "[certificate]") {
  const Json stored = certificate_json(sample_report(), "tverify check copy --D 2 --n 2 --L 5");

  SECTION("a certificate equals itself, whatever its timing, commit and command") {
    Json fresh = stored;
    fresh["elapsed_s"] = 99.0;
    fresh["commit"] = "0000000";
    fresh["command"] = "tverify check copy --D 2 --n 2 --L 5 --threads 7";
    CHECK(compare_certificates(stored, fresh).empty());
  }
  SECTION("a top-level field is named by its path") {
    Json fresh = stored;
    fresh["domain"]["inputs"] = 31;
    fresh["arithmetic"] = "interval";
    fresh["params"]["L"] = 6;
    const auto d = compare_certificates(stored, fresh);
    REQUIRE(d.size() == 3);
    std::vector<std::string> fields;
    for (const auto& x : d) fields.push_back(x.field);
    CHECK(std::find(fields.begin(), fields.end(), "domain.inputs") != fields.end());
    CHECK(std::find(fields.begin(), fields.end(), "arithmetic") != fields.end());
    CHECK(std::find(fields.begin(), fields.end(), "params.L") != fields.end());
  }
  SECTION("an edited count inside a claim is named with the claim's id, both values shown") {
    Json fresh = stored;
    fresh["claims"][0]["failed"] = 11;
    const auto d = compare_certificates(stored, fresh);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == "claims: copy.alg1.failed");
    CHECK(d[0].stored == "12");
    CHECK(d[0].now == "11");
  }
  SECTION("a deleted claim is a difference, not a silent pass") {
    Json fresh = stored;
    fresh["claims"] = Json::array();
    const auto d = compare_certificates(stored, fresh);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == "claims: copy.alg1");
    CHECK(d[0].stored == "refuted");
    CHECK(d[0].now == "absent");
  }
  SECTION("a field added by the fresh run is named too") {
    Json fresh = stored;
    fresh["options"]["requested_claims"] = Json::array({"copy.alg1"});
    const auto d = compare_certificates(stored, fresh);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == "options.requested_claims");
  }
}

TEST_CASE("figure sizes (--figure-size): inches or centimetres, each side 1 to 20 in inclusive, or column or page",
          "[certificate]") {
  auto size = [](const std::string& text) {
    const FigureSize f = parse_figure_size(text);
    return std::pair{f.width_in, f.height_in};
  };
  CHECK(size("") == std::pair{4.6, 3.2});
  CHECK(size("column") == std::pair{3.0, 2.2});
  CHECK(size("page") == std::pair{6.0, 3.6});
  CHECK(size("3.3x2.4in") == std::pair{3.3, 2.4});
  CHECK(size("2.54x50.8cm") == std::pair{1.0, 20.0});  // the ends of the range, exactly
  CHECK(size("1x20in") == std::pair{1.0, 20.0});
  for (const char* bad : {"0.99x2in", "3x20.5in", "3x2", " 3x2in", "3X2in", "3.x2in", "Column", "3x2mm", "-3x2in"})
    CHECK_THROWS_WITH(parse_figure_size(bad), Catch::Contains("--figure-size must be WIDTHxHEIGHT"));
}
