#include "checkers/recheck.hpp"

#include "checkers/build_info.hpp"
#include "checkers/cluster.hpp"
#include "checkers/command_line.hpp"
#include "checkers/files.hpp"
#include "checkers/registry.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

namespace tverify {

namespace {

std::map<std::string, std::string> params_from_certificate(const Json& params) {
  std::map<std::string, std::string> raw;
  for (const auto& [k, v] : params.items()) raw[k] = json_text(v);
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

// The parameters and the variant that the certificate's recorded command gives, against its stored ones: a stored
// field edited by hand (params.L, variant) is named, not only its effects on the fresh run. A command that is not
// `tverify VERB CONSTRUCTION ...` for this certificate is not compared.
std::vector<CertificateDifference> command_differences(const Json& cert, const Construction& c) {
  const std::string verb = cert.value("verb", "check");
  const auto parsed = shell_words(cert.value("command", ""));
  if (!parsed) return {};
  const std::vector<std::string>& words = *parsed;
  if (words.size() < 3 || words[0] != "tverify" || words[1] != verb || words[2] != c.name()) return {};
  const std::vector<ParamSpec> specs = c.params_for(verb);
  std::map<std::string, std::string> raw;
  std::string variant;
  for (std::size_t i = 3; i < words.size(); ++i) {
    if (words[i].rfind("--", 0) != 0) continue;
    std::string name = words[i].substr(2);
    std::optional<std::string> value;
    if (const auto equals = name.find('='); equals != std::string::npos) {
      value = name.substr(equals + 1);
      name.resize(equals);
    }
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& p) { return p.name == name; });
    const bool flag = spec != specs.end() && spec->kind == ParamSpec::Kind::Flag;
    if (name != "variant" && spec == specs.end()) continue;
    if (!value && !flag && i + 1 < words.size()) value = words[++i];
    (name == "variant" ? variant : raw[name]) = flag ? "true" : value.value_or("");
  }
  std::vector<CertificateDifference> out;
  const Json stored = cert["params"];
  Json given;
  std::string command_variant;
  try {
    given = ParamValues::parse(specs, raw).to_json();
    command_variant = c.variant_or_default(variant);
  } catch (const UsageError& e) {
    return {{"command", cert.value("command", ""), std::string("does not parse: ") + e.what()}};
  }
  auto text = [](const Json& params, const std::string& key) {
    return params.contains(key) ? json_text(params[key]) : std::string("absent");
  };
  for (const auto& [key, value] : given.items())
    if (!stored.contains(key) || stored[key] != value)
      out.push_back({"params." + key, text(stored, key), text(given, key) + " in its command"});
  for (const auto& [key, value] : stored.items())
    if (!given.contains(key)) out.push_back({"params." + key, text(stored, key), "absent in its command"});
  if (cert.value("variant", "") != command_variant)
    out.push_back({"variant", cert.value("variant", ""), command_variant + " in its command"});
  return out;
}

// The differences of a fresh run, after those between the stored fields and the command's.
std::vector<CertificateDifference> all_differences(const Json& cert, const Construction& c, const Json& fresh) {
  std::vector<CertificateDifference> out = command_differences(cert, c);
  for (auto& d : compare_certificates(cert, fresh)) out.push_back(std::move(d));
  return out;
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
    RecheckResult result{all_differences(cert, command.construction, fresh), fresh["probes"]["rows"].size(),
                         std::nullopt, "probes"};
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
  RecheckResult result{all_differences(cert, c, certificate_json(fresh, cert.value("command", ""))),
                       fresh.claims.size(), std::nullopt};
  if (cert.value("commit", "") != tool_commit()) result.made_at_other_commit = cert.value("commit", "?");
  return result;
}

}  // namespace tverify
