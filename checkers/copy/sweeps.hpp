// Sweeps of the copy transformer (`tverify sweep copy --vary tau|L`), each writing CSV, PNG and JSON through
// sweep_output.
//   tau: the smallest tau on a grid of step `resolution` at which copy.thm2_3 (text reading) is verified, by bisection
//        between a failing lower end and a passing upper end (the proof's d ln(8Kd), doubled while it fails). Every
//        probe is a full exhaustive check with every decision certified. Bisection assumes pass/fail is monotone in
//        tau; the CSV lists every probe, so a reader can see the evidence.
//   L:   the exact error rate over [D]^L for L = 1..L_max, beside p_n-gram (both readings) and L^2 D^-n; the first L
//        whose error reaches `threshold` is marked.
#pragma once

#include "checkers/construction.hpp"
#include "constructions/copy/transformer.hpp"

namespace tverify::copy {

struct CopySweepOptions {
  std::string out_dir;
  Exact resolution{1, 16};
  int length_max = 0;  // 0: the largest L with D^L <= 10^4
  Exact threshold{1, 2};
};

Json sweep_tau(const CopyTransformerConfig& config, const CopySweepOptions& sweep, const RunOptions& run);
Json sweep_length(const CopyTransformerConfig& config, const CopySweepOptions& sweep, const RunOptions& run);

}  // namespace tverify::copy
