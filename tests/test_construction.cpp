// checkers/construction: what the base class does for every construction, on a toy one declared here: claim ids
// expanded and validated, claims outside the run or the verb refused, results in declaration order, a claim with no
// result caught, sweep options matched to their sweep.
#include "checkers/construction.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace tverify;

namespace {

// Claims: toy.a (checked), toy.b (checked; only in variant "second"), toy.z (proved). The check action answers
// every asked claim, except toy.b when `drop_b` (a deliberately broken construction).
Construction toy(bool drop_b = false) {
  ConstructionDeclaration d;
  d.name = "toy";
  d.paper = "a toy";
  d.params = {{"k", "a number", ParamSpec::Kind::Integer, 1, 9, {}, "3"}};
  d.variants = {{"first", "the default"}, {"second", "the other"}};
  ClaimSpec a{"toy.a", "", "", "", {}};
  ClaimSpec b{"toy.b", "", "", "", {}, DecidedBy::Check, [](const ParamValues&, const std::string& v) {
                return v == "second" ? "" : "is checked with --variant second";
              }};
  ClaimSpec z{"toy.z", "", "", "", {}, DecidedBy::Prove};
  d.claims = {a, b, z};
  d.sweeps = {{"k", false, "vary k", {{"step", "a step", ParamSpec::Kind::Integer, 1, 5, {}, "1"}}}};
  ConstructionActions act;
  act.check = [drop_b](const ParamValues&, const std::string&, const ClaimSelection& asked, const RunOptions&,
                       CheckReport& report) {
    for (const auto& id : asked.ids())
      if (!(drop_b && id == "toy.b")) report.claims.push_back(ClaimResult{id});
  };
  act.prove = [](const ParamValues&, const std::string&, const ClaimSelection& asked, const ProofOptions&,
                 const RunOptions&, CheckReport& report) {
    for (const auto& id : asked.ids()) report.claims.push_back(ClaimResult{id});
  };
  act.sweep = [](const ParamValues&, const std::string&, const SweepRun& run, const RunOptions&) {
    return Json{{"step", run.options.integer("step")}};
  };
  act.eval = [](const ParamValues&, const std::string&, const std::string& input, bool, long) {
    return Evaluation{input};
  };
  return Construction(std::move(d), std::move(act));
}

std::vector<std::string> ids_of(const CheckReport& r) {
  std::vector<std::string> out;
  for (const auto& c : r.claims) out.push_back(c.id);
  return out;
}

}  // namespace

TEST_CASE("construction: default claims are those the verb decides in this run, in declaration order",
          "[construction]") {
  const Construction c = toy();
  const ParamValues p = ParamValues::parse(c.params(), {});
  CHECK(ids_of(c.check(p, "first", {}, RunOptions{})) == std::vector<std::string>{"toy.a"});
  CHECK(ids_of(c.check(p, "second", {}, RunOptions{})) == std::vector<std::string>{"toy.a", "toy.b"});
  CHECK(ids_of(c.check(p, "second", {"toy.b", "toy.a"}, RunOptions{})) == std::vector<std::string>{"toy.a", "toy.b"});
  CHECK(ids_of(c.prove(p, "first", {}, ProofOptions{}, RunOptions{})) == std::vector<std::string>{"toy.z"});
  CHECK(c.variant_or_default("") == "first");
}

TEST_CASE("construction: unknown claims, claims of another verb or outside the run are refused by name",
          "[construction]") {
  const Construction c = toy();
  const ParamValues p = ParamValues::parse(c.params(), {});
  CHECK_THROWS_WITH(c.check(p, "first", {"toy.q"}, RunOptions{}), Catch::Contains("is not a claim of toy"));
  CHECK_THROWS_WITH(c.check(p, "first", {"toy.z"}, RunOptions{}),
                    Catch::Contains("is proved with `tverify prove toy`"));
  CHECK_THROWS_WITH(c.prove(p, "first", {"toy.a"}, ProofOptions{}, RunOptions{}), Catch::Contains("has no Z3 proof"));
  CHECK_THROWS_WITH(c.check(p, "first", {"toy.b"}, RunOptions{}),
                    Catch::Contains("--claim toy.b is checked with --variant second"));
  CHECK_THROWS_WITH(c.variant_or_default("third"), Catch::Contains("--variant must be one of first, second"));
  CHECK_THROWS_WITH(c.eval(p, "first", "1", false, 8), Catch::Contains("--bits"));
}

TEST_CASE("construction: a claim asked but left without a result is an internal error, not a shorter report",
          "[construction]") {
  const Construction broken = toy(true);
  const ParamValues p = ParamValues::parse(broken.params(), {});
  CHECK_NOTHROW(broken.check(p, "second", {"toy.a"}, RunOptions{}));
  CHECK_THROWS_AS(broken.check(p, "second", {}, RunOptions{}), std::logic_error);
}

TEST_CASE("construction: a sweep is found by --vary and reads its own options only", "[construction]") {
  const Construction c = toy();
  const ParamValues p = ParamValues::parse(c.params(), {});
  const std::string out = (std::filesystem::temp_directory_path() / "tverify-toy-sweep").string();
  CHECK(c.sweep(p, "first", {"k", false, out, {{"step", "4"}}}, RunOptions{})["step"] == 4);
  CHECK_THROWS_WITH(c.sweep(p, "first", {"j", false, out, {}}, RunOptions{}),
                    Catch::Contains("--vary must be one of k"));
  CHECK_THROWS_WITH(c.sweep(p, "first", {"k", true, out, {}}, RunOptions{}), Catch::Contains("with --fast"));
  CHECK_THROWS_WITH(c.sweep(p, "first", {"k", false, out, {{"size", "2"}}}, RunOptions{}),
                    Catch::Contains("--size is not an option of sweep toy --vary k (its options: --step)"));
  CHECK_THROWS_WITH(c.sweep(p, "first", {"k", false, out, {{"step", "9"}}}, RunOptions{}),
                    Catch::Contains("--step must be an integer in [1, 5]"));
  CHECK_THROWS_WITH(c.sweep(p, "first", {"k", false, "", {}}, RunOptions{}), Catch::Contains("--out must name"));
}
