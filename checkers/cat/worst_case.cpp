// The worst-case NAR family of the CAT sweeps, and its first failure by the exact evaluator or by the fast path.
#include "checkers/cat/cat_claims.hpp"
#include "constructions/cat/fast/cat_fast.hpp"
#include "constructions/cat/signatures.hpp"

namespace tverify::cat {

std::vector<RunSequence> worst_case_family(int vocabulary, int n, std::uint64_t length) {
  std::vector<RunSequence> out;
  const auto gram = static_cast<std::uint64_t>(n);
  if (length < 2 * gram + 1) return out;
  const std::uint64_t filler = length - 2 * gram - 1;
  for (const Tokens& g : all_grams(vocabulary, n))
    for (int t = 0; t < vocabulary; ++t)
      for (int b = 0; b < vocabulary; ++b)
        for (std::uint64_t p : {std::uint64_t{0}, filler / 2, filler}) {
          RunSequence z;
          z.append(b, p);
          z.append(g);
          z.append(t, 1);
          z.append(b, filler - p);
          z.append(g);
          out.push_back(std::move(z));
        }
  return out;
}

std::optional<Tokens> worst_case_failure(const CatLayer& layer, int vocabulary, int n, int length) {
  for (const RunSequence& runs : worst_case_family(vocabulary, n, static_cast<std::uint64_t>(length))) {
    const Tokens z = runs.tokens();
    const auto match = nar_match(z, n);
    if (!match) continue;  // not a valid instance
    const Decoded d = layer.decode_last(z);
    if (!d.token || *d.token != z[*match + 1]) return z;
  }
  return std::nullopt;
}

std::optional<RunSequence> worst_case_failure_fast(const CatConfig& config, int vocabulary, int n,
                                                   std::uint64_t length) {
  for (const RunSequence& z : worst_case_family(vocabulary, n, length)) {
    const auto match = fast::nar_match_runs(z, n);
    if (!match) continue;  // not a valid instance
    const Decoded d = fast::decode_last_fast(config, z);
    if (!d.token || *d.token != z.at(static_cast<std::int64_t>(*match + 1))) return z;
  }
  return std::nullopt;
}

}  // namespace tverify::cat
