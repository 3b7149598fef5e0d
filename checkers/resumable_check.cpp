#include "checkers/resumable_check.hpp"

#include "checkers/enumeration_checkpoint.hpp"
#include "io/errors.hpp"
#include "io/files.hpp"
#include "io/sha256.hpp"

#include <filesystem>

namespace tverify {
namespace {

// What a checkpoint must match to be resumed: the construction, variant, claims, counterexample limit, parameters
// (defaults filled in), and the SHA-256 of each input file a parameter names, in place of its path (the same model
// under another path, as a temporary copy from Python, continues the run).
Json run_identity(const Construction& c, const ParamValues& params, const std::string& variant,
                  const std::vector<std::string>& claims, std::size_t max_counterexamples) {
  Json files = Json::object();
  Json values = params.to_json();  // read without marking a parameter as read by the run
  for (const ParamSpec& spec : c.params_for("check")) {
    if (!spec.input_file || !values.contains(spec.name)) continue;
    const std::string path = values[spec.name].get<std::string>();
    std::error_code ec;
    if (path != spec.default_value || std::filesystem::is_regular_file(path, ec)) {
      files[spec.name] = sha256_hex(read_text_file(path, "--" + spec.name + " '" + path + "'"));
      values.erase(spec.name);
    }
  }
  return Json{{"construction", c.name()}, {"variant", variant},
              {"claims", claims},         {"max_counterexamples", max_counterexamples},
              {"params", values},         {"file_sha256", std::move(files)}};
}

}  // namespace

CheckReport resumable_check(const Construction& c, const ParamValues& params, const std::string& variant,
                            const std::vector<std::string>& claims, const RunOptions& options,
                            const CheckpointRequest& request) {
  if (request.path.empty()) {
    if (request.resume) throw UsageError("--resume needs --checkpoint FILE (the checkpoint of the run to continue)");
    return c.check(params, variant, claims, options);
  }
  EnumerationCheckpoint checkpoint(request.path, run_identity(c, params, variant, claims, options.max_counterexamples),
                                   request.resume, request.every);
  RunOptions kept = options;
  kept.checkpoint = &checkpoint;
  return c.check(params, variant, claims, kept);
}

}  // namespace tverify
