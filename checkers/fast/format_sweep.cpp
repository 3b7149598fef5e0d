#include "checkers/fast/format_sweep.hpp"

#include "checkers/build_info.hpp"
#include "checkers/fast/copy_fast.hpp"
#include "checkers/sweep_output.hpp"
#include "core/parallel.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cmath>

namespace tverify::fast {

void prepare_repeat_free_sweep(const copy::CopyTransformer& transformer, const LengthGrid& grid,
                               const FastSweepOptions& o, const std::string& option) {
  require_fast_path(transformer);
  const auto& c = transformer.config();
  const double repeat_free_max = std::pow(static_cast<double>(c.alphabet), c.n);
  if (static_cast<double>(grid.hi) > repeat_free_max)
    throw UsageError(fmt::format("--vary: with {} the strings are repeat-free, so L must stay <= D^n = {} (got {})",
                                 option, repeat_free_max, grid.text()));
  require_gnuplot();
  prepare_output_dir(o.out_dir);
}

namespace {

struct FormatCounts {
  std::uint64_t failures = 0, steps = 0, saturated = 0, nonfinite = 0;
};

}  // namespace

Json sweep_copy_formats(const copy::CopyTransformerConfig& base, const LengthGrid& grid,
                        const std::vector<FloatFormat>& formats, const FastSweepOptions& o) {
  const copy::CopyTransformer transformer(base);
  prepare_repeat_free_sweep(transformer, grid, o, "--formats");
  const FastCopy fast(transformer);
  SweepTable table{{"L", "samples", "exact_copied"}, {}};
  for (auto f : formats) {
    const std::string name = to_string(f);
    for (const char* col : {"_error_rate", "_saturated_steps", "_nonfinite"}) table.columns.push_back(name + col);
  }
  Json first_failure = Json::object();
  for (const long length : grid.values()) {
    std::vector<std::vector<FormatCounts>> counts(o.threads, std::vector<FormatCounts>(formats.size()));
    std::vector<std::uint64_t> exact_copied(o.threads, 0);
    std::atomic<std::uint64_t> next{0};
    run_workers(o.threads, [&](unsigned w) {
      for (std::uint64_t i = next++; i < o.samples; i = next++) {
        const copy::TokenString x = copy::repeat_free_string(base.alphabet, base.n, static_cast<std::size_t>(length),
                                                             sample_seed(o.seed, length, i));
        exact_copied[w] += fast.copy_string(x, 1, false).run.copied;
        for (std::size_t k = 0; k < formats.size(); ++k) {
          const FloatRun r = copies_in_format(transformer, formats[k], x);
          FormatCounts& c = counts[w][k];
          c.failures += !r.copied, c.steps += r.steps, c.saturated += r.saturated_steps, c.nonfinite += r.nonfinite;
        }
      }
    });
    std::uint64_t copied = 0;
    for (auto c : exact_copied) copied += c;
    std::vector<std::string> row{std::to_string(length), std::to_string(o.samples), std::to_string(copied)};
    for (std::size_t k = 0; k < formats.size(); ++k) {
      FormatCounts total;
      for (const auto& per : counts)
        total.failures += per[k].failures, total.steps += per[k].steps, total.saturated += per[k].saturated,
            total.nonfinite += per[k].nonfinite;
      const std::string name = to_string(formats[k]);
      if (total.failures > 0 && !first_failure.contains(name)) first_failure[name] = length;
      row.push_back(fmt::format("{:.6f}", static_cast<double>(total.failures) / static_cast<double>(o.samples)));
      row.push_back(fmt::format("{:.6f}", total.steps ? static_cast<double>(total.saturated) / static_cast<double>(total.steps) : 0.0));
      row.push_back(std::to_string(total.nonfinite));
    }
    table.rows.push_back(row);
  }
  const double tau = transformer.tau_interval<64>().midpoint_double();
  Json overflow = Json::object();
  for (auto f : formats)
    overflow[to_string(f)] = {{"tau_times_n", tau * base.n},
                              {"log_of_largest_value", std::log(format_max(f))},
                              {"unshifted_softmax_overflows_at_every_L", tau * base.n > std::log(format_max(f))}};
  for (auto f : formats)
    if (!first_failure.contains(to_string(f))) first_failure[to_string(f)] = nullptr;
  Json summary{{"construction", "copy"},
               {"sweep", "fast: finite-precision formats on repeat-free strings (a measurement, not a verification)"},
               {"params", {{"D", base.alphabet}, {"n", base.n}, {"grid", grid.text()}, {"samples", o.samples},
                           {"seed", o.seed}, {"variant", base.variant == copy::TransformerVariant::Paper ? "paper" : "corrected"}}},
               {"first_L_with_a_failure", first_failure},
               {"unshifted_softmax", overflow},
               {"softmax", "max-shifted in every format; saturated = every non-top weight rounded to 0"},
               {"emulation", "bfloat16 and float16: each operation in float, rounded to nearest-even in the format"},
               {"commit", tool_commit()}};
  PlotSpec plot{fmt::format("copy in floating point: fraction of repeat-free strings not copied (D = {}, n = {})",
                            base.alphabet, base.n),
                "L", "fraction not copied"};
  plot.logx = true;
  plot.yrange = std::make_pair(0.0, 1.05);
  plot.x_column = "L";
  for (auto f : formats) plot.series.push_back({std::string(to_string(f)) + "_error_rate", to_string(f)});
  write_sweep(o.out_dir, "copy-fast-formats", table, plot, summary);
  return summary;
}

}  // namespace tverify::fast
