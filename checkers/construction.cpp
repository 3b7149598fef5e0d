#include "checkers/construction.hpp"

#include "checkers/certificate.hpp"
#include "checkers/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>

namespace tverify {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string sweep_label(const std::string& construction, const SweepSpec& s) {
  return "sweep " + construction + " --vary " + s.vary + (s.fast ? " --fast" : "") +
         (s.selector.empty() ? "" : " --" + s.selector);
}

// Among the sweeps one --vary (and --fast) selects, the one whose selector option is given, else the one without a
// selector. Two selectors given, or none where every sweep has one, is a usage error naming them.
const SweepSpec* select_sweep(const std::vector<const SweepSpec*>& matching, const SweepRequest& request) {
  const SweepSpec* plain = nullptr;
  const SweepSpec* selected = nullptr;
  std::vector<std::string> selectors;
  for (const SweepSpec* s : matching) {
    if (s->selector.empty()) {
      plain = s;
      continue;
    }
    selectors.push_back("--" + s->selector);
    if (!request.options.count(s->selector)) continue;
    if (selected)
      throw UsageError("--" + selected->selector + " and --" + s->selector +
                       " select separate sweeps: give one of them");
    selected = s;
  }
  if (!selected && !plain) throw UsageError("this --vary needs one of " + joined(selectors));
  return selected ? selected : plain;
}

// Every claim asked has a result: a claim left out of its construction's groups is a programming error, never a
// silently shorter report.
void require_results(const ClaimSelection& asked, const CheckReport& report) {
  for (const auto& id : asked.ids())
    if (std::none_of(report.claims.begin(), report.claims.end(), [&](const ClaimResult& r) { return r.id == id; }))
      throw std::logic_error(report.construction + ": claim " + id + " was asked but no checker produced a result");
}

}  // namespace

bool ClaimSelection::has(const ClaimSpec& claim) const {
  return std::find(ids_.begin(), ids_.end(), claim.id) != ids_.end();
}

Construction::Construction(ConstructionDeclaration declaration, ConstructionActions actions)
    : declaration_(std::move(declaration)), actions_(std::move(actions)) {
  for (const auto& s : declaration_.sweeps)
    if (!s.selector.empty() &&
        std::none_of(s.options.begin(), s.options.end(), [&](const ParamSpec& o) { return o.name == s.selector; }))
      throw std::logic_error(declaration_.name + ": the selector --" + s.selector +
                             " of a sweep is not one of its options");
}

const ClaimSpec& Construction::claim(const std::string& id) const {
  std::vector<std::string> known;
  for (const auto& c : claims()) {
    if (c.id == id) return c;
    known.push_back(c.id);
  }
  throw UsageError("--claim '" + id + "' is not a claim of " + name() + did_you_mean(id, known) +
                   " (claims: " + joined(known) + ")");
}

bool Construction::has_proofs() const {
  const auto& all = claims();
  return std::any_of(all.begin(), all.end(), [](const ClaimSpec& c) { return c.checked_by_prove(); });
}

std::string Construction::variant_or_default(const std::string& variant) const {
  const auto& all = variants();
  if (variant.empty()) return all.front().name;
  std::vector<std::string> known;
  for (const auto& v : all) {
    if (v.name == variant) return v.name;
    known.push_back(v.name);
  }
  throw UsageError("--variant must be one of " + joined(known) + " (got '" + variant + "')");
}

std::vector<std::string> Construction::default_claims(const std::string& verb, const ParamValues& params,
                                                      const std::string& variant) const {
  std::vector<std::string> ids;
  for (const auto& c : claims()) {
    const bool decided = verb == "prove" ? c.checked_by_prove() : c.checked_by_check();
    if (decided && (!c.outside_run || c.outside_run(params, variant).empty())) ids.push_back(c.id);
  }
  return ids;
}

// Unknown ids, ids the verb does not decide and ids outside this run fail before any work. The selection is in
// declaration order, each claim once.
ClaimSelection Construction::requested_claims(const std::string& verb, const ParamValues& params,
                                              const std::string& variant,
                                              const std::vector<std::string>& claim_ids) const {
  if (claim_ids.empty()) return ClaimSelection(default_claims(verb, params, variant));
  std::vector<std::string> provable;
  for (const auto& c : claims())
    if (c.checked_by_prove()) provable.push_back(c.id);
  for (const auto& id : claim_ids) {
    const ClaimSpec& c = claim(id);
    if (verb == "check" && !c.checked_by_check())
      throw UsageError("--claim " + id + " is proved with `tverify prove " + name() + "`, not checked");
    if (verb == "prove" && !c.checked_by_prove())
      throw UsageError("--claim " + id + " has no Z3 proof (provable: " + joined(provable) + "); it is checked with " +
                       "`tverify check " + name() + "`");
    if (c.outside_run) {
      const std::string why = c.outside_run(params, variant);
      if (!why.empty()) throw UsageError("--claim " + id + " " + why);
    }
  }
  std::vector<std::string> ordered;
  for (const auto& c : claims())
    if (std::find(claim_ids.begin(), claim_ids.end(), c.id) != claim_ids.end()) ordered.push_back(c.id);
  return ClaimSelection(std::move(ordered));
}

std::vector<ParamSpec> Construction::params_for(const std::string& verb) const {
  const auto& features = declaration_.features;
  const auto& read = verb == "prove"                         ? features.prove_params
                     : verb == "export" || verb == "weights" ? features.export_params
                                                             : std::nullopt;
  if (!read) return params();
  std::vector<ParamSpec> out;
  for (const auto& p : params())
    if (std::find(read->begin(), read->end(), p.name) != read->end()) out.push_back(p);
  return out;
}

bool Construction::shown_for(const std::string& verb, const std::string& param) const {
  if (!declaration_.features.never_read) return true;
  const auto never = declaration_.features.never_read(verb);
  return std::find(never.begin(), never.end(), param) == never.end();
}

void Construction::require_verb(const std::string& verb) const {
  if (verb == "prove" && (!has_proofs() || !actions_.prove))
    throw UsageError("construction '" + name() + "' has no Z3 proofs (its claims are checked with `tverify check " +
                     name() + "`)");
  if (verb == "sweep" && (sweeps().empty() || !actions_.sweep))
    throw UsageError("construction '" + name() + "' has no sweeps");
  if (verb == "export" && !has_export())
    throw UsageError("construction '" + name() +
                     "' has no ONNX export (constructions with one: see `tverify export --help`)");
  if (verb == "weights" && !has_weights())
    throw UsageError("construction '" + name() + "' has no named weights (tverify.constructions() says which do)");
}

std::string Construction::export_onnx(const ParamValues& params, const std::string& variant) const {
  require_verb("export");
  refuse_unread("export", nullptr, params);
  return actions_.export_onnx(params, variant);
}

std::vector<NamedWeights> Construction::weights(const ParamValues& params, const std::string& variant) const {
  require_verb("weights");
  return actions_.weights(params, variant);
}

std::string vary_key(const std::string& vary) { return vary.substr(0, vary.find('=')); }

void Construction::refuse_unread(const std::string& verb, const SweepRequest* sweep, const ParamValues& params) const {
  if (!declaration_.features.unread_params) return;
  for (const auto& name : declaration_.features.unread_params(verb, sweep, params))
    if (params.given(name))
      throw UsageError(fmt::format("--{} is not read by `tverify {} {}{}` with these options; leave it out", name, verb,
                                   this->name(),
                                   sweep ? " --vary " + sweep->vary + (sweep->fast ? " --fast" : "") : ""));
}

void Construction::refuse_unread_budget(const std::string& verb, const RunOptions& options) const {
  if (options.max_memory == 0 || (estimates_memory() && verb != "prove")) return;
  throw UsageError(
      fmt::format("--max-memory is not read by `tverify {} {}`: tverify estimates the memory of model "
                  "checks and sweeps only (other runs are bounded by the ranges of their parameters); "
                  "leave it out",
                  verb, name()));
}

Json Construction::recorded_params(const std::string& verb, const SweepRequest* sweep,
                                   const ParamValues& params) const {
  Json recorded = params.to_json();
  if (declaration_.features.unread_params)
    for (const auto& name : declaration_.features.unread_params(verb, sweep, params)) recorded.erase(name);
  return recorded;
}

CheckReport Construction::new_report(const std::string& verb, const ParamValues& params,
                                     const std::string& variant) const {
  CheckReport report;
  report.verb = verb;
  report.construction = name();
  report.variant = variant;
  report.params = recorded_params(verb, nullptr, params);
  return report;
}

CheckReport Construction::check(const ParamValues& params, const std::string& variant,
                                const std::vector<std::string>& claim_ids, const RunOptions& options) const {
  const auto start = std::chrono::steady_clock::now();
  refuse_unread("check", nullptr, params);
  refuse_unread_budget("check", options);
  const ClaimSelection asked = requested_claims("check", params, variant, claim_ids);
  CheckReport report = new_report("check", params, variant);
  report.options = declaration_.features.records_counterexample_limit
                       ? Json{{"max_counterexamples", options.max_counterexamples}}
                       : Json::object();
  report.options["requested_claims"] = claim_ids;
  actions_.check(params, variant, asked, options, report);
  require_results(asked, report);
  mark_vacuous_outside_hypotheses(report.claims);
  report.elapsed_s = seconds_since(start);
  return report;
}

CheckReport Construction::prove(const ParamValues& params, const std::string& variant,
                                const std::vector<std::string>& claim_ids, const ProofOptions& options,
                                const RunOptions& run) const {
  const auto start = std::chrono::steady_clock::now();
  require_verb("prove");
  refuse_unread("prove", nullptr, params);
  refuse_unread_budget("prove", run);
  const ClaimSelection asked = requested_claims("prove", params, variant, claim_ids);
  CheckReport report = new_report("prove", params, variant);
  report.options = Json{{"timeout_ms", options.timeout_ms}, {"requested_claims", claim_ids}};
  if (options.cross_check) report.options["cross_check"] = true;
  actions_.prove(params, variant, asked, options, run, report);
  require_results(asked, report);
  mark_vacuous_outside_hypotheses(report.claims);
  report.elapsed_s = seconds_since(start);
  return report;
}

Json Construction::sweep(const ParamValues& params, const std::string& variant, const SweepRequest& request,
                         const RunOptions& run) const {
  require_verb("sweep");
  const auto& all = sweeps();
  std::vector<std::string> known;
  std::vector<const SweepSpec*> matching;
  for (const auto& s : all) {
    known.push_back(s.vary + (s.fast ? " (with --fast)" : ""));
    if (s.vary == vary_key(request.vary) && s.fast == request.fast) matching.push_back(&s);
  }
  if (matching.empty())
    throw UsageError("--vary must be one of " + joined(without_repeats(known)) + " for " + name() + " (got '" +
                     request.vary + "'" + (request.fast ? " with --fast" : "") + ")");
  const SweepSpec* spec = select_sweep(matching, request);
  refuse_unread("sweep", &request, params);
  refuse_unread_budget("sweep", run);
  if (request.max_counterexamples_given && !spec->reads_counterexample_limit)
    throw UsageError("--max-counterexamples is not read by `tverify " + sweep_label(name(), *spec) +
                     "`: its files record no counterexample; leave it out");
  std::vector<std::string> own;
  for (const auto& o : spec->options) own.push_back("--" + o.name);
  for (const auto& [option, text] : request.options)
    if (std::none_of(spec->options.begin(), spec->options.end(), [&](const ParamSpec& o) { return o.name == option; }))
      throw UsageError("--" + option + " is not an option of " + sweep_label(name(), *spec) +
                       " (its options: " + (own.empty() ? "none" : joined(own)) + ")");
  if (request.out_dir.empty() || request.out_dir == "-")
    throw UsageError(
        "--out must name a directory (a sweep writes its certificate, table and figures there; '-', "
        "standard output, cannot hold them)");
  SweepRun sweep_run{
      *spec, request.vary,
      SweepOutput{request.out_dir,
                  sweep_certificate_header(request.command, name(), variant, recorded_params("sweep", &request, params),
                                           request.vary, request.fast, request.options),
                  parse_figure_size(request.figure_size)},
      ParamValues::parse(spec->options, request.options)};
  if (sweep_run.options.has("resume") && sweep_run.options.flag("resume") &&
      !std::filesystem::is_directory(request.out_dir))
    throw UsageError("--resume: --out '" + request.out_dir +
                     "' does not exist, so there is no checkpoint to resume (start without --resume)");
  return actions_.sweep(params, variant, sweep_run, run);
}

Evaluation Construction::eval(const ParamValues& params, const std::string& variant, const std::string& input,
                              bool trace, long bits) const {
  if (bits > 0 && !evaluates_in_floating_point())
    throw UsageError("--bits: " + name() + " is evaluated exactly and in intervals only");
  refuse_unread("eval", nullptr, params);
  if (const std::string& length = declaration_.features.eval_length_param; !length.empty()) {
    const auto& specs = declaration_.params;
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& p) { return p.name == length; });
    const auto tokens = static_cast<long long>(std::count(input.begin(), input.end(), ',') + 1);
    if (spec != specs.end() && tokens > spec->max)
      throw UsageError(fmt::format("--input has {} tokens; eval {} takes at most {}, the largest --{} that check takes",
                                   tokens, name(), spec->max, length));
  }
  return actions_.eval(params, variant, input, trace, bits);
}

ClaimResult result_for(const ClaimSpec& spec) {
  ClaimResult r;
  r.id = spec.id;
  r.statement = spec.statement;
  return r;
}

}  // namespace tverify
