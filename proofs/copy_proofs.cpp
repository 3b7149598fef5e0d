#include "proofs/copy_proofs.hpp"

#include <fmt/format.h>

namespace tverify::proofs {
namespace {

using copy::TransformerVariant;

// Exact ReLU for replays.
Exact relu_exact(const Exact& x) { return x > 0 ? x : Exact(0); }

}  // namespace

// Lemma C.3: z_i = a, z_j <= b (j != i, K - 1 of them), s = softmax(z). With E_a = exp(a), E_b = exp(b) > 0,
// e_j = exp(z_j) in (0, E_b] and S = sum_{j != i} e_j in [0, (K-1) E_b] (the termwise bounds summed; monotonicity of
// exp is the only property of exp used): s_i = E_a/(E_a + S) >= 1/(1 + K E_b/E_a) and s_j = e_j/(E_a + S) <= E_b/E_a.
// The lemma assumes |z_j| <= b; only z_j <= b enters, which is what errata E7 needs.
ProofResult prove_lemma_c3(const QueryOptions& options) {
  z3::context ctx;
  const z3::expr ea = ctx.real_const("E_a"), eb = ctx.real_const("E_b"), rest = ctx.real_const("S"),
                 ej = ctx.real_const("e_j"), k = ctx.int_const("K");
  const z3::expr kr = z3::to_real(k);
  const std::vector<z3::expr> hyps{
      ea > 0, eb > 0, k >= 1, rest >= 0, rest <= (kr - 1) * eb, z3::implies(k >= 2, ej > 0 && ej <= eb && ej <= rest)};
  const z3::expr goal = ea / (ea + rest) >= 1 / (1 + kr * eb / ea) && z3::implies(k >= 2, ej / (ea + rest) <= eb / ea);
  const QueryOutcome q = prove(ctx, options.name, hyps, goal, options);
  ProofResult r = from_outcome(
      "for all K >= 1, E_a, E_b > 0, 0 <= S <= (K-1) E_b, 0 < e_j <= min(E_b, S): "
      "E_a/(E_a+S) >= 1/(1 + K E_b/E_a) and e_j/(E_a+S) <= E_b/E_a",
      q);
  if (q.model) {
    const Exact a = model_value(*q.model, ea), b = model_value(*q.model, eb), s = model_value(*q.model, rest),
                e = model_value(*q.model, ej), kk = model_value(*q.model, kr);
    const bool hyp =
        a > 0 && b > 0 && kk >= 1 && s >= 0 && s <= (kk - 1) * b && (kk < 2 || (e > 0 && e <= b && e <= s));
    const bool goal_holds = a / (a + s) >= 1 / (1 + kk * b / a) && (kk < 2 || e / (a + s) <= b / a);
    r.replayed = hyp && !goal_holds;
    r.counterexample = fmt::format("E_a={} E_b={} S={} e_j={} K={}", exact_to_string(a), exact_to_string(b),
                                   exact_to_string(s), exact_to_string(e), exact_to_string(kk));
  }
  return r;
}

// ghat_{t,j} = relu(u - n w) - relu(-u - n w), u = e_j.g_t in [-1, 1], w = Psi(<BOS>).g_n, with the values the proof
// derives for one-hot Psi and x_1 = <BOS>: w = 1/i for i <= n (the mean of x_1..x_i holds one <BOS>), w = 1 at
// i = n + 1 (g_n = x_1), w = 0 for i > n + 1. Printed claim: ghat = 0 for i <= n, = u for i > n. Corrected
// (errata E6): ghat = 0 for i <= n + 1, = u for i > n + 1.
ProofResult prove_gadget_ghat(TransformerVariant variant, const QueryOptions& options) {
  z3::context ctx;
  const z3::expr n = ctx.int_const("n"), i = ctx.int_const("i"), u = ctx.real_const("u"), w = ctx.real_const("w");
  const z3::expr nr = z3::to_real(n), ir = z3::to_real(i);
  const std::vector<z3::expr> hyps{n >= 1,
                                   i >= 1,
                                   u >= -1,
                                   u <= 1,
                                   z3::implies(i <= n, w * ir == 1),
                                   z3::implies(i == n + 1, w == 1),
                                   z3::implies(i > n + 1, w == 0)};
  const z3::expr ghat = relu(u - nr * w) - relu(-u - nr * w);
  const z3::expr last_zero = variant == TransformerVariant::Paper ? n : n + 1;
  const z3::expr goal = z3::ite(i <= last_zero, ghat == 0, ghat == u);
  const QueryOutcome q =
      prove(ctx, options.name + (variant == TransformerVariant::Paper ? ".paper" : ".corrected"), hyps, goal, options);
  ProofResult r = from_outcome(variant == TransformerVariant::Paper
                                   ? "ghat = 0 for i <= n and = u (= e_j.Psi(x_{i-t})) for i > n (as printed)"
                                   : "ghat = 0 for i <= n + 1 and = u for i > n + 1 (corrected, E6)",
                               q);
  if (q.model) {
    const Exact nv = model_value(*q.model, nr), iv = model_value(*q.model, ir), uv = model_value(*q.model, u),
                wv = model_value(*q.model, w);
    const Exact g = relu_exact(uv - nv * wv) - relu_exact(-uv - nv * wv);
    const bool zero_expected = variant == TransformerVariant::Paper ? iv <= nv : iv <= nv + 1;
    r.replayed = zero_expected ? g != 0 : g != uv;
    r.counterexample = fmt::format("n={} i={} u={} w={}: ghat = {}, claimed {}", exact_to_string(nv),
                                   exact_to_string(iv), exact_to_string(uv), exact_to_string(wv), exact_to_string(g),
                                   zero_expected ? "0" : exact_to_string(uv));
  }
  return r;
}

// gtil_t = s relu(2c - 1), c = Psi(<BOS>).(g_t - h_1), s = 1/2 as printed, 1 corrected (errata E4). The values of c:
// 1 at i = t + 1 (g_t = x_1 = <BOS>, h_1 = x_i), 0 for i > t + 1 and at i = 1, 1/i for 1 < i <= t. Claim:
// gtil_t = 1{i = t + 1}.
ProofResult prove_gadget_gtilde(TransformerVariant variant, const QueryOptions& options) {
  z3::context ctx;
  const z3::expr t = ctx.int_const("t"), i = ctx.int_const("i"), c = ctx.real_const("c");
  const z3::expr ir = z3::to_real(i);
  const std::vector<z3::expr> hyps{t >= 1,
                                   i >= 1,
                                   z3::implies(i == t + 1, c == 1),
                                   z3::implies(i > t + 1, c == 0),
                                   z3::implies(i == 1, c == 0),
                                   z3::implies(i > 1 && i <= t, c * ir == 1)};
  const Exact scale = variant == TransformerVariant::Paper ? Exact(1, 2) : Exact(1);
  const z3::expr gtil = real_of(ctx, scale) * relu(2 * c - 1);
  const z3::expr goal = gtil == z3::ite(i == t + 1, ctx.real_val(1), ctx.real_val(0));
  const QueryOutcome q =
      prove(ctx, options.name + (variant == TransformerVariant::Paper ? ".paper" : ".corrected"), hyps, goal, options);
  ProofResult r = from_outcome(variant == TransformerVariant::Paper ? "1/2 relu(2c - 1) = 1{i = t+1} (as printed)"
                                                                    : "relu(2c - 1) = 1{i = t+1} (corrected, E4)",
                               q);
  if (q.model) {
    const Exact tv = model_value(*q.model, z3::to_real(t)), iv = model_value(*q.model, ir),
                cv = model_value(*q.model, c);
    const Exact g = scale * relu_exact(2 * cv - 1);
    r.replayed = g != (iv == tv + 1 ? Exact(1) : Exact(0));
    r.counterexample = fmt::format("t={} i={} c={}: gtilde = {}, claimed {}", exact_to_string(tv), exact_to_string(iv),
                                   exact_to_string(cv), exact_to_string(g), iv == tv + 1 ? "1" : "0");
  }
  return r;
}

// gstar_t = relu(c), c = Psi(<COPY>).g_{t-1}: 1 at i = L_C + t (g_{t-1} = x_{L_C+1} = <COPY>), 0 elsewhere (no other
// <COPY>; for i <= t - 1 the mean of tokens without <COPY>). Claim: gstar_t = 1{i = L_C + t}. With those values as
// hypotheses the goal is immediate (relu(1) = 1, relu(0) = 0): the query confirms the case analysis, nothing about
// the construction's weights. The three gadget queries take the proof's hand-derived inputs as hypotheses.
ProofResult prove_gadget_gstar(const QueryOptions& options) {
  z3::context ctx;
  const z3::expr t = ctx.int_const("t"), i = ctx.int_const("i"), lc = ctx.int_const("L_C"), c = ctx.real_const("c");
  const std::vector<z3::expr> hyps{t >= 1, i >= 1, lc >= 1, z3::implies(i == lc + t, c == 1),
                                   z3::implies(i != lc + t, c == 0)};
  const z3::expr goal = relu(c) == z3::ite(i == lc + t, ctx.real_val(1), ctx.real_val(0));
  ProofResult r = from_outcome("relu(c) = 1{i = L_C + t}, given c = 1{i = L_C + t} (the proof's derived values)",
                               prove(ctx, options.name, hyps, goal, options));
  return r;  // a model here would contradict relu(1) = 1, relu(0) = 0; none is possible
}

}  // namespace tverify::proofs

namespace tverify::proofs {
namespace {

// Layer 1 of the construction over symbolic tokens: one-hot rows as ite terms, the averaging heads of Lemma C.1
// (W_k = W_q = 0, so the softmax is uniform over the window), then the construction's own MLP weights.
class SymbolicLayer1 {
 public:
  SymbolicLayer1(z3::context& ctx, const copy::CopyTransformer& tr) : ctx_(ctx), tr_(tr) {}

  std::vector<z3::expr> one_hot(const z3::expr& token) const {
    std::vector<z3::expr> row;
    for (int k = 0; k < tr_.dim(); ++k) row.push_back(z3::ite(token == k, ctx_.real_val(1), ctx_.real_val(0)));
    return row;
  }

  // [value | key | query] at 0-based position p of the token sequence s.
  std::vector<z3::expr> outputs(const std::vector<z3::expr>& s, std::size_t p) const {
    std::vector<z3::expr> u;
    for (int t = 1; t <= tr_.config().n + 1; ++t) {
      const std::size_t window = std::min(tr_.head_window(t), p + 1);
      for (int k = 0; k < tr_.dim(); ++k) {
        z3::expr sum = ctx_.real_val(0);
        for (std::size_t q = p + 1 - window; q <= p; ++q) sum = sum + one_hot(s[q])[static_cast<std::size_t>(k)];
        u.push_back(sum / ctx_.real_val(static_cast<int>(window)));
      }
    }
    const auto& mlp = tr_.layer1_mlp();
    std::vector<z3::expr> hidden;
    for (std::size_t m = 0; m < mlp.inner.rows(); ++m) {
      z3::expr pre = real_of(ctx_, mlp.inner_bias[m].to_exact());
      for (std::size_t c = 0; c < mlp.inner.cols(); ++c)
        if (!is_zero(mlp.inner(m, c))) pre = pre + real_of(ctx_, mlp.inner(m, c).to_exact()) * u[c];
      hidden.push_back(relu(pre));
    }
    std::vector<z3::expr> out;
    for (std::size_t o = 0; o < mlp.outer.rows(); ++o) {
      z3::expr sum = ctx_.real_val(0);
      for (std::size_t m = 0; m < mlp.outer.cols(); ++m)
        if (!is_zero(mlp.outer(o, m))) sum = sum + real_of(ctx_, mlp.outer(o, m).to_exact()) * hidden[m];
      out.push_back(sum.simplify());
    }
    return out;
  }

 private:
  z3::context& ctx_;
  const copy::CopyTransformer& tr_;
};

}  // namespace

ProofResult prove_scores_symbolic(const copy::CopyTransformer& tr, copy::NgramReading reading,
                                  const QueryOptions& options) {
  const auto& cfg = tr.config();
  if (cfg.embedding != copy::EmbeddingKind::OneHot)
    throw std::invalid_argument("the symbolic score proof encodes the one-hot embedding only");
  const int D = cfg.alphabet, n = cfg.n, L = cfg.length, d = tr.dim(), w = copy::window_length(reading, n);
  const bool two_sided = cfg.variant == TransformerVariant::Paper;
  z3::context ctx;
  std::vector<z3::expr> x, hyps;
  for (int k = 1; k <= L; ++k) {
    x.push_back(ctx.int_const(("x" + std::to_string(k)).c_str()));
    hyps.push_back(x.back() >= 0 && x.back() < D);
  }
  for (int a = 0; a + w <= L; ++a)  // no repeated window of w tokens
    for (int b = a + 1; b + w <= L; ++b) {
      z3::expr differ = ctx.bool_val(false);
      for (int m = 0; m < w; ++m)
        differ = differ || x[static_cast<std::size_t>(a + m)] != x[static_cast<std::size_t>(b + m)];
      hyps.push_back(differ);
    }
  std::vector<z3::expr> s{ctx.int_val(tr.bos())};  // <BOS>, x, <COPY>, x_1..x_{L-1}
  s.insert(s.end(), x.begin(), x.end());
  s.push_back(ctx.int_val(tr.copy()));
  s.insert(s.end(), x.begin(), x.end() - 1);
  const SymbolicLayer1 layer1(ctx, tr);
  std::vector<std::vector<z3::expr>> blocks;
  for (std::size_t p = 0; p < s.size(); ++p) blocks.push_back(layer1.outputs(s, p));
  const std::size_t width = static_cast<std::size_t>(n) * static_cast<std::size_t>(d + 1);
  const std::size_t key_at = static_cast<std::size_t>(d), query_at = key_at + width;
  const z3::expr bound = ctx.real_val(n * d - 1, d);
  z3::expr goal = ctx.bool_val(true);
  const std::size_t lc = static_cast<std::size_t>(L) + 1;
  for (std::size_t i = lc + 1; i <= s.size(); ++i) {  // 1-based query positions L+2..2L+1
    for (std::size_t j = 1; j <= i; ++j) {
      z3::expr z = ctx.real_val(0);
      for (std::size_t c = 0; c < width; ++c) z = z + blocks[j - 1][key_at + c] * blocks[i - 1][query_at + c];
      if (j == i - lc + 1)
        goal = goal && z == n;
      else
        goal = goal && z < bound && (two_sided ? -z < bound : ctx.bool_val(true));
    }
  }
  const QueryOutcome q = prove(ctx,
                               fmt::format("{}.D{}-n{}-L{}.{}.{}", options.name, D, n, L,
                                           two_sided ? "paper" : "corrected", copy::to_string(reading)),
                               hyps, goal, options);
  ProofResult r = from_outcome(
      fmt::format("for every x in [{}]^{} without a repeated {}-gram ({} reading), at every query position {}..{}: "
                  "z_target = n and {} < n - 1/d (one-hot, tokens symbolic)",
                  D, L, w, copy::to_string(reading), lc + 1, s.size(), two_sided ? "|z_j|" : "z_j"),
      q);
  if (q.model) {
    copy::TokenString tokens;
    for (const auto& xk : x)
      tokens.push_back(static_cast<copy::Token>(model_value(*q.model, z3::to_real(xk)).convert_to<long>()));
    const auto violation = tr.find_score_violation(tr.layer1(tr.copy_sequence(tokens, tokens.size() - 1)), two_sided);
    r.replayed = violation.has_value() && !copy::has_repeated_window(tokens, w);
    r.counterexample = "x = " + copy::format_tokens(tokens) +
                       (violation ? fmt::format(": query position {}, key {} scores {}", violation->query,
                                                violation->key, violation->score.to_string())
                                  : std::string(": no violation on replay"));
  }
  return r;
}

}  // namespace tverify::proofs
