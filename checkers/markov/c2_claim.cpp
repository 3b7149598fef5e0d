// Appendix C.2: the learned-parameter formula (26) and the printed numbers (27)-(29).
#include "checkers/markov/markov_claims.hpp"

#include <fmt/format.h>

namespace tverify::markov {

namespace {

// The printed averages of eq. (27) and the sizes of C.2 (d = 4, r = 4d = 16).
struct C2Values {
  Exact e = parse_exact("0.3618"), p = parse_exact("-0.1539"), w1 = parse_exact("0.3264"), b = parse_exact("-0.1229");
  int beta = 5, d = 4, r = 16;
};

// eq. (26): logit_n = e d (e x_n + p)(1 + w1^2 d ((2 beta - r) x_n + r - beta)) + b.
Exact eq26(const C2Values& c, int x) {
  return c.e * c.d * (c.e * x + c.p) * (1 + c.w1 * c.w1 * c.d * ((2 * c.beta - c.r) * x + c.r - c.beta)) + c.b;
}

// The transformer with the structure of eqs. (14)-(19): e = e v, p_n = p v, W_1 = w1 w v^T, W_2 = W_1^T, a = e,
// W_O = 0 (approximation (17)); v in {-1,1}^d and w in {-1,1}^r with beta entries +1 (any choice; one is fixed here).
Exact model_logit(const C2Values& c, int x) {
  const std::vector<int> v{1, -1, 1, 1};
  std::vector<int> w(c.r, -1);
  for (int i = 0; i < c.beta; ++i) w[2 * i + 1] = 1;
  const Layout layout(Shapes{c.d, 1, c.r, 1, true});
  std::vector<Exact> values(layout.size(), Exact(0));
  for (int j = 0; j < c.d; ++j) {
    values[layout.index("e", 0, j)] = c.e * v[j];
    values[layout.index("p", 0, j)] = c.p * v[j];
    for (int i = 0; i < c.r; ++i) {
      values[layout.index("W_1", i, j)] = c.w1 * w[i] * v[j];
      values[layout.index("W_2", j, i)] = c.w1 * w[i] * v[j];
    }
  }
  values[layout.index("b")] = c.b;
  const ModelWeights<Exact> weights{layout.shapes(), layout, values};
  return logit_without_attention(weights, x, 1);
}

// Whether x rounds to the printed decimal: True / False when the enclosure decides it, Unknown otherwise.
Tri rounds_to(const Exact& lo, const Exact& hi, const std::string& printed) {
  const auto dot = printed.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
  const Exact half = Exact(1, 2) / Exact(big_pow(10, static_cast<unsigned long>(decimals)));
  const Exact target = parse_exact(printed);
  if (lo >= target - half && hi < target + half) return Tri::True;
  if (hi < target - half || lo >= target + half) return Tri::False;
  return Tri::Unknown;
}

}  // namespace

ClaimResult check_c2() {
  ClaimResult r = result_for(markov_claim_specs().c2);
  const C2Values c;
  const std::string printed_logit[2] = {"-1.3897", "0.8191"}, printed_f[2] = {"0.199", "0.694"};
  const std::string theory[2] = {"p = 0.2", "1 - q = 0.7"};
  Json rows = Json::array();
  bool undecided = false;
  for (int x = 0; x <= 1; ++x) {
    const Exact logit = eq26(c, x), model = model_logit(c, x);
    const Real f = sigmoid(Real(logit));
    const Tri logit_ok = rounds_to(logit, logit, printed_logit[x]);
    const Tri f_ok = rounds_to(f.lower(), f.upper(), printed_f[x]);
    rows.push_back({{"x_n", x},
                    {"eq26_logit", exact_to_string(logit)},
                    {"eq26_logit_decimal", fmt::format("{:.6f}", logit.convert_to<double>())},
                    {"model_logit_equals_eq26", model == logit},
                    {"printed_logit", printed_logit[x]},
                    {"f", f.to_string()},
                    {"printed_f", printed_f[x]},
                    {"theory", theory[x]}});
    for (const Tri ok : {model == logit ? Tri::True : Tri::False, logit_ok, f_ok}) {
      ++r.checked;
      if (ok == Tri::True) ++r.passed;
      if (ok == Tri::Unknown) ++r.unknown, undecided = true;
      if (ok == Tri::False) {
        ++r.failed;
        r.counterexamples.push_back(
            {Json{{"x_n", x}}, Json{{"logit", printed_logit[x]}, {"f", printed_f[x]}},
             Json{{"eq26", exact_to_string(logit)}, {"model", exact_to_string(model)}, {"f", f.to_string()}},
             "eq. (26) / the model / the printed rounding disagree"});
      }
    }
  }
  r.details["values"] = rows;
  r.details["printed_averages"] = {{"e", "0.3618"}, {"p", "-0.1539"}, {"w1", "0.3264"}, {"b", "-0.1229"},
                                   {"beta", 5},     {"d", 4},         {"r", 16}};
  r.set_verdict_from_counts();
  if (undecided && r.verdict == Verdict::Unknown) r.reason = "a rounding sits on a half-unit boundary";
  r.summary =
      fmt::format("logits {} / {}, f {:.6f} / {:.6f} (x_n = 1 / 0)", rows[1]["eq26_logit_decimal"].get<std::string>(),
                  rows[0]["eq26_logit_decimal"].get<std::string>(), sigmoid(Real(eq26(c, 1))).midpoint_double(),
                  sigmoid(Real(eq26(c, 0))).midpoint_double());
  return r;
}

}  // namespace tverify::markov
