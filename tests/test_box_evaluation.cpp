// Box evaluation (model/evaluator.hpp, evaluate_box) tested as a rigorous library tests an enclosure: on random boxes
// of token sequences, random members evaluated on their own (exactly for a rational graph, at 1,024 bits otherwise)
// must lie inside the box's enclosure, element by element. The graphs are every model of tests/models/ and
// examples/models/ the box evaluation takes, and seeded random graphs that go through every op of the op table
// (tests/onnx_graph_generator.hpp). A deliberately too-tight enclosure, the first member's value taken for the whole
// box, must be caught.
#include "model/evaluator.hpp"
#include "model/onnx_reader.hpp"
#include "model/onnx_writer.hpp"
#include "model/ops_nonlinear.hpp"
#include "onnx_graph_generator.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace tverify;
using model::Graph;
using model::Tensor;
using model::TokenBox;

namespace {

std::optional<Graph> graph_of_file(const std::string& relative) {
  std::ifstream in(std::string(TVERIFY_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  auto read = model::read_onnx(bytes.str());
  if (auto* g = std::get_if<Graph>(&read)) return std::move(*g);
  return std::nullopt;
}

// The rows of the table the token input indexes (a Gather of a constant along axis 0), or 0 when there is none.
std::int64_t vocabulary(const Graph& g) {
  for (const auto& node : g.nodes)
    if (node.op == "Gather" && node.inputs.size() == 2 && node.inputs[1] == g.input_slot)
      if (const auto it = g.constants.find(node.inputs[0]); it != g.constants.end() && !it->second.shape.empty())
        return it->second.shape.front();
  return 0;
}

TokenBox random_box(std::mt19937_64& rng, std::size_t length, std::int64_t vocabulary) {
  TokenBox box;
  for (std::size_t p = 0; p < length; ++p) {
    std::vector<std::int64_t> set;
    for (std::int64_t t = 0; t < vocabulary; ++t)
      if (rng() % 2) set.push_back(t);
    if (set.empty()) set.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(vocabulary)));
    box.positions.push_back(set);
  }
  return box;
}

std::vector<std::int64_t> random_member(std::mt19937_64& rng, const TokenBox& box) {
  std::vector<std::int64_t> member;
  for (const auto& set : box.positions) member.push_back(set[rng() % set.size()]);
  return member;
}

// The enclosure of a box: in double intervals, or at 256 bits when doubles cannot take it; nullopt when neither
// decides every comparison inside the graph (the box would be split).
std::optional<Tensor<Interval<256>>> box_enclosure(const Graph& g, const TokenBox& box) {
  try {
    const auto d = model::evaluate_box(g, model::convert_weights<DoubleInterval>(g), box);
    std::vector<model::Extended<Interval<256>>> reals;
    for (const auto& x : d.reals)
      reals.push_back(x.finite()
                          ? model::Extended<Interval<256>>{Interval<256>::hull(x.value.lower(), x.value.upper()), 0}
                          : model::Extended<Interval<256>>::infinity(x.inf));
    return Tensor<Interval<256>>::real(d.shape, std::move(reals));
  } catch (const model::Undecided&) {
  } catch (const model::ModelError&) {
  } catch (const DoubleRangeExceeded&) {}
  try {
    return model::evaluate_box(g, model::convert_weights<Interval<256>>(g), box);
  } catch (const model::Undecided&) {
  } catch (const model::ModelError&) {}
  return std::nullopt;
}

// A member's value as an enclosure: exact (a point) for a rational graph, else at 1,024 bits; nullopt when the
// member cannot be evaluated (an error of the model on that input).
std::optional<Tensor<Interval<1024>>> member_value(const Graph& g, const std::vector<std::int64_t>& tokens) {
  try {
    if (g.rational) {
      const auto exact = model::evaluate(g, model::convert_weights<Exact>(g), tokens);
      std::vector<model::Extended<Interval<1024>>> reals;
      for (const auto& x : exact.reals)
        reals.push_back(x.finite() ? model::Extended<Interval<1024>>{Interval<1024>(x.value), 0}
                                   : model::Extended<Interval<1024>>::infinity(x.inf));
      return Tensor<Interval<1024>>::real(exact.shape, std::move(reals));
    }
    return model::evaluate(g, model::convert_weights<Interval<1024>>(g), tokens);
  } catch (const model::Undecided&) {
  } catch (const model::ModelError&) {}
  return std::nullopt;
}

// Whether every element of the member's value lies inside the box's enclosure (an infinity only inside the same).
bool inside(const Tensor<Interval<256>>& box, const Tensor<Interval<1024>>& member) {
  if (box.shape != member.shape || !box.is_real() || !member.is_real()) return false;
  for (std::size_t i = 0; i < box.reals.size(); ++i) {
    const auto& b = box.reals[i];
    const auto& m = member.reals[i];
    if (!b.finite() || !m.finite()) {
      if (b.inf != m.inf) return false;
      continue;
    }
    if (m.value.lower() < b.value.lower() || m.value.upper() > b.value.upper()) return false;
  }
  return true;
}

// The graphs under test: the model files the box evaluation takes, then seeded random graphs.
std::vector<std::pair<std::string, Graph>> graphs_under_test(std::size_t random_graphs) {
  std::vector<std::pair<std::string, Graph>> graphs;
  for (const char* file :
       {"tests/models/attention_alibi.onnx", "tests/models/attend_same.onnx", "tests/models/attend_uniform.onnx",
        "tests/models/reverse.onnx", "tests/models/three_rows.onnx", "tests/models/masked_prefix.onnx",
        "examples/models/copy.onnx", "examples/models/histogram.onnx", "examples/models/sort.onnx"})
    if (auto g = graph_of_file(file)) graphs.emplace_back(file, std::move(*g));
  std::mt19937_64 rng(20261128);
  for (std::size_t i = 0; i < random_graphs; ++i) {
    const auto spec = testing::random_graph(rng, i);
    auto read = model::read_onnx(testing::serialized(spec));
    if (auto* g = std::get_if<Graph>(&read)) graphs.emplace_back("random graph " + std::to_string(i), std::move(*g));
  }
  return graphs;
}

}  // namespace

TEST_CASE("box evaluation: random members of random boxes lie inside the box's enclosure", "[model][box]") {
  std::mt19937_64 rng(7);
  std::size_t boxes = 0, members = 0, graphs_with_boxes = 0;
  for (const auto& [name, g] : graphs_under_test(2 * testing::op_recipes().size())) {
    const std::int64_t v = vocabulary(g);
    if (v == 0) continue;
    bool any = false;
    for (int trial = 0; trial < 6; ++trial) {
      const std::size_t length = g.fixed_length() ? static_cast<std::size_t>(*g.fixed_length()) : 1 + rng() % 4;
      const TokenBox box = random_box(rng, length, v);
      std::optional<Tensor<Interval<256>>> enclosure;
      try {
        enclosure = box_enclosure(g, box);
      } catch (const model::BoxUnsupported&) { break; }  // the tokens feed another op: no box evaluation
      if (!enclosure) continue;
      ++boxes, any = true;
      for (int k = 0; k < 4; ++k) {
        const auto member = random_member(rng, box);
        const auto value = member_value(g, member);
        if (!value) continue;
        ++members;
        INFO(name << ", member " << fmt::format("{}", fmt::join(member, " ")));
        CHECK(inside(*enclosure, *value));
      }
    }
    graphs_with_boxes += any;
  }
  CHECK(graphs_with_boxes >= 40);
  CHECK(boxes >= 150);
  CHECK(members >= 400);
}

TEST_CASE("box evaluation: a too-tight enclosure, one member's value for the whole box, is caught", "[model][box]") {
  // The test above with the box's enclosure replaced by its first member's (evaluated as a box of one sequence): the
  // members of boxes of more than one sequence must fall outside it somewhere.
  std::mt19937_64 rng(11);
  std::size_t caught = 0;
  for (const auto& [name, g] : graphs_under_test(0)) {
    const std::int64_t v = vocabulary(g);
    if (v < 2) continue;
    const TokenBox box = random_box(rng, g.fixed_length() ? static_cast<std::size_t>(*g.fixed_length()) : 3, v);
    TokenBox first;
    for (std::int64_t t : box.first_member()) first.positions.push_back({t});
    const auto tight = box_enclosure(g, first);
    if (!tight) continue;
    for (int k = 0; k < 16; ++k) {
      const auto value = member_value(g, random_member(rng, box));
      if (value && !inside(*tight, *value)) {
        ++caught;
        break;
      }
    }
  }
  CHECK(caught >= 5);
}

TEST_CASE("box evaluation: a graph whose output is its token input, or a box with an empty position, is refused",
          "[model][box]") {
  model::OnnxWriter w("output_is_input");
  const std::string tokens = w.token_input("tokens");
  w.node("Identity", {tokens});
  w.output(tokens, 2);
  auto read = model::read_onnx(w.serialized());
  REQUIRE(std::holds_alternative<Graph>(read));  // the reader takes it; a check would refuse its integer output
  const Graph& g = std::get<Graph>(read);
  const TokenBox box{{{0, 1}}};
  CHECK_THROWS_AS(model::evaluate_box(g, model::convert_weights<DoubleInterval>(g), box), model::BoxUnsupported);
  const Graph copy = *graph_of_file("examples/models/copy.onnx");
  const TokenBox empty{{{3}, {}}};
  CHECK_THROWS_AS(model::evaluate_box(copy, model::convert_weights<DoubleInterval>(copy), empty),
                  std::invalid_argument);
}

TEST_CASE("box evaluation: a softmax over interval scores is the tight enclosure", "[box]") {
  // Scores [0, 1], [0, 1], [0, 1]: each weight lies in [1 / (1 + 2e), e / (e + 2)] = [0.15536, 0.57612], the bounds
  // e^{l_i} / (e^{l_i} + sum_{j != i} e^{u_j}) and e^{u_i} / (e^{u_i} + sum_{j != i} e^{l_j}), and reaches both ends.
  // Shifting by the interval reference instead widens the other entries to [0.090, 0.665].
  using E = model::Extended<DoubleInterval>;
  const E wide{DoubleInterval::hull(Exact(0), Exact(1)), 0};
  const auto out = model::ops::softmax(Tensor<DoubleInterval>::real({3}, {wide, wide, wide}), 0, false);
  const Exact e = Exact(2.718281828459045);  // within 1e-15 of e
  for (const E& w : out.reals) {
    CHECK(w.value.lower() <= 1 / (1 + 2 * e) + Exact(1, 1'000'000'000));
    CHECK(w.value.lower() >= 1 / (1 + 2 * e) - Exact(1, 1'000'000'000));
    CHECK(w.value.upper() >= e / (e + 2) - Exact(1, 1'000'000'000));
    CHECK(w.value.upper() <= e / (e + 2) + Exact(1, 1'000'000'000));
  }
}

TEST_CASE("box evaluation: a softmax of scores past the double range keeps its reference, in MPFI", "[box]") {
  // Scores 10^400 and 2 10^400 (no double holds them): the second weight is 1 / (1 + e^{-10^400}), the first
  // e^{-10^400} / (1 + e^{-10^400}); the width test of a wide reference must not convert an infinite double.
  using I = Interval<256>;
  using E = model::Extended<I>;
  Exact big = 1;
  for (int k = 0; k < 400; ++k) big *= 10;
  const auto out = model::ops::softmax(Tensor<I>::real({2}, {E{I(big), 0}, E{I(2 * big), 0}}), 0, false);
  // compared in MPFI: the first weight's ends are far below any exact rational GMP could hold
  CHECK(is_greater(I(Exact(1, 2)), out.reals[0].value) == Tri::True);
  CHECK(is_greater(out.reals[1].value, I(Exact(1, 2))) == Tri::True);
}
