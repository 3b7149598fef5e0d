// `tverify sweep copy --fast --vary L=lo:hi:xF --formats float32,bfloat16,...`: the copy construction
// run in floating-point formats on seeded repeat-free strings (windows of a de Bruijn sequence, so Theorem 2.3
// applies and the exact construction copies every one; the fast exact path confirms it on each string), per L and
// format: the fraction not copied, the fraction of softmax steps that were exactly one-hot (saturated), whether an
// infinity or NaN appeared, and the first L with a failure. Also whether the unshifted softmax would overflow:
// e^{tau n} above the format's largest value (the max-shift used here avoids it). Measurements of the arithmetic,
// labelled as such; nothing here verifies.
#pragma once

#include "checkers/copy/fast_sweeps/length_sweep.hpp"
#include "constructions/copy/fast/float_copy.hpp"

namespace tverify::copy::fast {

// "float64,float32,bfloat16,float16" -> the formats; UsageError naming --formats otherwise.
std::vector<FloatFormat> parse_formats(const std::string& text);

// What both repeat-free sweeps (--formats, --min-bits) check before any work: the fast path supports the embedding,
// the grid stays within D^n (a repeat-free string is no longer than that), gnuplot exists and the output directory
// is writable. `option` names the sweep in the error.
void prepare_repeat_free_sweep(const copy::CopyTransformer& transformer, const LengthGrid& grid,
                               const FastSweepOptions& options, const std::string& option);

Json sweep_copy_formats(const copy::CopyTransformerConfig& base, const LengthGrid& grid,
                        const std::vector<FloatFormat>& formats, const FastSweepOptions& options);

}  // namespace tverify::copy::fast
