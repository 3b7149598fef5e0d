// The tverify executable: argument parsing and printing only; every option of a construction comes from its
// declaration (docs/adding-a-construction.md). Every error of usage or input is one line on stderr and exit code 2,
// with nothing written.
#include "checkers/build_info.hpp"
#include "checkers/certificate.hpp"
#include "checkers/cluster.hpp"
#include "checkers/resumable_check.hpp"
#include "core/thread_caches.hpp"
#include "commands/command_line.hpp"
#include "io/files.hpp"
#include "checkers/memory_budget.hpp"
#include "commands/recheck.hpp"
#include "commands/recorded_command.hpp"
#include "checkers/registry.hpp"
#include "checkers/second_solver.hpp"
#include "commands/enclosure_text.hpp"
#include "commands/report.hpp"
#include "checkers/suggest.hpp"
#include "cli/completion.hpp"
#include "cli/print.hpp"
#ifdef TVERIFY_MPI
#include "mpi/mpi_cluster.hpp"
#endif

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>

namespace tverify::cli {
namespace {

struct CommonRunArgs {
  std::string threads = std::to_string(
      std::clamp(static_cast<long long>(std::thread::hardware_concurrency()), 1LL, max_threads));  // --threads' range
  std::string max_inputs = "10000000";
  std::string max_counterexamples = std::to_string(default_max_counterexamples);
  std::string max_memory;
  bool force = false, progress = false;
  std::string digits = std::to_string(default_enclosure_digits);

  void add_to(CLI::App* app) {
    app->add_option("--threads", threads, "worker threads (>= 1; default: the number of cores)")->type_name("INT");
    app->add_flag("--progress", progress,
                  "show the progress line even when stderr is no terminal or CI is set (under mpirun, whose ranks "
                  "write to pipes: rank 0 shows every rank's count)");
    app->add_option("--max-inputs", max_inputs, "refuse runs above this many inputs unless --force (default 10^7)")
        ->type_name("INT");
    app->add_flag("--force", force, "run even above --max-inputs");
    app->add_option("--max-counterexamples", max_counterexamples, "counterexamples kept per claim (default 10)")
        ->type_name("INT");
  }

  // Runs whose memory tverify estimates (Construction::estimates_memory), and recheck.
  void add_memory_to(CLI::App* app) {
    app->add_option("--max-memory", max_memory,
                    "refuse a run estimated to need more memory than this: bytes, or with K, M, G or T (default: half "
                    "of the available memory)")
        ->type_name("SIZE");
  }

  // Printed enclosures only: certificates keep every digit.
  void add_digits_to(CLI::App* app) {
    app->add_option("--digits", digits,
                    "significant digits of printed enclosures, rounded outward (default 6; 0: every digit, as in "
                    "certificates)")
        ->type_name("INT");
  }
  int digits_to_print() const { return static_cast<int>(parse_integer_option("--digits", digits, 0, 1000)); }

  RunOptions parse() const {
    RunOptions o;
    o.threads = static_cast<unsigned>(parse_integer_option("--threads", threads, 1, max_threads));
    o.max_inputs = static_cast<std::uint64_t>(parse_integer_option("--max-inputs", max_inputs, 1, max_max_inputs));
    o.max_counterexamples = static_cast<std::size_t>(
        parse_integer_option("--max-counterexamples", max_counterexamples, 0, max_max_counterexamples));
    if (!max_memory.empty()) o.max_memory = parse_memory_size(max_memory, "--max-memory");
    o.force = force;
    o.progress = progress || ProgressBar::wanted();
    return o;
  }
};

std::string quoted_command(int argc, char** argv) {
  std::string out = "tverify";
  for (int i = 1; i < argc; ++i) out += " " + shell_quoted(argv[i]);
  return out;
}

// Options declared as ParamSpecs (a construction's parameters, a sweep's options) as string options of one
// subcommand, validated later against their specs so that every message names the range.
struct DeclaredOptions {
  std::map<std::string, std::string> values;
  std::map<std::string, CLI::Option*> options;
  std::vector<std::string> flags;

  void add(CLI::App* app, const ParamSpec& p, const std::string& note = "") {
    if (options.count(p.name)) return;
    if (p.kind == ParamSpec::Kind::Flag) {
      const std::string description = p.help + note;
      options[p.name] = app->add_flag("--" + p.name, description);
      flags.push_back(p.name);
      return;
    }
    const std::string said = p.range_and_default();
    const std::string parenthesis = said.empty() ? "" : " (" + said + ")";
    options[p.name] =
        app->add_option("--" + p.name, values[p.name], p.help + parenthesis + note)->type_name(metavar_of(p));
  }
  // What --help shows after the option: the kind of value it takes.
  static std::string metavar_of(const ParamSpec& p) {
    switch (p.kind) {
      case ParamSpec::Kind::Integer: return "INT";
      case ParamSpec::Kind::IntegerRange: return "LO:HI";
      case ParamSpec::Kind::PositiveRational:
      case ParamSpec::Kind::Probability: return "RATIONAL";
      case ParamSpec::Kind::Choice: return "WORD";
      case ParamSpec::Kind::Text: return p.input_file ? "FILE" : p.metavar;
      case ParamSpec::Kind::Flag: return "";
    }
    return "TEXT";
  }
  std::map<std::string, std::string> given() const {
    std::map<std::string, std::string> out;
    for (const auto& [name, opt] : options) {
      const bool is_flag = std::find(flags.begin(), flags.end(), name) != flags.end();
      if (opt->count() > 0) out[name] = is_flag ? "true" : values.at(name);
    }
    return out;
  }
};

struct ConstructionArgs {
  const Construction* construction = nullptr;
  std::string verb;
  DeclaredOptions params;

  void add_to(CLI::App* app, const Construction& c, const std::string& for_verb) {
    construction = &c;
    verb = for_verb;
    for (const auto& p : c.params_for(verb)) {
      params.add(app, p);
      if (!c.shown_for(verb, p.name)) params.options.at(p.name)->group("");  // parsed, refused by name, not shown
    }
  }
  // The given values validated against the parameters the verb reads, defaults filled in.
  ParamValues parse() const { return ParamValues::parse(construction->params_for(verb), params.given()); }
};

std::string variant_help(const Construction& c) {
  std::string out = "one of:";
  const auto all = c.variants();
  for (std::size_t i = 0; i < all.size(); ++i)
    out +=
        fmt::format(" {} ({}{}){}", all[i].name, all[i].help, i == 0 ? "; default" : "", i + 1 < all.size() ? ";" : "");
  return out;
}

std::string claim_help(const Construction& c, const char* verb) {
  std::string ids;
  for (const auto& claim : c.claims())
    if (std::string(verb) == "prove" ? claim.checked_by_prove() : claim.checked_by_check())
      ids += (ids.empty() ? "" : ", ") + claim.id;
  return fmt::format("a claim id (repeatable; default: every claim {} decides for this run): {}", verb, ids);
}

// A construction's sweeps as options of `sweep NAME`: --vary names them, and each option says which sweeps read it.
struct SweepArgs {
  std::string vary, out_dir, figure_size;
  bool fast = false;
  DeclaredOptions options;

  void add_to(CLI::App* app, const Construction& c) {
    std::string kinds;
    bool any_fast = false;
    for (const auto& s : c.sweeps()) {
      kinds += fmt::format("; {}{}{}: {}", s.vary, s.fast ? " with --fast" : "",
                           s.selector.empty() ? "" : " --" + s.selector, s.help);
      any_fast = any_fast || s.fast;
    }
    app->add_option("--vary", vary, "what varies" + kinds)->required()->type_name("NAME[=RANGE]");
    app->add_option("--out", out_dir, "output directory for the certificate, table and figures (created if missing)")
        ->required()
        ->type_name("DIR");
    if (any_fast) app->add_flag("--fast", fast, "the fast exact path (the sweeps marked 'with --fast')");
    app->add_option("--figure-size", figure_size,
                    "the PDF and LaTeX figures' size: WIDTHxHEIGHT in in or cm (3.3x2.4in), column (3.0 x 2.2 in) or "
                    "page (6.0 x 3.6 in); default 4.6x3.2in")
        ->type_name("SIZE");
    for (const auto& s : c.sweeps())
      for (const auto& o : s.options) {
        std::string readers;
        for (const auto& t : c.sweeps())
          for (const auto& u : t.options)
            if (u.name == o.name)
              readers += (readers.empty() ? "" : ", ") + t.vary + (t.fast ? " --fast" : "") +
                         (t.selector.empty() || t.selector == o.name ? "" : " --" + t.selector);
        options.add(app, o, " [--vary " + readers + "]");
      }
  }
  SweepRequest request(const std::string& command, const CLI::App* app) const {
    return {vary,       fast, out_dir, options.given(), command, app->get_option("--max-counterexamples")->count() > 0,
            figure_size};
  }
};

// check and prove: validate everything (parameters, options, the --json path) before any work, run, then write the
// certificate atomically and print. `run` maps (parameters, variant, run options) to a report.
template <class Run>
int run_claims_verb(const ConstructionArgs& args, const std::string& variant, const std::string& json_path,
                    const CommonRunArgs& common, const std::string& command, Run run) {
  const Construction& c = *args.construction;
  const ParamValues params = args.parse();
  const std::string v = c.variant_or_default(variant);
  const RunOptions options = common.parse();
  const int digits = common.digits_to_print();
  const bool to_stdout = json_path == "-";  // the certificate on stdout, the report on stderr
  if (!json_path.empty() && !to_stdout) {
    ensure_writable(json_path);
    refuse_input_as_output(json_path, "--json", args.params.given());
  }
  const CheckReport report = run(c, params, v, options);
  if (to_stdout) {
    fmt::print(stderr, "{}", with_short_enclosures(format_report(report), digits));
    fmt::print("{}\n", certificate_json(report, command).dump(2));
    return exit_code_for(report.claims);
  }
  if (!json_path.empty()) write_json_atomically(json_path, certificate_json(report, command));
  fmt::print("{}", with_short_enclosures(format_report(report), digits));
  if (!json_path.empty()) fmt::print("certificate: {}\n", json_path);
  return exit_code_for(report.claims);
}

// eval: the text to print and, with --json, the result and trace as JSON (written atomically; '-': to stdout).
// `given`: the options as given, whose files --json must not replace.
int run_eval(const Construction& c, const ParamValues& params, const std::map<std::string, std::string>& given,
             const std::string& variant, const std::string& input, bool trace, long bits, const std::string& json_path,
             int digits, const std::string& command) {
  const bool to_stdout = json_path == "-";
  if (!json_path.empty() && !to_stdout) {
    ensure_writable(json_path);
    refuse_input_as_output(json_path, "--json", given);
  }
  const Evaluation e = c.eval(params, variant, input, trace, bits);
  const std::string text = with_short_enclosures(e.text, digits);
  if (json_path.empty()) {
    fmt::print("{}", text);
    return 0;
  }
  const Json json = evaluation_json(e, command, c.name(), variant, c.recorded_params("eval", nullptr, params), input);
  if (to_stdout) {
    fmt::print(stderr, "{}", text);
    fmt::print("{}\n", json.dump(2));
    return 0;
  }
  write_json_atomically(json_path, json);
  fmt::print("{}evaluation: {}\n", text, json_path);
  return 0;
}

int run_prove(const ConstructionArgs& args, const std::vector<std::string>& claims, const std::string& variant,
              const std::string& json_path, const std::string& smt2_dir, const std::string& timeout_s, bool cross_check,
              const CommonRunArgs& common, const std::string& command) {
  ProofOptions proof;
  proof.timeout_ms = static_cast<unsigned>(parse_integer_option("--timeout-s", timeout_s, 1, 86400) * 1000);
  if (cross_check) require_cvc5();
  proof.cross_check = cross_check;
  const int code = run_claims_verb(
      args, variant, json_path, common, command,
      [&](const Construction& c, const ParamValues& params, const std::string& v, const RunOptions& options) {
        if (!smt2_dir.empty()) ensure_writable_dir(smt2_dir, "--smt2");
        if (writes_outputs()) proof.smt2_dir = smt2_dir;  // under MPI, rank 0 alone dumps the queries
        return c.prove(params, v, claims, proof, options);
      });
  if (!smt2_dir.empty()) fmt::print("SMT-LIB2 queries: {}\n", smt2_dir);
  return code;
}

// check's --checkpoint FILE, --resume and --checkpoint-every SECONDS (checkers/resumable_check.hpp).
struct CheckpointArgs {
  std::string path, every = "30";
  bool resume = false;
  std::vector<CLI::Option*> every_options;  // one per construction's check

  void add_to(CLI::App* app) {
    app->add_option("--checkpoint", path,
                    "keep the finished part of the run in this file, so that --resume can continue it after a kill")
        ->type_name("FILE");
    app->add_flag("--resume", resume,
                  "continue the run of the --checkpoint file (the same command; any --threads or rank count)");
    every_options.push_back(app->add_option("--checkpoint-every", every,
                                            "write the checkpoint at most this often, in seconds (0 to 86400; "
                                            "default 30; and at the end of each enumeration)")
                                ->type_name("INT"));
  }
  // The request, its paths checked before any work: the checkpoint must be writable, and no input or --json file.
  CheckpointRequest request(const std::string& json_path, const std::map<std::string, std::string>& given) const {
    const CheckpointRequest r{path, resume,
                              std::chrono::seconds(parse_integer_option("--checkpoint-every", every, 0, 86400))};
    const bool every_given =
        std::any_of(every_options.begin(), every_options.end(), [](const CLI::Option* o) { return o->count() > 0; });
    if (path.empty() && every_given) throw UsageError("--checkpoint-every needs --checkpoint FILE");
    if (path.empty()) return r;
    ensure_writable_file(path, "--checkpoint");
    refuse_input_as_output(path, "--checkpoint", given);
    std::error_code ec1, ec2;
    if (!json_path.empty() && json_path != "-" &&
        std::filesystem::weakly_canonical(json_path, ec1) == std::filesystem::weakly_canonical(path, ec2))
      throw UsageError("--checkpoint and --json name the same file ('" + path + "')");
    return r;
  }
};

int run_check(const ConstructionArgs& args, const std::vector<std::string>& claims, const std::string& variant,
              const std::string& json_path, const CommonRunArgs& common, const CheckpointArgs& keep,
              const std::string& command) {
  const CheckpointRequest checkpoint = keep.request(json_path, args.params.given());
  return run_claims_verb(
      args, variant, json_path, common, command,
      [&](const Construction& c, const ParamValues& params, const std::string& v, const RunOptions& options) {
        return resumable_check(c, params, v, claims, options, checkpoint);
      });
}

// Validates everything before the export, then writes the model atomically.
int run_export(const ConstructionArgs& args, const std::string& variant, const std::string& onnx_path) {
  const Construction& c = *args.construction;
  const ParamValues params = args.parse();
  const std::string v = c.variant_or_default(variant);
  if (onnx_path == "-") {  // the model's bytes on stdout
    const std::string model = c.export_onnx(params, v);
    if (std::fwrite(model.data(), 1, model.size(), stdout) != model.size() || std::fflush(stdout) != 0)
      throw UsageError("--onnx -: writing the model to stdout failed");
    return 0;
  }
  ensure_writable_file(onnx_path, "--onnx");
  write_file_atomically(onnx_path, c.export_onnx(params, v));
  fmt::print("{}: the {} construction (variant {}) as an ONNX model; check it with `tverify check model --onnx {}`\n",
             onnx_path, c.name(), v, onnx_path);
  return 0;
}

// Re-runs the certificate's command and compares every field it can reproduce, naming each that differs.
int run_recheck(const std::string& path, const CommonRunArgs& common) {
  const Json cert = load_certificate(path);
  const RecheckResult result = recheck_certificate(cert, path, common.parse());
  for (const auto& d : result.differences) fmt::print("  DIFFERS {}: stored {}, now {}\n", d.field, d.stored, d.now);
  if (result.made_at_other_commit)
    fmt::print("note: certificate made at commit {}, rechecked at {}\n", *result.made_at_other_commit, tool_commit());
  fmt::print("{}: {}\n", path,
             result.differences.empty() ? fmt::format("reproduced ({} {})", result.claim_results, result.counted)
                                        : fmt::format("{} field(s) differ", result.differences.size()));
  return result.differences.empty() ? 0 : 1;
}

int run_report(const std::vector<std::string>& paths, TableFormat format, TableLayout layout,
               const std::string& columns) {
  std::vector<Json> certs;
  for (const auto& p : paths) {
    certs.push_back(load_certificate(p));
    certificate_command(certs.back(), p);  // a table of what no command could have produced means nothing
  }
  const std::vector<std::string> names =
      columns.empty() ? std::vector<std::string>{}
                      : split_list(columns, ',', "--columns", "column names as in the table's header, comma-separated");
  fmt::print("{}", certificates_table(certs, format, layout, names));
  return 0;
}

// The first option on the command line that the (sub)command it follows does not have (`--vry` after `sweep copy`,
// `--markdwn` after `report`, `--verison` alone), with the closest option that command has; nullopt when every option
// is known.
std::optional<std::string> unknown_option_message(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  std::string path = "tverify";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;  // the words after it are no options
    std::vector<std::string> known;
    for (const CLI::Option* o : command->get_options())
      for (const auto& name : o->get_lnames()) known.push_back("--" + name);
    if (arg.rfind("--", 0) == 0) {
      const std::string word = arg.substr(0, arg.find('='));
      if (std::find(known.begin(), known.end(), word) != known.end()) continue;
      return fmt::format("{} is not an option of `{}`{} (see `{} --help`)", word, path, did_you_mean(word, known),
                         path);
    }
    const auto subcommands = command->get_subcommands([&](const CLI::App* sub) { return sub->get_name() == arg; });
    if (!subcommands.empty()) {
      command = subcommands.front();
      path += " " + arg;
    }
  }
  return std::nullopt;
}

// An option given an empty string (`--json ''`) is an error, not the option left out.
void reject_empty_values(const CLI::App& app) {
  for (const CLI::Option* option : app.get_options())
    if (option->count() > 0 && option->get_expected_min() > 0)
      for (const auto& value : option->results())
        if (value.empty()) throw UsageError(option->get_name() + " needs a value (got an empty string)");
  for (const CLI::App* sub : app.get_subcommands()) reject_empty_values(*sub);
}

// A flag written with '=' (`--force=`, `--progress=yes`): CLI11 takes an empty value as the flag itself.
void reject_flag_values(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> flags;
  std::function<void(const CLI::App&)> collect = [&](const CLI::App& a) {
    for (const CLI::Option* o : a.get_options())
      if (o->get_expected_max() == 0)
        for (const auto& name : o->get_lnames()) flags.push_back("--" + name);
    for (const CLI::App* sub : a.get_subcommands([](const CLI::App*) { return true; })) collect(*sub);
  };
  collect(app);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    const auto equals = arg.find('=');
    if (arg.rfind("--", 0) == 0 && equals != std::string::npos &&
        std::find(flags.begin(), flags.end(), arg.substr(0, equals)) != flags.end())
      throw UsageError(arg.substr(0, equals) + " is a flag and takes no value (got '" + arg + "')");
  }
}

// An unknown verb, or `check cat` with an unknown construction: name what exists instead of CLI11's generic message.
// `construction_verbs` are the verbs whose next word names a construction.
void reject_unknown_words(const CLI::App& app, const std::vector<std::string>& construction_verbs, int argc,
                          char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  const std::string verb = argv[1];
  std::string verbs;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    verbs += (verbs.empty() ? "" : ", ") + sub->get_name();
    known = known || sub->get_name() == verb;
  }
  if (!known) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      names.push_back(sub->get_name());
    throw UsageError("'" + verb + "' is not a verb (verbs: " + verbs + ")" + did_you_mean(verb, names));
  }
  if (argc < 3) return;
  const std::string name = argv[2];
  const bool names_construction =
      std::find(construction_verbs.begin(), construction_verbs.end(), verb) != construction_verbs.end();
  if (names_construction && !name.empty() && name[0] != '-') find_construction(name).require_verb(verb);
}

int run(int argc, char** argv) {
  CLI::App app{"tverify: instantiate transformer constructions from ML-theory papers and machine-check their claims",
               "tverify"};
  app.require_subcommand(1);
  app.option_defaults()->disable_flag_override();  // --force=3 is an error, not --force
  app.set_help_all_flag("--help-all", "every subcommand's options");

  auto* list = app.add_subcommand("list", "list constructions, their parameters (ranges, defaults) and claim ids");
  std::string list_name;
  list->add_option("construction", list_name, "one construction, with each claim's wording")->type_name("NAME");

  CommonRunArgs common;
  CheckpointArgs checkpoint;
  auto* check = app.add_subcommand("check", "check claims of a construction over every input of its domain");
  check->require_subcommand(1);
  auto* prove = app.add_subcommand("prove", "prove claims of a construction with Z3 (all inputs symbolically)");
  prove->require_subcommand(1);
  std::string smt2_dir, timeout_s = "60";
  bool cross_check = false;
  auto* sweep = app.add_subcommand(
      "sweep", "sweep a parameter; write its certificate (JSON), table (CSV) and figures (PNG, PDF, LaTeX)");
  sweep->require_subcommand(1);
  auto* eval = app.add_subcommand("eval", "evaluate a construction on one input");
  eval->require_subcommand(1);
  std::vector<std::string> claims;
  std::string variant, json_path, input, bits_text;
  bool trace = false;
  std::map<std::string, ConstructionArgs> check_args, prove_args, sweep_args, eval_args;
  std::map<std::string, SweepArgs> sweep_options;
  for (const auto& c : all_constructions()) {
    // check and prove take the same claim options
    auto add_claim_options = [&](CLI::App* sub, const char* verb) {
      sub->add_option("--claim", claims, claim_help(*c, verb))->type_name("ID");
      sub->add_option("--variant", variant, variant_help(*c))->type_name("NAME");
      sub->add_option("--json", json_path, "write a certificate to this file ('-': to stdout, the report to stderr)")
          ->type_name("FILE");
      common.add_to(sub);
      common.add_digits_to(sub);
      if (c->estimates_memory() && std::string(verb) == "check") common.add_memory_to(sub);
    };
    auto* sub = check->add_subcommand(c->name(), c->paper());
    check_args[c->name()].add_to(sub, *c, "check");
    add_claim_options(sub, "check");
    checkpoint.add_to(sub);
    if (c->has_proofs()) {
      auto* pr = prove->add_subcommand(c->name(), c->paper());
      prove_args[c->name()].add_to(pr, *c, "prove");
      add_claim_options(pr, "prove");
      pr->add_option("--smt2", smt2_dir, "dump every query as SMT-LIB2 into this directory")->type_name("DIR");
      pr->add_option("--timeout-s", timeout_s, "Z3 timeout per query in seconds (default 60)")->type_name("INT");
      pr->add_flag("--cross-check", cross_check,
                   "run every query through cvc5 as well (its SMT-LIB2 text); sat against unsat makes the claim "
                   "unknown, and the certificate records both answers");
    }
    if (!c->sweeps().empty()) {
      auto* sw = sweep->add_subcommand(c->name(), c->paper());
      sweep_args[c->name()].add_to(sw, *c, "sweep");
      sweep_options[c->name()].add_to(sw, *c);
      sw->add_option("--variant", variant, variant_help(*c))->type_name("NAME");
      common.add_to(sw);
      if (c->estimates_memory()) common.add_memory_to(sw);
    }
    auto* ev = eval->add_subcommand(c->name(), c->paper());
    eval_args[c->name()].add_to(ev, *c, "eval");
    ev->add_option("--input", input, "the input tokens, comma-separated (e.g. 0,1,1,0)")->required()->type_name("LIST");
    ev->add_option("--variant", variant, variant_help(*c))->type_name("NAME");
    if (c->eval_traces()) ev->add_flag("--trace", trace, "print every intermediate block");
    if (c->evaluates_in_floating_point())
      ev->add_option("--bits", bits_text, "also evaluate in MPFR floating point with this many bits (>= 2)")
          ->type_name("INT");
    common.add_digits_to(ev);
    ev->add_option("--json", json_path,
                   "also write the result and the trace as JSON to this file ('-': to stdout, the text to stderr)")
        ->type_name("FILE");
  }

  auto* exporter = app.add_subcommand("export", "write a construction's weights as an ONNX model (for check model)");
  exporter->require_subcommand(1);
  std::string onnx_path;
  std::map<std::string, ConstructionArgs> export_args;
  for (const auto& c : all_constructions()) {
    if (!c->has_export()) continue;
    auto* ex = exporter->add_subcommand(c->name(), c->paper());
    export_args[c->name()].add_to(ex, *c, "export");
    ex->add_option("--variant", variant, variant_help(*c))->type_name("NAME");
    ex->add_option("--onnx", onnx_path, "the ONNX file to write ('-': to stdout)")->required()->type_name("FILE");
  }

  auto* report = app.add_subcommand("report", "tabulate certificates for a write-up");
  std::vector<std::string> report_paths;
  bool markdown = false, latex = false, wide = false;
  report->add_option("certificates", report_paths, "certificate files")->required()->type_name("FILE");
  auto* md_flag = report->add_flag("--markdown", markdown, "a Markdown table (default)");
  report
      ->add_flag("--latex", latex,
                 "LaTeX: captioned booktabs longtables, split when wider than a page (preamble: "
                 "\\usepackage{booktabs,longtable,array})")
      ->excludes(md_flag);
  bool two_column = false;
  report->add_flag("--two-column", two_column,
                   "with --latex: table* floats spanning both columns of a [twocolumn] paper, split into consecutive "
                   "floats of the rows a page holds (preamble: \\usepackage{booktabs,array})");
  report->add_flag("--wide", wide, "one row per certificate, one column per claim");
  std::string report_columns;
  report->add_option("--columns", report_columns, "only these columns, comma-separated (names as in the header)")
      ->type_name("LIST");

  auto* recheck =
      app.add_subcommand("recheck", "re-run a certificate and say whether it reproduces (exit 0) or not (1)");
  std::string recheck_path;
  recheck->add_option("certificate", recheck_path, "a certificate file")->required()->type_name("FILE");
  CommonRunArgs recheck_common;
  recheck_common.add_to(recheck);
  recheck_common.add_memory_to(recheck);

  auto* completion = app.add_subcommand(
      "completion", "print a shell completion script (bash, or zsh): source <(tverify completion bash)");
  std::string completion_shell;
  completion->add_option("shell", completion_shell, "bash or zsh")->required()->type_name("SHELL");

  app.set_version_flag("-V,--version",
                       fmt::format("tverify {} (commit {})\nApache-2.0; to cite it, see CITATION.cff in its repository",
                                   tool_version(), tool_commit()),
                       "print the version, the commit it was built from, and how to cite it");
  if (argc == 1) {  // bare `tverify`: what it does and its verbs
    fmt::print("{}", app.help());
    return 0;
  }
  reject_unknown_words(app, {"check", "prove", "sweep", "eval", "export"}, argc, argv);
  reject_flag_values(app, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) { return app.exit(e); } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // a misspelt option first: it explains a missing required one
    if (const auto unknown = unknown_option_message(app, argc, argv)) throw UsageError(*unknown);
    const std::string what = e.what();
    if (what.find("disallowed flag override") != std::string::npos)  // CLI11 names the flag without its dashes
      throw UsageError("--" + what.substr(0, what.find(' ')) + " is a flag and takes no value (got '" + what + "')");
    throw UsageError(what);
  }

  reject_empty_values(app);
  claims = without_repeats(claims);  // --claim X --claim X asks for X once
  const std::string command = quoted_command(argc, argv);
  if (list->parsed()) {
    fmt::print("{}",
               list_name.empty() ? format_construction_list() : format_construction(find_construction(list_name)));
    return 0;
  }
  for (const auto& c : all_constructions()) {
    if (check->got_subcommand(c->name()))
      return run_check(check_args[c->name()], claims, variant, json_path, common, checkpoint, command);
    if (!c->sweeps().empty() && sweep->got_subcommand(c->name())) {
      const ParamValues params = sweep_args[c->name()].parse();
      const Json summary =
          c->sweep(params, c->variant_or_default(variant),
                   sweep_options[c->name()].request(command, sweep->get_subcommand(c->name())), common.parse());
      fmt::print("{}\n", summary.dump(2));
      return 0;
    }
    if (c->has_proofs() && prove->got_subcommand(c->name()))
      return run_prove(prove_args[c->name()], claims, variant, json_path, smt2_dir, timeout_s, cross_check, common,
                       command);
    if (eval->got_subcommand(c->name())) {
      const ParamValues params = eval_args[c->name()].parse();
      const long bits = bits_text.empty() ? 0 : parse_integer_option("--bits", bits_text, 2, 65536);
      return run_eval(*c, params, eval_args[c->name()].params.given(), c->variant_or_default(variant), input, trace,
                      bits, json_path, common.digits_to_print(), command);
    }
  }
  for (const auto& [name, args] : export_args)
    if (exporter->got_subcommand(name)) return run_export(args, variant, onnx_path);
  if (report->parsed() && two_column && !latex) throw UsageError("--two-column is a layout of --latex: add --latex");
  if (report->parsed())
    return run_report(report_paths,
                      latex ? (two_column ? TableFormat::LatexTwoColumn : TableFormat::Latex) : TableFormat::Markdown,
                      wide ? TableLayout::PerCertificate : TableLayout::PerClaim, report_columns);
  if (recheck->parsed()) return run_recheck(recheck_path, recheck_common);
  if (completion->parsed()) {
    fmt::print("{}", completion_script(app, completion_shell));
    return 0;
  }
  return 2;
}

}  // namespace
}  // namespace tverify::cli

namespace {

// The one line of an error, and its exit code: 2 for usage or input, 4 for an internal error.
int report_error(tverify::Cluster* cluster, const std::string& line, int code) {
  if (cluster && cluster->ranks() > 1) cluster->fail(line, code);
  std::fprintf(stderr, "%s\n", line.c_str());  // never throws, even when stderr cannot be written
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  tverify::widen_exponent_range();  // MPFR's range is per thread: the workers widen theirs too
  // A file-size limit (ulimit -f) makes a write fail with EFBIG instead of killing the process, so the atomic writer
  // names the file and keeps the previous one.
  std::signal(SIGXFSZ, SIG_IGN);
  std::unique_ptr<tverify::Cluster> cluster;
  try {
#ifdef TVERIFY_MPI
    cluster = tverify::mpi::join_launched_job(argc, argv);
#endif
    return tverify::cli::run(argc, argv);
  } catch (const tverify::UsageError& e) {
    std::string message = e.what();
    for (auto& ch : message)
      if (ch == '\n') ch = ' ';
    return report_error(cluster.get(), "tverify: error: " + message, 2);
  } catch (const std::exception& e) {
    return report_error(cluster.get(), std::string("tverify: internal error: ") + e.what(), 4);
  }
}
