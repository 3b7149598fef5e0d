// Verdicts of claims and the record of one check run (docs/conventions.md).
#pragma once

#include "io/json.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tverify {

// Vacuous: the instance lies outside the claim's hypotheses, so the claim asserts nothing about it; the counts and
// counterexamples still say what the check found there. It counts as neither verified nor refuted.
enum class Verdict { Verified, Refuted, Unknown, Vacuous };

const char* to_string(Verdict v);
Verdict verdict_from_string(const std::string& s);  // throws std::invalid_argument

struct Counterexample {
  Json input;
  Json expected;
  Json got;
  std::string detail;
};

struct ClaimResult {
  std::string id;
  std::string statement;
  std::string reading;  // which reading of an ambiguous definition, empty when there is one
  Verdict verdict = Verdict::Unknown;
  std::uint64_t checked = 0, passed = 0, failed = 0, unknown = 0;
  bool outside_hypotheses = false;
  std::optional<Verdict> finding;  // for a vacuous claim: the verdict its counts gave (verified, refuted, unknown)
  std::vector<Counterexample> counterexamples;  // smallest first
  Json details = Json::object();                // claim-specific exact numbers
  std::string summary;                          // one line of exact key numbers, for tables ("p = 1/2 < 4")
  std::string reason;                           // why the verdict is `unknown`, or why hypotheses are not met

  // refuted if anything failed, else unknown if anything was undecided, else verified.
  void set_verdict_from_counts();
};

struct CheckReport {
  std::string verb = "check";  // "check" (enumeration) or "prove" (Z3)
  std::string construction;
  std::string variant;
  Json params = Json::object();
  Json options = Json::object();  // options that change results (readings, counterexample limit)
  std::string arithmetic;
  std::string domain_description;
  std::uint64_t domain_inputs = 0;
  std::vector<ClaimResult> claims;
  double elapsed_s = 0;
};

// Every claim instance outside its claim's hypotheses becomes vacuous; its verdict until then is kept as `finding`.
void mark_vacuous_outside_hypotheses(std::vector<ClaimResult>& claims);
// How a vacuous claim's finding reads: "holds", "fails" or "undecided" (outside the claim's hypotheses).
const char* finding_text(Verdict finding);

// 0 all verified (vacuous ones aside), 1 something refuted, 3 unknown and nothing refuted (docs/conventions.md).
int exit_code_for(const std::vector<ClaimResult>& claims);

}  // namespace tverify
