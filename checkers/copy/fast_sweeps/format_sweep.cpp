#include "checkers/copy/fast_sweeps/format_sweep.hpp"

#include "checkers/checkpoint.hpp"
#include "constructions/copy/fast/copy_fast.hpp"
#include "checkers/sweep_output.hpp"
#include "core/parallel.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <sstream>

namespace tverify::copy::fast {

std::vector<FloatFormat> parse_formats(const std::string& text) {
  std::vector<FloatFormat> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    bool known = false;
    for (auto f : {FloatFormat::Float64, FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16})
      if (item == to_string(f)) out.push_back(f), known = true;
    if (!known)
      throw UsageError("--formats must be a comma-separated list of float64, float32, bfloat16, float16 (got '" + text +
                       "')");
  }
  if (out.empty()) throw UsageError("--formats must name at least one of float64, float32, bfloat16, float16");
  return out;
}

void prepare_repeat_free_sweep(const copy::CopyTransformer& transformer, const LengthGrid& grid,
                               const FastSweepOptions& o, const std::string& option) {
  require_fast_path(transformer);
  const auto& c = transformer.config();
  const double repeat_free_max = std::pow(static_cast<double>(c.alphabet), c.n);
  if (static_cast<double>(grid.hi) > repeat_free_max)
    throw UsageError(fmt::format("--vary: with {} the strings are repeat-free, so L must stay <= D^n = {} (got {})",
                                 option, repeat_free_max, grid.text()));
  require_gnuplot();
  prepare_output_dir(o.output.dir);
}

namespace {

struct FormatCounts {
  std::uint64_t failures = 0, steps = 0, saturated = 0, nonfinite = 0;
  void merge(const FormatCounts& o) {
    failures += o.failures, steps += o.steps, saturated += o.saturated, nonfinite += o.nonfinite;
  }
};

// One L: every sampled string in the exact construction (fast path) and in each format; a checkpoint row.
Json run_point(const FastCopy& fast, const std::vector<FloatFormat>& formats, long length, const FastSweepOptions& o) {
  const auto& base = fast.transformer().config();
  std::vector<std::vector<FormatCounts>> counts(o.threads, std::vector<FormatCounts>(formats.size()));
  std::vector<std::uint64_t> exact_copied(o.threads, 0);
  std::atomic<std::uint64_t> next{0};
  run_workers(o.threads, [&](unsigned w) {
    for (std::uint64_t i = next++; i < o.samples; i = next++) {
      const copy::TokenString x = copy::repeat_free_string(base.alphabet, base.n, static_cast<std::size_t>(length),
                                                           sample_seed(o.seed, length, i));
      exact_copied[w] += fast.copy_string(x, 1, false).run.copied;
      for (std::size_t k = 0; k < formats.size(); ++k) {
        const FloatRun r = copies_in_format(fast.transformer(), formats[k], x);
        counts[w][k].merge({!r.copied, r.steps, r.saturated_steps, r.nonfinite});
      }
    }
  });
  std::uint64_t copied = 0;
  for (auto c : exact_copied) copied += c;
  Json row{{"L", length}, {"samples", o.samples}, {"exact_copied", copied}, {"formats", Json::object()}};
  for (std::size_t k = 0; k < formats.size(); ++k) {
    FormatCounts total;
    for (const auto& per : counts) total.merge(per[k]);
    row["formats"][to_string(formats[k])] = {{"failures", total.failures},
                                             {"steps", total.steps},
                                             {"saturated", total.saturated},
                                             {"nonfinite", total.nonfinite}};
  }
  return row;
}

}  // namespace

Json sweep_copy_formats(const copy::CopyTransformerConfig& base, const LengthGrid& grid,
                        const std::vector<FloatFormat>& formats, const FastSweepOptions& o) {
  const copy::CopyTransformer transformer(base);
  prepare_repeat_free_sweep(transformer, grid, o, "--formats");
  const FastCopy fast(transformer);
  std::string names;
  for (auto f : formats) names += (names.empty() ? "" : ",") + std::string(to_string(f));
  Checkpoint checkpoint(o.output.dir, "copy-fast-formats", fast_sweep_params(base, grid, o, "formats " + names),
                        o.resume, grid.keys(), [&](const Json& row, const FieldCheck& f, const std::string& at) {
                          const std::uint64_t samples = sampled_count(row, f, at, o.samples);
                          f.count(row, "exact_copied", at + ".exact_copied", samples);
                          const Json& measured = f.need(row, "formats", at + ".formats");
                          for (auto format : formats) {
                            const std::string name = to_string(format), here = at + ".formats." + name;
                            const Json& one = f.need(measured, name, here);
                            f.count(one, "failures", here + ".failures", samples);
                            for (const char* k : {"steps", "saturated", "nonfinite"})
                              f.count(one, k, here + "." + k, std::uint64_t{1} << 62);
                          }
                        });
  checkpoint.fill(grid.keys(), [&](const Json& key) { return run_point(fast, formats, key.get<long>(), o); });
  SweepTable table{{"L", "samples", "exact_copied"}, {}};
  for (auto f : formats) {
    const std::string name = to_string(f);
    for (const char* col : {"_error_rate", "_saturated_steps", "_nonfinite"}) table.columns.push_back(name + col);
  }
  Json first_failure = Json::object();
  for (const Json& r : checkpoint.sorted_rows()) {
    const long length = r["L"].get<long>();
    const auto samples = r["samples"].get<double>();
    std::vector<std::string> row{std::to_string(length), std::to_string(r["samples"].get<std::uint64_t>()),
                                 std::to_string(r["exact_copied"].get<std::uint64_t>())};
    for (auto f : formats) {
      const std::string name = to_string(f);
      const Json& c = r["formats"][name];
      const auto failures = c["failures"].get<std::uint64_t>(), steps = c["steps"].get<std::uint64_t>();
      if (failures > 0 && !first_failure.contains(name)) first_failure[name] = length;
      row.push_back(fmt::format("{:.6f}", static_cast<double>(failures) / samples));
      row.push_back(fmt::format("{:.6f}", steps ? c["saturated"].get<double>() / static_cast<double>(steps) : 0.0));
      row.push_back(std::to_string(c["nonfinite"].get<std::uint64_t>()));
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
               {"params", checkpoint.params()},
               {"rows", checkpoint.sorted_rows()},
               {"first_L_with_a_failure", first_failure},
               {"unshifted_softmax", overflow},
               {"softmax", "max-shifted in every format; saturated = every non-top weight rounded to 0"},
               {"emulation", "bfloat16 and float16: each operation in float, rounded to nearest-even in the format"}};
  PlotSpec plot{fmt::format("The copy transformer in floating point: repeat-free strings not copied, $D = {}$, "
                            "$n = {}$, {} weights",
                            base.alphabet, base.n, copy::to_string(base.variant)),
                "length $L$ (log scale)", "fraction not copied (a measurement, not a verdict)"};
  plot.logx = true;
  plot.yrange = std::make_pair(0.0, 1.05);
  plot.x_column = "L";
  for (auto f : formats) plot.series.push_back({std::string(to_string(f)) + "_error_rate", to_string(f)});
  write_sweep(o.output, "copy-fast-formats", table, plot, summary);
  return summary;
}

}  // namespace tverify::copy::fast
