// The tverify executable: argument parsing and printing only (GUIDE.md §1). Every error of usage or input is one
// line on stderr and exit code 2, with nothing written.
#include "checkers/build_info.hpp"
#include "checkers/certificate.hpp"
#include "checkers/construction.hpp"
#include "checkers/report.hpp"
#include "cli/print.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <map>
#include <thread>

namespace tverify::cli {
namespace {

struct CommonRunArgs {
  std::string threads = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  std::string max_inputs = "10000000";
  std::string max_counterexamples = "10";
  bool force = false;

  void add_to(CLI::App* app) {
    app->add_option("--threads", threads, "worker threads (>= 1; default: the number of cores)");
    app->add_option("--max-inputs", max_inputs, "refuse runs above this many inputs unless --force (default 10^7)");
    app->add_flag("--force", force, "run even above --max-inputs");
    app->add_option("--max-counterexamples", max_counterexamples, "counterexamples kept per claim (default 10)");
  }

  RunOptions parse() const {
    RunOptions o;
    o.threads = static_cast<unsigned>(parse_integer_option("--threads", threads, 1, 256));
    o.max_inputs = static_cast<std::uint64_t>(parse_integer_option("--max-inputs", max_inputs, 1, 1'000'000'000'000'000));
    o.max_counterexamples =
        static_cast<std::size_t>(parse_integer_option("--max-counterexamples", max_counterexamples, 0, 100000));
    o.force = force;
    o.progress = ProgressBar::wanted();
    return o;
  }
};

std::string variant_or_default(const Construction& c, const std::string& variant) {
  if (variant.empty()) return c.variants().front();
  std::string known;
  for (const auto& v : c.variants()) {
    if (v == variant) return v;
    known += (known.empty() ? "" : ", ") + v;
  }
  throw UsageError("--variant must be one of " + known + " (got '" + variant + "')");
}

std::string quoted_command(int argc, char** argv) {
  std::string out = "tverify";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const bool plain = a.find_first_of(" \t'\"$\\") == std::string::npos && !a.empty();
    out += " " + (plain ? a : "'" + a + "'");
  }
  return out;
}

// A construction's parameters as string options of one subcommand (validated later, with ranges in the message).
struct ConstructionArgs {
  const Construction* construction = nullptr;
  std::map<std::string, std::string> values;
  std::map<std::string, CLI::Option*> options;

  void add_to(CLI::App* app, const Construction& c) {
    construction = &c;
    for (const auto& p : c.params()) {
      if (p.kind == ParamSpec::Kind::Flag) {
        options[p.name] = app->add_flag("--" + p.name, p.help);
        flags.push_back(p.name);
        continue;
      }
      options[p.name] = app->add_option("--" + p.name, values[p.name],
                                        p.help + " (" + p.range_text() + "; default " + p.default_value + ")");
    }
  }
  std::map<std::string, std::string> given() const {
    std::map<std::string, std::string> out;
    for (const auto& [name, opt] : options) {
      const bool is_flag = std::find(flags.begin(), flags.end(), name) != flags.end();
      if (opt->count() > 0) out[name] = is_flag ? "true" : values.at(name);
    }
    return out;
  }
  std::vector<std::string> flags;
};

// --smt2 DIR: an existing writable directory, or one whose parent is (the first query dump creates it, so a run
// refused for another reason leaves nothing behind); refused (exit 2) otherwise.
std::string check_smt2_dir(const std::string& dir) {
  if (dir.empty()) return dir;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p = fs::absolute(dir, ec);
  const fs::path existing = fs::exists(p, ec) ? p : p.parent_path();
  if (!fs::is_directory(existing, ec) || access(existing.c_str(), W_OK) != 0)
    throw UsageError("--smt2 '" + dir + "' is not a writable directory (nor one that can be created in a writable one)");
  return dir;
}

// check and prove: validate everything (parameters, options, the --json path) before any work, run, then write the
// certificate atomically and print. `run` maps (parameters, variant, run options) to a report.
template <class Run>
int run_claims_verb(const ConstructionArgs& args, const std::string& variant, const std::string& json_path,
                    const CommonRunArgs& common, const std::string& command, Run run) {
  const Construction& c = *args.construction;
  const ParamValues params = ParamValues::parse(c.params(), args.given());
  const std::string v = variant_or_default(c, variant);
  const RunOptions options = common.parse();
  if (!json_path.empty()) ensure_writable(json_path);
  const CheckReport report = run(c, params, v, options);
  if (!json_path.empty()) write_json_atomically(json_path, certificate_json(report, command));
  fmt::print("{}", format_report(report));
  if (!json_path.empty()) fmt::print("certificate: {}\n", json_path);
  return exit_code_for(report.claims);
}

int run_prove(const ConstructionArgs& args, const std::vector<std::string>& claims, const std::string& variant,
              const std::string& json_path, const std::string& smt2_dir, const std::string& timeout_s,
              const CommonRunArgs& common, const std::string& command) {
  ProofOptions proof;
  proof.timeout_ms = static_cast<unsigned>(parse_integer_option("--timeout-s", timeout_s, 1, 86400) * 1000);
  const int code = run_claims_verb(
      args, variant, json_path, common, command,
      [&](const Construction& c, const ParamValues& params, const std::string& v, const RunOptions& options) {
        proof.smt2_dir = check_smt2_dir(smt2_dir);
        CheckReport report = c.prove(params, v, claims, proof, options);
        report.options["requested_claims"] = claims;
        return report;
      });
  if (!smt2_dir.empty()) fmt::print("SMT-LIB2 queries: {}\n", smt2_dir);
  return code;
}

int run_check(const ConstructionArgs& args, const std::vector<std::string>& claims, const std::string& variant,
              const std::string& json_path, const CommonRunArgs& common, const std::string& command) {
  return run_claims_verb(
      args, variant, json_path, common, command,
      [&](const Construction& c, const ParamValues& params, const std::string& v, const RunOptions& options) {
        for (const auto& id : claims) c.claim(id);
        CheckReport report = c.check(params, v, claims, options);
        report.options["requested_claims"] = claims;
        return report;
      });
}

std::map<std::string, std::string> params_from_certificate(const Json& params) {
  std::map<std::string, std::string> raw;
  for (const auto& [k, v] : params.items()) raw[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return raw;
}

// The ids in their first order, each once.
std::vector<std::string> without_repeats(const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  for (const auto& id : ids)
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  return out;
}

// The claims the certificate's command asked for (every claim when it named none); a certificate without the record
// asks for the claims it holds.
std::vector<std::string> requested_claims(const Json& cert) {
  std::vector<std::string> ids;
  const bool recorded = cert.contains("options") && cert["options"].contains("requested_claims");
  for (const auto& claim : recorded ? cert["options"]["requested_claims"] : cert["claims"])
    ids.push_back(recorded ? claim.get<std::string>() : claim["id"].get<std::string>());
  return without_repeats(ids);
}

// What recheck and report read of a certificate beyond its types, checked as a command line would be: a known
// construction and variant, parameters in range, known claim ids. Throws UsageError naming the certificate.
struct CertificateCommand {
  const Construction& construction;
  ParamValues params;
  std::string variant;
};

CertificateCommand certificate_command(const Json& cert, const std::string& path) {
  try {
    const Construction& c = find_construction(cert["construction"].get<std::string>());
    CertificateCommand out{c, ParamValues::parse(c.params(), params_from_certificate(cert["params"])),
                           variant_or_default(c, cert["variant"].get<std::string>())};
    for (const auto& claim : cert["claims"]) c.claim(claim["id"].get<std::string>());
    for (const auto& id : requested_claims(cert)) c.claim(id);
    return out;
  } catch (const UsageError& e) {
    throw UsageError("certificate '" + path + "': " + e.what());
  }
}

// Re-runs the certificate's command and compares every field it can reproduce, naming each that differs.
int run_recheck(const std::string& path, const CommonRunArgs& common) {
  const Json cert = load_certificate(path);
  const auto [c, params, variant] = certificate_command(cert, path);
  RunOptions options = common.parse();
  if (cert.contains("options") && cert["options"].contains("max_counterexamples"))
    options.max_counterexamples = cert["options"]["max_counterexamples"].get<std::size_t>();
  const std::vector<std::string> ids = requested_claims(cert);
  for (const auto& id : ids) c.claim(id);
  CheckReport fresh;
  if (cert.value("verb", "check") == "prove") {
    ProofOptions proof;
    if (cert.contains("options") && cert["options"].contains("timeout_ms"))
      proof.timeout_ms = cert["options"]["timeout_ms"].get<unsigned>();
    fresh = c.prove(params, variant, ids, proof, options);
  } else {
    fresh = c.check(params, variant, ids, options);
  }
  if (cert.contains("options") && cert["options"].contains("requested_claims")) fresh.options["requested_claims"] = ids;
  const auto differences = compare_certificates(cert, certificate_json(fresh, cert.value("command", "")));
  for (const auto& d : differences) fmt::print("  DIFFERS {}: stored {}, now {}\n", d.field, d.stored, d.now);
  if (cert.value("commit", "") != tool_commit())
    fmt::print("note: certificate made at commit {}, rechecked at {}\n", cert.value("commit", "?"), tool_commit());
  fmt::print("{}: {}\n", path,
             differences.empty() ? fmt::format("reproduced ({} claim results)", fresh.claims.size())
                                 : fmt::format("{} field(s) differ", differences.size()));
  return differences.empty() ? 0 : 1;
}

int run_report(const std::vector<std::string>& paths, bool latex, bool wide) {
  std::vector<Json> certs;
  for (const auto& p : paths) {
    certs.push_back(load_certificate(p));
    certificate_command(certs.back(), p);  // a table of what no command could have produced means nothing
  }
  fmt::print("{}", certificates_table(certs, latex ? TableFormat::Latex : TableFormat::Markdown,
                                      wide ? TableLayout::PerCertificate : TableLayout::PerClaim));
  return 0;
}

// An option given an empty string (`--json ''`) is an error, not the option left out.
void reject_empty_values(const CLI::App& app) {
  for (const CLI::Option* option : app.get_options())
    if (option->count() > 0 && option->get_expected_min() > 0)
      for (const auto& value : option->results())
        if (value.empty()) throw UsageError(option->get_name() + " needs a value (got an empty string)");
  for (const CLI::App* sub : app.get_subcommands()) reject_empty_values(*sub);
}

// An unknown verb, or `check cat` with an unknown construction: name what exists instead of CLI11's generic message.
void reject_unknown_words(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  const std::string verb = argv[1];
  if (verb != "list" && verb != "check" && verb != "prove" && verb != "sweep" && verb != "eval" && verb != "report" &&
      verb != "recheck")
    throw UsageError("'" + verb + "' is not a verb (verbs: list, check, prove, sweep, eval, report, recheck)");
  if (argc < 3) return;
  const std::string name = argv[2];
  if ((verb == "check" || verb == "prove" || verb == "sweep" || verb == "eval") && !name.empty() && name[0] != '-')
    find_construction(name);
}

int run(int argc, char** argv) {
  CLI::App app{"tverify: instantiate transformer constructions from ML-theory papers and machine-check their claims"};
  app.require_subcommand(1);
  app.option_defaults()->disable_flag_override();  // --force=3 is an error, not --force
  app.set_help_all_flag("--help-all", "every subcommand's options");

  auto* list = app.add_subcommand("list", "list constructions, their parameters (ranges, defaults) and claim ids");
  std::string list_name;
  list->add_option("construction", list_name, "one construction, with each claim's wording");

  CommonRunArgs common;
  auto* check = app.add_subcommand("check", "check claims of a construction over every input of its domain");
  check->require_subcommand(1);
  auto* prove = app.add_subcommand("prove", "prove claims of a construction with Z3 (all inputs symbolically)");
  prove->require_subcommand(1);
  std::string smt2_dir, timeout_s = "60";
  std::map<std::string, ConstructionArgs> prove_args;
  auto* sweep = app.add_subcommand("sweep", "sweep a parameter; write CSV, a PNG plot and JSON with the threshold");
  sweep->require_subcommand(1);
  SweepRequest sweep_request;
  std::map<std::string, ConstructionArgs> sweep_args;
  auto* eval = app.add_subcommand("eval", "evaluate a construction on one input");
  eval->require_subcommand(1);
  std::vector<std::string> claims;
  std::string variant, json_path, input, bits_text;
  bool trace = false;
  std::map<std::string, ConstructionArgs> check_args, eval_args;
  for (const auto& c : all_constructions()) {
    // check and prove take the same claim options
    auto add_claim_options = [&](CLI::App* sub, const char* claim_help) {
      sub->add_option("--claim", claims, claim_help);
      sub->add_option("--variant", variant, "paper (as printed, default) or corrected");
      sub->add_option("--json", json_path, "write a certificate to this file");
      common.add_to(sub);
    };
    auto* sub = check->add_subcommand(c->name(), c->paper());
    check_args[c->name()].add_to(sub, *c);
    add_claim_options(sub, "a claim id (repeatable; default: every claim)");
    auto* pr = prove->add_subcommand(c->name(), c->paper());
    prove_args[c->name()].add_to(pr, *c);
    add_claim_options(pr, "a claim id (repeatable; default: every claim with a proof)");
    pr->add_option("--smt2", smt2_dir, "dump every query as SMT-LIB2 into this directory");
    pr->add_option("--timeout-s", timeout_s, "Z3 timeout per query in seconds (default 60)");
    auto* sw = sweep->add_subcommand(c->name(), c->paper());
    sweep_args[c->name()].add_to(sw, *c);
    sw->add_option("--vary", sweep_request.vary, "what varies: tau, L or bits")->required();
    sw->add_option("--out", sweep_request.out_dir, "output directory (created if missing)")->required();
    sw->add_option("--resolution", sweep_request.resolution, "tau: grid step of the bisection (default 1/16)");
    sw->add_option("--L-max", sweep_request.length_max,
                   "L, bits: the largest L (defaults: largest with D^L <= 10^4; 2n + 4)");
    sw->add_option("--threshold", sweep_request.threshold, "L: mark the first L with err >= this (default 1/2)");
    sw->add_option("--variant", variant, "paper (as printed, default) or corrected");
    sw->add_flag("--fast", sweep_request.fast, "the fast exact path at large L (copy: --vary L=lo:hi:xF)");
    sw->add_flag("--resume", sweep_request.resume, "continue an interrupted sweep from the checkpoint in --out");
    sw->add_option("--formats", sweep_request.formats,
                   "copy --fast: measure these formats instead (float64,float32,bfloat16,float16)");
    sw->add_flag("--min-bits", sweep_request.min_bits, "copy --fast: the fewest MPFR bits (2..25) that copy every sampled string, per L");
    const auto own = c->params();
    auto has = [&](const char* name) {
      return std::any_of(own.begin(), own.end(), [&](const ParamSpec& p) { return p.name == name; });
    };
    if (!has("samples")) sw->add_option("--samples", sweep_request.samples, "random strings per point (fast sweeps)");
    if (!has("seed")) sw->add_option("--seed", sweep_request.seed, "seed of the random strings (fast sweeps)");
    common.add_to(sw);
    auto* ev = eval->add_subcommand(c->name(), c->paper());
    eval_args[c->name()].add_to(ev, *c);
    ev->add_option("--input", input, "the input tokens, comma-separated (e.g. 0,1,1,0)")->required();
    ev->add_option("--variant", variant, "paper (as printed, default) or corrected");
    ev->add_flag("--trace", trace, "print every intermediate block");
    ev->add_option("--bits", bits_text, "also evaluate in MPFR floating point with this many bits (>= 2)");
  }

  auto* report = app.add_subcommand("report", "tabulate certificates for a write-up");
  std::vector<std::string> report_paths;
  bool markdown = false, latex = false, wide = false;
  report->add_option("certificates", report_paths, "certificate files")->required();
  auto* md_flag = report->add_flag("--markdown", markdown, "a Markdown table (default)");
  report->add_flag("--latex", latex, "a LaTeX tabular")->excludes(md_flag);
  report->add_flag("--wide", wide, "one row per certificate, one column per claim");

  auto* recheck = app.add_subcommand("recheck", "re-run a certificate and say whether it reproduces (exit 0) or not (1)");
  std::string recheck_path;
  recheck->add_option("certificate", recheck_path, "a certificate file")->required();
  CommonRunArgs recheck_common;
  recheck_common.add_to(recheck);

  reject_unknown_words(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string what = e.what();
    if (what.find("disallowed flag override") != std::string::npos)  // CLI11 names the flag without its dashes
      throw UsageError("--" + what.substr(0, what.find(' ')) + " is a flag and takes no value (got '" + what + "')");
    throw UsageError(what);
  }

  reject_empty_values(app);
  claims = without_repeats(claims);  // --claim X --claim X asks for X once
  const std::string command = quoted_command(argc, argv);
  if (list->parsed()) {
    fmt::print("{}", list_name.empty() ? format_construction_list() : format_construction(find_construction(list_name)));
    return 0;
  }
  for (const auto& c : all_constructions()) {
    if (check->got_subcommand(c->name()))
      return run_check(check_args[c->name()], claims, variant, json_path, common, command);
    if (sweep->got_subcommand(c->name())) {
      if (sweep_request.resume && !std::filesystem::is_directory(sweep_request.out_dir))
        throw UsageError("--resume: --out '" + sweep_request.out_dir +
                         "' does not exist, so there is no checkpoint to resume (start without --resume)");
      const ParamValues params = ParamValues::parse(c->params(), sweep_args[c->name()].given());
      const Json summary = c->sweep(params, variant_or_default(*c, variant), sweep_request, common.parse());
      fmt::print("{}\n", summary.dump(2));
      return 0;
    }
    if (prove->got_subcommand(c->name()))
      return run_prove(prove_args[c->name()], claims, variant, json_path, smt2_dir, timeout_s, common, command);
    if (eval->got_subcommand(c->name())) {
      const ParamValues params = ParamValues::parse(c->params(), eval_args[c->name()].given());
      const long bits = bits_text.empty() ? 0 : parse_integer_option("--bits", bits_text, 2, 65536);
      fmt::print("{}", c->eval(params, variant_or_default(*c, variant), input, trace, bits));
      return 0;
    }
  }
  if (report->parsed()) return run_report(report_paths, latex, wide);
  if (recheck->parsed()) return run_recheck(recheck_path, recheck_common);
  return 2;
}

}  // namespace
}  // namespace tverify::cli

int main(int argc, char** argv) {
  try {
    return tverify::cli::run(argc, argv);
  } catch (const tverify::UsageError& e) {
    std::string message = e.what();
    for (auto& ch : message)
      if (ch == '\n') ch = ' ';
    fmt::print(stderr, "tverify: error: {}\n", message);
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tverify: internal error: {}\n", e.what());
    return 4;
  }
}
