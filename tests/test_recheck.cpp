// checkers/recheck: a certificate read as the command it records, re-run in process and compared field by field.
#include "commands/recheck.hpp"
#include "checkers/registry.hpp"

#include <catch2/catch.hpp>

using namespace tverify;

namespace {

// A fresh certificate of `check copy --D 2 --n 1 --L 3 --claim copy.alg1`: 8 strings, run line by line.
Json copy_certificate() {
  const Construction& copy = find_construction("copy");
  const ParamValues params = ParamValues::parse(copy.params(), {{"D", "2"}, {"n", "1"}, {"L", "3"}});
  CheckReport report = copy.check(params, "paper", {"copy.alg1"}, RunOptions{});
  report.options["requested_claims"] = std::vector<std::string>{"copy.alg1"};
  return certificate_json(report, "tverify check copy --D 2 --n 1 --L 3 --claim copy.alg1");
}

}  // namespace

TEST_CASE("recheck: a fresh certificate reproduces, with the claims it asked for", "[recheck]") {
  const Json cert = copy_certificate();
  CHECK(requested_claims_of(cert) == std::vector<std::string>{"copy.alg1"});
  const RecheckResult result = recheck_certificate(cert, "c.json", RunOptions{});
  CHECK(result.differences.empty());
  CHECK(result.claim_results == cert["claims"].size());
}

TEST_CASE("recheck: a changed count, parameter or deleted claim is named", "[recheck]") {
  Json forged = copy_certificate();
  forged["claims"][0]["passed"] = forged["claims"][0]["passed"].get<std::uint64_t>() + 1;
  const auto counted = recheck_certificate(forged, "c.json", RunOptions{}).differences;
  REQUIRE(counted.size() == 1);
  CHECK(counted.front().field.find("copy.alg1") != std::string::npos);
  CHECK(counted.front().field.find("passed") != std::string::npos);

  Json dropped = copy_certificate();
  dropped["claims"].erase(dropped["claims"].begin());
  CHECK_FALSE(recheck_certificate(dropped, "c.json", RunOptions{}).differences.empty());
}

TEST_CASE("recheck: a certificate no command could produce is a usage error naming it", "[recheck]") {
  Json unknown = copy_certificate();
  unknown["construction"] = "nope";
  CHECK_THROWS_WITH(certificate_command(unknown, "u.json"),
                    Catch::Contains("certificate 'u.json'") && Catch::Contains("does not exist"));
  Json out_of_range = copy_certificate();
  out_of_range["params"]["D"] = 1000;
  CHECK_THROWS_WITH(certificate_command(out_of_range, "r.json"), Catch::Contains("--D must be an integer in [1, 64]"));
  Json bad_claim = copy_certificate();
  bad_claim["options"]["requested_claims"] = std::vector<std::string>{"copy.nope"};
  CHECK_THROWS_WITH(certificate_command(bad_claim, "b.json"), Catch::Contains("is not a claim of copy"));
  Json bad_variant = copy_certificate();
  bad_variant["variant"] = "key_delay";
  CHECK_THROWS_WITH(certificate_command(bad_variant, "v.json"), Catch::Contains("--variant must be one of paper"));
}

TEST_CASE("recheck: requested claims are read once each, or from the claims held", "[recheck]") {
  Json cert = copy_certificate();
  cert["options"]["requested_claims"] = std::vector<std::string>{"copy.alg1", "copy.alg1"};
  CHECK(requested_claims_of(cert) == std::vector<std::string>{"copy.alg1"});
  cert["options"].erase("requested_claims");
  CHECK(requested_claims_of(cert) == std::vector<std::string>{"copy.alg1"});
}
