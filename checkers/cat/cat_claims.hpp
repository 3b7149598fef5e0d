// The claims of the CAT paper (Li, Zhang, Huang, Oymak, arXiv 2407.05591) that tverify checks, on the reconstruction
// of its lost formulas written out in docs/cat.md, and the functions that check them.
#pragma once

#include "checkers/construction.hpp"
#include "checkers/sequence_domain.hpp"
#include "constructions/cat/layer.hpp"
#include "constructions/cat/run_sequence.hpp"
#include "constructions/cat/signatures.hpp"

namespace tverify::cat {

// The construction a run checks, with the numbers its certificate states.
struct CatSetup {
  CatConfig config;
  int vocabulary = 2, n = 1, length = 2;
  std::string variant;  // key_delay, value_delay, ar (+ _full: tverify's correction)
  bool c_from_condition = true;
  SignatureReport signatures;
  Json numbers;  // Delta^2, Gamma, the condition and the c used
};

// The claims, declared once (claim_specs.cpp).
struct CatClaimSpecs {
  ClaimSpec signatures, thm1_key_delay, thm1_value_delay, cor1, mqnar, filters;
};
const CatClaimSpecs& cat_claim_specs();

ClaimResult check_signatures(const CatSetup& setup);
// NAR (and AR): the layer decodes the target on every valid instance of length n+1..L (sequence_claims.cpp).
ClaimResult check_recall(const ClaimSpec& spec, const CatSetup& setup, const RunOptions& options);
ClaimResult check_mqnar(const CatSetup& setup, const RunOptions& options);
// "For almost all F": seeded random rational filters of length N, and explicit failing filters (filter_claims.cpp).
ClaimResult check_filters(const CatSetup& setup, std::uint64_t samples, std::uint64_t seed);

// visit(z, tally) for every token sequence of length min_length..max_length over [V] (threads by contiguous ranges,
// deterministic merge); the domain must fit the run budget.
template <class Visit>
Tally for_each_sequence(int vocabulary, int min_length, int max_length, const RunOptions& options,
                        const std::string& label, Visit visit) {
  const SequenceDomain domain = make_sequence_domain(max_length, 0, vocabulary - 1, options, min_length);
  return enumerate_indices<Tally>(
      domain.size, options, label,
      [&](std::uint64_t index, Tally& tally) {
        tally.limit = options.max_counterexamples;
        const Sequence x = domain.at(index);
        visit(Tokens(x.begin(), x.end()), tally);
      },
      [](Tally& into, Tally&& from) { into.merge(std::move(from)); });
}

// The worst-case NAR instances of length L for this layer (sweeps; worst_case.cpp): b^p g t b^r g for every query g,
// target t and filler b, with the filler before, around or after the match (p = 0, F/2, F; p + r = F = L - 2N - 1),
// as runs. The first one the layer does not decode to its target, by the exact evaluator (materialised, small L) or
// by the fast path (constructions/cat/fast/cat_fast.hpp, any L).
std::vector<RunSequence> worst_case_family(int vocabulary, int n, std::uint64_t length);
std::optional<Tokens> worst_case_failure(const CatLayer& layer, int vocabulary, int n, int length);
std::optional<RunSequence> worst_case_failure_fast(const CatConfig& config, int vocabulary, int n,
                                                   std::uint64_t length);

}  // namespace tverify::cat
