#include "checkers/recheck.hpp"

#include "checkers/build_info.hpp"
#include "checkers/cluster.hpp"
#include "checkers/files.hpp"
#include "checkers/registry.hpp"

#include <filesystem>
#include <map>

namespace tverify {

namespace {

std::map<std::string, std::string> params_from_certificate(const Json& params) {
  std::map<std::string, std::string> raw;
  for (const auto& [k, v] : params.items()) raw[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return raw;
}

bool is_sweep(const Json& cert) { return cert.value("verb", "check") == "sweep"; }

// A sweep certificate's command re-run into a fresh temporary folder; its certificate of the same output is read
// back from there. Nothing is written beside the stored certificate.
Json fresh_sweep_certificate(const Json& cert, const CertificateCommand& command, const RunOptions& options) {
  const TemporaryFolder temporary("tverify-recheck", "for recheck");
  const std::filesystem::path& folder = temporary.path();
  struct LockReleased {  // the sweep's lock on the folder goes before the folder does
    std::string dir;
    ~LockReleased() { release_output_dir(dir); }
  } released{folder.string()};
  const Json& sweep = cert["sweep"];
  std::map<std::string, std::string> sweep_options;
  for (const auto& [name, text] : sweep["options"].items()) sweep_options[name] = text.get<std::string>();
  command.construction.sweep(command.params, command.variant,
                             SweepRequest{sweep["vary"].get<std::string>(), sweep["fast"].get<bool>(), folder.string(),
                                          sweep_options, cert.value("command", "")},
                             options);
  // The output of the same name; when the command (a forged field) names its output otherwise, its only output.
  const std::string output = sweep["output"].get<std::string>();
  std::filesystem::path fresh = folder / (output + ".json");
  if (!std::filesystem::exists(fresh)) {
    std::vector<std::filesystem::path> written;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
      if (entry.path().extension() == ".json" && entry.path().string().find(".checkpoint.") == std::string::npos)
        written.push_back(entry.path());
    if (written.size() != 1)
      throw UsageError("recheck: the sweep's command wrote no output named '" + output + "'");
    fresh = written.front();
  }
  return read_json_file(fresh.string(), "the fresh sweep output '" + fresh.filename().string() + "'");
}

bool records_requested_claims(const Json& cert) {
  return cert.contains("options") && cert["options"].contains("requested_claims");
}

}  // namespace

std::vector<std::string> requested_claims_of(const Json& cert) {
  std::vector<std::string> ids;
  const bool recorded = records_requested_claims(cert);
  if (!recorded && !cert.contains("claims")) return ids;  // a sweep's certificate
  for (const auto& claim : recorded ? cert["options"]["requested_claims"] : cert["claims"])
    ids.push_back(recorded ? claim.get<std::string>() : claim["id"].get<std::string>());
  return without_repeats(ids);
}

CertificateCommand certificate_command(const Json& cert, const std::string& path) {
  try {
    const Construction& c = find_construction(cert["construction"].get<std::string>());
    const std::vector<ParamSpec> specs = c.params_for(cert.value("verb", "check"));
    CertificateCommand out{c, ParamValues::parse(specs, params_from_certificate(cert["params"])),
                           c.variant_or_default(cert["variant"].get<std::string>())};
    if (is_sweep(cert)) {
      c.require_verb("sweep");
      return out;
    }
    for (const auto& claim : cert["claims"]) c.claim(claim["id"].get<std::string>());
    for (const auto& id : requested_claims_of(cert)) c.claim(id);
    return out;
  } catch (const UsageError& e) {
    throw UsageError("certificate '" + path + "': " + e.what());
  }
}

RecheckResult recheck_certificate(const Json& cert, const std::string& path, RunOptions options) {
  if (is_sweep(cert)) {
    const CertificateCommand command = certificate_command(cert, path);
    if (const Cluster* cluster = active_cluster(); cluster && cluster->ranks() > 1)
      throw UsageError("recheck of a sweep's certificate runs in one process (not under mpirun with " +
                       std::to_string(cluster->ranks()) + " ranks): its sweep writes into a temporary folder of its own");
    const Json fresh = fresh_sweep_certificate(cert, command, options);
    RecheckResult result{compare_certificates(cert, fresh), fresh["probes"]["rows"].size(), std::nullopt, "probes"};
    if (cert.value("commit", "") != tool_commit()) result.made_at_other_commit = cert.value("commit", "?");
    return result;
  }
  const auto [c, params, variant] = certificate_command(cert, path);
  const Json stored_options = cert.value("options", Json::object());
  if (stored_options.contains("max_counterexamples"))
    options.max_counterexamples = stored_options["max_counterexamples"].get<std::size_t>();
  const std::vector<std::string> ids = requested_claims_of(cert);
  CheckReport fresh;
  if (cert.value("verb", "check") == "prove") {
    ProofOptions proof;
    if (stored_options.contains("timeout_ms")) proof.timeout_ms = stored_options["timeout_ms"].get<unsigned>();
    fresh = c.prove(params, variant, ids, proof, options);
  } else {
    fresh = c.check(params, variant, ids, options);
  }
  if (!records_requested_claims(cert)) fresh.options.erase("requested_claims");
  RecheckResult result{compare_certificates(cert, certificate_json(fresh, cert.value("command", ""))),
                       fresh.claims.size(), std::nullopt};
  if (cert.value("commit", "") != tool_commit()) result.made_at_other_commit = cert.value("commit", "?");
  return result;
}

}  // namespace tverify
