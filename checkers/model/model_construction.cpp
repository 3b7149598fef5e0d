#include "checkers/model/model_construction.hpp"

#include "checkers/model/model_run.hpp"
#include "checkers/model/model_sweeps.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

namespace tverify::model {

namespace {

std::vector<ParamSpec> model_params() {
  return {
      input_file_param("onnx", "the ONNX model file (opset 13-18, as torch.onnx.export writes it); required", ""),
      choice_param("task", "the reference task (docs/model.md has each token layout); or --expected", task_names(), ""),
      integer_param("V", "the number of data tokens 0..V-1 (BOS = V, COPY = V + 1); required with --task", 1, 64, ""),
      range_param("lengths", "the lengths n of the data sequences x_1..x_n, lo:hi", 1, 64, "1:4"),
      integer_param("N",
                    "task nar only: the length of the n-gram recalled (the last N tokens; NAR, Definition 3 of "
                    "the CAT paper); absent: 2",
                    2, 16, ""),
      probability_param("p", "task markov-next only: the chain's P(1 | 0), other than 1/2", ""),
      probability_param("q", "task markov-next only: the chain's P(0 | 1), other than 1/2", ""),
      choice_param("decode",
                   "how outputs are read: the argmax at every target position, at the last one, or autoregressive "
                   "generation (auto: generate for copy, every otherwise)",
                   {"auto", "every", "last", "generate"}, "auto"),
      choice_param("bos",
                   "whether the task's sequences start with BOS = V; no: x_1..x_n as they are (a model that reads no "
                   "BOS, such as the CAT export), each output one position earlier",
                   {"yes", "no"}, "yes"),
      input_file_param("expected",
                       "a JSON Lines file of {\"input\": [...], \"output\": [...]} pairs, instead of --task", ""),
      integer_param("samples",
                    "check this many sequences drawn uniformly from the domain (claim model.task_sample) instead "
                    "of every one",
                    1, 1'000'000'000, ""),
      seed_param("seed of --samples"),
      choice_param("method",
                   "how the domain is covered: every input one by one, or boxes of inputs decided by certified "
                   "bounds with the rest one by one (auto: bounds where the task has an abstraction)",
                   {"auto", "enumerate", "bounds"}, "auto"),
      integer_param("max-boxes",
                    "with --method bounds: end the run after this many box evaluations and inputs checked one by "
                    "one, the rest unknown",
                    1, 1'000'000'000'000, ""),
      integer_param("weights-as-decimal",
                    "snap every real weight to the nearest multiple of 10^-K (for a float export of intended "
                    "decimal weights); absent: the stored values exactly",
                    0, 30, ""),
      flag_param("logits",
                 "eval only: every position's certified logits (exact, or enclosures) and margin (the winner's "
                 "logit minus the largest other one)")};
}

// eval reads the model and --input alone: an option that only a check or a sweep reads is refused, not ignored.
void refuse_check_options(const ParamValues& params) {
  for (const char* option : {"task", "V", "N", "p", "q", "expected", "samples", "max-boxes"})
    if (params.has(option))
      throw UsageError(
          fmt::format("--{} applies to check and sweep model; eval model evaluates --input with the "
                      "model alone (give --onnx, --input and optionally --weights-as-decimal)",
                      option));
}

std::string rung_words(unsigned bits) {
  return bits == 0              ? "decided exactly\n"
         : bits == exp_log_rung ? "decided in exact exp-log arithmetic\n"
                                : fmt::format("decided with {}-bit intervals\n", bits);
}

// eval model --logits: each position's logits, argmax and margin, at the rung that decides every argmax.
Evaluation with_logits(Evaluation e, const LoadedModel& model, const Tokens& tokens) {
  const std::optional<LogitsReading> read = logits_of_input(model, tokens);
  if (!read) {
    const std::string why =
        fmt::format("an argmax is undecided at the ladder's ceiling of {} bits", model_rungs.ceiling);
    e.text += "undecided: " + why + "\n";
    e.result["undecided"] = why;
    return e;
  }
  Json argmax = Json::array(), logits = Json::array(), margins = Json::array();
  for (std::size_t p = 0; p < tokens.size(); ++p) {
    const PositionLogits& at = read->positions[p];
    const auto text = [](const std::optional<ReadValue>& v) { return v ? v->text() : std::string("not enclosed"); };
    std::vector<std::string> row;
    for (const auto& v : at.logits) row.push_back(text(v));
    e.text += fmt::format("position {} (token {}): argmax {}, margin {}\n  logits {}\n", p, tokens[p], at.winner.dump(),
                          text(at.margin), fmt::join(row, ", "));
    argmax.push_back(at.winner);
    logits.push_back(row);
    margins.push_back(text(at.margin));
  }
  e.text += rung_words(read->bits);
  e.result["argmax"] = argmax;
  e.result["logits"] = logits;
  e.result["margins"] = margins;
  e.result["decided_at"] = rung_name(read->bits);
  return e;
}

Evaluation eval_model(const ParamValues& params, const std::string&, const std::string& input, bool, long) {
  refuse_check_options(params);
  const LoadedModel model = read_model_file(onnx_path(params), decimal_digits(params));
  Tokens tokens;
  for (const auto& item : split_list(input, ',', "--input", "token ids, comma-separated"))
    tokens.push_back(parse_integer_option("--input", item, 0, 1'000'000));
  // eval takes no --max-memory: it runs one input, under the default budget
  require_memory(model, {tokens.size()}, 1, memory_budget(0, false), "give a shorter --input");
  TaskCase c;
  c.sequence = tokens;
  c.read_from = 0;
  CaseLimits limits;
  limits.max_token = INT64_MAX;
  Evaluation e;
  e.text = fmt::format("model {} (sha256 {}), {} evaluation\n", model.path, model.sha256, model.evaluation());
  e.result = {{"model", model.path}, {"sha256", model.sha256}, {"evaluation", model.evaluation()}, {"input", tokens}};
  if (params.flag("logits")) return with_logits(std::move(e), model, tokens);
  c.targets.assign(tokens.size(), -1);
  const CaseOutcome o = outcome_of_case(model, c, Decode::Every, limits);
  if (o.kind == CaseOutcome::Kind::Unknown) {
    e.text += "undecided: " + o.detail + "\n";
    e.result["undecided"] = o.detail;
    return e;
  }
  Json argmax = Json::array();
  for (std::size_t p = 0; p < tokens.size(); ++p) {
    e.text += fmt::format("position {} (token {}): argmax {}\n", p, tokens[p], o.got[p].dump());
    argmax.push_back(o.got[p]);
  }
  e.text += rung_words(o.bits);
  e.result["argmax"] = argmax;
  e.result["decided_at"] = rung_name(o.bits);  // "exact", "exp-log" or the bits of the interval rung
  return e;
}

// --onnx comes from the --family manifest in a family sweep; --seed draws a sample only with --samples; an --expected
// file gives the inputs, so neither --V, --lengths nor a task's options (--N, --p, --q) is read; eval evaluates --input
// alone (refuse_check_options names the check's options).
std::vector<std::string> model_unread_params(const std::string& verb, const SweepRequest* sweep,
                                             const ParamValues& params) {
  if (verb == "eval") return {"lengths", "decode", "seed", "method", "bos"};
  std::vector<std::string> out{"logits"};
  if (sweep && vary_key(sweep->vary) == "family") out.push_back("onnx");  // each line of --family names a model
  if (!params.has("samples")) out.push_back("seed");
  if (params.has("expected")) out.insert(out.end(), {"V", "lengths", "N", "p", "q", "bos"});
  return out;
}

// What eval never reads (the check's options, refused by name) and what check and sweep never read (--logits).
std::vector<std::string> model_never_read(const std::string& verb) {
  if (verb == "eval")
    return {"task",      "V",       "N",      "p",    "q",      "expected", "samples",
            "max-boxes", "lengths", "decode", "seed", "method", "bos"};
  return {"logits"};
}

}  // namespace

Construction model_construction() {
  const auto& claim = task_claim();
  const auto& sample = sample_claim();
  auto checked_against = [](const ClaimSpec& spec) {
    return [&spec](const ModelRun& run, const ClaimSelection&) { return check_task(run, spec); };
  };
  // eval prints the certified argmax at every position (no --trace); there are no Z3 proofs.
  const ConstructionFeatures features{.eval_traces = false,
                                      .estimates_memory = true,
                                      .unread_params = model_unread_params,
                                      .never_read = model_never_read};
  return {{"model",
           "a user's ONNX model (torch.onnx.export), checked against a reference task",
           model_params(),
           {{"stored", "the model's weights as the file stores them (snapped only by --weights-as-decimal)"}},
           {claim, sample},
           model_sweeps(),
           features},
          {check_in_groups<ModelRun>(prepare_model_run,
                                     {{{&claim}, checked_against(claim)}, {{&sample}, checked_against(sample)}}),
           {},
           sweep_model,
           eval_model}};
}

}  // namespace tverify::model
