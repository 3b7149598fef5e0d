// recheck against edited certificates: a corpus of forgeries, each an edit a person could make by hand to a genuine
// certificate, and each of which must be named as a difference (or refused as unreadable). The genuine certificate
// comes from the command it records; the edits follow docs/certificate.md's fields.
#include "checkers/certificate.hpp"
#include "io/files.hpp"
#include "commands/recheck.hpp"
#include "checkers/registry.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>

#include <unistd.h>

using namespace tverify;

namespace {

// `tverify check copy --D 2 --n 2 --L 4 --claim copy.alg1 --claim copy.lemma_c1`: Algorithm 1 as printed is refuted
// there under both readings of Definition 2.2 (errata E1: the key loop starts at n + 2), Lemma C.1 verified.
const std::string command = "tverify check copy --D 2 --n 2 --L 4 --claim copy.alg1 --claim copy.lemma_c1";

const Json& genuine() {
  static const Json cert = [] {
    const Construction& copy = find_construction("copy");
    const ParamValues params = ParamValues::parse(copy.params(), {{"D", "2"}, {"n", "2"}, {"L", "4"}});
    return certificate_json(copy.check(params, "paper", {"copy.alg1", "copy.lemma_c1"}, RunOptions{}), command);
  }();
  return cert;
}

std::vector<CertificateDifference> differences_of(const Json& cert) {
  return recheck_certificate(cert, "forged.json", RunOptions{}).differences;
}

bool names_field(const std::vector<CertificateDifference>& differences, const std::string& field) {
  return std::any_of(differences.begin(), differences.end(),
                     [&](const CertificateDifference& d) { return d.field.find(field) != std::string::npos; });
}

// The first claim result of `id` (copy.alg1 has one per reading; the first is the text reading's).
Json::iterator claim_named(Json& cert, const std::string& id) {
  auto& claims = cert["claims"];
  return std::find_if(claims.begin(), claims.end(), [&](const Json& c) { return c["id"] == id; });
}

void drop_refuted(Json& cert) {
  auto& claims = cert["claims"];
  claims.erase(std::remove_if(claims.begin(), claims.end(), [](const Json& c) { return c["verdict"] == "refuted"; }),
               claims.end());
}

// The genuine certificate with `edit` applied.
Json forged(const std::function<void(Json&)>& edit) {
  Json cert = genuine();
  edit(cert);
  return cert;
}

}  // namespace

TEST_CASE("recheck forgeries: the genuine certificate reproduces, and holds what the corpus edits", "[recheck]") {
  const Json& cert = genuine();
  REQUIRE(cert["claims"].size() == 3);  // copy.alg1 under the text and formula readings, copy.lemma_c1
  REQUIRE(cert["claims"][0]["verdict"] == "refuted");
  REQUIRE(cert["claims"][0]["counterexamples"].size() >= 2);
  REQUIRE(cert["claims"][2]["verdict"] == "verified");
  CHECK(differences_of(cert).empty());
}

TEST_CASE("recheck forgeries: a deleted claim is caught whatever the options say", "[recheck]") {
  // The refuted claims deleted, and the record of the requested claims dropped.
  const Json dropped = forged([](Json& c) {
    drop_refuted(c);
    c["options"].erase("requested_claims");
  });
  const auto differences_dropped = differences_of(dropped);
  CHECK(names_field(differences_dropped, "claims: copy.alg1 (text)"));
  CHECK(names_field(differences_dropped, "claims: copy.alg1 (formula)"));
  // ... or rewritten to the surviving claim.
  const Json rewritten = forged([](Json& c) {
    drop_refuted(c);
    c["options"]["requested_claims"] = Json::array({"copy.lemma_c1"});
  });
  const auto differences = differences_of(rewritten);
  CHECK(names_field(differences, "claims: copy.alg1"));
  CHECK(names_field(differences, "options.requested_claims"));
}

TEST_CASE("recheck forgeries: counterexamples trimmed with their limit are caught", "[recheck]") {
  const Json trimmed = forged([](Json& c) {
    auto& counterexamples = (*claim_named(c, "copy.alg1"))["counterexamples"];
    counterexamples.erase(counterexamples.begin() + 1, counterexamples.end());
    c["options"]["max_counterexamples"] = 1;
  });
  const auto differences = differences_of(trimmed);
  CHECK(names_field(differences, "options.max_counterexamples"));
  CHECK(names_field(differences, "counterexamples"));
}

TEST_CASE("recheck forgeries: a command that is no command of the certificate is a difference", "[recheck]") {
  const std::vector<std::string> commands{
      command + "; touch PWNED",                            // shell text appended
      command + " && rm -rf ~",                             // more shell text, as separate words
      "tverify check count3 --n 3",                         // another construction
      "tverify prove copy --D 2 --n 2 --L 4",               // another verb
      "",                                                   // nothing
      "tverify check copy --D 2 --n 2 --L 4 '",             // an unclosed quote
      command + " --bogus 1",                               // an option no command has
      command + " --threads 0",                             // a value out of its range
      command + " --D 3",                                   // a parameter given twice
      "tverify check copy " + std::string(5'000'000, 'x'),  // 5 MB
  };
  for (const auto& line : commands) {
    INFO(line.substr(0, 80));
    const auto differences = differences_of(forged([&](Json& c) { c["command"] = line; }));
    CHECK(names_field(differences, "command"));
    for (const auto& d : differences) CHECK(d.stored.size() <= 120);
  }
  // A command that asks for fewer counterexamples than the certificate keeps is one that did not make it.
  const auto fewer = differences_of(forged([](Json& c) { c["command"] = command + " --max-counterexamples 1"; }));
  CHECK(names_field(fewer, "counterexamples"));
  // A command with every claim (no --claim) against a certificate of two.
  const auto all_claims =
      differences_of(forged([](Json& c) { c["command"] = "tverify check copy --D 2 --n 2 --L 4"; }));
  CHECK(names_field(all_claims, "options.requested_claims"));
}

TEST_CASE("recheck forgeries: stored parameters and variant are held against the command", "[recheck]") {
  CHECK(names_field(differences_of(forged([](Json& c) { c["params"]["L"] = 5; })), "params.L"));
  CHECK(names_field(differences_of(forged([](Json& c) { c["variant"] = "corrected"; })), "variant"));
  const auto verdict = differences_of(forged([](Json& c) { (*claim_named(c, "copy.alg1"))["verdict"] = "verified"; }));
  CHECK(names_field(verdict, "claims: copy.alg1 (text).verdict"));
}

TEST_CASE("recheck forgeries: a key given twice in one object is refused when the file is read", "[recheck][files]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-forgeries-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string text = genuine().dump();
  const std::string verdict = "\"verdict\":\"refuted\"";
  const auto at = text.find(verdict);
  REQUIRE(at != std::string::npos);
  text.replace(at, verdict.size(), "\"verdict\":\"verified\",\"verdict\":\"refuted\"");
  const auto path = (dir / "duplicate.json").string();
  write_file_atomically(path, text);
  CHECK_THROWS_WITH(load_certificate(path), Catch::Contains("gives the key 'verdict' twice in one object"));
  // The same key in two different objects is no repeat.
  CHECK_NOTHROW(parse_json_text(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]})", "t"));
  CHECK_THROWS_WITH(parse_json_text(R"({"a": [{"k": 1, "k": 2}]})", "t"), Catch::Contains("'k' twice"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("recheck forgeries: a claim set changed between commits is named as such, not as a forgery", "[recheck]") {
  const Json older = forged([](Json& c) {
    c["commit"] = "0000000";
    c["claims"].erase(claim_named(c, "copy.lemma_c1"));
  });
  const auto differences = differences_of(older);
  CHECK(names_field(differences, "the claim set changed since commit 0000000"));
}
