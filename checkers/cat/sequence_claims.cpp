// cat.thm1.*, cat.cor1, cat.mqnar: the layer on every valid instance of the recall tasks up to length L; and
// cat.signatures.
#include "checkers/cat/cat_claims.hpp"
#include "constructions/cat/tasks.hpp"

#include <fmt/format.h>

namespace tverify::cat {

namespace {

std::string decoded_text(const Decoded& d) {
  if (d.token) return std::to_string(*d.token);
  return d.margin == Margin::Tie ? "tie" : "undecided";
}

void judge(const Decoded& d, int target, const Tokens& z, const std::string& where, Tally& tally) {
  if (d.token && *d.token == target) return tally.pass();
  if (d.margin == Margin::Undecided) {
    ++tally.checked, ++tally.unknown;
    return;
  }
  tally.fail({Json(z), Json(target), Json(decoded_text(d)), where});
}

// [lo, hi] to 8 decimals, rounded outward.
std::string decimal_enclosure(const Interval<128>& x) {
  const BigInt scale = big_pow(10, 8);
  const Exact lo = x.lower() * Exact(scale), hi = x.upper() * Exact(scale);
  BigInt l = numerator(lo) / denominator(lo), h = numerator(hi) / denominator(hi);
  if (Exact(l) > lo) l -= 1;
  if (Exact(h) < hi) h += 1;
  auto text = [&](const BigInt& k) { return fmt::format("{:.8f}", Exact(k, scale).convert_to<double>()); };
  return "[" + text(l) + ", " + text(h) + "]";
}

ClaimResult with_numbers(ClaimResult r, const CatSetup& setup) {
  r.details = setup.numbers;
  return r;
}

}  // namespace

ClaimResult check_signatures(const CatSetup& setup) {
  ClaimResult r = with_numbers(result_for(cat_claim_specs().signatures), setup);
  const SignatureReport& s = setup.signatures;
  r.checked = s.ngrams;
  for (const auto& g : s.zero_signatures)
    r.counterexamples.push_back({Json(g), Json("a non-zero signature"), Json("zero"), "signature is the zero vector"});
  if (s.collision)
    r.counterexamples.push_back({Json({s.collision->first, s.collision->second}), Json("distinct signatures"),
                                 Json("cos = 1"), "two distinct N-grams with the same normalized signature"});
  r.failed = r.counterexamples.size();
  r.passed = r.checked - std::min<std::uint64_t>(r.checked, r.failed);
  r.set_verdict_from_counts();
  r.summary = s.distinct() ? fmt::format("{} distinct signatures, Gamma in {}", s.ngrams, decimal_enclosure(s.gamma()))
                           : "signatures not distinct";
  return r;
}

ClaimResult check_recall(const ClaimSpec& spec, const CatSetup& setup, const RunOptions& options) {
  ClaimResult r = with_numbers(result_for(spec), setup);
  const CatLayer layer(setup.config);
  const Tally t = for_each_sequence(setup.vocabulary, setup.n + 1, setup.length, options, spec.id,
                                    [&](const Tokens& z, Tally& tally) {
                                      ++tally.counts["sequences"];
                                      const auto match = nar_match(z, setup.n);
                                      if (!match) {
                                        ++tally.counts["invalid"];
                                        return;
                                      }
                                      judge(layer.decode_last(z), z[*match + 1], z,
                                            fmt::format("query at {}, match ends at {}", z.size(), *match + 1), tally);
                                    });
  t.fill(r);
  r.summary =
      fmt::format("{}/{} valid instances decoded, c = {}", t.passed, t.checked, setup.numbers["c"].get<std::string>());
  if (t.unknown > 0)
    r.reason = fmt::format(
        "some decodings stayed undecided at {} bits, the ceiling of the readout's precision ladder (a "
        "margin below that precision; exact ties are decided exactly)",
        readout_rungs.ceiling);
  r.details["sequences_enumerated"] = t.count("sequences");
  r.details["valid_instances"] = t.count("sequences") - t.count("invalid");
  return r;
}

ClaimResult check_mqnar(const CatSetup& setup, const RunOptions& options) {
  ClaimResult r = with_numbers(result_for(cat_claim_specs().mqnar), setup);
  const CatLayer layer(setup.config);
  const Tally t =
      for_each_sequence(setup.vocabulary, setup.n + 1, setup.length, options, r.id, [&](const Tokens& z, Tally& tally) {
        ++tally.counts["sequences"];
        const auto queries = mqnar_queries(z, setup.n);
        if (!queries) {
          ++tally.counts["invalid"];
          return;
        }
        std::vector<std::size_t> positions;
        for (const auto& q : *queries)
          if (q.match)
            positions.push_back(q.position);
          else
            ++tally.counts["queries_without_match"];
        if (positions.empty()) return;
        const std::vector<Decoded> decoded = layer.decode(z, positions);
        std::size_t k = 0;
        for (const auto& q : *queries) {
          if (!q.match) continue;
          judge(decoded[k++], z[*q.match + 1], z,
                fmt::format("query at {}, match ends at {}", q.position + 1, *q.match + 1), tally);
        }
      });
  t.fill(r);
  r.summary =
      fmt::format("{}/{} matched queries decoded, c = {}", t.passed, t.checked, setup.numbers["c"].get<std::string>());
  r.details["valid_instances"] = t.count("sequences") - t.count("invalid");
  r.details["queries_without_match"] = t.count("queries_without_match");
  r.details["queries_without_match_note"] =
      "not counted: the layer of Theorem 1 has no no-match output, so MQNAR's special token is outside it";
  return r;
}

}  // namespace tverify::cat
