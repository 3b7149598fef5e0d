// entp.a2, entp.a3, entp.thm4_1, entp.thm4_2: the transformers of ENTP Appendix A, instantiated. Identities that
// involve a softmax over unequal scores are proved by Z3 with free positive exponentials (proofs/count3_proofs);
// everything with equal scores (W_Q = W_K = 0, identical tokens) is exact; the signs of alpha and beta in eq. (5) are
// certified in interval arithmetic.
#include "checkers/count3/count3_claims.hpp"
#include "checkers/count3/entp_checks.hpp"
#include "core/interval.hpp"
#include "proofs/count3_proofs.hpp"

#include <fmt/format.h>

#include <optional>

namespace tverify::count3 {

namespace {

constexpr std::size_t input_length = 4;

std::vector<ExactVector> random_inputs(std::uint64_t seed, std::size_t count, std::size_t dim) {
  std::vector<ExactVector> xs;
  for (std::size_t i = 0; i < count; ++i) xs.push_back(random_vector(seed * 1000 + i, dim));
  return xs;
}

std::vector<ExactVector> prefix(const std::vector<ExactVector>& xs, std::size_t length) {
  return {xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(length)};
}

// Some coordinate's enclosures are disjoint: the two real vectors certainly differ.
template <class I>
bool certainly_differ(const std::vector<I>& a, const std::vector<I>& b) {
  for (std::size_t c = 0; c < a.size(); ++c) {
    const Sign s = (a[c] - b[c]).sign();
    if (s == Sign::Positive || s == Sign::Negative) return true;
  }
  return false;
}

// The reason of an unknown verdict: `what` stayed undecided at the last rung of entp_rungs.
std::string at_ladder_ceiling(const std::string& what) {
  return fmt::format("{} up to {} bits, the ceiling of the precision ladder", what, entp_rungs.ceiling);
}

Json exact_vector_json(const ExactVector& v) {
  Json out = Json::array();
  for (const auto& e : v) out.push_back(exact_to_string(e));
  return out;
}

}  // namespace

void check_output_identity(const OutputIdentity& identity, unsigned timeout_ms, Tally& tally) {
  z3::context ctx;
  proofs::FreeExpPolicy symbolic(ctx);
  const auto lhs = entp_forward(identity.left, identity.left_inputs, symbolic).at(identity.left_position);
  const auto rhs = entp_forward(identity.right, identity.right_inputs, symbolic).at(identity.right_position);
  const proofs::QueryOutcome q = proofs::prove_equal_vectors(symbolic, identity.name, lhs, rhs, {timeout_ms, {}});
  if (q.status == proofs::QueryStatus::Proved) return tally.pass();
  // Not proved: a refutation needs disjoint enclosures, at the first rung of the ladder that separates them.
  const auto separated = climb(
      entp_rungs,
      [&]<unsigned Bits>() -> std::optional<Counterexample> {
        NumericPolicy<Interval<Bits>> numeric;
        const auto left = entp_forward(identity.left, identity.left_inputs, numeric).at(identity.left_position);
        const auto right = entp_forward(identity.right, identity.right_inputs, numeric).at(identity.right_position);
        if (!certainly_differ(left, right)) return std::nullopt;
        Json l = Json::array(), r = Json::array();
        for (const auto& v : left) l.push_back(v.to_string());
        for (const auto& v : right) r.push_back(v.to_string());
        return Counterexample{Json(identity.name), l, r, "interval enclosures are disjoint"};
      },
      [](const std::optional<Counterexample>& c) { return c.has_value(); });
  if (separated.result) return tally.fail(*separated.result);
  ++tally.checked, ++tally.unknown;
}

ClaimResult check_output_identities(const ClaimSpec& spec, const std::vector<OutputIdentity>& identities,
                                    unsigned timeout_ms) {
  ClaimResult r = result_for(spec);
  Tally t;
  for (const auto& identity : identities) check_output_identity(identity, timeout_ms, t);
  t.fill(r);
  if (t.unknown > 0) r.reason = at_ladder_ceiling("Z3 did not prove some identity and its interval enclosures overlap");
  r.summary = fmt::format("{}/{} identities proved (Z3, free positive exponentials)", t.passed, t.checked);
  return r;
}

std::vector<OutputIdentity> decoder_prefix_identities(const std::vector<EntpModel>& decoders, std::uint64_t seed) {
  std::vector<OutputIdentity> out;
  for (std::size_t m = 0; m < decoders.size(); ++m) {
    const auto xs = random_inputs(seed + m, input_length, decoders[m].dim());
    for (std::size_t i = 1; i <= input_length; ++i)
      out.push_back(
          {fmt::format("decoder{}.position{}", m, i), decoders[m], xs, i - 1, decoders[m], prefix(xs, i), i - 1});
  }
  return out;
}

std::vector<OutputIdentity> encoder_decoder_identities(const std::vector<EntpModel>& encoders, std::uint64_t seed) {
  std::vector<OutputIdentity> out;
  for (std::size_t m = 0; m < encoders.size(); ++m) {
    EntpModel decoder = encoders[m];
    decoder.causal = true;
    const auto xs = random_inputs(seed + m, input_length, encoders[m].dim());
    for (std::size_t i = 1; i <= input_length; ++i)
      out.push_back(
          {fmt::format("encoder{}.length{}", m, i), encoders[m], prefix(xs, i), i - 1, decoder, prefix(xs, i), i - 1});
  }
  return out;
}

std::vector<EntpModel> random_models(std::uint64_t seed, std::size_t layers, bool causal) {
  std::vector<EntpModel> models;
  for (std::uint64_t k = 0; k < 3; ++k)
    models.push_back(random_model(seed + k, 2, layers, 3, {.causal = causal, .position_count = input_length}));
  return models;
}

ClaimResult check_a2(std::uint64_t seed, unsigned timeout_ms) {
  return check_output_identities(count3_claim_specs().a2, decoder_prefix_identities(random_models(seed, 2, true), seed),
                                 timeout_ms);
}

ClaimResult check_a3(std::uint64_t seed, unsigned timeout_ms) {
  return check_output_identities(count3_claim_specs().a3,
                                 encoder_decoder_identities(random_models(seed, 1, false), seed), timeout_ms);
}

// ---- Theorem 4.1 (A.4) --------------------------------------------------------------------------------------------

namespace {

ExactVector combine(const std::vector<std::pair<Exact, const ExactVector*>>& terms) {
  ExactVector out(terms.front().second->size(), Exact(0));
  for (const auto& [k, v] : terms)
    for (std::size_t c = 0; c < out.size(); ++c) out[c] += k * (*v)[c];
  return out;
}

// The printed outputs of D~ on (x1, x2, x3): layer 1, then layer 2.
std::vector<ExactVector> printed_layer1(const std::vector<ExactVector>& x) {
  return {combine({{2, &x[0]}}), combine({{Exact(1, 2), &x[0]}, {Exact(3, 2), &x[1]}}),
          combine({{Exact(1, 3), &x[0]}, {Exact(1, 3), &x[1]}, {Exact(4, 3), &x[2]}})};
}
std::vector<ExactVector> printed_layer2(const std::vector<ExactVector>& x) {
  return {combine({{4, &x[0]}}), combine({{Exact(7, 4), &x[0]}, {Exact(9, 4), &x[1]}}),
          combine({{Exact(23, 18), &x[0]}, {Exact(17, 18), &x[1]}, {Exact(32, 18), &x[2]}})};
}

std::vector<ExactVector> exact_outputs(const EntpModel& model, const std::vector<ExactVector>& xs) {
  NumericPolicy<Exact> exact;
  return entp_forward(model, xs, exact);
}

EntpModel first_layer(EntpModel model) {
  model.layers.resize(1);
  return model;
}

}  // namespace

ClaimResult check_thm4_1_model(const EntpModel& decoder, std::uint64_t seed) {
  ClaimResult r = result_for(count3_claim_specs().thm4_1);
  Tally t;
  auto expect = [&](bool ok, const std::string& what, Json input) {
    if (ok) return t.pass();
    t.fail({std::move(input), Json("as printed"), Json("differs"), what});
  };
  const std::size_t dim = decoder.dim();
  // Both layers against the printed formulas: the basis of (R^D)^3 restricted to D = 1 per coordinate, and random.
  std::vector<std::vector<ExactVector>> inputs;
  for (std::size_t k = 0; k < 3; ++k) {
    std::vector<ExactVector> basis(3, ExactVector(dim, Exact(0)));
    for (auto& e : basis[k]) e = 1;
    inputs.push_back(basis);
  }
  for (std::uint64_t s = 0; s < 5; ++s) inputs.push_back(random_inputs(seed + s, 3, dim));
  for (const auto& x : inputs) {
    Json in = Json::array();
    for (const auto& v : x) in.push_back(exact_vector_json(v));
    expect(exact_outputs(first_layer(decoder), x) == printed_layer1(x), "layer 1 output", in);
    expect(exact_outputs(decoder, x) == printed_layer2(x), "layer 2 output", in);
  }
  // Observation 1: D~(x1, x2, x3)_3 != D~(x2, x1, x3)_3 for some input (x1 = e, x2 = x3 = 0).
  const auto& e = inputs[0];
  expect(exact_outputs(decoder, e)[2] != exact_outputs(decoder, {e[1], e[0], e[2]})[2], "observation 1", Json("e1"));
  // Observation 2: D~(x1, x2)_2 - D~(x1)_1 = c1 x1 + c2 x2 with c1 = -c2 != 0 (so it vanishes iff x1 = x2).
  const ExactVector zero(dim, Exact(0)), one = e[0];  // x1 = (1, ..., 1): D~ acts coordinatewise
  const ExactVector c1 = exact_outputs(decoder, {one, zero})[1], c1_single = exact_outputs(decoder, {one})[0];
  const ExactVector c2 = exact_outputs(decoder, {zero, one})[1];
  bool observation2 = true;
  for (std::size_t c = 0; c < dim; ++c) {
    const Exact k1 = c1[c] - c1_single[c], k2 = c2[c];
    observation2 = observation2 && k1 == -k2 && k2 != 0;
  }
  expect(observation2, "observation 2 (4x1 = (7x1 + 9x2)/4 iff x1 = x2)", Json("basis"));
  // The contradiction: p1 != p2, y_k = c - p_k; any encoder with these positions gives E(y1)_1 = E(y1, y2)_2
  // (both see only copies of c), while D~(y1)_1 != D~(y1, y2)_2.
  for (std::uint64_t s = 0; s < 3; ++s) {
    EntpModel encoder = random_model(seed + 100 + s, dim, 2, 3, {.causal = false, .position_count = 2});
    const ExactVector p1 = encoder.positions[0], p2 = encoder.positions[1], c = random_vector(seed + 200 + s, dim);
    if (p1 == p2) continue;
    ExactVector y1 = c, y2 = c;
    for (std::size_t k = 0; k < dim; ++k) y1[k] -= p1[k], y2[k] -= p2[k];
    Json in{{"p1", exact_vector_json(p1)}, {"p2", exact_vector_json(p2)}, {"c", exact_vector_json(c)}};
    expect(y1 != y2, "y1 != y2", in);
    expect(exact_outputs(encoder, {y1})[0] == exact_outputs(encoder, {y1, y2})[1], "E(y1)_1 = E(y1, y2)_2", in);
    expect(exact_outputs(decoder, {y1})[0] != exact_outputs(decoder, {y1, y2})[1], "D~(y1)_1 != D~(y1, y2)_2", in);
  }
  t.fill(r);
  r.summary = fmt::format("{}/{} exact checks", t.passed, t.checked);
  r.details["dim"] = dim;
  return r;
}

ClaimResult check_thm4_1(std::uint64_t seed) {
  ClaimResult r = check_thm4_1_model(thm4_1_decoder(1), seed);
  const ClaimResult r3 = check_thm4_1_model(thm4_1_decoder(3), seed);
  r.checked += r3.checked, r.passed += r3.passed, r.failed += r3.failed;
  for (const auto& c : r3.counterexamples) r.counterexamples.push_back(c);
  r.set_verdict_from_counts();
  r.summary = fmt::format("{}/{} exact checks (D = 1 and 3)", r.passed, r.checked);
  r.details["dim"] = "1 and 3";
  return r;
}

// ---- Theorem 4.2 (A.5) --------------------------------------------------------------------------------------------

template <unsigned Bits>
std::pair<Interval<Bits>, Interval<Bits>> thm4_2_coefficients(const EntpModel& encoder, const ExactVector& x1,
                                                              const ExactVector& x2) {
  // The residual stream stays in span{x1, x2} because W_V = I: track h_i = a_i x1 + b_i x2 beside its value.
  using I = Interval<Bits>;
  NumericPolicy<I> numeric;
  std::vector<std::vector<I>> h;
  std::vector<std::pair<I, I>> coef{{I(1), I(0)}, {I(0), I(1)}};
  for (const auto& x : {x1, x2}) {
    std::vector<I> v;
    for (const auto& e : x) v.push_back(I(e));
    h.push_back(v);
  }
  for (const auto& layer : encoder.layers) {
    auto next_h = h;
    auto next_coef = coef;
    for (std::size_t i = 0; i < 2; ++i) {
      const auto q = apply(numeric, layer.query, h[i]);
      std::vector<I> scores;
      for (std::size_t j = 0; j < 2; ++j) {
        const auto k = apply(numeric, layer.key, h[j]);
        I s(0);
        for (std::size_t c = 0; c < q.size(); ++c) s = s + q[c] * k[c];
        scores.push_back(s);
      }
      const auto w = numeric.softmax(scores);
      for (std::size_t j = 0; j < 2; ++j) {
        next_coef[i].first = next_coef[i].first + w[j] * coef[j].first;
        next_coef[i].second = next_coef[i].second + w[j] * coef[j].second;
        const auto v = apply(numeric, layer.value, h[j]);
        for (std::size_t c = 0; c < v.size(); ++c) next_h[i][c] = next_h[i][c] + w[j] * v[c];
      }
    }
    h = std::move(next_h);
    coef = std::move(next_coef);
  }
  return coef[1];
}

template std::pair<Interval<128>, Interval<128>> thm4_2_coefficients<128>(const EntpModel&, const ExactVector&,
                                                                          const ExactVector&);
template std::pair<Interval<1024>, Interval<1024>> thm4_2_coefficients<1024>(const EntpModel&, const ExactVector&,
                                                                             const ExactVector&);
template std::pair<Interval<16384>, Interval<16384>> thm4_2_coefficients<16384>(const EntpModel&, const ExactVector&,
                                                                                const ExactVector&);

namespace {

// alpha > 0 and beta > 0, decided up the ladder: True, False, or Unknown at its ceiling; with both enclosures as text
// at the rung that decided.
struct Thm42Signs {
  Tri positive = Tri::Unknown;
  std::string alpha, beta;
};

Thm42Signs thm4_2_signs(const EntpModel& encoder, const ExactVector& x1, const ExactVector& x2) {
  return climb(
             entp_rungs,
             [&]<unsigned Bits>() {
               const auto [alpha, beta] = thm4_2_coefficients<Bits>(encoder, x1, x2);
               const Sign a = alpha.sign(), b = beta.sign();
               const bool undecided = a == Sign::Unknown || b == Sign::Unknown;
               const Tri positive = a == Sign::Positive && b == Sign::Positive ? Tri::True
                                    : undecided                                ? Tri::Unknown
                                                                               : Tri::False;
               return Thm42Signs{positive, alpha.to_string(), beta.to_string()};
             },
             [](const Thm42Signs& s) { return s.positive != Tri::Unknown; })
      .result;
}

}  // namespace

ClaimResult check_thm4_2(std::uint64_t seed) {
  ClaimResult r = result_for(count3_claim_specs().thm4_2);
  Tally t;
  auto record = [&](bool ok, const std::string& what, Json input) {
    if (ok) return t.pass();
    t.fail({std::move(input), Json("as in the proof"), Json("differs"), what});
  };
  Json alphas = Json::array();
  for (std::size_t dim : {1, 2, 3}) {
    const EntpModel encoder = thm4_2_encoder(dim);
    for (std::uint64_t s = 0; s < 4; ++s) {
      ExactVector x1 = random_vector(seed + 10 * dim + s, dim), x2 = random_vector(seed + 500 + 10 * dim + s, dim);
      if (s == 0) x1.assign(dim, Exact(0));  // the proof's x1 = 0
      Json in{{"x1", exact_vector_json(x1)}, {"x2", exact_vector_json(x2)}};
      ExactVector four_x1 = x1;
      for (auto& e : four_x1) e *= 4;
      record(exact_outputs(encoder, {x1})[0] == four_x1, "E~(x1)_1 = 4 x1", in);
      const Thm42Signs signs = thm4_2_signs(encoder, x1, x2);
      if (signs.positive == Tri::Unknown)
        ++t.checked, ++t.unknown;
      else
        record(signs.positive == Tri::True, "alpha, beta > 0 (certified)", in);
      alphas.push_back(
          {{"dim", dim}, {"x1", in["x1"]}, {"x2", in["x2"]}, {"alpha", signs.alpha}, {"beta", signs.beta}});
    }
  }
  // The contradiction: any decoder with p1 != p2 maps (0, p1 - p2) to (c, c), exactly; (0, beta x2) is not constant.
  for (std::uint64_t s = 0; s < 3; ++s) {
    const EntpModel decoder = random_model(seed + 300 + s, 2, 2, 3, {.causal = true, .position_count = 2});
    const ExactVector& p1 = decoder.positions[0];
    const ExactVector& p2 = decoder.positions[1];
    if (p1 == p2) continue;
    ExactVector x2 = p1;
    for (std::size_t k = 0; k < x2.size(); ++k) x2[k] -= p2[k];
    const auto out = exact_outputs(decoder, {ExactVector(2, Exact(0)), x2});
    record(out[0] == out[1], "D(0, p1 - p2) is constant",
           Json{{"p1", exact_vector_json(p1)}, {"p2", exact_vector_json(p2)}});
  }
  t.fill(r);
  if (t.unknown > 0) r.reason = at_ladder_ceiling("an enclosure of alpha or beta contains 0");
  r.summary = fmt::format("{}/{} checks (exact, and alpha, beta > 0 certified)", t.passed, t.checked);
  r.details["alpha_beta"] = alphas;
  return r;
}

}  // namespace tverify::count3
