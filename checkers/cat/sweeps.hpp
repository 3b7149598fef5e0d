// CAT sweeps (`tverify sweep cat`):
//   --vary c  for each c on a grid, the largest L at which the layer decodes every worst-case NAR instance
//             (b^p g t b^r g: the query g, its target t and one filler token b, p = 0, F/2, F), found by bisection on
//             L; a failure is a certified wrong decoding of a valid instance, so L_max(c) is an upper bound on the
//             exact largest L, and where every instance up to it fits 200,000 sequences it is confirmed exhaustively
//             (then exact). Beside it, the sufficient condition's L. Curves for every N' < N (geometric filter 2^-j),
//             the given (N, F) and, for N >= 2, the geometric filter 3^-j. L up to --L-max (default 64, at most 4096);
//             with --fast the family is evaluated by the fast path (constructions/cat/fast/cat_fast.hpp: runs, keys
//             grouped by window), L up to 2^20 (the default with --fast).
//   --vary L  for each L from N + 2 to --L, the smallest c (a multiple of 1/64) at which every valid instance of
//             length L is decoded (bisection; each probe an exhaustive certified check, or the worst-case family
//             above the budget, by the fast path with --fast), beside the c the sufficient condition asks for.
// With --fast both keep a checkpoint (DIR/<sweep>.checkpoint.json, checkers/checkpoint.hpp), written after every
// finished c or L: a killed sweep continues with --resume and recomputes no finished point.
#pragma once

#include "checkers/cat/cat_claims.hpp"

#include <optional>

namespace tverify::cat {

struct CatSweepOptions {
  SweepOutput output;
  bool fast = false;               // the fast path and a checkpoint
  bool resume = false;             // continue from the checkpoint in output.dir
  std::optional<long> length_max;  // --vary c: --L-max as given
};

Json sweep_length_limit(const CatSetup& setup, const ParamValues& params, const CatSweepOptions& request,
                        const RunOptions& run);
Json sweep_smallest_c(const CatSetup& setup, const ParamValues& params, const CatSweepOptions& request,
                      const RunOptions& run);

}  // namespace tverify::cat
