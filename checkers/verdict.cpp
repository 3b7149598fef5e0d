#include "checkers/verdict.hpp"

#include <stdexcept>

namespace tverify {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Verified: return "verified";
    case Verdict::Refuted: return "refuted";
    default: return "unknown";
  }
}

Verdict verdict_from_string(const std::string& s) {
  if (s == "verified") return Verdict::Verified;
  if (s == "refuted") return Verdict::Refuted;
  if (s == "unknown") return Verdict::Unknown;
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

int exit_code_for(const std::vector<ClaimResult>& claims) {
  bool unknown = false;
  for (const auto& c : claims) {
    if (c.verdict == Verdict::Refuted) return 1;
    if (c.verdict == Verdict::Unknown) unknown = true;
  }
  return unknown ? 3 : 0;
}

}  // namespace tverify
