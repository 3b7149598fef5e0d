// Every (verb, construction, parameter) triple is read or refused: for each verb of each construction (each sweep
// spec too), on a small baseline run that succeeds, every parameter the verb takes is given in turn. The run must then
// either refuse it (a usage error naming it) or read it (ParamValues::was_read: some accessor returned its value).
// A parameter given, accepted and never read would be recorded in a certificate as if it had been used.
//
// "Read" is what the walk can see: a run that reads a value and then ignores it passes. The walk runs each verb on
// one or a few baselines (count3's experiment distribution, a model's --expected file), which is where a verb's
// unread parameters change.
#include "io/errors.hpp"
#include "checkers/registry.hpp"
#include "checkers/sweep_output.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

using namespace tverify;
namespace fs = std::filesystem;

namespace {

const std::string models = std::string(TVERIFY_SOURCE_DIR) + "/tests/models/";

// One small run of a verb: the parameters it is given besides the one walked, and what the verb needs beyond them.
struct WalkRun {
  std::string construction, verb;  // verb: check, prove, eval, export or sweep
  std::map<std::string, std::string> baseline;
  std::string input{};  // eval's --input
  std::string vary{};   // sweep's --vary, --fast and options
  bool fast = false;
  std::map<std::string, std::string> sweep_options{};
  std::vector<std::string> claims{};  // empty: every claim the verb decides
  std::vector<std::string> walked{};  // the parameters walked on this baseline; empty: every one the verb takes

  std::string label() const {
    std::string out = verb + " " + construction;
    if (verb == "sweep") out += " --vary " + vary + (fast ? " --fast" : "");
    for (const auto& [k, v] : sweep_options) out += " --" + k + " " + v;
    for (const auto& [k, v] : baseline) out += " --" + k + " " + v;
    return out;
  }
};

// A file the walk's parameters name: an --expected file and a --family manifest of one model.
struct WalkFiles {
  fs::path dir = fs::temp_directory_path() / ("tverify-option-walk-" + std::to_string(::getpid()));
  std::string expected = (dir / "reverse.jsonl").string();
  std::string family = (dir / "family.jsonl").string();
  WalkFiles() {
    fs::create_directories(dir);
    std::ofstream(expected) << "{\"input\": [0, 1], \"output\": [1, 0]}\n";
    std::ofstream(family) << "{\"seed\": 1, \"onnx\": \"" << models << "reverse.onnx\"}\n";
  }
  ~WalkFiles() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

std::vector<WalkRun> walk_runs(const WalkFiles& files) {
  const std::map<std::string, std::string> copy{{"D", "2"}, {"n", "1"}, {"L", "2"}};
  const std::map<std::string, std::string> count3{{"n", "2"}, {"values", "0:1"}};
  const std::map<std::string, std::string> cat{{"V", "2"}, {"N", "1"}, {"L", "3"}};
  const std::map<std::string, std::string> markov{{"d", "2"}, {"m", "2"}, {"r", "2"}, {"N", "2"}, {"samples", "0"}};
  const std::map<std::string, std::string> markov_point{{"d", "2"}, {"m", "2"}, {"r", "2"}, {"N", "2"}};
  const std::map<std::string, std::string> model{
      {"onnx", models + "reverse.onnx"}, {"task", "reverse"}, {"V", "2"}, {"lengths", "1:2"}};
  const std::map<std::string, std::string> model_expected{{"onnx", models + "reverse.onnx"},
                                                          {"expected", files.expected}};
  return {
      {"copy", "check", copy},
      {"copy", "prove", copy},
      {"copy", "eval", {{"D", "2"}, {"n", "1"}}, "0,1"},
      {"copy", "export", {{"D", "2"}, {"n", "1"}}},
      {"copy", "sweep", copy, "", "tau", false, {{"resolution", "1"}}},
      {"copy", "sweep", {{"D", "2"}, {"n", "1"}}, "", "L", false, {{"L-max", "2"}}},
      {"copy", "sweep", copy, "", "bits", false, {{"L-max", "2"}}},
      {"copy", "sweep", {{"D", "2"}, {"n", "1"}}, "", "L=2:4:x2", true, {{"samples", "2"}}},
      {"count3", "check", count3},
      // The experiment's samples replace --n and --values: one cheap claim shows which are read.
      {"count3",
       "check",
       {{"distribution", "experiment"}, {"samples", "2"}},
       "",
       "",
       false,
       {},
       {"count3.alg4"},
       {"n", "values", "samples"}},
      {"count3", "prove", {}},
      {"count3", "eval", {}, "1,2"},
      {"count3", "sweep", {{"n", "2"}}, "", "values", false, {{"L-max", "1"}}},
      {"cat", "check", cat},
      {"cat", "check", {{"V", "2"}, {"N", "1"}, {"L", "3"}, {"embedding", "stereo"}, {"dim", "2"}}},
      {"cat", "eval", cat, "0,1,0"},
      {"cat", "export", cat},
      {"cat", "sweep", cat, "", "L", false, {}},
      {"cat", "sweep", cat, "", "c", false, {{"L-max", "3"}}},
      {"cat", "sweep", cat, "", "L", true, {}},
      {"cat", "sweep", cat, "", "c", true, {{"L-max", "3"}}},
      {"markov", "check", markov},
      {"markov", "prove", {{"d", "2"}, {"N", "2"}}},
      {"markov", "eval", markov_point, "0,1"},
      {"markov", "sweep", markov_point, "", "pq", false, {{"resolution", "1/2"}}},
      {"model", "check", model},
      {"model", "check", model_expected},
      {"model", "eval", {{"onnx", models + "reverse.onnx"}}, "0,1"},
      {"model", "sweep", model, "", "lengths", false, {}},
      {"model",
       "sweep",
       {{"task", "reverse"}, {"V", "2"}, {"lengths", "1:2"}},
       "",
       "family",
       false,
       {{"family", files.family}}},
  };
}

// A value the parameter accepts: the baseline's, else its default, else one of its kind.
std::string value_for(const ParamSpec& spec, const WalkRun& run) {
  if (const auto it = run.baseline.find(spec.name); it != run.baseline.end()) return it->second;
  if (!spec.default_value.empty()) return spec.default_value;
  switch (spec.kind) {
    case ParamSpec::Kind::Integer: return std::to_string(spec.min);
    case ParamSpec::Kind::IntegerRange: return std::to_string(spec.min) + ":" + std::to_string(spec.min);
    case ParamSpec::Kind::Probability: return "1/3";
    case ParamSpec::Kind::PositiveRational: return "1";
    case ParamSpec::Kind::Flag: return "true";
    case ParamSpec::Kind::Choice: return spec.choices.front();
    case ParamSpec::Kind::Text: break;
  }
  if (spec.name == "expected") return models + "attention_alibi.jsonl";
  if (spec.name == "vectors") return "1,0;0,1";
  return "none";
}

// Whether the message names the option --name (and not a longer one such as --L-max for --L).
bool names_option(const std::string& message, const std::string& name) {
  const std::string option = "--" + name;
  for (auto at = message.find(option); at != std::string::npos; at = message.find(option, at + 1)) {
    const std::size_t end = at + option.size();
    if (end == message.size() || (!std::isalnum(static_cast<unsigned char>(message[end])) && message[end] != '-'))
      return true;
  }
  return false;
}

void run_verb(const Construction& c, const WalkRun& run, const ParamValues& params, const fs::path& out) {
  RunOptions options;
  options.threads = 2;
  const std::string variant = c.variant_or_default("");
  if (run.verb == "check")
    c.check(params, variant, run.claims, options);
  else if (run.verb == "prove")
    c.prove(params, variant, {}, ProofOptions{}, options);
  else if (run.verb == "eval")
    c.eval(params, variant, run.input, false, 0);
  else if (run.verb == "export")
    c.export_onnx(params, variant);
  else
    c.sweep(params, variant, SweepRequest{run.vary, run.fast, out.string(), run.sweep_options, "tverify sweep"},
            options);
}

}  // namespace

TEST_CASE("option walk: every parameter a verb takes is read or refused", "[cli][options][heavy]") {
  const WalkFiles files;
  std::map<std::string, std::size_t> walked_verbs;
  for (const WalkRun& run : walk_runs(files)) {
    INFO(run.label());
    const Construction& c = find_construction(run.construction);
    const auto specs = c.params_for(run.verb);
    const fs::path out = files.dir / ("out-" + std::to_string(walked_verbs.size()));
    try {
      run_verb(c, run, ParamValues::parse(specs, run.baseline), out);
    } catch (const UsageError& e) {
      FAIL_CHECK("the baseline alone is refused: " << e.what());
      continue;
    }
    ++walked_verbs[run.construction + " " + run.verb];
    if (run.verb == "sweep")
      ++walked_verbs[run.construction + " sweep " + vary_key(run.vary) + (run.fast ? " --fast" : "")];
    for (const ParamSpec& spec : specs) {
      if (!run.walked.empty() && std::find(run.walked.begin(), run.walked.end(), spec.name) == run.walked.end())
        continue;
      std::map<std::string, std::string> raw = run.baseline;
      raw[spec.name] = value_for(spec, run);
      INFO("--" << spec.name << " " << raw[spec.name]);
      const ParamValues params = ParamValues::parse(specs, raw);
      try {
        run_verb(c, run, params, out);
      } catch (const UsageError& e) {
        INFO(e.what());
        // Refused, naming it, or refusing a baseline parameter it leaves unread (--expected: --V).
        CHECK((names_option(e.what(), spec.name) || std::string(e.what()).find("is not read by") != std::string::npos));
        continue;
      }
      CHECK(params.was_read(spec.name));
    }
    release_output_dir(out.string());
  }
  // Every verb of every construction was walked.
  for (const auto& c : all_constructions()) {
    CHECK(walked_verbs.count(c->name() + " check") == 1);
    CHECK(walked_verbs.count(c->name() + " eval") == 1);
    if (c->has_proofs()) CHECK(walked_verbs.count(c->name() + " prove") == 1);
    if (c->has_export()) CHECK(walked_verbs.count(c->name() + " export") == 1);
    for (const SweepSpec& s : c->sweeps())
      CHECK(walked_verbs.count(c->name() + " sweep " + s.vary + (s.fast ? " --fast" : "")) == 1);
  }
}
