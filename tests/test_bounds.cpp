// The bounds method of check model (checkers/model/bounds_search.hpp): the tasks' abstractions hold every member's
// target, a box the bounds decide agrees with the exact engine on every member, and a run by bounds gives
// enumeration's verdicts, counts and counterexamples, for any number of threads, on every example and test model
// whose task has an abstraction. Deliberately broken abstractions and decisions are caught by the same checks.
#include "checkers/certificate.hpp"
#include "io/errors.hpp"
#include "checkers/model/bounds_search.hpp"
#include "checkers/model/engine_calls.hpp"
#include "checkers/model/task_abstraction.hpp"
#include "checkers/registry.hpp"
#include "commands/recheck.hpp"
#include "model/box_decision.hpp"
#include "model/onnx_writer.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

using namespace tverify;
using model::DataBox;
using model::Tokens;

namespace {

std::string source_file(const std::string& relative) { return std::string(TVERIFY_SOURCE_DIR) + "/" + relative; }

std::string written(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

CheckReport check_model(std::map<std::string, std::string> raw, unsigned threads = 1) {
  const Construction& c = find_construction("model");
  RunOptions options;
  options.threads = threads;
  return c.check(ParamValues::parse(c.params(), raw), "stored", {}, options);
}

const ClaimResult& only_claim(const CheckReport& r) {
  REQUIRE(r.claims.size() == 1);
  return r.claims.front();
}

DataBox random_box(std::mt19937_64& rng, std::size_t n, long long V, unsigned one_in) {
  DataBox box;
  for (std::size_t p = 0; p < n; ++p) {
    std::vector<std::int64_t> set;
    const bool single = rng() % one_in == 0;
    for (std::int64_t t = 0; t < V; ++t)
      if (!single && rng() % 2) set.push_back(t);
    if (set.empty()) set.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(V)));
    box.push_back(set);
  }
  return box;
}

// Every member of the box, the last position fastest.
std::vector<Tokens> members(const DataBox& box) {
  std::vector<Tokens> out{{}};
  for (const auto& set : box) {
    std::vector<Tokens> next;
    for (const Tokens& prefix : out)
      for (std::int64_t t : set) {
        next.push_back(prefix);
        next.back().push_back(t);
      }
    out = std::move(next);
  }
  return out;
}

// Whether target i reads only `reads`: changing every other position of random sequences never changes it.
bool reads_only(const model::Task& task, long long V, std::size_t n, std::size_t i,
                const std::vector<std::size_t>& reads, std::mt19937_64& rng) {
  for (int trial = 0; trial < 200; ++trial) {
    Tokens x(n), y(n);
    for (std::size_t p = 0; p < n; ++p) {
      x[p] = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(V));
      const bool read = std::find(reads.begin(), reads.end(), p) != reads.end();
      y[p] = read ? x[p] : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(V));
    }
    if (task.targets(x, V).at(i) != task.targets(y, V).at(i)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("bounds: each task's target reads only the positions its abstraction names", "[branch-and-bound]") {
  std::mt19937_64 rng(7);
  for (const model::Task& task : model::all_tasks()) {
    const auto abstraction = model::abstraction_of(task);
    if (!abstraction || task.is_instance) continue;  // recall: its own case below
    const long long V = std::min<long long>(task.max_V, 4);
    for (std::size_t n = 1; n <= 6; ++n)
      for (std::size_t i = 0; i < n; ++i) {
        INFO(task.name << " n = " << n << " target " << i);
        CHECK(reads_only(task, V, n, i, abstraction->reads(i, n), rng));
      }
  }
  // A deliberately wrong abstraction is caught: histogram's count does not read position i alone.
  CHECK_FALSE(reads_only(model::find_task("histogram"), 3, 4, 1, {1}, rng));
  CHECK_FALSE(reads_only(model::find_task("previous"), 3, 4, 2, {2}, rng));
}

TEST_CASE("bounds: the expected classes over a box hold every member's target (sort and histogram closed forms)",
          "[branch-and-bound]") {
  std::mt19937_64 rng(11);
  for (const std::string name :
       {"sort", "histogram", "previous", "reverse", "parity", "majority", "double-histogram"}) {
    const model::Task task = model::find_task(name);
    const auto abstraction = *model::abstraction_of(task);
    const long long V = std::min<long long>(task.max_V, 4);
    for (int trial = 0; trial < 300; ++trial) {
      const std::size_t n = 1 + rng() % 6;
      const DataBox box = random_box(rng, n, V, 3);
      for (std::size_t i = 0; i < n; ++i) {
        const auto classes = task.classes(V, static_cast<int>(n));
        const auto expected = model::expected_classes(task, abstraction, box, i, V, classes);
        // The closed form alone, as for a box too large to enumerate.
        const auto closed = abstraction.closed_form ? abstraction.closed_form(box, i) : expected;
        for (const Tokens& x : members(box)) {
          const std::int64_t y = task.targets(x, V).at(i);
          INFO(name << " target " << i << " of " << fmt::format("{}", x));
          CHECK(std::binary_search(expected.begin(), expected.end(), y));
          CHECK(std::binary_search(closed.begin(), closed.end(), y));
        }
      }
    }
  }
  // Hand-derived over {0} x {1,2} x {0,2}: the members sort to 001, 012, 002, 022, so the order statistics range over
  // {0}, {0, 1, 2} and {1, 2}; x_1 = 0 occurs once or twice, and so does x_3.
  const DataBox box{{0}, {1, 2}, {0, 2}};
  const auto sort = *model::abstraction_of(model::find_task("sort"));
  CHECK(sort.closed_form(box, 0) == std::vector<std::int64_t>{0});
  CHECK(sort.closed_form(box, 1) == std::vector<std::int64_t>{0, 1, 2});
  CHECK(sort.closed_form(box, 2) == std::vector<std::int64_t>{1, 2});
  const auto histogram = *model::abstraction_of(model::find_task("histogram"));
  CHECK(histogram.closed_form(box, 2) == std::vector<std::int64_t>{1, 2});
  CHECK(histogram.closed_form(box, 0) == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("bounds: recall's validity over a box is every member's, and its splits partition the box",
          "[branch-and-bound]") {
  std::mt19937_64 rng(5);
  for (const model::Task& task : {model::find_task("ar"), model::find_task("nar", {.nar_n = 2})}) {
    const auto abstraction = *model::abstraction_of(task);
    int all = 0, none = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const std::size_t n = 1 + rng() % 6;
      const DataBox box = random_box(rng, n, 3, 2);
      const model::Validity validity = abstraction.validity(box);
      std::size_t instances = 0;
      const auto every = members(box);
      for (const Tokens& x : every) instances += task.is_instance(x);
      INFO(task.name << " over " << model::box_text(box, 3));
      if (validity == model::Validity::All) {
        CHECK(instances == every.size());
        ++all;
      }
      if (validity == model::Validity::None) {
        CHECK(instances == 0);
        ++none;
      }
      if (validity == model::Validity::All)
        for (const Tokens& x : every) {
          const auto expected = model::expected_classes(task, abstraction, box, 0, 3, 3);
          CHECK(std::binary_search(expected.begin(), expected.end(), task.targets(x, 3).at(0)));
        }
      if (every.size() == 1) continue;
      std::vector<Tokens> covered;
      for (const DataBox& child : abstraction.split(box, 0))
        for (const Tokens& x : members(child)) covered.push_back(x);
      std::sort(covered.begin(), covered.end());
      CHECK(covered == every);  // every member once (members() lists them in order)
    }
    CHECK(all > 0);
    CHECK(none > 0);
  }
}

namespace {

// The exact engine's reading at target i of x, as the certificate prints it.
Json exact_reading(const model::LoadedModel& m, const model::Task& task, const Tokens& x, long long V, std::size_t i) {
  model::CaseLimits limits;
  limits.classes = task.classes(V, static_cast<int>(x.size()));
  limits.max_token = V;
  model::TaskCase c = model::case_of(task, x, V);
  c.targets.assign(c.targets.size(), -1);  // read every position, compare none
  return model::outcome_of_case(m, c, model::Decode::Every, limits).got.at(i);
}

struct DecisionCounts {
  int right = 0, wrong = 0, contradicted = 0;
};

// Random boxes decided by `decide`, each Right or Wrong one compared with the exact reading of every member.
template <class Decide>
DecisionCounts audit_decisions(const std::string& file, const std::string& task_name, long long V, std::size_t max_n,
                               int boxes, Decide decide) {
  const model::LoadedModel m = model::read_model_file(source_file(file), std::nullopt);
  const model::Task task = model::find_task(task_name);
  const auto abstraction = *model::abstraction_of(task);
  std::mt19937_64 rng(3);
  DecisionCounts counts;
  for (int trial = 0; trial < boxes; ++trial) {
    const std::size_t n = 1 + rng() % max_n;
    const DataBox box = random_box(rng, n, V, 2);
    for (std::size_t i = 0; i < n; ++i) {
      const auto classes = task.classes(V, static_cast<int>(n));
      const auto expected = model::expected_classes(task, abstraction, box, i, V, classes);
      const model::BoxReading r = decide(m, box, i, expected, classes);
      if (r.verdict == model::BoxVerdict::Open) continue;
      (r.verdict == model::BoxVerdict::Right ? counts.right : counts.wrong) += 1;
      for (const Tokens& x : members(box)) {
        const Json got = exact_reading(m, task, x, V, i);
        const bool in_expected =
            got.is_number_integer() && std::binary_search(expected.begin(), expected.end(), got.get<std::int64_t>());
        // Right: every member's argmax is the one expected class; Wrong: no member's is an expected class.
        const bool right = expected.size() == 1 && got == Json(expected.front());
        if (r.verdict == model::BoxVerdict::Right ? !right : in_expected) ++counts.contradicted;
      }
    }
  }
  return counts;
}

model::TokenBox token_box(const DataBox& box, long long V) {
  model::TokenBox out;
  out.positions.push_back({V});
  out.positions.insert(out.positions.end(), box.begin(), box.end());
  return out;
}

model::BoxReading bounded(const model::LoadedModel& m, const DataBox& box, std::size_t i,
                          const std::vector<std::int64_t>& expected, std::int64_t classes, long long V) {
  const auto d = model::decide_box(m, {token_box(box, V), {{1 + i, expected}}, classes});
  return std::get<model::BoxAnswer>(d).readings.front();
}

}  // namespace

TEST_CASE("bounds: a box decided right or wrong agrees with the exact engine on every member", "[branch-and-bound]") {
  struct Case {
    std::string file, task;
    long long V;
    std::size_t max_n;
  };
  for (const Case& c :
       {Case{"examples/models/previous.onnx", "previous", 16, 3},
        Case{"examples/models/previous.onnx", "reverse", 16, 3},
        Case{"examples/models/histogram.onnx", "histogram", 4, 4}, Case{"examples/models/sort.onnx", "sort", 4, 4},
        Case{"tests/models/identity.onnx", "previous", 2, 4}}) {
    INFO(c.file << " with task " << c.task);
    const DecisionCounts counts =
        audit_decisions(c.file, c.task, c.V, c.max_n, 40,
                        [&](const auto& m, const DataBox& box, std::size_t i, const auto& expected,
                            std::int64_t classes) { return bounded(m, box, i, expected, classes, c.V); });
    CHECK(counts.contradicted == 0);
    if (c.task == "previous" && c.V == 16) CHECK(counts.right > 0);
    if (c.task == "reverse" && c.V == 16) CHECK(counts.wrong > 0);
  }
  // A deliberately too-tight decision, the first member's exact reading taken for the whole box, is contradicted.
  const DecisionCounts tight = audit_decisions(
      "examples/models/previous.onnx", "previous", 16, 3, 40,
      [](const model::LoadedModel& m, const DataBox& box, std::size_t i, const auto& expected, std::int64_t) {
        Tokens first;
        for (const auto& set : box) first.push_back(set.front());
        const Json got = exact_reading(m, model::find_task("previous"), first, 16, i);
        return got == Json(expected.front()) ? model::BoxReading{model::BoxVerdict::Right, 1}
                                             : model::BoxReading{model::BoxVerdict::Open, 0};
      });
  CHECK(tight.contradicted > 0);
}

namespace {

struct Run {
  std::string onnx, task;
  long long V;
  std::string lengths;
};

void require_same_outcome(const ClaimResult& a, const ClaimResult& b) {
  CHECK(a.verdict == b.verdict);
  CHECK(a.checked == b.checked);
  CHECK(a.passed == b.passed);
  CHECK(a.failed == b.failed);
  CHECK(a.unknown == b.unknown);
  CHECK(Json(a.counterexamples) == Json(b.counterexamples));
  CHECK(a.details["lengths"] == b.details["lengths"]);
}

// The lower end of a recorded margin (an exact value, an enclosure "[lo, hi]"); nullopt for "inf".
std::optional<Exact> margin_lower(const std::string& text) {
  if (text == "inf") return std::nullopt;
  return parse_exact(text[0] == '[' ? text.substr(1, text.find(',') - 1) : text);
}

// The upper end of a recorded margin; nullopt for "inf".
std::optional<Exact> margin_upper(const std::string& text) {
  if (text == "inf") return std::nullopt;
  const auto comma = text.find(',');
  return parse_exact(text[0] == '[' ? text.substr(comma + 2, text.size() - comma - 3) : text);
}

bool at_most(const std::optional<Exact>& a, const std::optional<Exact>& b) { return !b || (a && *a <= *b); }

// The margin bound of a run by bounds is at most the smallest margin enumeration finds one input at a time (on an
// exact graph its value; otherwise its enclosure's upper end, the bound being a lower bound of the true margin): a
// bound set too high fails here. It is the smaller of the lowest box's bound and the smallest margin checked one by
// one, whose lower end enumeration's smallest margin cannot exceed.
void require_margin_bound_below(const ClaimResult& enumerated, const ClaimResult& bounded) {
  const Json& e = enumerated.details;
  const Json& b = bounded.details;
  if (!e.contains("right_without_margin") && !b.contains("right_without_margin"))
    CHECK(e.contains("smallest_margin") == b.contains("smallest_margin_bound"));
  if (!b.contains("smallest_margin_bound")) return;
  const Json& bound = b["smallest_margin_bound"];
  INFO("bound " << bound.dump() << ", enumeration's smallest margin " << e.value("smallest_margin", Json()).dump());
  const auto at_least = margin_lower(bound["at_least"].get<std::string>());
  if (e.contains("smallest_margin")) {
    // The smallest margin lies in enumeration's enclosure of it, whose upper end the bound cannot pass.
    const auto smallest = margin_lower(e["smallest_margin"]["margin"].get<std::string>());
    CHECK(at_most(at_least, margin_upper(e["smallest_margin"]["margin"].get<std::string>())));
    if (bound.contains("smallest_checked"))
      CHECK(at_most(smallest, margin_lower(bound["smallest_checked"]["margin"].get<std::string>())));
  }
  std::optional<Exact> parts;  // the smaller part, as printed
  for (const auto& part :
       {bound.value("lowest_box", Json::object()).value("margin_at_least", std::string()),
        bound.contains("smallest_checked") ? bound["smallest_checked"]["margin"].get<std::string>() : std::string()}) {
    if (part.empty() || part == "inf") continue;
    const Exact lower = *margin_lower(part);
    if (!parts || lower < *parts) parts = lower;
  }
  CHECK(static_cast<bool>(at_least) == static_cast<bool>(parts));
  if (parts && at_least)
    CHECK(boost::multiprecision::abs(*parts - *at_least) <= boost::multiprecision::abs(*parts) * Exact(1, 10000));
}

}  // namespace

TEST_CASE(
    "bounds: --method bounds gives enumeration's verdicts, counts, counterexamples and a margin bound below its "
    "smallest margin on every model",
    "[branch-and-bound]") {
  for (const Run& run :
       {Run{"examples/models/previous.onnx", "previous", 16, "1:3"},
        Run{"examples/models/previous.onnx", "previous", 4, "1:5"},  // its BOS is 16: every input fails
        Run{"examples/models/previous.onnx", "reverse", 16, "1:3"},
        Run{"examples/models/previous.onnx", "sort", 5, "1:4"},
        Run{"examples/models/histogram.onnx", "histogram", 4, "1:5"},
        Run{"examples/models/sort.onnx", "sort", 4, "1:5"}, Run{"tests/models/identity.onnx", "reverse", 2, "1:8"},
        Run{"tests/models/identity.onnx", "parity", 2, "1:8"},
        Run{"tests/models/attend_same.onnx", "previous", 3, "1:5"},
        Run{"examples/models/induction.onnx", "ar", 16, "1:3"},
        Run{"examples/models/induction.onnx", "nar", 4, "3:6"},  // an ar head, wrong on nar
        Run{"examples/models/previous.onnx", "ar", 16, "2:3"},
        Run{"examples/models/previous.onnx", "previous", 1, "1:3"}}) {  // V = 1: every box is one input
    INFO(run.onnx << " with task " << run.task << ", V = " << run.V << ", lengths " << run.lengths);
    std::map<std::string, std::string> raw{
        {"onnx", source_file(run.onnx)}, {"task", run.task}, {"V", std::to_string(run.V)}, {"lengths", run.lengths}};
    raw["method"] = "enumerate";
    const CheckReport enumerated = check_model(raw, 2);
    raw["method"] = "bounds";
    const CheckReport bounded = check_model(raw, 2);
    require_same_outcome(only_claim(enumerated), only_claim(bounded));
    require_margin_bound_below(only_claim(enumerated), only_claim(bounded));
    CHECK(only_claim(bounded).details["method"] == "bounds");
    // What the exact engine checked is part of what the claim counts (for ar and nar: instances, not sequences).
    CHECK(only_claim(bounded).details["bounds"]["inputs_checked_one_by_one"].get<std::uint64_t>() <=
          only_claim(bounded).checked);
  }
}

TEST_CASE("bounds: the inputs checked one by one are counted as the task counts them (ar: its instances)",
          "[branch-and-bound]") {
  // Length 2 over V = 16: 256 sequences, of which the 16 with x_2 = x_1 are ar instances (x_n occurs exactly once
  // in x_1..x_{n-1}, docs/model.md); no box of length 2 decides, so those 16 are checked one by one, and no other.
  const ClaimResult r = only_claim(check_model(
      {{"onnx", source_file("examples/models/induction.onnx")}, {"task", "ar"}, {"V", "16"}, {"lengths", "2:2"}}, 2));
  CHECK(r.checked == 16);
  CHECK(r.details["bounds"]["inputs_checked_one_by_one"] == 16);
}

namespace {

// The outcome of a check as text: its claim's counts, verdict, counterexamples and rows, or the usage error.
std::string outcome_text(const std::map<std::string, std::string>& raw) {
  try {
    const CheckReport report = check_model(raw, 2);
    const ClaimResult& c = only_claim(report);
    return fmt::format("{} {}/{}/{}/{} {} {}", to_string(c.verdict), c.checked, c.passed, c.failed, c.unknown,
                       Json(c.counterexamples).dump(), c.details["lengths"].dump());
  } catch (const UsageError& e) { return std::string("refused: ") + e.what(); }
}

}  // namespace

TEST_CASE("bounds: every model file of the repository gives by auto what it gives by enumeration",
          "[branch-and-bound]") {
  // Each model of tests/models/ (bad ones included: the refusal must be the same) and examples/models/, with a task
  // its layout fits, over every input of lengths 1..3.
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"tests/models", "examples/models"})
    for (const auto& entry : std::filesystem::directory_iterator(source_file(folder)))
      if (entry.path().extension() == ".onnx") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  for (const auto& file : files) {
    const std::string name = file.stem().string();
    const bool copies = name.rfind("copy", 0) == 0;
    const std::string task = copies ? "copy" : name == "induction" ? "ar" : name == "sort" ? "sort" : "previous";
    const std::string V = name == "copy8" ? "8" : copies ? "3" : name == "previous" || name == "induction" ? "16" : "2";
    std::map<std::string, std::string> raw{{"onnx", file.string()}, {"task", task}, {"V", V}, {"lengths", "1:3"}};
    INFO(file.filename().string() << " with task " << task << ", V = " << V);
    raw["method"] = "enumerate";
    const std::string enumerated = outcome_text(raw);
    raw["method"] = "auto";
    CHECK(outcome_text(raw) == enumerated);
  }
}

TEST_CASE("bounds: generation read from the teacher-forced sequence gives enumeration's answer", "[branch-and-bound]") {
  for (const Run& run :
       {Run{"examples/models/copy.onnx", "copy", 3, "1:6"}, Run{"examples/models/copy8.onnx", "copy", 8, "1:3"},
        Run{"examples/models/copy.onnx", "copy", 2, "1:6"}}) {  // BOS 2 is COPY's token: refuted
    INFO(run.onnx << ", V = " << run.V << ", lengths " << run.lengths);
    std::map<std::string, std::string> raw{
        {"onnx", source_file(run.onnx)}, {"task", run.task}, {"V", std::to_string(run.V)}, {"lengths", run.lengths}};
    raw["method"] = "enumerate";
    const CheckReport enumerated = check_model(raw, 2);
    raw["method"] = "bounds";
    const CheckReport report = check_model(raw, 2);
    const ClaimResult& bounded = only_claim(report);
    require_same_outcome(only_claim(enumerated), bounded);
    CHECK(bounded.details["bounds"]["lengths_without_prefix_plan"] == Json::array());
    if (run.V > 2) CHECK(bounded.details["bounds"]["inputs_decided_by_bounds"].get<std::uint64_t>() > 0);
  }
}

TEST_CASE("bounds: the exported copy transformer, both variants, gives enumeration's answer", "[branch-and-bound]") {
  const Construction& copy = find_construction("copy");
  for (const std::string variant : {"paper", "corrected"}) {
    INFO("variant " << variant);
    const std::string bytes =
        copy.export_onnx(ParamValues::parse(copy.params(), {{"D", "2"}, {"n", "2"}, {"embedding", "c2"}}), variant);
    const std::string file = written("tverify-bounds-copy-" + variant + ".onnx", bytes);
    std::map<std::string, std::string> raw{{"onnx", file}, {"task", "copy"}, {"V", "2"}, {"lengths", "1:6"}};
    raw["method"] = "enumerate";
    const CheckReport enumerated = check_model(raw, 2);
    raw["method"] = "bounds";
    require_same_outcome(only_claim(enumerated), only_claim(check_model(raw, 2)));
    std::filesystem::remove(file);
  }
}

TEST_CASE("bounds: --bos no checks a model that reads no BOS, such as the exported CAT AR layer",
          "[branch-and-bound]") {
  const Construction& cat = find_construction("cat");
  const std::string file =
      written("tverify-bounds-cat-ar.onnx",
              cat.export_onnx(ParamValues::parse(cat.params(), {{"V", "3"}, {"N", "1"}, {"L", "6"}}), "ar"));
  std::map<std::string, std::string> raw{{"onnx", file},     {"task", "ar"}, {"V", "3"},
                                         {"lengths", "2:6"}, {"bos", "no"},  {"method", "enumerate"}};
  const CheckReport enumerated = check_model(raw, 2);
  // Corollary 1: the AR layer recalls every valid instance (docs/cat.md): 3 + 12 + 36 + 96 + 240 instances of
  // lengths 2..6 (x_n's token exactly once among the first n - 1: 3 (n - 1) 2^(n - 2)).
  CHECK(only_claim(enumerated).verdict == Verdict::Verified);
  CHECK(only_claim(enumerated).checked == 3 * 1 * 1 + 3 * 2 * 2 + 3 * 3 * 4 + 3 * 4 * 8 + 3 * 5 * 16);
  raw["method"] = "bounds";
  require_same_outcome(only_claim(enumerated), only_claim(check_model(raw, 2)));
  std::filesystem::remove(file);
  CHECK_THROWS_WITH(
      check_model({{"onnx", source_file("examples/models/copy.onnx")}, {"task", "copy"}, {"V", "3"}, {"bos", "no"}}),
      Catch::Contains("--bos no: task copy's layout needs BOS"));
}

TEST_CASE("bounds: a graph with no box evaluation is enumerated by auto, and refused by --method bounds",
          "[branch-and-bound]") {
  // reverse.onnx computes with its token ids (index arithmetic), not through an embedding lookup.
  std::map<std::string, std::string> raw{
      {"onnx", source_file("tests/models/reverse.onnx")}, {"task", "reverse"}, {"V", "3"}, {"lengths", "1:4"}};
  const ClaimResult r = only_claim(check_model(raw));
  CHECK(r.verdict == Verdict::Verified);
  CHECK(r.details["method"] == "enumerate");
  CHECK_THAT(r.details["bounds"]["bounds_unavailable"].get<std::string>(), Catch::Contains("node 'read' (Gather)"));
  raw["method"] = "bounds";
  CHECK_THROWS_WITH(check_model(raw),
                    Catch::Contains("--method bounds needs a graph it can bound over sets of inputs"));
  // A task without an abstraction is enumerated by auto, and the certificate says why.
  const CheckReport frequent = check_model({{"onnx", source_file("examples/models/histogram.onnx")},
                                            {"task", "most-frequent"},
                                            {"V", "3"},
                                            {"lengths", "1:3"}});
  CHECK(only_claim(frequent).details["method"] == "enumerate");
  CHECK_THAT(only_claim(frequent).details["bounds"]["bounds_unavailable"].get<std::string>(),
             Catch::Contains("task most-frequent has no abstraction"));
}

TEST_CASE("bounds: the tree and the certificate are the same for 1, 2 and 3 threads", "[branch-and-bound]") {
  const std::map<std::string, std::string> raw{{"onnx", source_file("examples/models/previous.onnx")},
                                               {"task", "reverse"},
                                               {"V", "16"},
                                               {"lengths", "1:3"},
                                               {"method", "bounds"}};
  const Json one = only_claim(check_model(raw, 1)).details;
  CHECK(one["bounds"]["inputs_decided_by_bounds"].get<std::uint64_t>() > 0);
  CHECK(one["bounds"]["inputs_failed_by_bounds"].get<std::uint64_t>() > 0);
  for (unsigned threads : {2u, 3u}) CHECK(only_claim(check_model(raw, threads)).details == one);
}

TEST_CASE("bounds: the previous-token example is verified on 4.6e9 inputs, each decided box recorded",
          "[branch-and-bound]") {
  const ClaimResult r = only_claim(check_model(
      {{"onnx", source_file("examples/models/previous.onnx")}, {"task", "previous"}, {"V", "16"}, {"lengths", "1:8"}},
      2));
  CHECK(r.verdict == Verdict::Verified);
  // 16 + 16^2 + ... + 16^8
  CHECK(r.checked == 4'581'298'448ull);
  CHECK(r.details["bounds"]["inputs_checked_one_by_one"] == 16);  // length 1: one box of 16 inputs, undecided
  // Target i of length n is decided on the 16 boxes that fix x_{i-1}, all other positions free.
  const Json& last = r.details["bounds"]["decided_boxes"].back();
  CHECK(last["box"] == "* | * | * | * | * | * | 15 | *");
  CHECK(last["length"] == 8);
  CHECK(last["target"] == 7);
}

namespace {

// A rational previous-token model (rows [x_1, x_1, x_1, x_2, ..., x_{n-1}] of the one-hot embedding) with a trap:
// on the one input `trap` of length 8 every logit of class `wrong` gains 2, so that input alone fails. The trap is
// Relu(h - 7), h the number of positions p with x_p = trap_p: 1 on the trap, 0 on every other input.
std::string trapped_previous_model(long long V, const Tokens& trap, std::int64_t wrong) {
  model::OnnxWriter w("trapped_previous");
  const std::string tokens = w.token_input("tokens");
  const std::int64_t rows = V + 1;
  std::vector<Exact> eye(static_cast<std::size_t>(rows * rows), Exact(0));
  for (std::int64_t k = 0; k < rows; ++k) eye[static_cast<std::size_t>(k * rows + k)] = 1;
  const std::string e = w.node("Gather", {w.rationals("embedding", {rows, rows}, eye), tokens});
  int named = 0;
  auto ints = [&](std::int64_t v) { return w.integers(fmt::format("i{}", named++), {1}, {v}); };
  auto slice = [&](const std::string& x, const std::string& ends, std::int64_t from, std::int64_t axis) {
    return w.node("Slice", {x, ints(from), ends, ints(axis)});
  };
  const std::string first = slice(e, ints(2), 1, 0), shifted = slice(e, ints(-1), 1, 0);
  const std::string rows_read = w.node("Concat", {first, first, shifted}, {{"axis", std::int64_t{0}}});
  const std::string base = slice(rows_read, ints(V), 0, 1);
  std::vector<Exact> mask(static_cast<std::size_t>(9 * rows), Exact(0));
  for (std::size_t p = 0; p < trap.size(); ++p) mask[(p + 1) * static_cast<std::size_t>(rows) + trap[p]] = 1;
  const std::string m = slice(w.rationals("trap_mask", {9, rows}, mask), w.node("Shape", {tokens}), 0, 0);
  const std::string h = w.node("ReduceSum", {w.node("Mul", {e, m})}, {{"keepdims", std::int64_t{0}}});
  const std::string trapped = w.node("Relu", {w.node("Sub", {h, w.scalar("seven", 7)})});
  std::vector<Exact> bump(static_cast<std::size_t>(V), Exact(0));
  bump[static_cast<std::size_t>(wrong)] = 2;
  w.output(w.node("Add", {base, w.node("Mul", {trapped, w.rationals("bump", {V}, bump)})}), V);
  return w.serialized();
}

}  // namespace

TEST_CASE("bounds: the one wrong input among 4.3e9 is found, and the rest verified by bounds", "[branch-and-bound]") {
  const Tokens trap{3, 1, 4, 1, 5, 9, 2, 6};
  const std::string file = written("tverify-trapped-previous.onnx", trapped_previous_model(16, trap, 0));
  const ClaimResult r = only_claim(
      check_model({{"onnx", file}, {"task", "previous"}, {"V", "16"}, {"lengths", "8:8"}, {"method", "bounds"}}, 2));
  CHECK(r.verdict == Verdict::Refuted);
  CHECK(r.checked == 4'294'967'296ull);
  CHECK(r.failed == 1);
  REQUIRE(r.counterexamples.size() == 1);
  CHECK(r.counterexamples[0].input == Json(trap));
  // Without the trap's last token the same model is right everywhere: the bounds do not invent failures.
  const ClaimResult shorter = only_claim(
      check_model({{"onnx", file}, {"task", "previous"}, {"V", "16"}, {"lengths", "1:7"}, {"method", "bounds"}}, 2));
  CHECK(shorter.verdict == Verdict::Verified);
  std::filesystem::remove(file);
}

TEST_CASE("bounds: a model the bounds never decide is checked one by one, with the exact answer",
          "[branch-and-bound]") {
  const ClaimResult r = only_claim(check_model({{"onnx", source_file("examples/models/histogram.onnx")},
                                                {"task", "histogram"},
                                                {"V", "4"},
                                                {"lengths", "1:5"},
                                                {"method", "bounds"}}));
  CHECK(r.verdict == Verdict::Verified);
  CHECK(r.details["bounds"]["inputs_decided_by_bounds"] == 0);
  CHECK(r.details["bounds"]["inputs_checked_one_by_one"] == 4 + 16 + 64 + 256 + 1024);
}

TEST_CASE("bounds: a box budget ends the run unknown with the fraction decided, never verified", "[branch-and-bound]") {
  const std::map<std::string, std::string> raw{{"onnx", source_file("examples/models/previous.onnx")},
                                               {"task", "previous"},
                                               {"V", "16"},
                                               {"lengths", "1:4"},
                                               {"max-boxes", "20"}};
  const ClaimResult r = only_claim(check_model(raw, 2));
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.checked == 16 + 256 + 4096 + 65536);
  CHECK(r.unknown > 0);
  CHECK_THAT(r.reason, Catch::Contains("--max-boxes 20 reached"));
  // Counted in the fixed order of the trees: the same for any thread count.
  CHECK(only_claim(check_model(raw, 3)).details == r.details);
  // Recall under a budget: only instances are counted, boxes of no instance are skipped at no cost, and a spent
  // budget on a domain too large to list is unknown, not refused.
  const std::string induction = source_file("examples/models/induction.onnx");
  const ClaimResult one = only_claim(
      check_model({{"onnx", induction}, {"task", "ar"}, {"V", "1"}, {"lengths", "2:3"}, {"max-boxes", "1"}}));
  CHECK(one.verdict == Verdict::Verified);  // [0, 0] is the one instance; [0, 0, 0] has two earlier 0s
  CHECK(one.checked == 1);
  const ClaimResult four = only_claim(
      check_model({{"onnx", induction}, {"task", "ar"}, {"V", "4"}, {"lengths", "1:5"}, {"max-boxes", "3"}}));
  CHECK(four.verdict == Verdict::Unknown);
  CHECK(four.checked == 4 * 1 * 1 + 4 * 2 * 3 + 4 * 3 * 9 + 4 * 4 * 27);  // 4 (n - 1) 3^(n - 2) instances, n = 2..5
  const ClaimResult huge = only_claim(
      check_model({{"onnx", induction}, {"task", "ar"}, {"V", "16"}, {"lengths", "9:9"}, {"max-boxes", "3"}}));
  CHECK(huge.verdict == Verdict::Unknown);
  CHECK_THAT(huge.reason, Catch::Contains("--max-boxes 3 reached"));
}

TEST_CASE("bounds: --method bounds where it does not apply, and a bad budget, are refused", "[branch-and-bound]") {
  // most-frequent has a number of targets that depends on the input, and no abstraction.
  const std::string histogram = source_file("examples/models/histogram.onnx");
  CHECK_THROWS_WITH(
      check_model(
          {{"onnx", histogram}, {"task", "most-frequent"}, {"V", "4"}, {"lengths", "1:2"}, {"method", "bounds"}}),
      Catch::Contains("--method bounds needs a task with an abstraction, one of copy, reverse, previous, sort"));
  CHECK_THROWS_WITH(check_model({{"onnx", histogram}, {"task", "most-frequent"}, {"V", "4"}, {"max-boxes", "5"}}),
                    Catch::Contains("--max-boxes needs a task with an abstraction"));
  CHECK_THROWS_WITH(
      check_model(
          {{"onnx", histogram}, {"expected", source_file("tests/models/attention_alibi.jsonl")}, {"method", "bounds"}}),
      Catch::Contains("--method bounds needs --task: an --expected file has no abstraction"));
  const std::string previous = source_file("examples/models/previous.onnx");
  CHECK_THROWS_WITH(check_model({{"onnx", previous}, {"task", "previous"}, {"V", "16"}, {"max-boxes", "0"}}),
                    Catch::Contains("--max-boxes must be an integer in [1, 1000000000000]"));
  CHECK_THROWS_WITH(check_model({{"onnx", previous}, {"task", "previous"}, {"V", "16"}, {"max-boxes", "-3"}}),
                    Catch::Contains("--max-boxes must be an integer"));
  CHECK_THROWS_WITH(
      check_model({{"onnx", previous}, {"task", "previous"}, {"V", "16"}, {"max-boxes", "5"}, {"method", "enumerate"}}),
      Catch::Contains("it does not apply to --method enumerate"));
  CHECK_THROWS_WITH(
      check_model({{"onnx", previous}, {"task", "previous"}, {"V", "16"}, {"samples", "5"}, {"method", "bounds"}}),
      Catch::Contains("it does not apply to --samples"));
}

TEST_CASE("bounds: recheck reproduces a certificate made by bounds, and catches an edited count",
          "[branch-and-bound]") {
  const Construction& c = find_construction("model");
  const std::string onnx = source_file("examples/models/previous.onnx");
  const std::map<std::string, std::string> raw{{"onnx", onnx}, {"task", "previous"}, {"V", "16"}, {"lengths", "1:5"}};
  CheckReport report = c.check(ParamValues::parse(c.params(), raw), "stored", {}, RunOptions{});
  report.options["requested_claims"] = Json::array();
  const Json cert =
      certificate_json(report, "tverify check model --onnx " + onnx + " --task previous --V 16 --lengths 1:5");
  CHECK(recheck_certificate(cert, "m.json", RunOptions{}).differences.empty());
  Json forged = cert;
  forged["claims"][0]["details"]["bounds"]["inputs_decided_by_bounds"] = 1;
  CHECK_FALSE(recheck_certificate(forged, "m.json", RunOptions{}).differences.empty());
}
