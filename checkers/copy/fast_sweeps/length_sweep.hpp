// `tverify sweep copy --fast --vary L=lo:hi:xF --samples S --out DIR`: the error rate of the copy
// construction on uniform random strings for L on a grid up to 10^6, through the fast exact path (every decision
// certified), with Wilson 95% intervals, beside the sampled p_n-gram under both readings of Definition 2.2 and the
// bound L^2 D^-n; the first L whose error rate reaches --threshold is marked.
//
// Checkpoint: after every finished L the rows so far are written atomically to DIR/copy-fast-L.checkpoint.json; with
// --resume a killed sweep continues from there (the checkpoint must name the same parameters) and loses no finished
// point. At the end: copy-fast-L.csv, .gp, .png and .json (the sweep's certificate: parameters, every row, the
// counts of decisions each stage of the fast path certified, the tool's commit).
#pragma once

#include "io/json_fields.hpp"

#include "io/errors.hpp"
#include "checkers/sweep_output.hpp"
#include "checkers/verdict.hpp"
#include "constructions/copy/transformer.hpp"

namespace tverify::copy::fast {

struct LengthGrid {
  long lo = 0, hi = 0, step = 2;
  bool geometric = true;
  std::vector<long> values() const;
  std::vector<Json> keys() const;  // values() as checkpoint keys
  std::string text() const;
};

// "L=lo:hi:xF" (geometric, F >= 2) or "L=lo:hi:+S" (arithmetic); 1 <= lo <= hi <= 2^20. UsageError otherwise.
LengthGrid parse_length_grid(const std::string& vary);

// The seed of sample i at length L, shared by the fast sweeps: every (seed, L, i) draws its own string.
inline std::uint64_t sample_seed(std::uint64_t seed, long length, std::uint64_t i) {
  return seed * 1'000'003ull + static_cast<std::uint64_t>(length) * 7919ull + i;
}

struct FastSweepOptions {
  SweepOutput output;
  std::uint64_t samples = 64, seed = 1;
  Exact threshold{1, 2};
  bool resume = false;
  unsigned threads = 1;
};

// Refuses (UsageError naming --D and --n, or --embedding) a configuration the fast path cannot take: irrational
// weights, or integer scores that could exceed the SIMD kernels' 32 bits.
void require_fast_path(const copy::CopyTransformer& transformer);

// Refuses (UsageError with the estimate) a fast sweep whose largest L would need more memory than this machine has:
// each thread (a long string spreads over all of them) holds tables of about 1 KiB per position of its 2L + 1
// positions (measured: 4.3 GB peak for two threads at L = 2^20).
void require_memory(const LengthGrid& grid, const FastSweepOptions& o);

// A checkpoint row's "samples": must be this run's `samples` (UsageError otherwise); returns it.
std::uint64_t sampled_count(const Json& row, const FieldCheck& f, const std::string& at, std::uint64_t samples);

// The parameters a copy sweep's checkpoint must match: D, n, variant, embedding, tau, grid, samples, seed, and `sweep`.
Json fast_sweep_params(const copy::CopyTransformerConfig& base, const LengthGrid& grid, const FastSweepOptions& o,
                       const std::string& sweep);

Json sweep_copy_length_fast(const copy::CopyTransformerConfig& base, const LengthGrid& grid,
                            const FastSweepOptions& options);

}  // namespace tverify::copy::fast
