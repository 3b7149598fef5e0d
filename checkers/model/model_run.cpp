#include "checkers/model/model_run.hpp"

#include "checkers/confidence.hpp"
#include "checkers/model/memory_estimate.hpp"
#include "checkers/tally.hpp"
#include "core/exact.hpp"
#include "core/interval.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

namespace tverify::model {

bool sampled(const ParamValues& params) { return params.has("samples"); }

const ClaimSpec& task_claim() {
  static const ClaimSpec spec{
      "model.task",
      "the user's model",
      "on every input of the domain, the model's output read by --decode is the task's reference output",
      "every input of the domain (every sequence over --V tokens of each length in --lengths, laid out by --task; or "
      "every line of --expected), evaluated exactly when every op is rational and otherwise in certified double "
      "intervals, then MPFI intervals up the precision ladder; each argmax certified, an exact tie a failure, an "
      "undecided input unknown; the exact error "
      "rate per length in the details. With --method bounds (auto: where the task has an abstraction), boxes of "
      "inputs whose certified logit bounds put the expected class above every other are passed whole, and the "
      "inputs of every other box are checked one by one as above (details.bounds)",
      {"onnx", "task", "V", "lengths", "decode", "expected", "weights-as-decimal", "method", "max-boxes", "bos"},
      DecidedBy::Check,
      [](const ParamValues& params, const std::string&) {
        return sampled(params) ? std::string("checked without --samples") : std::string();
      }};
  return spec;
}

const ClaimSpec& sample_claim() {
  static const ClaimSpec spec{
      "model.task_sample",
      "the user's model",
      "on a seeded uniform random sample of the domain, the model's output read by --decode is the task's reference "
      "output",
      "--samples sequences drawn uniformly with replacement (seed --seed) from every sequence over --V tokens of each "
      "length in --lengths, each decided as model.task decides an input; verified means no sampled input failed, "
      "not that the domain is right; per length the sample's exact error fraction and a Wilson 95% interval "
      "(floating point, a measurement)",
      {"onnx", "task", "V", "lengths", "decode", "weights-as-decimal", "samples", "seed", "bos"},
      DecidedBy::Check,
      [](const ParamValues& params, const std::string&) {
        return sampled(params) ? std::string() : std::string("checked with --samples");
      }};
  return spec;
}

namespace {

Decode decode_of(const std::string& word, const Task* task) {
  if (word == "every") return Decode::Every;
  if (word == "last") return Decode::Last;
  if (word == "generate") {
    if (task && !task->generative)
      throw UsageError("--decode generate needs a task whose outputs are generated tokens (copy); task " + task->name +
                       " reads its outputs at fixed positions (use every or last)");
    return Decode::Generate;
  }
  return task && task->generative ? Decode::Generate : Decode::Every;  // auto
}

void require_fixed_length_fits(const LoadedModel& model, const ModelCases& cases, Decode decode) {
  const auto fixed = model.graph.fixed_length();
  if (!fixed) return;
  const std::string where = fmt::format(
      "--onnx '{}' was exported at a fixed sequence length of {} tokens (input '{}' "
      "has no symbolic axis), so it is checked at that length only",
      model.path, *fixed, model.graph.input_name);
  if (decode == Decode::Generate) throw UsageError(where + "; --decode generate needs a symbolic sequence axis");
  for (std::size_t length : cases.sequence_lengths())
    if (static_cast<std::int64_t>(length) != *fixed)
      throw UsageError(
          fmt::format("{}; the inputs make sequences of {} tokens (choose --lengths to match)", where, length));
}

CaseLimits limits_for(const LoadedModel& model, const Task* task, long long V, int max_length) {
  CaseLimits limits;
  const auto rows = embedding_rows_of(model);
  if (task) {
    limits.classes = task->classes(V, max_length);
    limits.max_token = V + task->special_tokens - 1;
    if (rows && *rows <= limits.max_token)
      throw UsageError(
          fmt::format("--V {} with task {} needs token ids 0..{} ({}), but the model's embedding has {} "
                      "rows: a vocabulary larger than the embedding",
                      V, task->name, limits.max_token, task->layout, *rows));
  } else {
    limits.max_token = rows ? *rows - 1 : INT64_MAX;
  }
  return limits;
}

}  // namespace

std::optional<int> decimal_digits(const ParamValues& params) {
  if (!params.has("weights-as-decimal")) return std::nullopt;
  return params.small_int("weights-as-decimal");
}

const std::string& onnx_path(const ParamValues& params) {
  if (!params.has("onnx") || params.text("onnx").empty())
    throw UsageError("--onnx FILE is required: the ONNX model to check (docs/model.md)");
  return params.text("onnx");
}

namespace {

// What --weights-as-decimal snapped: each weight with its real values and how many the snap changed.
Json snapped_weights_json(const Graph& graph) {
  Json list = Json::array();
  for (const SnappedWeight& w : graph.snapped_weights)
    list.push_back({{"weight", w.weight}, {"values", w.values}, {"changed", w.changed}});
  return list;
}

std::string arithmetic_of(const LoadedModel& model) {
  if (model.graph.rational) return "exact (every op rational; the stored weights as exact rationals)";
  const std::string exp_log = model.exp_log ? "exact exp-log arithmetic where the values stay within it, then " : "";
  return fmt::format(
      "interval (double-precision enclosures, then {}MPFI from {} up to {} bits; irrational ops "
      "enclosed, the stored weights as exact rationals)",
      exp_log, model_rungs.first, model_rungs.ceiling);
}

// Refuses an option that belongs to another task than the one given.
void require_task(const ParamValues& params, const std::string& option, const std::string& what,
                  const std::string& task) {
  if (!params.has(option) || (params.has("task") && params.choice("task") == task)) return;
  throw UsageError("--" + option + " is " + what + " of task " + task + "; it does not apply to " +
                   (params.has("task") ? "task " + params.choice("task") : std::string("--expected")));
}

// A markov-next chain probability: required, exact, in (0, 1), and not 1/2 (where the next token is a coin toss).
Exact chain_probability(const ParamValues& params, const std::string& name) {
  if (!params.has(name)) throw UsageError("task markov-next needs --p and --q, the chain's P(1 | 0) and P(0 | 1)");
  const Exact x = *params.rational(name);
  if (x == Exact(1, 2))
    throw UsageError("--" + name + " must not be 1/2 for task markov-next: both next tokens are then equally likely");
  return x;
}

// The options of the tasks that take some (nar: --N; markov-next: --p, --q); each refused with any other task.
TaskOptions task_options_of(const ParamValues& params) {
  require_task(params, "N", "the n-gram length", "nar");
  require_task(params, "p", "a chain probability", "markov-next");
  require_task(params, "q", "a chain probability", "markov-next");
  TaskOptions options;
  options.bos = params.choice("bos") == "yes";
  if (params.has("N")) options.nar_n = static_cast<int>(params.integer("N"));
  if (params.has("task") && params.choice("task") == "markov-next") {
    options.p = chain_probability(params, "p");
    options.q = chain_probability(params, "q");
  }
  return options;
}

}  // namespace

// Refuses a run of `threads` threads whose estimated memory (checkers/model/memory_estimate.hpp) is above the budget.
void require_memory(const LoadedModel& model, const std::vector<std::size_t>& lengths, unsigned threads,
                    const MemoryBudget& budget, const std::string& to_lower) {
  if (lengths.empty()) return;
  const std::size_t longest = *std::max_element(lengths.begin(), lengths.end());
  require_within_budget(model_memory_estimate(model, longest, threads, budget.bytes), budget, to_lower);
}

namespace {

// The bounds method of this run, or nullopt for enumeration. --method bounds (and --max-boxes) where the bounds do
// not apply is refused; auto enumerates there.
std::optional<BoundsMethod> bounds_method_of(const ParamValues& params, const Task* task, const RunOptions& options) {
  const std::string method = params.choice("method");
  std::optional<std::uint64_t> max_boxes;
  if (params.has("max-boxes")) {
    if (method == "enumerate")
      throw UsageError("--max-boxes is the box budget of --method bounds; it does not apply to --method enumerate");
    max_boxes = static_cast<std::uint64_t>(params.integer("max-boxes"));
  }
  if (method == "enumerate") return std::nullopt;
  const bool required = method == "bounds" || max_boxes;
  const std::string option = method == "bounds" ? "--method bounds" : "--max-boxes";
  auto refuse = [&](const std::string& why) -> std::optional<BoundsMethod> {
    if (required) throw UsageError(option + " " + why);
    return std::nullopt;
  };
  if (!task) return refuse("needs --task: an --expected file has no abstraction (use --method enumerate)");
  if (sampled(params)) return refuse("covers every input of the domain; it does not apply to --samples");
  const auto abstraction = abstraction_of(*task);
  if (!abstraction)
    return refuse("needs a task with an abstraction, one of " + tasks_with_abstraction() + " (task " + task->name +
                  " has none; use --method enumerate)");
  const auto [lo, hi] = params.range("lengths");
  return BoundsMethod{
      *abstraction, params.integer("V"), static_cast<int>(lo), static_cast<int>(hi), method == "bounds", max_boxes,
      options};
}

RunOptions unbounded_domain(RunOptions options) {
  options.force = true;  // the bounds search checks the budget against the inputs it leaves to enumerate
  return options;
}

}  // namespace

ModelRun prepare_model_run(const ParamValues& params, const std::string&, const ClaimSelection&,
                           const RunOptions& options, CheckReport& report) {
  return prepare_model_run_of(nullptr, params, options, report);
}

ModelRun prepare_model_run_of(const std::string* onnx_file, const ParamValues& params, const RunOptions& options,
                              CheckReport& report) {
  const bool from_file = params.has("expected");
  if (from_file == params.has("task"))
    throw UsageError("give exactly one of --task (a reference task) and --expected FILE (input/output pairs)");
  if (from_file && sampled(params))
    throw UsageError("--samples draws from a task's domain; it does not apply to --expected");
  const std::optional<Task> named =
      from_file ? std::nullopt : std::optional<Task>(find_task(params.choice("task"), task_options_of(params)));
  const Task* task = named ? &*named : nullptr;
  ModelRun run;
  run.decode = decode_of(params.choice("decode"), task);
  if (from_file && params.choice("decode") == "auto") run.decode = Decode::Every;
  long long V = 0;
  int max_length = 0;
  if (task) {
    if (!params.has("V")) throw UsageError("--V is required with --task: the number of data tokens");
    V = params.integer("V");
    if (V < task->min_V || V > task->max_V)
      throw UsageError(
          fmt::format("--V must be in [{}, {}] for task {} (got {})", task->min_V, task->max_V, task->name, V));
    const auto [lo, hi] = params.range("lengths");
    max_length = static_cast<int>(hi);
    run.bounds = bounds_method_of(params, task, options);
    if (!run.bounds && params.choice("method") == "auto" && !sampled(params) && !abstraction_of(*task))
      run.bounds_unavailable = "task " + task->name + " has no abstraction (docs/model.md, \"Tasks over boxes\")";
    if (sampled(params) && task->is_instance)
      throw UsageError("--samples draws from every sequence; task " + task->name + " checks " + task->instances +
                       " (check them exhaustively)");
    if (sampled(params))
      run.cases = std::make_shared<ModelCases>(*task, V, static_cast<int>(lo), static_cast<int>(hi),
                                               static_cast<std::uint64_t>(params.integer("samples")),
                                               static_cast<std::uint64_t>(params.integer("seed")), options);
    else
      run.cases = std::make_shared<ModelCases>(*task, V, static_cast<int>(lo), static_cast<int>(hi),
                                               run.bounds ? unbounded_domain(options) : options);
  } else {
    if (params.has("max-boxes") || params.choice("method") == "bounds") bounds_method_of(params, nullptr, options);
    run.cases = std::make_shared<ModelCases>(params.text("expected"), run.decode, options);
  }
  run.model = std::make_shared<LoadedModel>(
      read_model_file(onnx_file ? *onnx_file : onnx_path(params), decimal_digits(params)));
  run.limits = limits_for(*run.model, task, V, max_length);
  require_fixed_length_fits(*run.model, *run.cases, run.decode);
  require_memory(*run.model, run.cases->sequence_lengths(), options.threads, memory_budget(options.max_memory),
                 from_file ? "run fewer --threads or shorter inputs" : "lower --lengths or run fewer --threads");
  run.options = options;
  report.arithmetic = arithmetic_of(*run.model);
  report.domain_description = run.cases->describe();
  report.domain_inputs = run.cases->size();
  report.options["model"] = {{"sha256", run.model->sha256},
                             {"producer", run.model->graph.producer},
                             {"opset", run.model->graph.opset},
                             {"evaluation", run.model->evaluation()},
                             {"weights", run.model->weights_as_decimal ? fmt::format("snapped to multiples of 10^-{}",
                                                                                     *run.model->weights_as_decimal)
                                                                       : std::string("exact as stored")}};
  if (run.model->weights_as_decimal) report.options["model"]["snapped"] = snapped_weights_json(run.model->graph);
  if (from_file) report.options["expected"] = {{"sha256", run.cases->file_sha256()}};
  report.options["decode"] = run.decode == Decode::Every ? "every" : run.decode == Decode::Last ? "last" : "generate";
  return run;
}

std::string rate_text(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "0" : exact_to_string(Exact(static_cast<long>(part)) / Exact(static_cast<long>(whole)));
}

namespace {

// One length's counts and exact error rate (bounds when some inputs are unknown); for a sample, also the Wilson 95%
// interval of the domain's error rate (from the failures alone to failures and unknown inputs together).
Json length_row(int length, const Tally& t, bool sample) {
  Json row = {{"length", length}, {"inputs", t.checked}, {"failed", t.failed}, {"unknown", t.unknown}};
  if (t.unknown == 0)
    row["error_rate"] = rate_text(t.failed, t.checked);
  else
    row["error_rate_bounds"] = {rate_text(t.failed, t.checked), rate_text(t.failed + t.unknown, t.checked)};
  if (sample && t.checked > 0)
    row["wilson95"] = {wilson(t.failed, t.checked).first, wilson(t.failed + t.unknown, t.checked).second};
  return row;
}

Json smallest_margin_json(const SmallestMargin& m) {
  return {{"margin", m.margin.text()}, {"input", m.input}, {"position", m.position}};
}

// Under the bounds, which decide boxes and not inputs: a lower bound on the margin of every input decided right (but
// those counted in right_without_margin), the smaller of the lowest decided box's bound (rounded down) and the
// smallest margin's lower end among the inputs checked one by one. Null when neither exists.
Json margin_bound_json(const std::optional<SmallestMargin>& checked, const BoundsCoverage& coverage) {
  constexpr int digits = 6;
  const bool box = !coverage.lowest_box.is_null();  // its margin bound finite: an infinite one is kept as 1e300
  if (!box && !checked) return nullptr;
  Json out = Json::object();
  std::optional<Exact> least;
  auto lower = [&](const Exact& x) {
    if (!least || x < *least) least = x;
  };
  if (box) {
    out["lowest_box"] = coverage.lowest_box;
    out["lowest_box"]["margin_at_least"] = decimal_at_most(Exact(coverage.lowest_box_margin), digits);
    lower(Exact(coverage.lowest_box_margin));
  }
  if (checked) {
    out["smallest_checked"] = smallest_margin_json(*checked);
    if (checked->margin.inf == 0) lower(checked->margin.lower);
  }
  out["at_least"] = least ? decimal_at_most(*least, digits) : std::string("inf");
  return out;
}

}  // namespace

std::vector<ClaimResult> check_task(const ModelRun& run, const ClaimSpec& spec) {
  const ExactCheck check{run.model.get(), run.cases.get(), run.decode, run.limits, run.options};
  const std::size_t limit = run.options.max_counterexamples;
  std::optional<BoundsCoverage> coverage;
  if (run.bounds) coverage = cover_with_bounds(check, *run.bounds);
  ModelTally all =
      coverage ? std::move(coverage->tally) : tally_inputs(check, run.cases->size(), [](std::uint64_t k) { return k; });
  ClaimResult r = result_for(spec);
  const bool sample = run.cases->sampled();
  Tally total{.limit = limit};
  Json lengths = Json::array();
  std::vector<std::string> rates;
  for (auto& [length, t] : all.by_length) {
    lengths.push_back(length_row(length, t, sample));
    const Json& row = lengths.back();
    rates.push_back(fmt::format("n={}: {}", length,
                                row.contains("error_rate") ? row["error_rate"].get<std::string>()
                                                           : row["error_rate_bounds"][0].get<std::string>() + ".." +
                                                                 row["error_rate_bounds"][1].get<std::string>()));
    total.merge(Tally(t));
  }
  total.fill(r);
  r.details["lengths"] = lengths;
  Json bits = Json::object();
  for (const auto& [b, n] : all.by_bits) bits[rung_name(b)] = n;
  r.details["decided_at_bits"] = bits;
  if (!all.unknown_inputs.empty()) r.details["unknown_inputs"] = all.unknown_inputs;

  r.details["method"] = coverage ? coverage->details["method"] : Json("enumerate");
  if (coverage) r.details["bounds"] = coverage->details;
  if (r.details["method"] == "bounds" && r.passed > 0) {  // a bound over no input decided right says nothing
    const Json bound = margin_bound_json(all.smallest_margin, *coverage);
    if (!bound.is_null()) r.details["smallest_margin_bound"] = bound;
  } else if (all.smallest_margin) {
    r.details["smallest_margin"] = smallest_margin_json(*all.smallest_margin);
  }
  if (all.right_without_margin > 0) r.details["right_without_margin"] = all.right_without_margin;
  if (!run.bounds_unavailable.empty())
    r.details["bounds"] = {{"method", "enumerate"}, {"bounds_unavailable", run.bounds_unavailable}};
  r.summary = (sample ? "sample error rate " : "error rate ") + fmt::format("{}", fmt::join(rates, ", "));
  if (r.details.contains("smallest_margin") && all.smallest_margin->margin.text().front() != '[')
    r.summary += "; smallest margin " + all.smallest_margin->margin.text();
  else if (r.details.contains("smallest_margin"))  // an enclosure: its lower end, in a few digits
    r.summary += "; smallest margin at least " + decimal_at_most(all.smallest_margin->margin.lower, 6);
  else if (r.details.contains("smallest_margin_bound"))
    r.summary += "; smallest margin at least " + r.details["smallest_margin_bound"]["at_least"].get<std::string>();
  if (r.verdict == Verdict::Unknown && coverage && !coverage->budget_reason.empty())
    r.reason = coverage->budget_reason;
  else if (r.verdict == Verdict::Unknown)
    r.reason =
        fmt::format("{} inputs undecided at the precision ladder's ceiling of {} bits", r.unknown, model_rungs.ceiling);
  return {r};
}

}  // namespace tverify::model
