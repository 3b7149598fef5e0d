// cat.filters: "for almost all choices of F" the N-gram signatures are distinct. Seeded random filters measure the
// fraction (exactly, per filter); explicit filters show the exceptional set is not empty.
#include "checkers/cat/cat_claims.hpp"

#include <fmt/format.h>

#include <random>

namespace tverify::cat {

namespace {

Json exact_json(const Filter& f) {
  Json out = Json::array();
  for (const auto& x : f) out.push_back(exact_to_string(x));
  return out;
}

Json witness(const Filter& f, const SignatureReport& s, const std::string& why) {
  Json w{{"filter", exact_json(f)}, {"why", why}, {"distinct", s.distinct()}};
  if (!s.zero_signatures.empty()) w["zero_signature"] = s.zero_signatures.front();
  if (s.collision) w["collision"] = {s.collision->first, s.collision->second};
  return w;
}

}  // namespace

ClaimResult check_filters(const CatSetup& setup, std::uint64_t samples, std::uint64_t seed) {
  ClaimResult r = result_for(cat_claim_specs().filters);
  const TokenEmbedding& e = setup.config.embedding;
  const std::size_t n = static_cast<std::size_t>(setup.n);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<long> draw(-(1L << 20), 1L << 20);
  for (std::uint64_t k = 0; k < samples; ++k) {
    Filter f;
    for (std::size_t j = 0; j < n; ++j) f.emplace_back(draw(rng), 1L << 20);
    const SignatureReport s = analyse_signatures(f, e, setup.n);
    ++r.checked;
    if (s.distinct()) {
      ++r.passed;
      continue;
    }
    ++r.failed;
    if (r.counterexamples.size() < 10)
      r.counterexamples.push_back({exact_json(f), Json("distinct signatures"), witness(f, s, "sampled")["collision"],
                                   "a sampled filter with colliding or zero signatures"});
  }
  r.set_verdict_from_counts();
  r.summary = fmt::format("{}/{} sampled filters give distinct signatures", r.passed, r.checked);
  Json exceptional = Json::array();
  if (n >= 2) {
    const Filter constant(n, Exact(1));
    exceptional.push_back(witness(constant, analyse_signatures(constant, e, setup.n),
                                  "constant filter: a permutation of an N-gram has the same signature"));
    Filter leading_zero(n, Exact(1, 2));
    leading_zero[0] = 0;
    exceptional.push_back(
        witness(leading_zero, analyse_signatures(leading_zero, e, setup.n), "F_0 = 0: the newest token is ignored"));
    Filter alternating(n, Exact(0));
    alternating[0] = 1, alternating[1] = -1;
    exceptional.push_back(witness(alternating, analyse_signatures(alternating, e, setup.n),
                                  "F = (1, -1, 0, ...): the N-gram (a, a, ...) has signature 0"));
  }
  r.details["sampling"] = fmt::format(
      "{} filters of length {}, entries k/2^20 with k uniform in [-2^20, 2^20], "
      "std::mt19937_64 seed {}",
      samples, n, seed);
  r.details["exceptional_filters"] = exceptional;
  return r;
}

}  // namespace tverify::cat
