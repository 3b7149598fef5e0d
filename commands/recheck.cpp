#include "commands/recheck.hpp"

#include "checkers/build_info.hpp"
#include "checkers/cluster.hpp"
#include "io/files.hpp"
#include "commands/recorded_command.hpp"
#include "checkers/registry.hpp"
#include "checkers/second_solver.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
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
Json fresh_sweep_certificate(const Json& cert, const CertificateCommand& command, const SweepRequest& request,
                             const RunOptions& options) {
  const TemporaryFolder temporary("tverify-recheck", "for recheck");
  const std::filesystem::path& folder = temporary.path();
  struct LockReleased {  // the sweep's lock on the folder goes before the folder does
    std::string dir;
    ~LockReleased() { release_output_dir(dir); }
  } released{folder.string()};
  SweepRequest into_folder = request;
  into_folder.out_dir = folder.string();
  command.construction.sweep(command.params, command.variant, into_folder, options);
  // The output of the same name; when the certificate names its output otherwise, the sweep's only output.
  const std::string output = cert["sweep"]["output"].get<std::string>();
  std::filesystem::path fresh = folder / (output + ".json");
  if (!std::filesystem::exists(fresh)) {
    std::vector<std::filesystem::path> written;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
      if (entry.path().extension() == ".json" && entry.path().string().find(".checkpoint.") == std::string::npos)
        written.push_back(entry.path());
    if (written.size() != 1) throw UsageError("recheck: the sweep's command wrote no output named '" + output + "'");
    fresh = written.front();
  }
  return read_json_file(fresh.string(), "the fresh sweep output '" + fresh.filename().string() + "'");
}

// At most 120 characters of a stored text, for a difference's line.
std::string shortened(const std::string& text) { return text.size() <= 120 ? text : text.substr(0, 117) + "..."; }

// What a recheck runs: the certificate's recorded command where it reads as one of its verb and construction (the
// stored parameters, variant and options are then compared against it), else the stored fields, with the command
// named as a difference.
struct Rerun {
  CertificateCommand command;
  std::vector<std::string> claims;
  std::size_t max_counterexamples = default_max_counterexamples;
  unsigned timeout_ms = default_timeout_ms;
  bool cross_check = false;
  SweepRequest sweep;
  std::vector<CertificateDifference> differences;  // between the stored fields and the command
};

Rerun from_stored_fields(const Json& cert, const CertificateCommand& stored, std::string why_not) {
  Rerun run{stored, requested_claims_of(cert)};
  const Json options = cert.value("options", Json::object());
  if (options.contains("max_counterexamples"))
    run.max_counterexamples = options["max_counterexamples"].get<std::size_t>();
  if (options.contains("timeout_ms")) run.timeout_ms = options["timeout_ms"].get<unsigned>();
  run.cross_check = options.value("cross_check", false);
  if (is_sweep(cert)) {
    const Json& sweep = cert["sweep"];
    run.sweep =
        SweepRequest{sweep["vary"].get<std::string>(), sweep["fast"].get<bool>(), "", {}, cert.value("command", "")};
    for (const auto& [name, text] : sweep["options"].items()) run.sweep.options[name] = text.get<std::string>();
  }
  run.differences.push_back({"command", shortened(cert.value("command", "")),
                             "not a command of `tverify " + cert.value("verb", "check") + " " +
                                 stored.construction.name() + "`: " + shortened(why_not)});
  return run;
}

Rerun from_recorded_command(const Json& cert, const CertificateCommand& stored, const RecordedCommand& recorded) {
  const Construction& c = stored.construction;
  const std::string verb = cert.value("verb", "check");
  Rerun run{CertificateCommand{c, ParamValues::parse(c.params_for(verb), recorded.params),
                               c.variant_or_default(recorded.variant)},
            recorded.claims,
            recorded.max_counterexamples,
            recorded.timeout_ms,
            recorded.cross_check,
            SweepRequest{recorded.vary, recorded.fast, "", recorded.sweep_options, cert.value("command", ""),
                         recorded.max_counterexamples_given}};
  auto text = [](const Json& params, const std::string& key) {
    return params.contains(key) ? json_text(params[key]) : std::string("absent");
  };
  // A parameter the command does not read is no difference where the certificate records its default (as
  // certificates of other commits record every default); any other value is.
  const Json given = c.recorded_params(verb, verb == "sweep" ? &run.sweep : nullptr, run.command.params),
             stored_params = cert["params"], all = run.command.params.to_json();
  for (const auto& [key, value] : given.items())
    if (!stored_params.contains(key) || stored_params[key] != value)
      run.differences.push_back({"params." + key, text(stored_params, key), text(given, key) + " in its command"});
  for (const auto& [key, value] : stored_params.items())
    if (!given.contains(key) && !(all.contains(key) && all[key] == value))
      run.differences.push_back({"params." + key, text(stored_params, key), "absent in its command"});
  if (cert.value("variant", "") != run.command.variant)
    run.differences.push_back({"variant", cert.value("variant", ""), run.command.variant + " in its command"});
  return run;
}

Rerun rerun_of(const Json& cert, const std::string& path) {
  const CertificateCommand stored = certificate_command(cert, path);
  const auto recorded =
      read_recorded_command(cert.value("command", ""), cert.value("verb", "check"), stored.construction);
  if (const auto* why_not = std::get_if<std::string>(&recorded)) return from_stored_fields(cert, stored, *why_not);
  return from_recorded_command(cert, stored, std::get<RecordedCommand>(recorded));
}

// The differences of a fresh run, after those between the stored fields and the command's. A claim present in one
// and absent in the other is a changed claim set when the certificate comes from another commit, whose claims may
// differ.
// A parameter the certificate records at its command's value (the default: a parameter given and not read is
// refused) and the fresh run does not read is no difference: certificates of other commits record every default.
std::vector<CertificateDifference> all_differences(const Json& cert, Rerun& run, const Json& fresh) {
  std::vector<CertificateDifference> out = std::move(run.differences);
  const bool other_commit = cert.value("commit", "") != tool_commit();
  Json stored = cert;
  const Json read = run.command.params.to_json();
  if (stored.contains("params") && stored["params"].is_object() && fresh.contains("params"))
    for (const auto& [key, value] : cert["params"].items())
      if (read.contains(key) && read[key] == value && !fresh["params"].contains(key)) stored["params"].erase(key);
  for (auto& d : compare_certificates(stored, fresh)) {
    if (other_commit && d.field.rfind("claims: ", 0) == 0 && (d.stored == "absent" || d.now == "absent"))
      d.field += " (the claim set changed since commit " + cert.value("commit", "?") + ")";
    out.push_back(std::move(d));
  }
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
    // Every stored value counts as a default: the stored fields record the parameters a run read, not those given.
    CertificateCommand out{c, ParamValues::parse(specs, params_from_certificate(cert["params"])).none_given(),
                           c.variant_or_default(cert["variant"].get<std::string>())};
    if (is_sweep(cert)) {
      c.require_verb("sweep");
      return out;
    }
    for (const auto& claim : cert["claims"]) c.claim(claim["id"].get<std::string>());
    for (const auto& id : requested_claims_of(cert)) c.claim(id);
    return out;
  } catch (const UsageError& e) { throw UsageError("certificate '" + path + "': " + e.what()); }
}

namespace {

// The path a relative input file's recorded path is read from: the certificate's folder's file when it names no file
// from the current folder but one from there; nullopt when the recorded path stands.
std::optional<std::string> in_certificate_folder(const std::string& recorded, const ParamSpec& spec,
                                                 const std::filesystem::path& folder) {
  namespace fs = std::filesystem;
  const fs::path file(recorded);
  std::error_code ignored;
  if (recorded.empty() || recorded == spec.default_value || file.is_absolute() || fs::exists(file, ignored) ||
      folder.empty() || !fs::exists(folder / file, ignored))
    return std::nullopt;
  return (folder / file).string();
}

// Each input file of the command (its parameters', and a sweep's options') whose recorded path names a file only from
// the certificate's folder is read from there. Returns each path so moved, as the certificate records it, with the
// path read.
std::map<std::string, std::string> read_from_certificate_folder(Rerun& run, const std::string& verb,
                                                                const std::string& certificate_path) {
  const std::filesystem::path folder = std::filesystem::path(certificate_path).parent_path();
  std::map<std::string, std::string> moved;  // the path read -> the path recorded
  CertificateCommand& command = run.command;
  for (const ParamSpec& spec : command.construction.params_for(verb)) {
    if (!spec.input_file || !command.params.has(spec.name)) continue;
    const std::string recorded = command.params.text(spec.name);
    if (const auto read = in_certificate_folder(recorded, spec, folder)) {
      moved[*read] = recorded;
      command.params = command.params.with_text(spec.name, *read);
    }
  }
  if (verb != "sweep") return moved;
  for (const SweepSpec& sweep : command.construction.sweeps()) {
    if (sweep.vary != vary_key(run.sweep.vary)) continue;
    for (const ParamSpec& spec : sweep.options) {
      const auto given = run.sweep.options.find(spec.name);
      if (!spec.input_file || given == run.sweep.options.end()) continue;
      if (const auto read = in_certificate_folder(given->second, spec, folder)) {
        moved[*read] = given->second;
        given->second = *read;
      }
    }
  }
  return moved;
}

// The fresh certificate with every path read from the certificate's folder given as the stored one records it: in its
// parameters, its sweep options and its summary.
Json as_recorded(Json fresh, const std::map<std::string, std::string>& moved) {
  if (moved.empty()) return fresh;
  const std::function<void(Json&)> restore = [&](Json& j) {
    if (j.is_string()) {
      if (const auto it = moved.find(j.get<std::string>()); it != moved.end()) j = it->second;
    } else if (j.is_structured()) {
      for (auto& item : j) restore(item);
    }
  };
  for (const char* part : {"params", "sweep", "summary"})
    if (fresh.contains(part)) restore(fresh[part]);
  return fresh;
}

}  // namespace

RecheckResult recheck_certificate(const Json& cert, const std::string& path, RunOptions options) {
  Rerun run = rerun_of(cert, path);
  const auto moved = read_from_certificate_folder(run, cert.value("verb", "check"), path);
  options.max_counterexamples = run.max_counterexamples;
  const auto& [c, params, variant] = run.command;
  RecheckResult result;
  if (is_sweep(cert)) {
    if (const Cluster* cluster = active_cluster(); cluster && cluster->ranks() > 1)
      throw UsageError("recheck of a sweep's certificate runs in one process (not under mpirun with " +
                       std::to_string(cluster->ranks()) +
                       " ranks): its sweep writes into a temporary folder of its own");
    const Json fresh = as_recorded(fresh_sweep_certificate(cert, run.command, run.sweep, options), moved);
    result = RecheckResult{all_differences(cert, run, fresh), fresh["probes"]["rows"].size(), std::nullopt, "probes"};
  } else {
    CheckReport fresh;
    if (cert.value("verb", "check") == "prove") {
      ProofOptions proof;
      proof.timeout_ms = run.timeout_ms;
      if (run.cross_check) require_cvc5();
      proof.cross_check = run.cross_check;
      fresh = c.prove(params, variant, run.claims, proof, options);
    } else {
      fresh = c.check(params, variant, run.claims, options);
    }
    result = RecheckResult{
        all_differences(cert, run, as_recorded(certificate_json(fresh, cert.value("command", "")), moved)),
        fresh.claims.size(), std::nullopt};
  }
  if (cert.value("commit", "") != tool_commit()) result.made_at_other_commit = cert.value("commit", "?");
  return result;
}

}  // namespace tverify
