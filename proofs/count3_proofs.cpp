#include "proofs/count3_proofs.hpp"

#include "constructions/count3/gadget.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tverify::proofs {

ProofResult prove_lemma_a6(const GadgetConstants& constants, const QueryOptions& options) {
  z3::context ctx;
  const z3::expr n = ctx.int_const("n"), a = ctx.int_const("a"), b = ctx.int_const("b");
  const z3::expr eps = ctx.real_const("eps"), M = ctx.real_const("M");
  const z3::expr ar = z3::to_real(a), br = z3::to_real(b), nr = z3::to_real(n);
  const std::vector<z3::expr> hyps{n >= 1,
                                   a >= 0,
                                   a <= 2 * n - 1,
                                   b >= 1,
                                   b <= n,
                                   eps > 0,
                                   constants.eps_may_be_one ? eps <= 1 : eps < 1,
                                   M * eps >= real_of(ctx, constants.m_factor) * nr};
  const z3::expr gadget = relu(ar - M * relu(ar - br + eps)) + relu(ar - br);
  const z3::expr goal = gadget == z3::ite(a < b, ar, ar - br);
  const std::string bounds = fmt::format("0 < eps {} 1 and M eps >= {} n", constants.eps_may_be_one ? "<=" : "<",
                                         exact_to_string(constants.m_factor));
  std::string factor = exact_to_string(constants.m_factor);
  std::replace(factor.begin(), factor.end(), '/', '_');
  const std::string name =
      fmt::format("{}.eps_{}.m_{}", options.name, constants.eps_may_be_one ? "le1" : "lt1", factor);
  QueryOptions reparsed = options;    // built through the API, the tight query stalls Z3 (nonlinear search order);
  reparsed.solve_dumped_text = true;  // its SMT-LIB2 text, as dumped, is decided at once
  const QueryOutcome q = prove(ctx, name, hyps, goal, reparsed);
  ProofResult r = from_outcome("for all integers n >= 1, 0 <= a <= 2n-1, 1 <= b <= n and reals " + bounds +
                                   ": ReLU(a - M ReLU(a - b + eps)) + ReLU(a - b) = g(a, b)",
                               q);
  if (q.model) {
    const Exact av = model_value(*q.model, ar), bv = model_value(*q.model, br), ev = model_value(*q.model, eps),
                mv = model_value(*q.model, M);
    const Exact got = count3::g_relu(av, bv, ev, mv), want = count3::g_reference(av, bv);
    r.replayed = got != want;
    r.counterexample =
        fmt::format("a={} b={} eps={} M={}: gadget {} != g {}", exact_to_string(av), exact_to_string(bv),
                    exact_to_string(ev), exact_to_string(mv), exact_to_string(got), exact_to_string(want));
  }
  return r;
}

std::vector<z3::expr> FreeExpPolicy::softmax(const std::vector<z3::expr>& z) {
  std::vector<z3::expr> e;
  for (const auto& zj : z) {
    const z3::expr exponent = (zj - z.front()).simplify();
    std::string text;
    if (exponent.is_numeral(text) && parse_exact(text) == 0) {
      e.push_back(ctx.real_val(1));
      continue;
    }
    auto it = exponentials.find(exponent.id());
    if (it == exponentials.end()) {
      const z3::expr var = ctx.real_const(fmt::format("E{}", exponentials.size()).c_str());
      hypotheses.push_back(var > 0);
      exponents.push_back(exponent);
      it = exponentials.emplace(exponent.id(), var).first;
    }
    e.push_back(it->second);
  }
  z3::expr total = e.front();
  for (std::size_t j = 1; j < e.size(); ++j) total = total + e[j];
  std::vector<z3::expr> weights;
  for (const auto& ej : e) weights.push_back(ej / total);
  return weights;
}

QueryOutcome prove_equal_vectors(FreeExpPolicy& policy, const std::string& name, const std::vector<z3::expr>& lhs,
                                 const std::vector<z3::expr>& rhs, const QueryOptions& options) {
  z3::expr goal = policy.ctx.bool_val(true);
  for (std::size_t c = 0; c < lhs.size(); ++c) goal = goal && lhs[c] == rhs[c];
  return prove(policy.ctx, name, policy.hypotheses, goal, options);
}

}  // namespace tverify::proofs
