#include "checkers/certificate.hpp"

#include "checkers/build_info.hpp"
#include "checkers/errors.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tverify {
namespace fs = std::filesystem;

Json claim_to_json(const ClaimResult& c) {
  Json j;
  j["id"] = c.id;
  if (!c.reading.empty()) j["reading"] = c.reading;
  j["statement"] = c.statement;
  j["verdict"] = to_string(c.verdict);
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

Json certificate_json(const CheckReport& r, const std::string& command) {
  Json j;
  j["tool"] = "tverify";
  j["version"] = tool_version();
  j["commit"] = tool_commit();
  j["command"] = command;
  j["verb"] = r.verb;
  j["construction"] = r.construction;
  j["variant"] = r.variant;
  j["params"] = r.params;
  j["options"] = r.options;
  j["arithmetic"] = r.arithmetic;
  j["domain"] = Json{{"description", r.domain_description}, {"inputs", r.domain_inputs}};
  j["claims"] = Json::array();
  for (const auto& c : r.claims) j["claims"].push_back(claim_to_json(c));
  j["elapsed_s"] = r.elapsed_s;
  return j;
}

void ensure_writable(const std::string& path) {
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::is_directory(p, ec)) throw UsageError("--json '" + path + "' is a directory; give a file path");
  if (!fs::is_directory(dir, ec))
    throw UsageError("--json '" + path + "': directory '" + dir.string() + "' does not exist");
  if (access(dir.c_str(), W_OK) != 0 || (fs::exists(p, ec) && access(p.c_str(), W_OK) != 0))
    throw UsageError("--json '" + path + "' is not writable");
}

void write_json_atomically(const std::string& path, const Json& json) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << json.dump(2) << "\n";
    if (!out) {
      std::remove(tmp.c_str());
      throw UsageError("--json '" + path + "' could not be written");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw UsageError("--json '" + path + "' could not be written: " + ec.message());
  }
}

Json load_certificate(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("certificate '" + path + "' cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  Json j;
  try {
    j = Json::parse(text.str());
  } catch (const Json::parse_error& e) {
    const bool truncated = e.byte >= text.str().size();  // the parser ran out of input
    throw UsageError("certificate '" + path + "' is " + (truncated ? "truncated (incomplete JSON)" : "not JSON"));
  }
  if (!j.is_object() || j.value("tool", "") != "tverify")
    throw UsageError("certificate '" + path + "' is not a tverify certificate (field \"tool\" must be \"tverify\")");
  for (const char* field : {"construction", "variant", "params", "claims"})
    if (!j.contains(field)) throw UsageError("certificate '" + path + "' lacks the field \"" + field + "\"");
  if (!j["params"].is_object() || !j["claims"].is_array() || !j["construction"].is_string() ||
      !j["variant"].is_string())
    throw UsageError("certificate '" + path + "' has malformed fields (params, claims, construction or variant)");
  for (const auto& c : j["claims"])
    if (!c.is_object() || !c.contains("id") || !c["id"].is_string())
      throw UsageError("certificate '" + path + "' has a claim without an id");
  return j;
}

}  // namespace tverify
