// rasp: the exact RASP-L interpreter. Expected values are the dialect's definitions worked by hand
// (docs/count3.md): A[q][k] = pred(k_j, q_i), mean truncated toward zero, Python's floor modulo.
#include "constructions/rasp/rasp.hpp"

#include <catch2/catch.hpp>

using namespace tverify;
using namespace tverify::rasp;

namespace {
std::vector<long long> ints(const Seq& s) {
  std::vector<long long> out;
  for (const auto& v : s.values) out.push_back(static_cast<long long>(numerator(v) / denominator(v)));
  return out;
}
}  // namespace

TEST_CASE("select and sel_width: A[q][k] = pred(k, q), causal keeps k <= q", "[rasp]") {
  Run run({});
  const Seq x = sequence({3, 1, 3});
  CHECK(ints(sel_width(select({.k = x, .q = x, .pred = equals}))) == std::vector<long long>{2, 1, 2});
  CHECK(ints(sel_width(select({.k = x, .q = x, .pred = equals, .causal = true}))) == std::vector<long long>{1, 1, 2});
  // pred(key, query): key < query selects the keys below each query value.
  const auto less = [](const Value& k, const Value& q) { return k < q; };
  CHECK(ints(sel_width(select({.k = x, .q = x, .pred = less}))) == std::vector<long long>{1, 0, 1});
}

TEST_CASE("kqv: mean truncates toward zero by default, exact on request / default for empty rows", "[rasp]") {
  const Seq x = sequence({1, 2, 4});
  const Seq v = sequence({-1, -2, 4});
  {
    Run run({.mean = MeanSemantics::Truncate, .record = true});
    // causal means of v over prefixes: -1, -3/2 -> -1 (toward zero), 1/3 -> 0
    const Seq m = kqv({.k = x, .q = x, .v = v, .pred = always, .causal = true});
    CHECK(ints(m) == std::vector<long long>{-1, -1, 0});
    CHECK(run.mean_differences().size() == 2);
  }
  {
    Run run({MeanSemantics::Exact});
    const Seq m = kqv({.k = x, .q = x, .v = v, .pred = always, .causal = true});
    CHECK(m[1] == Value(-3, 2));
    CHECK(m[2] == Value(1, 3));
  }
  Run run({});
  const auto never = [](const Value&, const Value&) { return false; };
  CHECK(ints(kqv({.k = x, .q = x, .v = v, .pred = never, .default_value = 7})) == std::vector<long long>{7, 7, 7});
  CHECK(ints(kqv({.k = x, .q = x, .v = v, .pred = always, .reduction = Reduction::Max})) ==
        std::vector<long long>{4, 4, 4});
  CHECK(ints(kqv({.k = x, .q = x, .v = v, .pred = always, .reduction = Reduction::Min, .causal = true})) ==
        std::vector<long long>{-1, -2, -2});
}

TEST_CASE("force_causal makes every selector causal (what a decoder computes)", "[rasp]") {
  Run run({.mean = MeanSemantics::Truncate, .force_causal = true});
  const Seq x = sequence({5, 6, 7});
  CHECK(ints(sel_width(select({.k = x, .q = x, .pred = always}))) == std::vector<long long>{1, 2, 3});
}

TEST_CASE("Python semantics: floor modulo, two's-complement &, comparisons as 0/1", "[rasp]") {
  CHECK(floor_mod(-3, 5) == 2);
  CHECK(floor_mod(7, 5) == 2);
  CHECK(floor_mod(3, -2) == -1);  // Python: 3 % -2 == -1
  CHECK(floor_mod(Value(7, 2), 2) == Value(3, 2));
  CHECK(bitwise_and(-5, 127) == 123);  // -5 & 127 == 123 == (-5) mod 128
  CHECK_THROWS_AS(bitwise_and(Value(1, 2), 1), std::domain_error);
  CHECK(truncate_toward_zero(Value(-7, 2)) == -3);
  Run run({});
  const Seq x = sequence({1, 5, 9});
  CHECK(ints(x % full(x, 4)) == std::vector<long long>{1, 1, 1});
  CHECK(ints((x < sequence({2, 5, 3})) + (x == 5)) == std::vector<long long>{1, 1, 0});
  CHECK(ints(-x & 127) == std::vector<long long>{127, 123, 119});
}

TEST_CASE("the recorder names linear and nonlinear elementwise maps", "[rasp]") {
  Run run({.mean = MeanSemantics::Truncate, .record = true});
  const Seq x = sequence({1, 2}), y = sequence({3, 4});
  (void)(x + y);
  (void)(x * 3);
  (void)(x * y);
  const auto& sites = run.sites();
  REQUIRE(sites.size() == 3);
  CHECK(sites[0].linear);
  CHECK(sites[1].linear);   // a product with a literal
  CHECK(!sites[2].linear);  // a product of two input-dependent sequences
  CHECK(sites[2].arguments.count({Value(2), Value(4)}) == 1);
}

TEST_CASE("a program outside a Run is a logic error", "[rasp]") {
  CHECK_THROWS_AS(sequence({1}) + sequence({2}), std::logic_error);
}
