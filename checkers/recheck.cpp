#include "checkers/recheck.hpp"

#include "checkers/build_info.hpp"
#include "checkers/registry.hpp"


namespace tverify {

namespace {

std::map<std::string, std::string> params_from_certificate(const Json& params) {
  std::map<std::string, std::string> raw;
  for (const auto& [k, v] : params.items()) raw[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return raw;
}

bool records_requested_claims(const Json& cert) {
  return cert.contains("options") && cert["options"].contains("requested_claims");
}

}  // namespace

std::vector<std::string> requested_claims_of(const Json& cert) {
  std::vector<std::string> ids;
  const bool recorded = records_requested_claims(cert);
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
    for (const auto& claim : cert["claims"]) c.claim(claim["id"].get<std::string>());
    for (const auto& id : requested_claims_of(cert)) c.claim(id);
    return out;
  } catch (const UsageError& e) {
    throw UsageError("certificate '" + path + "': " + e.what());
  }
}

RecheckResult recheck_certificate(const Json& cert, const std::string& path, RunOptions options) {
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
