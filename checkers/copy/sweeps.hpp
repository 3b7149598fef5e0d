// Sweeps of the copy transformer (`tverify sweep copy --vary tau|L`), each writing CSV, PNG and JSON through
// sweep_output.
//   tau: the smallest tau on a grid of step `resolution` at which copy.thm2_3 (text reading) is verified, by bisection
//        between a failing lower end and a passing upper end (the proof's d ln(8Kd), doubled while it fails). Every
//        probe is a full exhaustive check with every decision certified. Bisection assumes pass/fail is monotone in
//        tau; the CSV lists every probe, so a reader can see the evidence.
//   bits: for each L, the fewest bits of MPFR precision (scanning up from 2) at which the whole construction, run in
//        finite precision (FinitePrecisionCopy), still copies every string without a repeated n-gram: all of them
//        when D^L <= 10^5, else `samples` seeded random ones (then the figure is a lower bound on what every string
//        needs). Plotted beside log2 log2 L (Remark 2.6: O(log log L) bits suffice). A measurement, not a verdict.
//   L:   the exact error rate over [D]^L for L = 1..L_max, beside p_n-gram (both readings) and L^2 D^-n; the first L
//        whose error reaches `threshold` is marked.
#pragma once

#include "checkers/construction.hpp"
#include "constructions/copy/transformer.hpp"

namespace tverify::copy {

struct CopySweepOptions {
  SweepOutput output;
  Exact resolution{1, 16};
  int length_max = 0;  // 0: the largest L with D^L <= 10^4
  Exact threshold{1, 2};
  std::uint64_t samples = 2000;
  std::uint64_t seed = 1;
};

Json sweep_tau(const CopyTransformerConfig& config, const CopySweepOptions& sweep, const RunOptions& run);
Json sweep_precision(const CopyTransformerConfig& config, const CopySweepOptions& sweep, const RunOptions& run);
Json sweep_length(const CopyTransformerConfig& config, const CopySweepOptions& sweep, const RunOptions& run);

}  // namespace tverify::copy
