// `tverify sweep copy --fast --vary L=lo:hi:xF --min-bits`: per L, the fewest MPFR bits at which the
// copy transformer (constructions/copy/finite_precision: every operation rounded to nearest) still copies every
// sampled repeat-free string, beside log2 log2 L (Remark 2.6 of Repeat After Me claims O(log log L) bits suffice).
//
// The certified fast path (copy_fast.hpp) first decides which sampled strings the exact construction copies; only
// those are probed, at 2, 3, ... bits up to MpfrBitsCopy::kMaxBits, each probe by MpfrBitsCopy (the same tokens as
// FinitePrecisionCopy, step for step). Checkpointed per L like the error-rate sweep (--resume). A measurement of
// what a precision does, never a verification: the output says so.
#pragma once

#include "checkers/copy/fast_sweeps/length_sweep.hpp"

namespace tverify::copy::fast {

Json sweep_copy_min_bits(const copy::CopyTransformerConfig& base, const LengthGrid& grid,
                         const FastSweepOptions& options);

}  // namespace tverify::copy::fast
