// Prefix consistency (model/prefix_plan.hpp, prefix_analysis.hpp): which graphs let one evaluation
// of the teacher-forced sequence stand for every step of a generation, and the checks that make it sound. The models
// are small attention layers written here with OnnxWriter; the reference is the definition itself: the last row of
// the output on each prefix, evaluated on its own.
#include "io/files.hpp"
#include "model/case_check.hpp"
#include "checkers/model/engine_calls.hpp"
#include "model/prefix_plans.hpp"
#include "model/onnx_writer.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

#include <unistd.h>

using namespace tverify;
using namespace tverify::model;

namespace {

// What the layer does besides attention: the variations the analysis must tell apart.
enum class Variation {
  CausalMask,        // keys after the query masked with -inf: prefix-consistent under the two checks
  NoMask,            // every key attended: the softmax check fails on the evaluated sequence
  MeanOverSequence,  // the mean of every position added to each: not shown consistent (no plan)
  ScaledByLength,    // scores divided by the length: not shown consistent (no plan)
  ShapeFromTokens,   // a Range as long as the largest token, whose Shape is added to the scores: no plan
  LastPosition,      // the last position's row added to every row: no plan
  ReverseCumSum,     // sums of each position and the ones after it: no plan
  ForwardCumSum,     // sums of each position and the ones before it: prefix-consistent
  OneHotRows,        // the rows made by OneHot from the tokens instead of gathered: prefix-consistent
  EinsumAttention,   // scores and attended rows by Einsum ("qd,kd->qk", "qk,kd->qd"): consistent under the checks
  EinsumOverKeys,    // every position's row summed over the sequence by Einsum ("kd->d") and added: no plan
  EinsumNoMask,      // Einsum attention with every key attended: the checks fail on the evaluated sequence
};

// tokens 0..2 -> one-hot rows of a 3 x 3 embedding E; scores x x^T (1 where tokens match, else 0) times 1/4;
// softmax over the keys (masked as `variation` says); the attended rows, times E^T, are the logits. With so low a
// temperature a row's argmax is the token with the most weight among the keys it sees: e^(1/4) = 1.28 for each key
// of its own token, 1 for each other key.
std::string attention_layer(Variation variation) {
  OnnxWriter w("prefix_test");
  const std::string tokens = w.token_input("tokens");
  const std::vector<Exact> identity{1, 0, 0, 0, 1, 0, 0, 0, 1};
  const std::string embedding = w.rationals("E", {3, 3}, identity);
  const std::vector<OnnxAttribute> swap{{"perm", std::vector<std::int64_t>{1, 0}}};
  std::string x =
      variation == Variation::OneHotRows
          ? w.node("OneHot", {tokens, w.integers("depth", {}, {3}), w.rationals("off_on", {2}, {Exact(0), Exact(1)})})
          : w.node("Gather", {embedding, tokens}, {{"axis", std::int64_t{0}}});
  const bool einsum = variation == Variation::EinsumAttention || variation == Variation::EinsumOverKeys ||
                      variation == Variation::EinsumNoMask;
  const std::string length = w.node("Squeeze", {w.node("Shape", {tokens}), w.integers("axis_0", {1}, {0})});
  if (variation == Variation::MeanOverSequence)
    x = w.node("Add", {x, w.node("ReduceMean", {x}, {{"axes", std::vector<std::int64_t>{0}}})});
  if (variation == Variation::EinsumOverKeys)
    x = w.node("Add", {x, w.node("Einsum", {x}, {{"equation", std::string("kd->d")}})});
  if (variation == Variation::LastPosition)
    x = w.node("Add", {x, w.node("Gather", {x, w.integers("last", {}, {-1})}, {{"axis", std::int64_t{0}}})});
  if (variation == Variation::ReverseCumSum || variation == Variation::ForwardCumSum) {
    const std::int64_t reverse = variation == Variation::ReverseCumSum ? 1 : 0;
    x = w.node("CumSum", {x, w.integers("sequence_axis", {}, {0})}, {{"reverse", reverse}});
  }
  const std::string products = einsum ? w.node("Einsum", {x, x}, {{"equation", std::string("qd,kd->qk")}})
                                      : w.node("MatMul", {x, w.node("Transpose", {x}, swap)});
  std::string scores = w.node("Mul", {products, w.scalar("temperature", Exact(1, 4))});
  if (variation == Variation::ScaledByLength)
    scores = w.node("Div", {scores, w.node("Cast", {length}, {{"to", std::int64_t{1}}})});
  if (variation == Variation::ShapeFromTokens) {
    const std::string largest = w.node("ReduceMax", {tokens}, {{"keepdims", std::int64_t{0}}});
    const std::string range = w.node("Range", {w.integers("start", {}, {0}), largest, w.integers("step", {}, {1})});
    scores = w.node("Add", {scores, w.node("Cast", {w.node("Shape", {range})}, {{"to", std::int64_t{1}}})});
  }
  if (variation != Variation::NoMask && variation != Variation::EinsumNoMask) {
    const std::string positions = w.node("Range", {w.integers("zero", {}, {0}), length, w.integers("one", {}, {1})});
    const std::string queries = w.node("Unsqueeze", {positions, w.integers("axis_1", {1}, {1})});
    const std::string keys = w.node("Unsqueeze", {positions, "axis_0"});
    const std::string allowed = w.node("GreaterOrEqual", {w.node("Sub", {queries, keys}), "zero"});
    const std::string bias =
        w.node("Where", {allowed, w.scalar("no_bias", Exact(0)), w.minus_infinity("minus_infinity")});
    scores = w.node("Add", {scores, bias});
  }
  const std::string weights = w.node("Softmax", {scores}, {{"axis", std::int64_t{-1}}});
  const std::string attended = einsum ? w.node("Einsum", {weights, x}, {{"equation", std::string("qk,kd->qd")}})
                                      : w.node("MatMul", {weights, x});
  w.node("MatMul", {attended, w.node("Transpose", {embedding}, swap)}, {}, "logits");
  w.output("logits", 3);
  return w.serialized();
}

LoadedModel loaded(Variation variation) {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-prefix-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "layer.onnx";
  write_file_atomically(path, attention_layer(variation));
  LoadedModel m = read_model_file(path.string(), std::nullopt);
  std::filesystem::remove_all(dir);
  return m;
}

// Whether row `row` of the graph's output on `sequence` and the last row of its output on the prefix that ends at
// `row` can be the same reals: their double-interval enclosures meet in every entry.
bool rows_meet(const LoadedModel& m, const Tokens& sequence, std::size_t row) {
  const Tensor<DoubleInterval> whole = evaluate(m.graph, *m.doubles, sequence);
  const Tensor<DoubleInterval> prefix =
      evaluate(m.graph, *m.doubles, Tokens(sequence.begin(), sequence.begin() + static_cast<long>(row) + 1));
  for (std::size_t k = 0; k < 3; ++k) {
    const DoubleInterval &a = whole.reals[row * 3 + k].value, &b = prefix.reals[row * 3 + k].value;
    if (a.upper() < b.lower() || b.upper() < a.lower()) return false;
  }
  return true;
}

// Why the layer with `variation` gets no plan for prefixes of 2 to 5 tokens; empty when it gets one.
std::string no_plan_reason(Variation variation) {
  const auto plan = PrefixPlans().make(loaded(variation), 2, 5);
  return std::holds_alternative<std::string>(plan) ? std::get<std::string>(plan) : std::string();
}

std::vector<Tokens> every_sequence(std::size_t length) {
  std::vector<Tokens> out{{}};
  for (std::size_t i = 0; i < length; ++i) {
    std::vector<Tokens> longer;
    for (const Tokens& s : out)
      for (std::int64_t t = 0; t < 3; ++t) {
        longer.push_back(s);
        longer.back().push_back(t);
      }
    out = std::move(longer);
  }
  return out;
}

// The plan's checks, in node order.
std::vector<PrefixCheck> checks_of(const PrefixPlan& plan) {
  std::vector<PrefixCheck> checks;
  for (const auto& c : plan.by_node)
    if (c) checks.push_back(*c);
  return checks;
}

// Every sequence of 5 tokens passes the plan's checks, and each row of its output is the prefix's last row.
void expect_every_row_its_prefix(const LoadedModel& m, const PrefixPlan& plan) {
  for (const Tokens& s : every_sequence(5)) {
    CHECK_NOTHROW(evaluate(m.graph, *m.doubles, s, &plan));
    for (std::size_t row = 1; row < 5; ++row) CHECK(rows_meet(m, s, row));
  }
}

}  // namespace

TEST_CASE("prefix plan: a causally masked attention layer is prefix-consistent under its two checks", "[model]") {
  const LoadedModel m = loaded(Variation::CausalMask);
  const auto plan = PrefixPlans().make(m, 2, 5);
  REQUIRE(std::holds_alternative<PrefixPlan>(plan));
  const std::vector<PrefixCheck> checks = checks_of(std::get<PrefixPlan>(plan));
  // The softmax over keys (axis 1 of the [queries, keys] scores) and the product of its weights with the rows.
  REQUIRE(checks.size() == 2);
  CHECK(checks[0].kind == PrefixCheck::Kind::MaskedAbove);
  CHECK((checks[0].input == 0 && checks[0].query_axis == 0 && checks[0].key_axis == 1));
  CHECK(checks[1].kind == PrefixCheck::Kind::ZeroAbove);
  CHECK((checks[1].input == 0 && checks[1].query_axis == 0 && checks[1].key_axis == 1));
  expect_every_row_its_prefix(m, std::get<PrefixPlan>(plan));
}

TEST_CASE("prefix plan: OneHot rows and Einsum attention keep consistency, Einsum's product under its check",
          "[model]") {
  for (const Variation variation : {Variation::OneHotRows, Variation::EinsumAttention}) {
    const LoadedModel m = loaded(variation);
    const auto plan = PrefixPlans().make(m, 2, 5);
    INFO((std::holds_alternative<std::string>(plan) ? std::get<std::string>(plan) : std::string("planned")));
    REQUIRE(std::holds_alternative<PrefixPlan>(plan));
    const std::vector<PrefixCheck> checks = checks_of(std::get<PrefixPlan>(plan));
    // The softmax over the keys, and the product of its weights (Einsum's first operand, "qk") with the rows.
    REQUIRE(checks.size() == 2);
    CHECK(checks[0].kind == PrefixCheck::Kind::MaskedAbove);
    CHECK(checks[1].kind == PrefixCheck::Kind::ZeroAbove);
    CHECK((checks[1].input == 0 && checks[1].query_axis == 0 && checks[1].key_axis == 1));
    expect_every_row_its_prefix(m, std::get<PrefixPlan>(plan));
  }
  // A sum over the sequence by Einsum reads later positions.
  CHECK_THAT(no_plan_reason(Variation::EinsumOverKeys), Catch::Contains("(Einsum)"));
  // Without the mask, Einsum's product is planned under the same checks, and the evaluated sequence fails them.
  const LoadedModel unmasked = loaded(Variation::EinsumNoMask);
  const auto plan = PrefixPlans().make(unmasked, 2, 5);
  REQUIRE(std::holds_alternative<PrefixPlan>(plan));
  const Tokens s{0, 1, 0, 2, 1};
  CHECK_THROWS_AS(evaluate(unmasked.graph, *unmasked.doubles, s, &std::get<PrefixPlan>(plan)), PrefixBroken);
  CHECK_FALSE(rows_meet(unmasked, s, 0));
}

TEST_CASE("prefix plan: without the mask the softmax check fails, and the rows it guards differ", "[model]") {
  const LoadedModel m = loaded(Variation::NoMask);
  const auto plan = PrefixPlans().make(m, 2, 5);
  // The analysis cannot see values: it plans the same checks, and the evaluation refuses the sequence.
  REQUIRE(std::holds_alternative<PrefixPlan>(plan));
  const Tokens s{0, 1, 0, 2, 1};
  CHECK_THROWS_AS(evaluate(m.graph, *m.doubles, s, &std::get<PrefixPlan>(plan)), PrefixBroken);
  // Skipping the check would be wrong: row 0 of the whole sequence attends to later tokens, the prefix [0] does not.
  CHECK_FALSE(rows_meet(m, s, 0));
  // The checker generates step by step instead. After the prompt [0, 1] the query (token 1) weighs 1 for key 0 and
  // 1.28 for key 1: argmax 1, right; fed back, [0, 1, 1] gives 1 again where 0 is expected. Read from the
  // teacher-forced [0, 1, 1, 0, 0], row 1 would weigh three keys 0 (3) against two keys 1 (2.57): argmax 0 at once.
  const TaskCase c{{0, 1, 1, 0, 0}, {1, 0, 0, 0}, 1, true};  // the prompt [0, 1], then the targets but the last
  const CaseOutcome out = outcome_of_case(m, c, Decode::Generate, CaseLimits{3, 2});
  CHECK(out.kind == CaseOutcome::Kind::Wrong);
  CHECK(out.got == Json({1, 1}));
  CHECK(out.detail == "position 2: argmax 1, expected 0");
}

TEST_CASE("prefix plan: what reads later positions, scales by the length or shapes by the tokens gives no plan",
          "[model]") {
  CHECK_THAT(no_plan_reason(Variation::MeanOverSequence), Catch::Contains("(ReduceMean)"));
  CHECK_THAT(no_plan_reason(Variation::ScaledByLength), Catch::Contains("(Div)"));
  // A shape computed from the tokens' values: the probes on tokens 0 would see another shape than the sequence's.
  CHECK_THAT(no_plan_reason(Variation::ShapeFromTokens),
             Catch::Contains("(Range) takes a shape, axis or bound computed from"));
  CHECK_THAT(no_plan_reason(Variation::LastPosition), Catch::Contains("(Gather)"));
  CHECK_THAT(no_plan_reason(Variation::ReverseCumSum), Catch::Contains("(CumSum)"));
  // A forward running sum along the sequence reads only positions up to its own: planned.
  CHECK(no_plan_reason(Variation::ForwardCumSum).empty());
  // One length needs no plan: the evaluation is the generation's only step.
  CHECK(std::holds_alternative<PrefixPlan>(PrefixPlans().make(loaded(Variation::MeanOverSequence), 4, 4)));
}

TEST_CASE("prefix plan: the PyTorch copy example is read from one evaluation per input", "[model]") {
  const LoadedModel m = read_model_file(std::string(TVERIFY_SOURCE_DIR) + "/examples/models/copy.onnx", std::nullopt);
  const auto plan = PrefixPlans().make(m, 5, 7);  // BOS, 3 tokens, COPY, then 2 of the 3 copied
  INFO((std::holds_alternative<std::string>(plan) ? std::get<std::string>(plan) : std::string("planned")));
  CHECK(std::holds_alternative<PrefixPlan>(plan));
}
