// `tverify sweep count3 --vary values`: for sequences of length exactly n, the fraction on which each program agrees
// with eq. (4) as the value range 0..K grows past the length (K = 1, 2, ... while the domain fits the budget).
#pragma once

#include "checkers/count3/count3_claims.hpp"

#include <optional>

namespace tverify::count3 {

// program: "all" (Algorithm 4 as printed, Algorithm 4 corrected, Algorithm 6) or one of alg4 (in the variant of
// `semantics`), alg6; the programs run with semantics' mean. value_max: the largest K asked (default 3n, stopping
// within --max-inputs); the files go to output.dir.
Json sweep_value_range(int length, const std::string& program, const ProgramSemantics& semantics,
                       std::optional<long long> value_max, const SweepOutput& output, const RunOptions& run);

}  // namespace tverify::count3
