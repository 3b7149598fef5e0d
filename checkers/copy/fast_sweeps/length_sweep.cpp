#include "checkers/copy/fast_sweeps/length_sweep.hpp"

#include "checkers/certificate.hpp"
#include "checkers/checkpoint.hpp"
#include "checkers/confidence.hpp"
#include "constructions/copy/fast/copy_fast.hpp"
#include "checkers/sweep_output.hpp"
#include "core/parallel.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

namespace tverify::copy::fast {

namespace {

constexpr long max_length = 1L << 20;
constexpr const char* sweep_name = "copy-fast-L";

long parse_long(const std::string& text, const std::string& vary) {
  try {
    std::size_t used = 0;
    const long v = std::stol(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {}
  throw UsageError("--vary must be L=lo:hi:xF or L=lo:hi:+S with 1 <= lo <= hi <= 1048576 (got '" + vary + "')");
}

struct PointResult {
  std::uint64_t errors = 0, repeats_text = 0, repeats_formula = 0, undecided = 0;
  FastStats stats;
};

// The samples of one L. The transformer's weights do not depend on L (only its string positions do, and the fast
// path reads those from the string), so one FastCopy serves every L.
PointResult run_point(const FastCopy& fast, long length, const FastSweepOptions& o) {
  const copy::CopyTransformerConfig& config = fast.transformer().config();
  std::vector<PointResult> partial(o.threads);
  std::atomic<std::uint64_t> next{0};
  run_workers(o.threads, [&](unsigned w) {
    for (std::uint64_t i = next++; i < o.samples; i = next++) {
      std::mt19937_64 rng(sample_seed(o.seed, length, i));
      std::uniform_int_distribution<int> token(0, config.alphabet - 1);
      copy::TokenString x(static_cast<std::size_t>(length));
      for (auto& t : x) t = token(rng);
      const FastCopyRun r = fast.copy_string(x, 1, false);
      PointResult& p = partial[w];
      p.errors += !r.run.copied;
      p.undecided += !r.run.decided;
      p.repeats_text += copy::has_repeated_window(x, copy::window_length(copy::NgramReading::Text, config.n));
      p.repeats_formula += copy::has_repeated_window(x, copy::window_length(copy::NgramReading::Formula, config.n));
      p.stats.merge(r.stats);
    }
  });
  PointResult total;
  for (const auto& p : partial) {
    total.errors += p.errors, total.undecided += p.undecided;
    total.repeats_text += p.repeats_text, total.repeats_formula += p.repeats_formula;
    total.stats.merge(p.stats);
  }
  return total;
}

Json row_json(long length, const PointResult& r, std::uint64_t samples, double seconds) {
  return {{"L", length},
          {"samples", samples},
          {"errors", r.errors},
          {"undecided", r.undecided},
          {"repeats_text", r.repeats_text},
          {"repeats_formula", r.repeats_formula},
          {"steps", r.stats.steps},
          {"steps_by_bound", r.stats.by_bound},
          {"steps_by_index", r.stats.by_index},
          {"steps_by_levels", r.stats.by_levels},
          {"steps_by_exact", r.stats.by_exact},
          {"seconds", seconds}};
}

bool fast_path_takes(const copy::CopyTransformerConfig& config) {
  return !FastCopy::refusal(copy::CopyTransformer(config));
}

}  // namespace

void require_fast_path(const copy::CopyTransformer& transformer) {
  if (const auto why = IntegerLayer1::unsupported_reason(transformer))
    throw UsageError("--fast: " + *why +
                     "; use --embedding onehot, or a D where r is a square (D <= 64: r = "
                     "ceil(log2 D) with --variant corrected: D = 2 or 9..16; r = ceil(log2 D) + 2 with --variant "
                     "paper: D = 3..4)");
  if (const Refusal why = FastCopy::refusal(transformer)) {
    // The largest n the fast path takes with this D and variant, and with the other variant (the printed weights
    // give larger integer scores than the corrected ones, so the two limits can differ).
    const auto largest_n = [](copy::CopyTransformerConfig config) {
      while (config.n > 1 && !fast_path_takes(config)) --config.n;
      return config.n;
    };
    const copy::CopyTransformerConfig& config = transformer.config();
    copy::CopyTransformerConfig other = config;
    other.variant = config.variant == copy::TransformerVariant::Paper ? copy::TransformerVariant::Corrected
                                                                      : copy::TransformerVariant::Paper;
    const int here = largest_n(config), there = largest_n(other);
    const std::string hint = there > here
                                 ? fmt::format("; --variant {} takes n <= {}", copy::to_string(other.variant), there)
                                 : std::string();
    throw UsageError(fmt::format("--n: with D = {} and --variant {} the fast path takes n <= {} (got n = {}: {}{})",
                                 config.alphabet, copy::to_string(config.variant), here, config.n, *why, hint));
  }
}

Json fast_sweep_params(const copy::CopyTransformerConfig& base, const LengthGrid& grid, const FastSweepOptions& o,
                       const std::string& sweep) {
  return {{"sweep", sweep},
          {"D", base.alphabet},
          {"n", base.n},
          {"variant", copy::to_string(base.variant)},
          {"embedding", copy::to_string(base.embedding)},
          {"tau", base.tau ? exact_to_string(*base.tau) : "proof"},
          {"grid", grid.text()},
          {"samples", o.samples},
          {"seed", o.seed}};
}

std::vector<long> LengthGrid::values() const {
  std::vector<long> out;
  for (long v = lo; v <= hi; v = geometric ? v * step : v + step) out.push_back(v);
  return out;
}

std::vector<Json> LengthGrid::keys() const {
  std::vector<Json> out;
  for (const long v : values()) out.emplace_back(v);
  return out;
}

void require_memory(const LengthGrid& grid, const FastSweepOptions& o) {
  constexpr double bytes_per_position = 1024;
  const double active = static_cast<double>(o.threads);  // one long string spreads over every thread too
  const double per_thread = bytes_per_position * (2.0 * static_cast<double>(grid.hi) + 1);
  const double machine = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  const double usable = 0.8 * machine;
  if (active * per_thread <= usable) return;
  const long fits = static_cast<long>(usable / per_thread);
  throw UsageError(fmt::format(
      "--threads: {} threads at L = {} need about {:.1f} GB ({:.2f} GB each), more than 80% of "
      "this machine's {:.1f} GB; {}",
      static_cast<long>(active), grid.hi, active * per_thread / 1e9, per_thread / 1e9, machine / 1e9,
      fits >= 1 ? fmt::format("use --threads {} or fewer", fits) : std::string("lower the largest L of --vary")));
}

std::uint64_t sampled_count(const Json& row, const FieldCheck& f, const std::string& at, std::uint64_t samples) {
  if (f.count(row, "samples", at + ".samples", samples) != samples)
    f.fail(at + ".samples", "this run's --samples, " + std::to_string(samples));
  return samples;
}

std::string LengthGrid::text() const { return fmt::format("L={}:{}:{}{}", lo, hi, geometric ? "x" : "+", step); }

LengthGrid parse_length_grid(const std::string& vary) {
  const auto fail = [&] {
    return UsageError("--vary must be L=lo:hi:xF or L=lo:hi:+S with 1 <= lo <= hi <= 1048576, F >= 2, S >= 1 (got '" +
                      vary + "')");
  };
  if (vary.rfind("L=", 0) != 0) throw fail();
  const std::string spec = vary.substr(2);
  const auto c1 = spec.find(':'), c2 = spec.find(':', c1 == std::string::npos ? 0 : c1 + 1);
  if (c1 == std::string::npos || c2 == std::string::npos || c2 + 2 > spec.size()) throw fail();
  LengthGrid g;
  g.lo = parse_long(spec.substr(0, c1), vary);
  g.hi = parse_long(spec.substr(c1 + 1, c2 - c1 - 1), vary);
  const char kind = spec[c2 + 1];
  if (kind != 'x' && kind != '+') throw fail();
  g.geometric = kind == 'x';
  g.step = parse_long(spec.substr(c2 + 2), vary);
  if (g.lo < 1 || g.hi < g.lo || g.hi > max_length || g.step < (g.geometric ? 2 : 1)) throw fail();
  return g;
}

Json sweep_copy_length_fast(const copy::CopyTransformerConfig& base, const LengthGrid& grid,
                            const FastSweepOptions& o) {
  const copy::CopyTransformer transformer(base);
  require_fast_path(transformer);
  const FastCopy fast(transformer);
  require_gnuplot();
  prepare_output_dir(o.output.dir);
  Checkpoint checkpoint(
      o.output.dir, sweep_name, fast_sweep_params(base, grid, o, "error rate"), o.resume, grid.keys(),
      [&](const Json& row, const FieldCheck& f, const std::string& at) {
        const std::uint64_t samples = sampled_count(row, f, at, o.samples);
        for (const char* k : {"errors", "undecided", "repeats_text", "repeats_formula"})
          f.count(row, k, at + "." + k, samples);
        // Each kind of step is some of the steps.
        const std::uint64_t steps = f.count(row, "steps", at + ".steps", std::uint64_t{1} << 62);
        for (const char* k : {"steps_by_bound", "steps_by_index", "steps_by_levels", "steps_by_exact"})
          f.count(row, k, at + "." + k, steps);
        f.number(row, "seconds", at + ".seconds", true);
      });
  checkpoint.fill(grid.keys(), [&](const Json& key) {
    const long length = key.get<long>();
    const auto start = std::chrono::steady_clock::now();
    const PointResult r = run_point(fast, length, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return row_json(length, r, o.samples, seconds);
  });
  const std::vector<Json> rows = checkpoint.sorted_rows();
  SweepTable table{
      {"L", "samples", "errors", "error_rate", "ci95_low", "ci95_high", "p_ngram_text", "p_ngram_formula", "L2_over_Dn",
       "undecided", "steps_by_bound", "steps_by_index", "steps_by_levels", "steps_by_exact", "seconds"},
      {}};
  const double dn = std::pow(static_cast<double>(base.alphabet), base.n);
  std::optional<long> crossing;
  const double threshold = o.threshold.convert_to<double>();
  for (const Json& r : rows) {
    const auto samples = r["samples"].get<std::uint64_t>(), errors = r["errors"].get<std::uint64_t>();
    const auto [lo, hi] = wilson(errors, samples);
    const long length = r["L"].get<long>();
    const double rate = static_cast<double>(errors) / static_cast<double>(samples);
    if (!crossing && Exact(errors) >= o.threshold * Exact(samples)) crossing = length;
    table.rows.push_back(
        {std::to_string(length), std::to_string(samples), std::to_string(errors), fmt::format("{:.6f}", rate),
         fmt::format("{:.6f}", lo), fmt::format("{:.6f}", hi),
         fmt::format("{:.6f}", r["repeats_text"].get<double>() / static_cast<double>(samples)),
         fmt::format("{:.6f}", r["repeats_formula"].get<double>() / static_cast<double>(samples)),
         fmt::format("{:.6g}", static_cast<double>(length) * static_cast<double>(length) / dn),
         std::to_string(r["undecided"].get<std::uint64_t>()), std::to_string(r["steps_by_bound"].get<std::uint64_t>()),
         std::to_string(r["steps_by_index"].get<std::uint64_t>()),
         std::to_string(r["steps_by_levels"].get<std::uint64_t>()),
         std::to_string(r["steps_by_exact"].get<std::uint64_t>()), fmt::format("{:.3f}", r["seconds"].get<double>())});
  }
  Json summary{{"construction", "copy"},
               {"sweep", "fast: error rate vs L on uniform random strings"},
               {"params", checkpoint.params()},
               {"arithmetic",
                "exact integers (layer 1, scores); certified decisions (a rounded-up bound, else the "
                "exact evaluator's level readout in MPFI, else the exact evaluator)"},
               {"threshold", exact_to_string(o.threshold)},
               {"first_L_with_error_rate_at_or_above_threshold", crossing ? Json(*crossing) : Json(nullptr)},
               {"confidence", "Wilson 95% interval per point"},
               {"p_ngram", "sampled: the fraction of the same strings with a repeated window (text: n, formula: n+1)"},
               {"rows", rows}};
  PlotSpec plot{fmt::format("Certified copy error rate against the length: $D = {}$, $n = {}$, {} weights, {} "
                            "sampled strings per $L$",
                            base.alphabet, base.n, copy::to_string(base.variant), o.samples),
                "length $L$ (log scale)", "rate over the sampled strings"};
  plot.logx = true;
  plot.yrange = std::make_pair(0.0, 1.05);
  plot.x_column = "L";
  plot.series = {
      {"error_rate", "error rate, with its Wilson 95% interval", SeriesStyle::LinesPoints, "ci95_low", "ci95_high"},
      {"p_ngram_text", "$p_{n\\mathrm{-gram}}$ (text reading)"},
      {"p_ngram_formula", "$p_{n\\mathrm{-gram}}$ (formula reading)"},
      {"L2_over_Dn", "Lemma 2.4's bound $L^2 D^{-n}$"}};
  const double top_of_range = std::pow(static_cast<double>(base.alphabet), base.n);
  plot.shade = std::pair{2.0 * base.n, top_of_range};
  plot.shade_label = "Theorem 2.3's range $2n \\le L \\le D^n$";
  if (crossing)
    plot.marks.push_back(
        {static_cast<double>(*crossing), fmt::format("first $L$ with error rate $\\ge {}$", threshold)});
  write_sweep(o.output, sweep_name, table, plot, summary);
  return summary;
}

}  // namespace tverify::copy::fast
