#include "cli/print.hpp"

#include <fmt/format.h>

namespace tverify::cli {
namespace {

std::string params_line(const Json& params) {
  std::string out;
  for (const auto& [k, v] : params.items())
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", k, v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

std::string format_claim(const ClaimResult& c) {
  const std::string name = c.reading.empty() ? c.id : c.id + " (" + c.reading + ")";
  std::string out = fmt::format("  {:<26} {:<9} checked {}, passed {}, failed {}, unknown {}{}\n", name,
                                to_string(c.verdict), c.checked, c.passed, c.failed, c.unknown,
                                c.verdict == Verdict::Vacuous
                                    ? fmt::format("  [{} outside the claim's hypotheses]", finding_text(*c.finding))
                                    : "");
  if (!c.counterexamples.empty()) {
    const auto& x = c.counterexamples.front();
    out += fmt::format("      smallest counterexample: input {} expected {} got {}: {}\n", x.input.dump(),
                       x.expected.dump(), x.got.dump(), x.detail);
  }
  if (!c.summary.empty()) out += "      " + c.summary + "\n";
  if (!c.reason.empty()) out += "      " + c.reason + "\n";
  return out;
}

// After a check of every claim: the claims only `prove` decides, which the check left out, and the command that
// decides them.
std::string left_to_prove(const CheckReport& r) {
  if (r.verb != "check" || (r.options.contains("requested_claims") && !r.options["requested_claims"].empty()))
    return "";
  std::string ids;
  for (const auto& claim : find_construction(r.construction).claims())
    if (!claim.checked_by_check()) ids += (ids.empty() ? "" : ", ") + claim.id;
  if (ids.empty()) return "";
  return fmt::format("not checked here, decided by Z3 with `tverify prove {}`: {}\n", r.construction, ids);
}

}  // namespace

std::string format_report(const CheckReport& r) {
  std::string out = fmt::format("{} (variant {}): {}; {} arithmetic; {} inputs ({})\n", r.construction, r.variant,
                                params_line(r.params), r.arithmetic, r.domain_inputs, r.domain_description);
  int verified = 0, refuted = 0, unknown = 0, vacuous = 0;
  for (const auto& c : r.claims) {
    out += format_claim(c);
    (c.verdict == Verdict::Verified  ? verified
     : c.verdict == Verdict::Refuted ? refuted
     : c.verdict == Verdict::Vacuous ? vacuous
                                     : unknown)++;
  }
  out += fmt::format("{} verified, {} refuted, {} unknown{} ({:.2f} s)\n", verified, refuted, unknown,
                     vacuous ? fmt::format(", {} vacuous", vacuous) : "", r.elapsed_s);
  return out + left_to_prove(r);
}

std::string format_construction_list() {
  std::string out = "constructions (tverify list NAME for parameters and claims):\n";
  for (const auto& c : all_constructions()) {
    std::string ids;
    for (const auto& claim : c->claims()) ids += (ids.empty() ? "" : ", ") + claim.id;
    out += fmt::format("  {:<8} {}\n           claims: {}\n", c->name(), c->paper(), ids);
  }
  return out;
}

std::string format_construction(const Construction& c) {
  std::string out = fmt::format("{}: {}\nparameters:\n", c.name(), c.paper());
  for (const auto& p : c.params()) {
    const std::string said = p.range_and_default();
    out += fmt::format("  --{:<10} {}{}\n", p.name, p.help, said.empty() ? "" : " (" + said + ")");
  }
  out += "variants:\n";
  for (const auto& v : c.variants()) out += fmt::format("  {:<17} {}\n", v.name, v.help);
  out += fmt::format("(default {})\nclaims:\n", c.variants().front().name);
  for (const auto& claim : c.claims())
    out += fmt::format("  {}  [{}]\n    paper:   {}\n    checked: {}\n", claim.id, claim.section, claim.statement,
                       claim.checked);
  return out;
}

}  // namespace tverify::cli
