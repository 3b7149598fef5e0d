// The fast path for the CAT layer (constructions/cat/layer.hpp) at L up to 10^6 and beyond.
//
// The logit of key s at the last query t, c^2 <q_t, k_s> / sqrt(|q_t|^2 |k_s|^2), is irrational in general (the
// rows are normalised), so it is not computed in integers as the copy fast path does; instead the keys are grouped
// by what determines them. Key s and its value depend only on the tokens z_{s-W}..z_s (key delay: the key sees
// z_{s-W}..z_{s-1}, the value is z_s) or z_{s-W+1}..z_{s+1} (value delay: the key sees z_{s-W+1}..z_s, the value
// is z_{s+1}), with W the filter length: W + 1 tokens either way. Positions with the same W + 1 tokens have the same
// exact <q, k>, |k|^2 and value, so they form one group, evaluated once in exact rationals and added to the score
// levels with its multiplicity (levels.hpp). A sequence stored as runs (run_sequence.hpp) has O(runs * W) distinct
// windows, so a worst-case instance b^p g t b^r g costs the same at L = 10^6 as at L = 20.
//
// The decision is the exact evaluator's own (`decide_levels`: MPFI at 64 then 512 bits, exact ties decided
// exactly), on the same levels; the differential tests check that the fast and the exact evaluator decide alike.
#pragma once

#include "constructions/cat/layer.hpp"
#include "constructions/cat/run_sequence.hpp"

#include <optional>

namespace tverify::cat::fast {

// NAR on runs (tasks.hpp, nar_match): the end index of the unique earlier occurrence of the last n-gram.
std::optional<std::uint64_t> nar_match_runs(const cat::RunSequence& z, int n);

// The layer's output token at the last position of z, as CatLayer::decode_last(z.tokens()) decides it.
cat::Decoded decode_last_fast(const cat::CatConfig& config, const cat::RunSequence& z);

}  // namespace tverify::cat::fast
