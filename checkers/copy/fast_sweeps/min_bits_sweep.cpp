#include "checkers/copy/fast_sweeps/min_bits_sweep.hpp"

#include "checkers/checkpoint.hpp"
#include "constructions/copy/fast/copy_fast.hpp"
#include "checkers/copy/fast_sweeps/format_sweep.hpp"
#include "constructions/copy/fast/mpfr_bits_copy.hpp"
#include "core/refusal.hpp"
#include "checkers/sweep_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace tverify::copy::fast {

namespace {

constexpr const char* sweep_name = "copy-fast-min-bits";
constexpr int kFewestBitsProbed = 2;  // as `sweep copy --vary bits`

struct BitsPoint {
  std::uint64_t exact_copied = 0, undecided = 0, steps = 0, mpfr_steps = 0;
  std::optional<int> min_bits;
  Json probes = Json::array();  // per bits tried: whether every string copied, else the failing string and step
};

// One run of the MPFR-bits evaluator; a configuration beyond its limits is this sweep's usage error.
BitsRun run_within_limits(const MpfrBitsCopy& bits_copy, const copy::TokenString& x, int bits, unsigned threads) {
  BitsRun run = bits_copy.run(x, bits, threads);
  if (run.refusal) throw UsageError("--min-bits: " + *run.refusal + "; lower the largest L of --vary");
  return run;
}

// The probe at `bits`: true when every string copies; a failure is recorded in point.probes.
bool all_copy(const MpfrBitsCopy& bits_copy, const std::vector<copy::TokenString>& strings, int bits, unsigned threads,
              BitsPoint& point) {
  for (std::size_t i = 0; i < strings.size(); ++i) {
    const BitsRun r = run_within_limits(bits_copy, strings[i], bits, threads);
    point.steps += r.steps, point.mpfr_steps += r.mpfr_steps;
    if (!r.copied()) {
      point.probes.push_back(
          {{"bits", bits}, {"copied_all", false}, {"string", i}, {"first_wrong_step", *r.first_wrong_step}});
      return false;
    }
  }
  point.probes.push_back({{"bits", bits}, {"copied_all", true}});
  return true;
}

BitsPoint run_point(const FastCopy& fast, const MpfrBitsCopy& bits_copy, long length, const FastSweepOptions& o) {
  const auto& config = fast.transformer().config();
  BitsPoint point;
  std::vector<copy::TokenString> copyable;  // what the exact construction copies, certified by the fast path
  for (std::uint64_t i = 0; i < o.samples; ++i) {
    copy::TokenString x = copy::repeat_free_string(config.alphabet, config.n, static_cast<std::size_t>(length),
                                                   sample_seed(o.seed, length, i));
    const FastCopyRun r = fast.copy_string(x, o.threads, false);
    point.undecided += !r.run.decided;
    if (r.run.decided && r.run.copied) copyable.push_back(std::move(x));
  }
  point.exact_copied = copyable.size();
  if (copyable.empty()) return point;
  for (int bits = kFewestBitsProbed; bits <= MpfrBitsCopy::kMaxBits && !point.min_bits; ++bits)
    if (all_copy(bits_copy, copyable, bits, o.threads, point)) point.min_bits = bits;
  return point;
}

Json row_json(long length, const BitsPoint& p, std::uint64_t samples, double seconds) {
  return {{"L", length},
          {"samples", samples},
          {"exact_copied", p.exact_copied},
          {"undecided", p.undecided},
          {"min_bits", p.min_bits ? Json(*p.min_bits) : Json(nullptr)},
          {"probes", p.probes},
          {"steps", p.steps},
          {"mpfr_steps", p.mpfr_steps},
          {"seconds", seconds}};
}

// The table's min_bits cell: the width, or why there is none.
std::string min_bits_text(const Json& row) {
  if (!row["min_bits"].is_null()) return std::to_string(row["min_bits"].get<int>());
  if (row["exact_copied"].get<std::uint64_t>() == 0) return "n/a (the exact construction copies no sampled string)";
  return fmt::format("none <= {}", MpfrBitsCopy::kMaxBits);
}

}  // namespace

Json sweep_copy_min_bits(const copy::CopyTransformerConfig& base, const LengthGrid& grid, const FastSweepOptions& o) {
  const copy::CopyTransformer transformer(base);
  prepare_repeat_free_sweep(transformer, grid, o, "--min-bits");
  const FastCopy fast(transformer);
  const MpfrBitsCopy bits_copy(transformer);
  Checkpoint checkpoint(o.output.dir, sweep_name, fast_sweep_params(base, grid, o, "min bits"), o.resume, grid.keys(),
                        [&](const Json& row, const FieldCheck& f, const std::string& at) {
                          const std::uint64_t samples = sampled_count(row, f, at, o.samples);
                          for (const char* k : {"exact_copied", "undecided"}) f.count(row, k, at + "." + k, samples);
                          if (!f.need(row, "min_bits", at + ".min_bits").is_null())
                            if (f.count(row, "min_bits", at + ".min_bits", MpfrBitsCopy::kMaxBits) < 2)
                              f.fail(at + ".min_bits",
                                     fmt::format("null or a whole number from 2 to {}", MpfrBitsCopy::kMaxBits));
                          const Json& probes = f.need(row, "probes", at + ".probes");
                          if (!probes.is_array()) f.fail(at + ".probes", "a list");
                          for (std::size_t i = 0; i < probes.size(); ++i) {
                            const std::string here = at + ".probes[" + std::to_string(i) + "]";
                            f.count(probes[i], "bits", here + ".bits", MpfrBitsCopy::kMaxBits);
                            f.boolean(probes[i], "copied_all", here + ".copied_all", true);
                          }
                          for (const char* k : {"steps", "mpfr_steps"})
                            f.count(row, k, at + "." + k, std::uint64_t{1} << 62);
                          f.number(row, "seconds", at + ".seconds", true);
                        });
  checkpoint.fill(grid.keys(), [&](const Json& key) {
    const long length = key.get<long>();
    const auto start = std::chrono::steady_clock::now();
    const BitsPoint point = run_point(fast, bits_copy, length, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return row_json(length, point, o.samples, seconds);
  });
  const std::vector<Json> rows = checkpoint.sorted_rows();
  SweepTable table{{"L", "samples", "exact_copied", "min_bits", "log2_log2_L", "steps", "mpfr_steps", "seconds"}, {}};
  for (const Json& r : rows) {
    const long length = r["L"].get<long>();
    const double loglog = length >= 4 ? std::log2(std::log2(static_cast<double>(length))) : 0.0;
    table.rows.push_back({std::to_string(length), std::to_string(r["samples"].get<std::uint64_t>()),
                          std::to_string(r["exact_copied"].get<std::uint64_t>()), min_bits_text(r),
                          fmt::format("{:.4f}", loglog), std::to_string(r["steps"].get<std::uint64_t>()),
                          std::to_string(r["mpfr_steps"].get<std::uint64_t>()),
                          fmt::format("{:.3f}", r["seconds"].get<double>())});
  }
  Json summary{{"construction", "copy"},
               {"sweep",
                "fast: the fewest MPFR bits at which the construction copies every sampled repeat-free string "
                "the exact construction copies (a measurement; Remark 2.6 says O(log log L) bits suffice)"},
               {"params", checkpoint.params()},
               {"arithmetic",
                "MPFR semantics, round to nearest at every operation (FinitePrecisionCopy); the per-key "
                "sums in double rounded to b bits (exact for b <= 25 by double rounding with 53 >= 2b+2), "
                "per-level values in MPFR; steps with more than 64 score levels in MPFR itself"},
               {"exact_copies", "decided by the certified fast path; only strings it certifies as copied are probed"},
               {"bits_probed", fmt::format("{}..{}", kFewestBitsProbed, MpfrBitsCopy::kMaxBits)},
               {"rows", rows}};
  PlotSpec plot{fmt::format("Fewest MPFR bits that copy every sampled repeat-free string: $D = {}$, $n = {}$, {} "
                            "weights",
                            base.alphabet, base.n, copy::to_string(base.variant)),
                "length $L$ (log scale)", "bits of precision"};
  plot.logx = true;
  plot.x_column = "L";
  double highest = 4;  // keep both curves off the frame
  for (const Json& r : rows)
    if (!r["min_bits"].is_null()) highest = std::max(highest, r["min_bits"].get<double>());
  plot.yrange = std::make_pair(0.0, highest + 2);
  plot.series = {{"min_bits", "fewest bits (measured, round to nearest)"}, {"log2_log2_L", "$\\log_2 \\log_2 L$"}};
  write_sweep(o.output, sweep_name, table, plot, summary);
  return summary;
}

}  // namespace tverify::copy::fast
