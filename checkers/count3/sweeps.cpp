#include "checkers/count3/sweeps.hpp"

#include "checkers/count3/count3_claims.hpp"
#include "checkers/sweep_output.hpp"

#include <fmt/format.h>

namespace tverify::count3 {

namespace {

// The programs swept: Algorithm 4 in the run's variant for "alg4", both variants for "all".
std::vector<std::string> programs_for(const std::string& program, Alg4Variant variant) {
  if (program == "all") return {"alg4", "alg4-corrected", "alg6"};
  if (program == "alg5") throw UsageError("--program alg5 computes Match3', not Count3; sweep alg4, alg6 or all");
  if (program == "alg4" && variant == Alg4Variant::Corrected) return {"alg4-corrected"};
  return {program};
}

}  // namespace

Json sweep_value_range(int length, const std::string& program, const ProgramSemantics& semantics,
                       std::optional<long long> value_max, const SweepOutput& output, const RunOptions& run) {
  const rasp::MeanSemantics mean = semantics.mean;
  const std::vector<std::string> programs = programs_for(program, semantics.alg4);
  const bool given = value_max.has_value();
  const long long asked = value_max.value_or(3LL * length);
  // --max-inputs bounds the whole run: every row's sequences, once per program. A given --L-max beyond it is refused;
  // the default (3n) stops at the last K within it.
  long long k_max = 0;
  BigInt total = 0;
  for (long long k = 1; k <= asked; ++k) {
    total += big_pow(static_cast<unsigned long>(k + 1), static_cast<unsigned long>(length)) * programs.size();
    if (total > BigInt(run.max_inputs) && !run.force) break;
    k_max = k;
  }
  if (k_max < asked && (given || k_max == 0))
    throw UsageError(
        fmt::format("--L-max: K up to {} needs more than --max-inputs = {} program runs (K up to {} fits); "
                    "lower --L-max, raise --max-inputs or add --force",
                    asked, run.max_inputs, k_max));
  require_gnuplot();
  prepare_output_dir(output.dir);
  SweepTable table;
  table.columns = {"K", "sequences"};
  for (const auto& p : programs) table.columns.insert(table.columns.end(), {p + "_agree", p + "_fraction"});
  Json rows = Json::array();
  long long last_k = 0;
  for (long long k = 1; k <= k_max; ++k) {
    const InputSource inputs = InputSource::exhaustive(make_sequence_domain(length, 0, k, run, length));
    std::vector<std::string> row{std::to_string(k), std::to_string(inputs.size())};
    Json json_row{{"K", k}, {"sequences", inputs.size()}};
    for (const auto& p : programs) {
      const Agreement a = count3_agreement(p, inputs, mean, run);
      const Exact fraction(BigInt(a.agreed), BigInt(a.checked));
      row.push_back(std::to_string(a.agreed));
      row.push_back(fmt::format("{:.6f}", fraction.convert_to<double>()));
      json_row[p] = {{"agree", a.agreed}, {"fraction", exact_to_string(fraction)}};
    }
    table.rows.push_back(row);
    rows.push_back(json_row);
    last_k = k;
  }
  PlotSpec plot;
  plot.title = fmt::format("Count3 programs against eq. (4): every sequence of length $n = {}$ over $0..K$", length);
  plot.xlabel = "largest value $K$";
  plot.ylabel = "fraction of sequences where the program gives Count3";
  plot.x_column = "K";
  plot.yrange = std::make_pair(0.0, 1.05);
  for (const auto& p : programs) plot.series.push_back({p + "_fraction", p});
  plot.marks.push_back({static_cast<double>(length - 1), "$K = n - 1$"});
  Json summary{{"length", length},
               {"largest_K", last_k},
               {"programs", programs},
               {"rows", rows},
               {"note",
                "exact: every sequence of length n over 0..K, K up to --L-max (default: 3n, or the largest K whose "
                "rows together fit --max-inputs)"}};
  write_sweep(output, "count3-values", table, plot, summary);
  return summary;
}

}  // namespace tverify::count3
