#include "checkers/model/model_sweeps.hpp"

#include "checkers/model/family_manifest.hpp"
#include "checkers/model/model_run.hpp"
#include "io/files.hpp"
#include "io/plot_labels.hpp"
#include "checkers/sweep_output.hpp"
#include "core/exact.hpp"
#include "core/interval.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace tverify::model {
namespace {

// The smallest margin of a check's inputs decided right, as a decimal rounded down: the lower end of its enclosure
// (an exact value is its own), or under the bounds their lower bound; empty when there is none.
std::string margin_at_least(const Json& details) {
  if (details.contains("smallest_margin_bound")) return details["smallest_margin_bound"]["at_least"].get<std::string>();
  if (!details.contains("smallest_margin")) return "";
  const std::string text = details["smallest_margin"]["margin"].get<std::string>();
  if (text == "inf") return text;
  return decimal_at_most(parse_exact(text[0] == '[' ? text.substr(1, text.find(',') - 1) : text), 6);
}

std::string six_decimals(const std::string& exact) {
  return fmt::format("{:.6f}", parse_exact(exact).convert_to<double>());
}

// A row of details.lengths (or a whole claim's counts): the exact error rate, or its bounds when inputs are unknown.
std::pair<std::string, std::string> error_rate_range(const Json& row) {
  if (row.contains("error_rate")) return {row["error_rate"], row["error_rate"]};
  return {row["error_rate_bounds"][0], row["error_rate_bounds"][1]};
}

Json smallest_counterexample(const ClaimResult& r) {
  if (r.counterexamples.empty()) return nullptr;
  return {{"input", r.counterexamples[0].input},
          {"expected", r.counterexamples[0].expected},
          {"got", r.counterexamples[0].got}};
}

const ClaimSpec& claim_of(const ParamValues& params) { return sampled(params) ? sample_claim() : task_claim(); }

// sweep model --vary lengths: the check's error rate per length as a table and a plot, the first failing length
// marked (the length where the model starts to fail the task).
Json sweep_lengths(const ParamValues& params, const std::string& variant, const SweepRun& sweep,
                   const RunOptions& run) {
  if (sweep.vary != "lengths")
    throw UsageError("--vary lengths takes no range (got '" + sweep.vary + "'); the range is --lengths");
  require_gnuplot();
  ensure_writable_dir(sweep.output.dir, "--out");
  CheckReport report;
  const ModelRun model_run = prepare_model_run(params, variant, ClaimSelection({}), run, report);
  const ClaimResult r = check_task(model_run, claim_of(params)).front();
  prepare_output_dir(sweep.output.dir);  // after the check: an error it meets leaves no folder
  SweepTable table{{"length", "inputs", "failed", "unknown", "error_rate", "error_rate_upper"}, {}};
  Json first_failing = nullptr;
  for (const auto& row : r.details["lengths"]) {
    const auto [lo, hi] = error_rate_range(row);
    table.rows.push_back({std::to_string(row["length"].get<int>()), std::to_string(row["inputs"].get<std::uint64_t>()),
                          std::to_string(row["failed"].get<std::uint64_t>()),
                          std::to_string(row["unknown"].get<std::uint64_t>()), six_decimals(lo), six_decimals(hi)});
    if (first_failing.is_null() && row["failed"].get<std::uint64_t>() > 0) first_failing = row["length"];
  }
  PlotSpec plot{
      fmt::format("Model {} against the task {}: error rate per length",
                  plot_words(std::filesystem::path(model_run.model->path).filename().string()), params.choice("task")),
      "sequence length $n$", r.id == sample_claim().id ? "sampled error rate" : "error rate (exact)"};
  plot.x_column = "length";
  plot.yrange = std::make_pair(0.0, 1.05);
  plot.series = {{"error_rate", "error rate"}};
  const bool any_unknown =
      std::any_of(table.rows.begin(), table.rows.end(), [](const auto& row) { return row[3] != "0"; });
  if (any_unknown) plot.series.push_back({"error_rate_upper", "with the undecided inputs counted as errors"});
  if (!first_failing.is_null()) plot.marks.push_back({first_failing.get<double>(), "first failing length"});
  Json summary{{"claim", r.id},
               {"verdict", to_string(r.verdict)},
               {"model", report.options["model"]},
               {"first_failing_length", first_failing},
               {"lengths", r.details["lengths"]},
               {"smallest_counterexample", smallest_counterexample(r)}};
  write_sweep(sweep.output, "model-lengths", table, plot, summary);
  return summary;
}

// The run of one model of a family: the sweep's parameters with the member's model instead of --onnx.
ModelRun member_run(const ParamValues& params, const FamilyMember& member, const RunOptions& run, CheckReport& report) {
  return prepare_model_run_of(&member.onnx, params, run, report);
}

// work(), its usage errors naming the family's member they concern.
template <class Work>
auto about_member(const Family& family, const FamilyMember& member, Work work) {
  try {
    return work();
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("--family: the model of {} = {}: {}", family.parameter, member.value_text, e.what()));
  }
}

std::string embedding_text(const std::optional<std::int64_t>& rows) {
  return rows ? fmt::format("an embedding of {} rows", *rows) : std::string("no embedding table");
}

// Every model of the family read and its domain built before any check, so that a bad model or one that disagrees
// with the first in vocabulary (its embedding's rows) ends the sweep before it starts.
void require_consistent_family(const ParamValues& params, const Family& family, const RunOptions& run) {
  std::optional<std::int64_t> first_rows;
  for (std::size_t i = 0; i < family.members.size(); ++i) {
    CheckReport report;
    const std::optional<std::int64_t> rows = about_member(family, family.members[i], [&] {
      return embedding_rows_of(*member_run(params, family.members[i], run, report).model);
    });
    if (i == 0) first_rows = rows;
    if (rows != first_rows)
      throw UsageError(fmt::format("--family: the models disagree in vocabulary: '{}' has {}, '{}' {}",
                                   family.members[0].onnx, embedding_text(first_rows), family.members[i].onnx,
                                   embedding_text(rows)));
  }
}

// Adjacent values (in increasing order) whose verdicts differ: where the family crosses from one verdict to another.
Json verdict_changes(const Json& models, const std::string& parameter) {
  Json changes = Json::array();
  for (std::size_t i = 1; i < models.size(); ++i)
    if (models[i]["verdict"] != models[i - 1]["verdict"])
      changes.push_back({{"from", {{parameter, models[i - 1]["value"]}, {"verdict", models[i - 1]["verdict"]}}},
                         {"to", {{parameter, models[i]["value"]}, {"verdict", models[i]["verdict"]}}}});
  return changes;
}

// sweep model --vary family: every model of the --family manifest checked as `check model` checks one (the same
// task, lengths and options), its error rate over the whole domain against the manifest's parameter, and the first
// pair of adjacent values whose verdicts differ shaded (the threshold lies between them).
Json sweep_family(const ParamValues& params, const SweepRun& sweep, const RunOptions& run) {
  if (sweep.vary != "family")
    throw UsageError("--vary family takes no range (got '" + sweep.vary + "'); the models are the lines of --family");
  if (!sweep.options.has("family"))
    throw UsageError(
        "--vary family needs --family FILE: JSON Lines, one {\"onnx\": PATH, \"<parameter>\": value} "
        "per model");
  require_gnuplot();
  ensure_writable_dir(sweep.output.dir, "--out");
  const Family family = read_family(sweep.options.text("family"));
  require_consistent_family(params, family, run);
  SweepTable table{{family.parameter, "value_exact", "verdict", "inputs", "failed", "unknown", "error_rate",
                    "error_rate_upper", "margin_at_least"},
                   {}};
  Json models = Json::array();
  std::string claim_id;
  for (const FamilyMember& member : family.members) {
    CheckReport report;
    const ClaimResult r = about_member(
        family, member, [&] { return check_task(member_run(params, member, run, report), claim_of(params)).front(); });
    claim_id = r.id;
    Json row{{"value", exact_to_string(member.value)},
             {"onnx", member.onnx_as_written},
             {"sha256", report.options["model"]["sha256"]},
             {"verdict", to_string(r.verdict)},
             {"inputs", r.checked},
             {"failed", r.failed},
             {"unknown", r.unknown}};
    if (r.unknown == 0)
      row["error_rate"] = rate_text(r.failed, r.checked);
    else
      row["error_rate_bounds"] = {rate_text(r.failed, r.checked), rate_text(r.failed + r.unknown, r.checked)};
    for (const char* margin : {"smallest_margin", "smallest_margin_bound"})
      if (r.details.contains(margin)) row[margin] = r.details[margin];
    row["lengths"] = r.details["lengths"];
    row["smallest_counterexample"] = smallest_counterexample(r);
    const auto [lo, hi] = error_rate_range(row);
    table.rows.push_back({fmt::format("{}", member.value.convert_to<double>()), exact_to_string(member.value),
                          to_string(r.verdict), std::to_string(r.checked), std::to_string(r.failed),
                          std::to_string(r.unknown), six_decimals(lo), six_decimals(hi), margin_at_least(r.details)});
    models.push_back(std::move(row));
  }
  const Json changes = verdict_changes(models, family.parameter);
  PlotSpec plot{fmt::format("A model family against the task {}: error rate against {}",
                            params.has("task") ? params.choice("task") : std::string("of --expected"),
                            plot_words(family.parameter)),
                plot_words(family.parameter),
                claim_id == sample_claim().id ? "sampled error rate" : "error rate (exact)"};
  plot.x_column = family.parameter;
  plot.yrange = std::make_pair(0.0, 1.05);
  plot.series = {{"error_rate", "error rate"}};
  plot.verdict_column = "verdict";
  if (std::any_of(table.rows.begin(), table.rows.end(), [](const auto& row) { return row[5] != "0"; }))
    plot.series.push_back({"error_rate_upper", "with the undecided inputs counted as errors"});
  if (!changes.empty()) {
    plot.shade = std::pair{parse_exact(changes[0]["from"][family.parameter].get<std::string>()).convert_to<double>(),
                           parse_exact(changes[0]["to"][family.parameter].get<std::string>()).convert_to<double>()};
    plot.shade_label = "the verdict changes in here";
  }
  Json summary{{"claim", claim_id},
               {"parameter", family.parameter},
               {"family", {{"file", sweep.options.text("family")}, {"sha256", family.sha256}}},
               {"verdict_changes", changes},
               {"models", models}};
  // The folder is made only now: a model that fails its check (an output layout the task cannot read) leaves none.
  prepare_output_dir(sweep.output.dir);
  write_sweep(sweep.output, "model-family", table, plot, summary);
  return summary;
}

}  // namespace

std::vector<SweepSpec> model_sweeps() {
  return {{.vary = "lengths",
           .help = "the error rate of the check at each length of --lengths, exact (or per length of the sample "
                   "with --samples): model-lengths.csv, .png with the first failing length marked, .json",
           .options = {},
           .reads_counterexample_limit = true},
          {.vary = "family",
           .help = "one check per model of the --family manifest (the same task and options; --onnx comes from "
                   "each line), the error rate against the manifest's parameter with the first pair of values where "
                   "the verdict changes shaded: model-family.csv, .png, .json (each model's SHA-256)",
           .options = {input_file_param("family",
                                        "JSON Lines, one model per line: {\"onnx\": PATH, \"<parameter>\": value} "
                                        "(a value an integer or an exact string such as \"1/2\"; a relative PATH is "
                                        "read from the file's folder)",
                                        "")},
           .reads_counterexample_limit = true}};
}

Json sweep_model(const ParamValues& params, const std::string& variant, const SweepRun& sweep, const RunOptions& run) {
  return sweep.spec.vary == "family" ? sweep_family(params, sweep, run) : sweep_lengths(params, variant, sweep, run);
}

}  // namespace tverify::model
