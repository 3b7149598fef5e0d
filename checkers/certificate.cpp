#include "checkers/certificate.hpp"

#include "checkers/build_info.hpp"
#include "checkers/cluster.hpp"
#include "io/errors.hpp"
#include "checkers/file_manifest.hpp"
#include "io/files.hpp"
#include "io/json_fields.hpp"

#include <boost/version.hpp>
#include <gmp.h>
#include <mpfi.h>
#include <mpfr.h>
#include <z3.h>

#include <algorithm>
#include <limits>

namespace tverify {

Json claim_to_json(const ClaimResult& c) {
  Json j;
  j["id"] = c.id;
  if (!c.reading.empty()) j["reading"] = c.reading;
  j["statement"] = c.statement;
  j["verdict"] = to_string(c.verdict);
  if (c.finding) j["finding"] = to_string(*c.finding);
  j["checked"] = c.checked;
  j["passed"] = c.passed;
  j["failed"] = c.failed;
  j["unknown"] = c.unknown;
  j["outside_hypotheses"] = c.outside_hypotheses;
  j["counterexamples"] = Json::array();
  for (const auto& x : c.counterexamples)
    j["counterexamples"].push_back(
        Json{{"input", x.input}, {"expected", x.expected}, {"got", x.got}, {"detail", x.detail}});
  if (!c.summary.empty()) j["summary"] = c.summary;
  if (!c.reason.empty()) j["reason"] = c.reason;
  j["details"] = c.details;
  return j;
}

namespace {

// The versions of the libraries whose arithmetic a verdict rests on, as this process has them linked.
Json library_versions() {
  unsigned major = 0, minor = 0, build = 0, revision = 0;
  Z3_get_version(&major, &minor, &build, &revision);
  return {{"gmp", gmp_version},
          {"mpfr", mpfr_get_version()},
          {"mpfi", mpfi_get_version()},
          {"boost", std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
                        std::to_string(BOOST_VERSION % 100)},
          {"z3", std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(build)}};
}

// The fields every certificate opens with: the tool, its build, the libraries, the command.
Json certificate_opening(const std::string& command) {
  Json j;
  j["tool"] = "tverify";
  j["format_version"] = certificate_format_version;
  j["version"] = tool_version();
  j["commit"] = tool_commit();
  j["libraries"] = library_versions();
  j["command"] = command;
  return j;
}

}  // namespace

Json certificate_json(const CheckReport& r, const std::string& command) {
  Json j = certificate_opening(command);
  j["verb"] = r.verb;
  j["construction"] = r.construction;
  j["variant"] = r.variant;
  j["params"] = r.params;
  j["options"] = r.options;
  j["arithmetic"] = r.arithmetic;
  j["domain"] = Json{{"description", r.domain_description}, {"inputs", r.domain_inputs}};
  j["claims"] = Json::array();
  for (const auto& c : r.claims) j["claims"].push_back(claim_to_json(c));
  if (const Cluster* cluster = active_cluster()) j["ranks"] = cluster->ranks();
  j["elapsed_s"] = r.elapsed_s;
  return j;
}

Json sweep_certificate_header(const std::string& command, const std::string& construction, const std::string& variant,
                              const Json& params, const std::string& vary, bool fast,
                              const std::map<std::string, std::string>& options) {
  Json j = certificate_opening(command);
  j["verb"] = "sweep";
  j["construction"] = construction;
  j["variant"] = variant;
  j["params"] = params;
  Json given = Json::object();
  for (const auto& [name, text] : options)
    if (name != "resume") given[name] = text;
  j["sweep"] = Json{{"vary", vary}, {"fast", fast}, {"options", given}};
  if (const Cluster* cluster = active_cluster()) j["ranks"] = cluster->ranks();
  return j;
}

Json sweep_certificate(const Json& header, const std::string& output, const Json& summary,
                       const std::vector<std::string>& columns, const std::vector<std::vector<std::string>>& rows) {
  Json j = header;
  j["sweep"]["output"] = output;
  j["summary"] = summary;
  j["probes"] = Json{{"columns", columns}, {"rows", rows}};
  return j;
}

void ensure_writable(const std::string& path) { ensure_writable_file(path, "--json"); }

void write_json_atomically(const std::string& path, const Json& json) {
  write_file_atomically(path, json.dump(2) + "\n");
}

namespace {

bool names_verdict(const Json& j) {
  try {
    return j.is_string() && (verdict_from_string(j.get<std::string>()), true);
  } catch (const std::invalid_argument&) { return false; }
}

void check_claim(const FieldCheck& check, const Json& c, std::size_t index) {
  const std::string at = "claims[" + std::to_string(index) + "]";
  if (!c.is_object()) check.fail(at, "an object");
  check.string(c, "id", at + ".id");
  check.string(c, "reading", at + ".reading", false);
  check.string(c, "statement", at + ".statement", false);
  check.string(c, "verdict", at + ".verdict");
  if (!names_verdict(c["verdict"])) check.fail(at + ".verdict", "verified, refuted, unknown or vacuous");
  constexpr std::uint64_t max_count = std::uint64_t{1} << 62;
  for (const char* key : {"checked", "passed", "failed", "unknown"})
    check.count(c, key, at + "." + key, max_count, false);
  check.boolean(c, "outside_hypotheses", at + ".outside_hypotheses");
  const bool vacuous = c["verdict"] == "vacuous";
  if (vacuous != c.value("outside_hypotheses", false))
    check.fail(at + ".verdict", "vacuous exactly when outside_hypotheses is true");
  if (vacuous != c.contains("finding")) check.fail(at + ".finding", "present exactly when the verdict is vacuous");
  if (vacuous && (!names_verdict(c["finding"]) || c["finding"] == "vacuous"))
    check.fail(at + ".finding", "verified, refuted or unknown");
  check.string(c, "summary", at + ".summary", false);
  check.string(c, "reason", at + ".reason", false);
  if (c.contains("counterexamples") && !c["counterexamples"].is_array()) check.fail(at + ".counterexamples", "a list");
  if (c.contains("details") && !c["details"].is_object()) check.fail(at + ".details", "an object");
}

// A sweep certificate's own fields: the request (sweep), the summary, and the probes as a table of strings.
void check_sweep_fields(const FieldCheck& check, const Json& j) {
  const Json& sweep = check.need(j, "sweep", "sweep");
  if (!sweep.is_object()) check.fail("sweep", "an object");
  check.nonempty_string(sweep, "vary", "sweep.vary");
  check.boolean(sweep, "fast", "sweep.fast", true);
  if (!check.need(sweep, "options", "sweep.options").is_object()) check.fail("sweep.options", "an object");
  for (const auto& [name, text] : sweep["options"].items())
    if (!text.is_string()) check.fail("sweep.options." + name, "a string");
  check.nonempty_string(sweep, "output", "sweep.output");
  const std::string output = sweep["output"].get<std::string>();  // recheck reads <folder>/<output>.json
  if (output.front() == '.' || output.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                        "0123456789._-") != std::string::npos)
    check.fail("sweep.output", "a file name of letters, digits, '.', '_' and '-' not starting with '.'");
  if (!check.need(j, "summary", "summary").is_object()) check.fail("summary", "an object");
  const Json& probes = check.need(j, "probes", "probes");
  if (!probes.is_object() || !check.need(probes, "columns", "probes.columns").is_array() || probes["columns"].empty())
    check.fail("probes.columns", "a non-empty list of column names");
  for (const auto& c : probes["columns"])
    if (!c.is_string()) check.fail("probes.columns", "a list of column names");
  if (!check.need(probes, "rows", "probes.rows").is_array()) check.fail("probes.rows", "a list of rows");
  for (std::size_t r = 0; r < probes["rows"].size(); ++r) {
    const Json& row = probes["rows"][r];
    const std::string at = "probes.rows[" + std::to_string(r) + "]";
    if (!row.is_array() || row.size() != probes["columns"].size())
      check.fail(at, "a list of " + std::to_string(probes["columns"].size()) + " cells, one per column");
    for (const auto& cell : row)
      if (!cell.is_string()) check.fail(at, "a list of strings");
  }
}

}  // namespace

Json validated_certificate(const Json& j, const std::string& what) {
  if (!j.is_object() || !j.contains("tool") || j["tool"] != "tverify")
    throw UsageError(what + " is not a tverify certificate (field \"tool\" must be \"tverify\")");
  if (j.contains("format_version") && j["format_version"] != certificate_format_version)
    throw UsageError(
        fmt::format("{} has format_version {}; this tverify reads format {} (or a certificate without the "
                    "field)",
                    what, j["format_version"].dump(), certificate_format_version));
  const FieldCheck check{what};
  for (const char* key : {"construction", "variant"}) check.nonempty_string(j, key, key);
  for (const char* key : {"version", "commit", "command", "arithmetic"}) check.string(j, key, key, false);
  if (j.contains("libraries")) {
    if (!j["libraries"].is_object()) check.fail("libraries", "an object");
    for (const auto& [name, version] : j["libraries"].items())
      if (!version.is_string()) check.fail("libraries." + name, "a version string");
  }
  if (j.contains("verb") && j["verb"] != "check" && j["verb"] != "prove" && j["verb"] != "sweep")
    check.fail("verb", "\"check\", \"prove\" or \"sweep\"");
  if (!check.need(j, "params", "params").is_object()) check.fail("params", "an object");
  for (const auto& [key, value] : j["params"].items())
    if (!value.is_string() && !value.is_number_integer() && !value.is_boolean())
      check.fail("params." + key, "a string, a whole number or a boolean");
  if (j.contains("options")) {
    const Json& o = j["options"];
    if (!o.is_object()) check.fail("options", "an object");
    check.count(o, "max_counterexamples", "options.max_counterexamples", 100000, false);
    check.count(o, "timeout_ms", "options.timeout_ms", 86'400'000, false, 1000);  // --timeout-s 1..86400
    if (o.contains("cross_check") && o["cross_check"] != true) check.fail("options.cross_check", "true, or absent");
    if (o.contains("requested_claims") && !o["requested_claims"].is_array())
      check.fail("options.requested_claims", "a list");
    if (o.contains("requested_claims"))
      for (const auto& id : o["requested_claims"])
        if (!id.is_string()) check.fail("options.requested_claims", "a list of claim ids");
  }
  if (j.contains("domain")) {
    if (!j["domain"].is_object()) check.fail("domain", "an object");
    check.string(j["domain"], "description", "domain.description", false);
    check.count(j["domain"], "inputs", "domain.inputs", std::numeric_limits<std::uint64_t>::max(), false);
  }
  check.number(j, "elapsed_s", "elapsed_s");
  if (j.value("verb", "check") == "sweep") {
    check_sweep_fields(check, j);
    return j;
  }
  if (!check.need(j, "claims", "claims").is_array()) check.fail("claims", "a list");
  std::vector<std::string> seen;  // one result per claim id and reading: a second copy could hide the first
  for (std::size_t i = 0; i < j["claims"].size(); ++i) {
    const Json& c = j["claims"][i];
    check_claim(check, c, i);
    const std::string key = c["id"].get<std::string>() + " (" + c.value("reading", "") + ")";
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      check.fail("claims[" + std::to_string(i) + "]", "a claim result not already in the list (" + key + " twice)");
    seen.push_back(key);
  }
  return j;
}

std::string json_text(const Json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

Json load_certificate(const std::string& path) {
  const std::string what = "certificate '" + path + "'";
  Json certificate = validated_certificate(read_json_file(path, what), what);
  if (certificate.value("verb", "check") == "sweep") require_whole_set(path);  // not a mix of two sweeps' files
  return certificate;
}

namespace {

// Fields that differ between two runs of the same command by design: timings (a claim's Z3 time, a sweep point's
// wall time in its summary's rows; the probes' column is dropped by without_timing_columns), Z3 dump paths, the
// build, the number of MPI ranks.
bool unstable_field(const std::string& path, const std::string& key) {
  if (path.empty())
    return key == "elapsed_s" || key == "version" || key == "commit" || key == "libraries" || key == "command" ||
           key == "ranks" || key == "format_version";  // read and checked when the certificate is loaded
  if (path.rfind("claims", 0) == 0) return key == "seconds" || key == "smt2";
  return path.rfind("summary.rows[", 0) == 0 && key == "seconds";
}

// A sweep certificate's probes without the columns that time them (each probe's seconds).
Json without_timing_columns(Json j) {
  if (!j.contains("probes") || !j["probes"].is_object() || !j["probes"].contains("columns")) return j;
  Json& probes = j["probes"];
  for (std::size_t c = probes["columns"].size(); c-- > 0;) {
    if (probes["columns"][c] != "seconds") continue;
    probes["columns"].erase(c);
    for (auto& row : probes["rows"])
      if (row.is_array() && c < row.size()) row.erase(c);
  }
  return j;
}

std::string short_text(const Json& j) {
  if (j.is_null()) return "absent";
  std::string text = json_text(j);
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string claim_key(const Json& claim) {
  return claim.value("id", "") + (claim.contains("reading") ? " (" + claim.value("reading", "") + ")" : "");
}

void compare_json(const Json& stored, const Json& fresh, const std::string& path,
                  std::vector<CertificateDifference>& out) {
  if (stored.is_object() && fresh.is_object()) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : stored.items()) keys.push_back(k);
    for (const auto& [k, v] : fresh.items())
      if (!stored.contains(k)) keys.push_back(k);
    for (const auto& k : keys) {
      if (unstable_field(path, k)) continue;
      const std::string at = path.empty() ? k : path + "." + k;
      compare_json(stored.contains(k) ? stored[k] : Json(), fresh.contains(k) ? fresh[k] : Json(), at, out);
    }
    return;
  }
  if (stored.is_array() && fresh.is_array() && stored.size() == fresh.size()) {
    for (std::size_t i = 0; i < stored.size(); ++i)
      compare_json(stored[i], fresh[i], path + "[" + std::to_string(i) + "]", out);
    return;
  }
  if (stored != fresh) out.push_back({path, short_text(stored), short_text(fresh)});
}

}  // namespace

std::vector<CertificateDifference> compare_certificates(const Json& stored, const Json& fresh) {
  std::vector<CertificateDifference> out;
  Json stored_top = without_timing_columns(stored), fresh_top = without_timing_columns(fresh);
  stored_top.erase("claims");
  fresh_top.erase("claims");
  compare_json(stored_top, fresh_top, "", out);
  const Json none = Json::array();  // a sweep's certificate holds no claims
  const Json& stored_claims = stored.contains("claims") ? stored["claims"] : none;
  const Json& fresh_claims = fresh.contains("claims") ? fresh["claims"] : none;
  // Claims are matched by id and reading, so a claim removed from (or added to) the certificate is named as such.
  std::vector<std::string> keys;
  auto by_key = [](const Json& claims, const std::string& key) -> Json {
    for (const auto& c : claims)
      if (claim_key(c) == key) return c;
    return Json();
  };
  for (const auto& c : stored_claims) keys.push_back(claim_key(c));
  for (const auto& c : fresh_claims)
    if (std::find(keys.begin(), keys.end(), claim_key(c)) == keys.end()) keys.push_back(claim_key(c));
  for (const auto& key : keys) {
    const Json s = by_key(stored_claims, key), f = by_key(fresh_claims, key);
    if (s.is_null() || f.is_null())
      out.push_back({"claims: " + key, s.is_null() ? "absent" : s.value("verdict", "?"),
                     f.is_null() ? "absent" : f.value("verdict", "?")});
    else
      compare_json(s, f, "claims: " + key, out);
  }
  return out;
}

}  // namespace tverify
