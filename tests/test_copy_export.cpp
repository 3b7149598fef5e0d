// The copy transformer exported as an ONNX model (`tverify export copy`) and read back by the model checker: on every
// string of a configuration, `check model` must generate what `check copy` generates, step for step, from the same
// weights evaluated by an independent path (the ONNX graph through constructions/model instead of the level readout
// of constructions/copy).
#include "io/files.hpp"
#include "checkers/model/tasks.hpp"
#include "model/case_check.hpp"
#include "checkers/model/engine_calls.hpp"
#include "model/prefix_plans.hpp"
#include "cli_runner.hpp"
#include "constructions/copy/onnx_export.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

using namespace tverify;
using namespace tverify::copy;

namespace {

struct ExportConfig {
  int D, n, L;
  TransformerVariant variant;
  EmbeddingKind embedding;
  std::optional<Exact> exported_tau{};  // the exported model's tau, when it differs from check copy's (a broken export)

  std::string text() const {
    return fmt::format("D={} n={} L={} {} {}", D, n, L, to_string(variant), to_string(embedding));
  }
};

std::filesystem::path scratch_folder(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

// How the two checkers agree on one configuration: every string copied by one is copied by the other; a certified
// wrong token is the same wrong output in both; an exact tie of check copy (decided there by its level readout) is the
// same exact tie, between the same tokens, for check model (decided there by exact exp-log arithmetic on the graph:
// an interval enclosure of two equal irrational logits never separates them). The model checker reads generation
// from evaluations of the teacher-forced sequence (the exported graph is prefix-consistent,
// model/prefix_plans.hpp); it must give what generating step by step gives, output for output. Returns the
// first string where they disagree, described.
struct Agreement {
  std::size_t copied = 0, wrong = 0, ties = 0;
  bool one_evaluation = true;  // on every string: the graph was shown prefix-consistent and its checks passed
  std::optional<std::string> disagreement;
};

// The model's plan for the case (the one check_case reads), and the teacher-forced sequence passes its checks.
bool plan_holds(const model::LoadedModel& m, const model::TaskCase& c) {
  const model::PrefixPlan* plan = m.prefix_plans->plan(m, c.read_from + 1, c.sequence.size());
  if (!plan) return false;
  try {
    model::evaluate(m.graph, *m.doubles, c.sequence, plan);
  } catch (const model::PrefixBroken&) {
    return false;
  } catch (const DoubleRangeExceeded&) {  // the checks themselves are then made in MPFI
  }
  return true;
}

Agreement compare_on_every_string(const ExportConfig& c) {
  const CopyTransformer checked({c.D, c.n, c.L, c.embedding, c.variant, std::nullopt});
  const CopyTransformer exported({c.D, c.n, c.L, c.embedding, c.variant, c.exported_tau});
  const auto path = scratch_folder("copy-export") / "copy.onnx";
  write_file_atomically(path, copy_transformer_onnx(exported));
  const model::LoadedModel m = model::read_model_file(path.string(), std::nullopt);
  model::LoadedModel stepwise = m;
  stepwise.prefix_plans = model::PrefixPlans::step_by_step();
  std::filesystem::remove_all(path.parent_path());
  const model::Task& task = model::find_task("copy");
  const model::CaseLimits limits{c.D + 2, c.D + 1};
  Agreement a;
  TokenString x;
  const auto strings = static_cast<std::uint64_t>(std::pow(c.D, c.L));
  for (std::uint64_t index = 0; index < strings && !a.disagreement; ++index) {
    string_at(index, c.D, c.L, x);
    const CopyRun run = checked.copy_string(x);
    const model::TaskCase task_case = model::case_of(task, model::Tokens(x.begin(), x.end()), c.D);
    const model::CaseOutcome got = model::outcome_of_case(m, task_case, model::Decode::Generate, limits);
    const model::CaseOutcome step_by_step =
        model::outcome_of_case(stepwise, task_case, model::Decode::Generate, limits);
    a.one_evaluation = a.one_evaluation && plan_holds(m, task_case);
    if (got.kind != step_by_step.kind || got.got != step_by_step.got || got.detail != step_by_step.detail ||
        got.bits != step_by_step.bits) {
      a.disagreement = fmt::format(
          "{}: x = {}: read from one evaluation {} ({}, {} bits), step by step {} ({}, {} "
          "bits)",
          c.text(), format_tokens(x), got.got.dump(), got.detail, got.bits, step_by_step.got.dump(),
          step_by_step.detail, step_by_step.bits);
      break;
    }
    using Kind = model::CaseOutcome::Kind;
    const bool tie = !run.copied && run.steps.back().margin == Margin::Tie;
    Kind expected = Kind::Right;
    if (!run.copied) expected = run.steps.back().margin == Margin::Undecided ? Kind::Unknown : Kind::Wrong;
    // check copy stops at the first wrong token or tie; the model's generation goes on: its first outputs must be the
    // same tokens, then the same wrong token or the same tie.
    Json outputs = Json::array();
    for (Token t : run.output) outputs.push_back(t);
    if (tie) outputs.push_back(fmt::format("tie {}", fmt::join(run.steps.back().tied, ",")));
    const bool same_output = expected != Kind::Wrong || (got.got.size() >= outputs.size() &&
                                                         std::equal(outputs.begin(), outputs.end(), got.got.begin()));
    if (got.kind != expected || !same_output)
      a.disagreement = fmt::format("{}: x = {}: check copy {} (output {}), check model {} (output {}, {})", c.text(),
                                   format_tokens(x), run.copied ? "copies" : run.failure(), format_tokens(run.output),
                                   static_cast<int>(got.kind), got.got.dump(), got.detail);
    a.copied += run.copied;
    a.wrong += expected == Kind::Wrong && !tie;
    a.ties += tie;
  }
  return a;
}

// The claims table's configurations (scripts/claims-table: D <= 4, n <= 3, 2n <= L <= D^n) with D^L <= max_strings.
std::vector<ExportConfig> table_configs(std::uint64_t max_strings) {
  std::vector<ExportConfig> out;
  for (int D = 2; D <= 4; ++D)
    for (int n = 1; n <= 3; ++n)
      for (int L = 2 * n; std::pow(D, L) <= static_cast<double>(max_strings) && L <= std::pow(D, n); ++L)
        for (auto v : {TransformerVariant::Paper, TransformerVariant::Corrected})
          for (auto e : {EmbeddingKind::OneHot, EmbeddingKind::C2}) out.push_back({D, n, L, v, e});
  return out;
}

void require_agreement(const std::vector<ExportConfig>& configs) {
  for (const auto& c : configs) {
    const Agreement a = compare_on_every_string(c);
    INFO(c.text());
    CHECK(a.one_evaluation);
    CHECK_FALSE(a.disagreement);
    if (a.disagreement) FAIL_CHECK(*a.disagreement);
  }
}

}  // namespace

TEST_CASE("export copy: check model generates what check copy generates, on every string (D^L <= 81)",
          "[copy][export]") {
  require_agreement(table_configs(81));
}

// The claims table's rows up to D^L <= 10^4 take about an hour: scripts/copy-export-differential runs them.
TEST_CASE("export copy: the differential on every claims-table row with D^L <= 10^4", "[.copy-export-differential]") {
  require_agreement(table_configs(10000));
}

TEST_CASE("export copy: hand-derived counts, and a wrong export is caught", "[copy][export]") {
  // docs/claims.md, copy.err at (2, 2, 4), printed weights, one-hot: 6 strings fail with a certified wrong token and 4
  // (0101, 0110, 1001, 1010) end in an exact tie; the other 6 are copied.
  const Agreement paper = compare_on_every_string({2, 2, 4, TransformerVariant::Paper, EmbeddingKind::OneHot});
  CHECK_FALSE(paper.disagreement);
  CHECK(paper.copied == 6);
  CHECK(paper.wrong == 6);
  CHECK(paper.ties == 4);
  // An export whose tau is 1 instead of the proof's d ln(8 K d) no longer generates what check copy generates.
  const Agreement broken =
      compare_on_every_string({2, 2, 4, TransformerVariant::Corrected, EmbeddingKind::OneHot, Exact(1)});
  REQUIRE(broken.disagreement);
  CHECK(broken.disagreement->find("x = ") != std::string::npos);
}

TEST_CASE("export copy: the CLI writes the same bytes every time; bad input is one line, exit 2, nothing written",
          "[copy][export]") {
  const auto dir = scratch_folder("copy-export-cli");
  const auto capture = dir / "capture";
  std::filesystem::create_directories(capture);
  const std::vector<std::string> args{"export", "copy", "--D", "3", "--n", "2", "--embedding", "c2", "--onnx"};
  auto with = [&](std::vector<std::string> words, const std::string& last) {
    words.push_back(last);
    return words;
  };
  REQUIRE(testing::run_tverify(with(args, "a.onnx"), dir, capture).exit_code == 0);
  REQUIRE(testing::run_tverify(with(args, "b.onnx"), dir, capture).exit_code == 0);
  CHECK(testing::read_all(dir / "a.onnx") == testing::read_all(dir / "b.onnx"));
  // The exported model's error rate at L = 4 is check copy's copy.err: c2 embedding, printed weights, no ties.
  const testing::CliResult model = testing::run_tverify(
      {"check", "model", "--onnx", "a.onnx", "--task", "copy", "--V", "3", "--lengths", "4:4", "--json", "m.json"}, dir,
      capture);
  const testing::CliResult copy =
      testing::run_tverify({"check", "copy", "--D", "3", "--n", "2", "--L", "4", "--embedding", "c2", "--claim",
                            "copy.err", "--reading", "text", "--json", "c.json"},
                           dir, capture);
  REQUIRE(model.exit_code != 2);
  REQUIRE(copy.exit_code != 2);
  const Json m = Json::parse(testing::read_all(dir / "m.json")), c = Json::parse(testing::read_all(dir / "c.json"));
  const Json& row = m["claims"][0]["details"]["lengths"][0];
  const std::string err = c["claims"][0]["summary"].get<std::string>();
  INFO(row.dump() << " / " << err);
  REQUIRE(row.contains("error_rate"));  // every input decided
  CHECK(err.find("err = " + row["error_rate"].get<std::string>() + " ") == 0);

  // A tau whose numerator and denominator pass 2^53 is written exactly (base-2^52 digits): the model's error rate
  // is check copy's at the same tau.
  const std::string tau = "314159265358979323846/100000000000000000001";
  REQUIRE(testing::run_tverify({"export", "copy", "--tau", tau, "--onnx", "tau.onnx"}, dir, capture).exit_code == 0);
  REQUIRE(testing::run_tverify({"check", "model", "--onnx", "tau.onnx", "--task", "copy", "--V", "2", "--lengths",
                                "4:4", "--json", "mt.json"},
                               dir, capture)
              .exit_code != 2);
  REQUIRE(testing::run_tverify({"check", "copy", "--tau", tau, "--L", "4", "--claim", "copy.err", "--reading", "text",
                                "--json", "ct.json"},
                               dir, capture)
              .exit_code != 2);
  const Json mt = Json::parse(testing::read_all(dir / "mt.json")), ct = Json::parse(testing::read_all(dir / "ct.json"));
  const Json& tau_row = mt["claims"][0]["details"]["lengths"][0];
  INFO(tau_row.dump() << " / " << ct["claims"][0]["summary"]);
  const std::string upper = tau_row.contains("error_rate") ? tau_row["error_rate"].get<std::string>()
                                                           : tau_row["error_rate_bounds"][1].get<std::string>();
  CHECK(ct["claims"][0]["summary"].get<std::string>().find("err = " + upper + " ") == 0);

  const std::vector<std::pair<std::vector<std::string>, std::string>> bad{
      {{"export", "copy", "--D", "0", "--onnx", "x.onnx"}, "--D must be"},
      {{"export", "copy", "--D", "64", "--n", "16", "--onnx", "x.onnx"}, "tverify builds at most"},
      {{"export", "copy", "--L", "4", "--onnx", "x.onnx"}, "--L"},
      {{"export", "copy", "--variant", "best", "--onnx", "x.onnx"}, "variant"},
      {{"export", "copy", "--onnx", "capture"}, "--onnx"},
      {{"export", "count3", "--onnx", "x.onnx"}, "count3"},
      {{"export", "copy"}, "--onnx"},
  };
  for (const auto& [words, message] : bad) {
    const testing::CliResult r = testing::run_tverify(words, dir, capture);
    INFO(fmt::format("{}", fmt::join(words, " ")) << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(std::filesystem::exists(dir / "x.onnx"));
  }
  std::filesystem::remove_all(dir);
}
