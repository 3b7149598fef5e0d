#include "proofs/markov_proofs.hpp"

#include <fmt/format.h>

namespace tverify::proofs {

namespace {

// A Z3 term with the arithmetic the model code needs (ADL finds relu here).
struct Sym {
  z3::expr e;
};
Sym operator+(const Sym& a, const Sym& b) { return {a.e + b.e}; }
Sym operator*(const Sym& a, const Sym& b) { return {a.e * b.e}; }
Sym relu(const Sym& a) { return {proofs::relu(a.e)}; }

struct Symbols {
  z3::context& ctx;
  std::map<std::string, z3::expr> vars;
  std::vector<z3::expr> hypotheses;

  z3::expr var(const std::string& name) {
    auto it = vars.find(name);
    if (it == vars.end()) it = vars.emplace(name, ctx.real_const(name.c_str())).first;
    return it->second;
  }
  z3::expr affine(const markov::Affine& a) {
    z3::expr out = real_of(ctx, a.constant);
    for (const auto& [name, coefficient] : a.symbols) out = out + real_of(ctx, coefficient) * var(name);
    return out;
  }
};

std::string describe_relations(markov::PointKind kind, const markov::MarkovChain& chain, const markov::Shapes& s,
                               markov::Variant variant) {
  if (kind == markov::PointKind::Pi) return "l3 real";
  if (chain.switching() <= 1) return fmt::format("s >= 0, {} s^2 = l2 - l1, l2 - l1 >= 0", s.d);
  return fmt::format("w >= 0, {} w^2 = 2 (1 - (l2 - l1)/{}), l2 - l1 < 0",
                     exact_to_string(markov::w_relation_coefficient(s, variant)), s.d);
}

}  // namespace

ProofResult prove_markov_prediction(const markov::SymbolicPoint& point, const markov::MarkovChain& chain,
                                    markov::PointKind kind, markov::Variant variant, const QueryOptions& options) {
  z3::context ctx;
  Symbols sym{ctx, {}, {}};
  const markov::Shapes& s = point.point.layout.shapes();
  std::vector<Sym> w;
  for (const auto& a : point.symbolic) w.push_back({sym.affine(a)});
  const z3::expr l1 = sym.var("l1"), l2 = sym.var("l2"), l3 = sym.var("l3");
  if (kind == markov::PointKind::Star && chain.switching() <= 1) {
    const z3::expr sv = sym.var("s");
    sym.hypotheses = {sv >= 0, ctx.real_val(s.d) * sv * sv == l2 - l1, l2 - l1 >= 0};
  } else if (kind == markov::PointKind::Star) {
    const z3::expr wv = sym.var("w");
    sym.hypotheses = {
        wv >= 0,
        real_of(ctx, markov::w_relation_coefficient(s, variant)) * wv * wv == 2 * (1 - (l2 - l1) / ctx.real_val(s.d)),
        l2 - l1 < 0};
  }
  const markov::ModelWeights<Sym> weights{s, point.point.layout, std::move(w)};
  z3::expr goal = ctx.bool_val(true);
  for (int n = 1; n <= s.N; ++n)
    for (int x = 0; x <= 1; ++x) {
      const z3::expr target = kind == markov::PointKind::Pi ? l3 : (x ? l2 : l1);
      goal = goal && markov::logit_without_attention(weights, x, n).e == target;
    }
  const std::string which = kind == markov::PointKind::Pi ? "pi" : "star";
  const QueryOutcome q =
      prove(ctx, fmt::format("{}.{}.d{}.r{}.N{}", options.name, which, s.d, s.r, s.N), sym.hypotheses, goal, options);
  ProofResult r = from_outcome(
      fmt::format("{} with W_O = 0: for every n <= {} and x_n in {{0, 1}}, logit_n = {} for all reals with "
                  "{} (l1 = log(p/(1-p)), l2 = log((1-q)/q), l3 = log(p/q))",
                  point.equation, s.N, kind == markov::PointKind::Pi ? "l3" : "(x_n ? l2 : l1)",
                  describe_relations(kind, chain, s, variant)),
      q);
  if (q.status == QueryStatus::CounterModel) r.reason = "Z3 found symbol values violating the identity (not replayed)";
  return r;
}

namespace {

struct HAlpha {
  std::vector<std::vector<z3::expr>> positions;  // p_n entries
  std::vector<z3::expr> u;                       // sum p_n / N
  std::vector<std::vector<z3::expr>> V;          // sum p_n p_n^T / N + 2 (p + q - 1) I
};

HAlpha symbolic_h_alpha(z3::context& ctx, const z3::expr& p, const z3::expr& q, int d, int N) {
  HAlpha h;
  for (int n = 0; n < N; ++n) {
    h.positions.emplace_back();
    for (int j = 0; j < d; ++j)
      h.positions.back().push_back(ctx.real_const(fmt::format("p{}_{}", n + 1, j + 1).c_str()));
  }
  const z3::expr inv_n = ctx.real_val(1) / ctx.real_val(N);
  for (int i = 0; i < d; ++i) {
    z3::expr ui = ctx.real_val(0);
    for (int n = 0; n < N; ++n) ui = ui + h.positions[n][i];
    h.u.push_back(ui * inv_n);
    h.V.emplace_back();
    for (int j = 0; j < d; ++j) {
      z3::expr v = ctx.real_val(0);
      for (int n = 0; n < N; ++n) v = v + h.positions[n][i] * h.positions[n][j];
      h.V.back().push_back(v * inv_n + (i == j ? 2 * (p + q - 1) : ctx.real_val(0)));
    }
  }
  return h;
}

}  // namespace

ProofResult prove_markov_schur(int d, int N, const QueryOptions& options) {
  z3::context ctx;
  const z3::expr p = ctx.real_const("p"), q = ctx.real_const("q");
  const HAlpha h = symbolic_h_alpha(ctx, p, q, d, N);
  z3::expr goal = ctx.bool_val(true);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      z3::expr cov = ctx.real_val(0);
      for (int n = 0; n < N; ++n) cov = cov + (h.positions[n][i] - h.u[i]) * (h.positions[n][j] - h.u[j]);
      const z3::expr rhs = (i == j ? 2 * (p + q - 1) : ctx.real_val(0)) + cov / ctx.real_val(N);
      goal = goal && h.V[i][j] - h.u[i] * h.u[j] == rhs;
    }
  const QueryOutcome r = prove(ctx, fmt::format("{}.d{}.N{}", options.name, d, N), {}, goal, options);
  return from_outcome(
      fmt::format("for all reals p, q and p_1..p_{} in R^{}: V - u u^T = 2(p+q-1) I + Cov({{p_n}}) (eq. 12)", N, d), r);
}

ProofResult prove_markov_h_alpha_pd(int d, int N, const QueryOptions& options) {
  z3::context ctx;
  const z3::expr p = ctx.real_const("p"), q = ctx.real_const("q");
  const HAlpha h = symbolic_h_alpha(ctx, p, q, d, N);
  // v^T [[1, u^T], [u, V]] v for v = (v0, v1..vd); the factor pi0 pi1 > 0 does not change the sign.
  const z3::expr v0 = ctx.real_const("v0");
  std::vector<z3::expr> v;
  z3::expr nonzero = v0 != 0;
  for (int i = 0; i < d; ++i) {
    v.push_back(ctx.real_const(fmt::format("v{}", i + 1).c_str()));
    nonzero = nonzero || v.back() != 0;
  }
  z3::expr form = v0 * v0;
  for (int i = 0; i < d; ++i) {
    form = form + 2 * v0 * h.u[i] * v[i];
    for (int j = 0; j < d; ++j) form = form + v[i] * h.V[i][j] * v[j];
  }
  // clang-format 14 reads "p < 1, q > 0" as template arguments
  // clang-format off
  const std::vector<z3::expr> hyps{p > 0, p < 1, q > 0, q < 1, p + q > 1, nonzero};
  // clang-format on
  const QueryOutcome r = prove(ctx, fmt::format("{}.d{}.N{}", options.name, d, N), hyps, form > 0, options);
  return from_outcome(fmt::format("for all p, q in (0,1) with p + q > 1, all p_1..p_{} in R^{} and all v != 0 in "
                                  "R^{}: v^T [[1, u^T], [u, V]] v > 0 (eq. 12 without the factor pi0 pi1 > 0)",
                                  N, d, d + 1),
                      r);
}

}  // namespace tverify::proofs
