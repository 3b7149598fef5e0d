// Lemmas 1 and 2 of Appendix B at the printed points and at seeded random points.
#include "checkers/markov/markov_claims.hpp"

#include <fmt/format.h>

namespace tverify::markov {

std::string max_width(const std::vector<Real>& values) {
  Exact widest = 0;
  for (const auto& v : values) widest = std::max(widest, v.width());
  return fmt::format("{:.3g}", widest.convert_to<double>());
}

Json proof_json(const proofs::ProofResult& p) {
  const char* status = p.status == proofs::QueryStatus::Proved         ? "proved"
                       : p.status == proofs::QueryStatus::CounterModel ? "counter-model"
                                                                       : "unknown";
  Json out{{"statement", p.statement}, {"status", status}, {"seconds", fmt::format("{:.2f}", p.seconds)}};
  if (!p.reason.empty()) out["reason"] = p.reason;
  if (!p.smt2_path.empty()) out["smt2"] = p.smt2_path;
  return out;
}

std::vector<std::pair<std::string, Point>> lemma_points(const MarkovSetup& setup) {
  std::vector<std::pair<std::string, Point>> points;
  points.emplace_back("theta_star",
                      make_point(PointKind::Star, setup.chain, setup.shapes, setup.arbitrary, setup.variant).point);
  points.emplace_back("theta_pi", make_point(PointKind::Pi, setup.chain, setup.shapes, setup.arbitrary).point);
  for (int i = 0; i < setup.samples; ++i)
    points.emplace_back(fmt::format("random_{}", i + 1), random_point(setup.shapes, setup.arbitrary.seed + 1000 + i));
  if (setup.user_point) points.emplace_back("point_file", *setup.user_point);
  return points;
}

namespace {

// -k lf - (1-k) lg = [k (lk - lf) + (1-k)(lk1 - lg)] + [-k lk - (1-k) lk1]: eq. (4) term by term, logs as symbols.
proofs::ProofResult prove_kl_identity(const proofs::QueryOptions& options) {
  z3::context ctx;
  const z3::expr k = ctx.real_const("k"), lf = ctx.real_const("log_f"), lg = ctx.real_const("log_1mf"),
                 lk = ctx.real_const("log_k"), lk1 = ctx.real_const("log_1mk");
  const z3::expr cross_entropy = -k * lf - (1 - k) * lg;
  const z3::expr kl = k * (lk - lf) + (1 - k) * (lk1 - lg);
  const z3::expr entropy = -k * lk - (1 - k) * lk1;
  const auto q = proofs::prove(ctx, options.name + ".term", {k > 0, k < 1}, cross_entropy == kl + entropy, options);
  return proofs::from_outcome(
      "for all k in (0,1) and reals log f, log(1-f), log k, log(1-k): -k log f - (1-k) log(1-f) "
      "= KL(k || f) + h(k) with log(a/b) = log a - log b",
      q);
}

// P(x_n = 1) = pi_1 exactly for every n <= N (the chain starts stationary).
bool marginals_stationary(const MarkovChain& chain, int N) {
  for (int n = 1; n <= N; ++n) {
    Exact ones = 0;
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << n); ++bits)
      if (bit(bits, n - 1)) ones += chain.prefix_probability(bits, n);
    if (ones != chain.pi1()) return false;
  }
  return true;
}

}  // namespace

ClaimResult check_lemma1(const MarkovSetup& setup) {
  ClaimResult r = result_for(markov_claim_specs().lemma1);
  const auto proof = prove_kl_identity(setup.proof_options.named(r.id));
  r.details["term_identity"] = proof_json(proof);
  const bool stationary = marginals_stationary(setup.chain, setup.shapes.N);
  r.details["marginals_stationary"] = stationary;
  Json points = Json::array();
  for (const auto& [name, point] : lemma_points(setup)) {
    const Real loss = population_loss(setup.chain, point, setup.threads);
    const Real kl_form = kl_form_of_loss(setup.chain, point);
    ++r.checked;
    const bool ok = !disjoint(loss, kl_form);
    ok ? ++r.passed : ++r.failed;
    points.push_back({{"point", name}, {"loss", loss.to_string()}, {"kl_plus_entropy_rate", kl_form.to_string()}});
    if (!ok)
      r.counterexamples.push_back({Json(name), Json(kl_form.to_string()), Json(loss.to_string()),
                                   "certified: L(theta) differs from eq. (4)'s right-hand side"});
  }
  r.details["points"] = points;
  if (!stationary) ++r.failed;
  r.set_verdict_from_counts();
  if (r.verdict == Verdict::Verified && proof.status != proofs::QueryStatus::Proved) {
    r.verdict = Verdict::Unknown;
    r.reason = "Z3 did not prove the term identity: " + proof.reason;
  }
  r.summary = fmt::format("{} points, enclosures intersect; identity {}", r.checked,
                          proof.status == proofs::QueryStatus::Proved ? "proved" : "not proved");
  return r;
}

ClaimResult check_lemma2(const MarkovSetup& setup) {
  ClaimResult r = result_for(markov_claim_specs().lemma2);
  Json points = Json::array();
  for (const auto& [name, point] : lemma_points(setup)) {
    const Derivatives autodiff = loss_derivatives(setup.chain, point, false, setup.threads);
    const std::vector<Real> formula = lemma2_gradient(setup.chain, point);
    for (int i = 0; i < point.layout.size(); ++i) {
      ++r.checked;
      if (!disjoint(autodiff.gradient[i], formula[i])) {
        ++r.passed;
        continue;
      }
      ++r.failed;
      if (r.counterexamples.size() < 10)
        r.counterexamples.push_back({Json{{"point", name}, {"parameter", point.layout.entry_name(i)}},
                                     Json(formula[i].to_string()), Json(autodiff.gradient[i].to_string()),
                                     "eq. (5) and the autodiff gradient of eq. (3) are certified different"});
    }
    points.push_back(
        {{"point", name}, {"max_width_autodiff", max_width(autodiff.gradient)}, {"max_width_eq5", max_width(formula)}});
  }
  r.details["points"] = points;
  r.set_verdict_from_counts();
  if (r.verdict == Verdict::Verified) {
    r.verdict = Verdict::Unknown;
    r.reason =
        "every component's enclosures intersect (consistent); interval arithmetic cannot decide that two reals "
        "are equal";
  }
  r.summary = fmt::format("{} components at {} points, {} certified different", r.checked, points.size(), r.failed);
  return r;
}

}  // namespace tverify::markov
