// cat.thm1.*, cat.cor1, cat.mqnar: the layer on every valid instance of the recall tasks up to length L; and
// cat.signatures.
#include "checkers/cat/cat_claims.hpp"
#include "constructions/cat/tasks.hpp"

#include <fmt/format.h>

#include <atomic>

namespace tverify::cat {

namespace {

Tokens tokens_of(const Sequence& x) { return Tokens(x.begin(), x.end()); }

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
  r.summary = s.distinct() ? fmt::format("{} distinct signatures, Gamma = {}", s.ngrams, s.gamma().to_string())
                           : "signatures not distinct";
  return r;
}

ClaimResult check_recall(const ClaimSpec& spec, const CatSetup& setup, const RunOptions& options) {
  ClaimResult r = with_numbers(result_for(spec), setup);
  const CatLayer layer(setup.config);
  const SequenceDomain domain =
      make_sequence_domain(setup.length, 0, setup.vocabulary - 1, options, setup.n + 1);
  std::atomic<std::uint64_t> invalid{0};
  const Tally t = enumerate_indices<Tally>(
      domain.size, options, spec.id,
      [&](std::uint64_t index, Tally& tally) {
        tally.limit = options.max_counterexamples;
        const Tokens z = tokens_of(domain.at(index));
        const auto match = nar_match(z, setup.n);
        if (!match) {
          ++invalid;
          return;
        }
        judge(layer.decode_last(z), z[*match + 1], z, fmt::format("query at {}, match ends at {}", z.size(), *match + 1),
              tally);
      },
      [](Tally& into, Tally&& from) { into.merge(std::move(from)); });
  t.fill(r);
  r.summary = fmt::format("{}/{} valid instances decoded", t.passed, t.checked);
  if (t.unknown > 0) r.reason = "some decodings stayed undecided at 512 bits (an exact tie between two tokens?)";
  r.details["sequences_enumerated"] = domain.size;
  r.details["valid_instances"] = domain.size - invalid.load();
  return r;
}

ClaimResult check_mqnar(const CatSetup& setup, const RunOptions& options) {
  ClaimResult r = with_numbers(result_for(cat_claim_specs().mqnar), setup);
  const CatLayer layer(setup.config);
  const SequenceDomain domain = make_sequence_domain(setup.length, 0, setup.vocabulary - 1, options, setup.n + 1);
  std::atomic<std::uint64_t> invalid{0}, no_match{0};
  const Tally t = enumerate_indices<Tally>(
      domain.size, options, "cat.mqnar",
      [&](std::uint64_t index, Tally& tally) {
        tally.limit = options.max_counterexamples;
        const Tokens z = tokens_of(domain.at(index));
        const auto queries = mqnar_queries(z, setup.n);
        if (!queries) {
          ++invalid;
          return;
        }
        std::vector<std::size_t> positions;
        for (const auto& q : *queries)
          if (q.match) positions.push_back(q.position);
          else ++no_match;
        if (positions.empty()) return;
        const std::vector<Decoded> decoded = layer.decode(z, positions);
        std::size_t k = 0;
        for (const auto& q : *queries) {
          if (!q.match) continue;
          judge(decoded[k++], z[*q.match + 1], z, fmt::format("query at {}, match ends at {}", q.position + 1,
                                                               *q.match + 1), tally);
        }
      },
      [](Tally& into, Tally&& from) { into.merge(std::move(from)); });
  t.fill(r);
  r.summary = fmt::format("{}/{} matched queries decoded", t.passed, t.checked);
  r.details["valid_instances"] = domain.size - invalid.load();
  r.details["queries_without_match"] = no_match.load();
  r.details["queries_without_match_note"] =
      "not counted: the layer of Theorem 1 has no no-match output, so MQNAR's special token is outside it";
  return r;
}

std::optional<Tokens> worst_case_failure(const CatLayer& layer, int vocabulary, int n, int length) {
  const int filler = length - 2 * n - 1;
  if (filler < 0) return std::nullopt;
  for (const Tokens& g : all_grams(vocabulary, n))
    for (int t = 0; t < vocabulary; ++t)
      for (int b = 0; b < vocabulary; ++b)
        for (int p : {0, filler / 2, filler}) {
          Tokens z(static_cast<std::size_t>(p), b);
          z.insert(z.end(), g.begin(), g.end());
          z.push_back(t);
          z.insert(z.end(), static_cast<std::size_t>(filler - p), b);
          z.insert(z.end(), g.begin(), g.end());
          const auto match = nar_match(z, n);
          if (!match) continue;  // not a valid instance
          const Decoded d = layer.decode_last(z);
          if (!d.token || *d.token != z[*match + 1]) return z;
        }
  return std::nullopt;
}

}  // namespace tverify::cat
