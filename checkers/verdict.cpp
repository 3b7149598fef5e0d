#include "checkers/verdict.hpp"

#include <stdexcept>
#include <utility>

namespace tverify {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Verified: return "verified";
    case Verdict::Refuted: return "refuted";
    case Verdict::Vacuous: return "vacuous";
    default: return "unknown";
  }
}

Verdict verdict_from_string(const std::string& s) {
  if (s == "verified") return Verdict::Verified;
  if (s == "refuted") return Verdict::Refuted;
  if (s == "unknown") return Verdict::Unknown;
  if (s == "vacuous") return Verdict::Vacuous;
  throw std::invalid_argument("not a verdict: '" + s + "'");
}

void ClaimResult::set_verdict_from_counts() {
  if (failed > 0)
    verdict = Verdict::Refuted;
  else if (unknown > 0 || checked == 0)
    verdict = Verdict::Unknown;
  else
    verdict = Verdict::Verified;
}

void mark_vacuous_outside_hypotheses(std::vector<ClaimResult>& claims) {
  for (auto& c : claims)
    if (c.outside_hypotheses && c.verdict != Verdict::Vacuous) c.finding = std::exchange(c.verdict, Verdict::Vacuous);
}

const char* finding_text(Verdict finding) {
  switch (finding) {
    case Verdict::Verified: return "holds";
    case Verdict::Refuted: return "fails";
    default: return "undecided";
  }
}

int exit_code_for(const std::vector<ClaimResult>& claims) {
  bool unknown = false;
  for (const auto& c : claims) {
    if (c.verdict == Verdict::Refuted) return 1;
    if (c.verdict == Verdict::Unknown) unknown = true;
  }
  return unknown ? 3 : 0;
}

}  // namespace tverify
