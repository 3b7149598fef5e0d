#include "checkers/cat/sweeps.hpp"

#include "checkers/checkpoint.hpp"
#include "checkers/cluster.hpp"
#include "checkers/sweep_output.hpp"
#include "constructions/cat/tasks.hpp"
#include "constructions/cat/temperature.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <optional>

namespace tverify::cat {

namespace {

constexpr long length_cap_default = 64;
constexpr long length_cap_max = 4096;           // the exact evaluator materialises every instance
constexpr long length_cap_fast_max = 1L << 20;  // --fast: the windows are grouped, any L costs the same

// Every valid instance of length exactly `length` decoded to its target (exhaustive, certified).
bool solves_all(const CatLayer& layer, const CatSetup& setup, int length, const RunOptions& run) {
  RunOptions quiet = run;
  quiet.max_counterexamples = 1;
  const Tally t =
      for_each_sequence(setup.vocabulary, length, length, quiet, "probe", [&](const Tokens& z, Tally& tally) {
        const auto match = nar_match(z, setup.n);
        if (!match) return;
        const Decoded d = layer.decode_last(z);
        if (d.token && *d.token == z[*match + 1]) return tally.pass();
        ++tally.checked, ++tally.failed;
      });
  return t.failed == 0;
}

// Exhaustive probes inside a sweep stay small: at most this many sequences per probe (or --max-inputs if lower).
constexpr std::uint64_t sweep_probe_budget = 200'000;

bool fits_budget(int vocabulary, int length, const RunOptions& run) {
  return big_pow(static_cast<unsigned long>(vocabulary), static_cast<unsigned long>(length)) <=
         BigInt(std::min<std::uint64_t>(run.max_inputs, sweep_probe_budget));
}

// Does some worst-case instance of length L fail? By the exact evaluator, or with --fast by the fast path (any L).
using FamilyProbe = std::function<bool(const CatConfig& config, int vocabulary, int n, std::uint64_t length)>;

FamilyProbe family_probe(bool fast) {
  if (fast)
    return [](const CatConfig& config, int vocabulary, int n, std::uint64_t length) {
      return worst_case_failure_fast(config, vocabulary, n, length).has_value();
    };
  return [](const CatConfig& config, int vocabulary, int n, std::uint64_t length) {
    return worst_case_failure(CatLayer(config), vocabulary, n, static_cast<int>(length)).has_value();
  };
}

// The largest L <= cap at which no worst-case instance fails, by bisection, which assumes failures persist as the
// filler grows; whether the probes made are monotone (every passing length below every failing one) is checked.
struct FamilyLimit {
  long length = 0;
  bool monotone_on_probes = true;
};

FamilyLimit family_length_limit(const FamilyProbe& fails, const CatConfig& config, const CatSetup& setup, long cap) {
  long longest_passing = 0, shortest_failing = 0;  // 0: no such probe
  auto fails_at = [&](long length) {
    const bool failed = fails(config, setup.vocabulary, setup.n, static_cast<std::uint64_t>(length));
    if (failed && (shortest_failing == 0 || length < shortest_failing)) shortest_failing = length;
    if (!failed) longest_passing = std::max(longest_passing, length);
    return failed;
  };
  auto result = [&](long length) {
    return FamilyLimit{length, shortest_failing == 0 || longest_passing < shortest_failing};
  };
  const long first = 2L * setup.n + 1;  // the shortest b^p g t b^r g
  if (fails_at(first)) return result(first - 1);
  if (!fails_at(cap)) return result(cap);
  long ok = first, bad = cap;
  while (bad - ok > 1) {
    const long mid = ok + (bad - ok) / 2;
    (fails_at(mid) ? bad : ok) = mid;
  }
  return result(ok);
}

// The curves of one plot: the geometric filter 2^-j for every N' < N (N' = 1 is F = (1)), the given (N, F), and for
// N >= 2 the geometric filter 3^-j of length N.
std::vector<CatSetup> sweep_series(const CatSetup& setup) {
  auto geometric = [](int n, unsigned long base) {
    Filter f;
    for (int j = 0; j < n; ++j) f.emplace_back(BigInt(1), big_pow(base, static_cast<unsigned long>(j)));
    return f;
  };
  auto with = [&](int n, Filter filter) {
    CatSetup one = setup;
    one.n = n;
    one.config.filter = std::move(filter);
    return one;
  };
  std::vector<CatSetup> out;
  for (int n = 1; n < setup.n; ++n) out.push_back(with(n, geometric(n, 2)));
  out.push_back(setup);
  if (setup.n >= 2 && geometric(setup.n, 3) != setup.config.filter) out.push_back(with(setup.n, geometric(setup.n, 3)));
  return out;
}

// c = 1/2, 3/4, ..., 6; with --fast (L up to 2^20 needs larger c) on to 16 in steps of 1/2. The sweep stops early
// once every curve reaches the cap.
std::vector<Exact> c_grid(bool fast) {
  std::vector<Exact> out;
  for (int k = 2; k <= 24; ++k) out.emplace_back(k, 4);
  if (fast)
    for (int k = 13; k <= 32; ++k) out.emplace_back(k, 2);
  return out;
}

std::vector<Json> c_keys(bool fast) {
  std::vector<Json> keys;
  for (const Exact& c : c_grid(fast)) keys.emplace_back(exact_to_string(c));
  return keys;
}

std::string evaluator_text(bool fast) {
  return fast ? "fast path: keys grouped by their window, the exact evaluator's level decision "
                "(constructions/cat/fast/cat_fast.hpp)"
              : "the exact evaluator (CatLayer), every instance materialised";
}

std::string filter_text(const Filter& f) {
  std::string out;
  for (const auto& x : f) out += (out.empty() ? "" : ",") + exact_to_string(x);
  return "(" + out + ")";
}

// One c of sweep_length_limit, every curve: {"c", "cells" (the CSV row), "row" (the JSON row), "all_at_cap"}.
Json length_limit_entry(const Exact& c, const std::vector<CatSetup>& series, const FamilyProbe& fails, long cap,
                        const RunOptions& run) {
  std::vector<std::string> cells{exact_to_string(c), fmt::format("{:.4f}", Exact(c * c).convert_to<double>())};
  Json json_row{{"c", exact_to_string(c)}, {"c_squared", exact_to_string(c * c)}};
  bool all_at_cap = true;
  for (std::size_t f = 0; f < series.size(); ++f) {
    const CatSetup& one = series[f];
    CatConfig config = one.config;
    config.c_squared = c * c;
    const CatLayer layer(config);
    // The worst-case family bounds L_max from above; exhaustive scans from below decide it where they fit.
    const FamilyLimit family = family_length_limit(fails, config, one, cap);
    long lmax = family.length;
    int exhaustive_to = one.n;  // every valid instance of length <= exhaustive_to decoded
    bool exact = false;
    for (int length = one.n + 1; length <= lmax && fits_budget(one.vocabulary, length + 1, run); ++length) {
      if (!solves_all(layer, one, length, run)) {
        lmax = length - 1;
        exact = true;
        break;
      }
      exhaustive_to = length;
    }
    exact = exact || exhaustive_to >= lmax;
    const SignatureReport sig = analyse_signatures(config.filter, config.embedding, one.n);
    const long sufficient =
        sig.distinct() && sig.max_cosine
            ? sufficient_length(c * c, one.config.embedding.min_distance_squared(), sig.gamma(), config.delay)
            : 0;
    const char* kind = exact ? "exact" : lmax >= cap ? "at_cap" : "upper";
    cells.insert(cells.end(), {std::to_string(lmax), kind, std::to_string(std::min(sufficient, cap))});
    json_row[fmt::format("series{}", f + 1)] = {{"N", one.n},
                                                {"filter", filter_text(config.filter)},
                                                {"L_max", lmax},
                                                {"at_cap", lmax >= cap},
                                                {"exact", exact},
                                                {"exhaustive_up_to", exhaustive_to},
                                                {"family_monotone_on_probes", family.monotone_on_probes},
                                                {"L_sufficient", sufficient}};
    all_at_cap = all_at_cap && lmax >= cap;
  }
  return {{"c", exact_to_string(c)}, {"cells", cells}, {"row", json_row}, {"all_at_cap", all_at_cap}};
}

// A --fast sweep keeps a checkpoint in its output directory (a killed sweep resumes with --resume and loses no
// finished point); the sweeps of the exact evaluator stay within the exhaustive budget and keep none. The parameters
// it must match: the construction's, the sweep, and the budget of the exhaustive probes. Each row holds the key, the
// table's `cells` (one text per column) and the summary's `row` (an object).
std::optional<Checkpoint> fast_checkpoint(const CatSweepOptions& request, const CatSetup& setup,
                                          const ParamValues& params, const std::string& sweep, const RunOptions& run,
                                          const std::string& key, std::vector<Json> grid, std::size_t cells,
                                          const Json& extra = Json::object()) {
  if (!request.fast) return std::nullopt;
  Json checked{
      {"sweep", sweep}, {"variant", setup.variant}, {"params", params.to_json()}, {"max_inputs", run.max_inputs}};
  checked.update(extra);
  auto check = [cells, key](const Json& row, const FieldCheck& f, const std::string& at) {
    const Json& texts = f.need(row, "cells", at + ".cells");
    if (!texts.is_array() || texts.size() != cells ||
        !std::all_of(texts.begin(), texts.end(), [](const Json& t) { return t.is_string(); }))
      f.fail(at + ".cells", fmt::format("a list of {} strings", cells));
    if (!f.need(row, "row", at + ".row").is_object()) f.fail(at + ".row", "an object");
    const std::string key_text = row[key].is_string() ? row[key].get<std::string>() : row[key].dump();
    if (texts[0] != key_text) f.fail(at + ".cells[0]", "the row's own " + key + ", " + key_text);
    if (f.need(row["row"], key, at + ".row." + key) != row[key]) f.fail(at + ".row." + key, "the row's own " + key);
    if (key == "c") f.boolean(row, "all_at_cap", at + ".all_at_cap", true);
  };
  return std::make_optional<Checkpoint>(request.output.dir, sweep, std::move(checked), request.resume, std::move(grid),
                                        check, key);
}

// The entries of `keys`, in their order: from the checkpoint where it has them, the others computed (and recorded in
// the checkpoint). Alone, one after the other; under MPI the points go out to the ranks, each computed within its rank.
std::vector<Json> entries_of(std::optional<Checkpoint>& checkpoint, const std::vector<Json>& keys,
                             const std::function<Json(const Json& key)>& compute) {
  std::vector<Json> entries;
  if (checkpoint) {
    checkpoint->fill(keys, compute);
    for (const Json& key : keys) entries.push_back(*checkpoint->find(key));
    return entries;
  }
  for (const auto& text : map_items(keys.size(), [&](std::uint64_t i) { return compute(keys[i]).dump(); }))
    entries.push_back(Json::parse(text));
  return entries;
}

// The c of the grid, `wave` points at a time (one per rank), up to the first whose every curve reaches the cap: the
// rows after it would add nothing. Alone (wave 1) no point past it is computed; under MPI at most wave - 1 are.
std::vector<Json> length_limit_entries(std::optional<Checkpoint>& checkpoint, bool fast,
                                       const std::function<Json(const Json& key)>& compute) {
  const std::vector<Json> keys = c_keys(fast);
  const Cluster* const cluster = active_cluster();
  const std::size_t wave = cluster ? static_cast<std::size_t>(cluster->ranks()) : 1;
  std::vector<Json> entries;
  for (std::size_t first = 0; first < keys.size(); first += wave) {
    const std::vector<Json> slice(keys.begin() + static_cast<long>(first),
                                  keys.begin() + static_cast<long>(std::min(keys.size(), first + wave)));
    for (Json& entry : entries_of(checkpoint, slice, compute)) {
      entries.push_back(std::move(entry));
      if (entries.back()["all_at_cap"].get<bool>()) return entries;
    }
  }
  return entries;
}

// One L of sweep_smallest_c: {"L", "cells" (the CSV row), "row" (the JSON row)}. What is verified is a bracket: the
// largest failing probe fails and c_min solves; that no c between or above them changes the outcome is the
// bisection's monotonicity assumption, and whether the probes themselves are monotone is checked.
Json smallest_c_entry(const CatSetup& setup, int length, const FamilyProbe& fails, const RunOptions& run) {
  const bool exhaustive = fits_budget(setup.vocabulary, length, run);
  BigInt largest_failing = 0, smallest_solving = 0;  // probes k of c = k/64; 0: none
  auto solves = [&](const BigInt& k) {
    const Exact c(k, 64);
    CatConfig config = setup.config;
    config.c_squared = c * c;
    const bool ok = exhaustive ? solves_all(CatLayer(config), setup, length, run)
                               : !fails(config, setup.vocabulary, setup.n, static_cast<std::uint64_t>(length));
    if (ok && (smallest_solving == 0 || k < smallest_solving)) smallest_solving = k;
    if (!ok && k > largest_failing) largest_failing = k;
    return ok;
  };
  BigInt lo = 0, hi = 64;  // c = k/64: hi doubles until it solves, up to c = 64
  bool solved = solves(hi);
  while (!solved && hi < 64 * 64) {
    lo = hi, hi *= 2;
    solved = solves(hi);
  }
  while (solved && hi - lo > 1) {
    const BigInt mid = (lo + hi) / 2;
    (solves(mid) ? hi : lo) = mid;
  }
  const Exact c_min(hi, 64);
  const std::string c_min_text = solved ? exact_to_string(c_min) : "none <= 64";
  const bool monotone = smallest_solving == 0 || largest_failing < smallest_solving;
  const std::string failing_text = largest_failing > 0 ? exact_to_string(Exact(largest_failing, 64)) : "-";
  const long others = std::max(1, length - (setup.config.delay == Delay::Key ? 1 : 2));
  std::string c_condition = "-", c_condition_sq = "-";
  if (setup.signatures.distinct() && setup.signatures.max_cosine) {
    const Exact cc = choose_c(others, setup.config.embedding.min_distance_squared(), setup.signatures.gamma());
    c_condition = exact_to_string(cc);
    c_condition_sq = fmt::format("{:.4f}", Exact(cc * cc).convert_to<double>());
  }
  const std::vector<std::string> cells{std::to_string(length),
                                       c_min_text,
                                       solved ? fmt::format("{:.4f}", Exact(c_min * c_min).convert_to<double>()) : "-",
                                       exhaustive ? "exhaustive" : "worst-case family",
                                       c_condition,
                                       c_condition_sq,
                                       failing_text,
                                       monotone ? "true" : "false"};
  const Json row{{"L", length},
                 {"c_min", c_min_text},
                 {"c_largest_failing", failing_text},
                 {"monotone_on_probes", monotone},
                 {"probe", exhaustive ? "exhaustive" : "family"},
                 {"c_condition", c_condition}};
  return {{"L", length}, {"cells", cells}, {"row", row}};
}

}  // namespace

Json sweep_length_limit(const CatSetup& setup, const ParamValues& params, const CatSweepOptions& request,
                        const RunOptions& run) {
  const long cap_max = request.fast ? length_cap_fast_max : length_cap_max;
  const long cap = request.length_max.value_or(request.fast ? cap_max : length_cap_default);
  if (cap < setup.n + 2 || cap > cap_max)
    throw UsageError(fmt::format("--L-max must be an integer in [{}, {}] (got '{}')", setup.n + 2, cap_max, cap));
  const FamilyProbe fails = family_probe(request.fast);
  require_gnuplot();
  prepare_output_dir(request.output.dir);
  std::optional<Checkpoint> checkpoint =
      fast_checkpoint(request, setup, params, "cat-length-vs-c", run, "c", c_keys(request.fast),
                      2 + 3 * sweep_series(setup).size(), {{"L_cap", cap}});
  const std::vector<CatSetup> series = sweep_series(setup);
  SweepTable table;
  table.columns = {"c", "c_squared"};
  for (std::size_t f = 0; f < series.size(); ++f)
    table.columns.insert(table.columns.end(), {fmt::format("Lmax_{}", f + 1), fmt::format("exact_{}", f + 1),
                                               fmt::format("Lsufficient_{}", f + 1)});
  Json rows = Json::array();
  for (const Json& entry : length_limit_entries(checkpoint, request.fast, [&](const Json& c) {
         return length_limit_entry(parse_exact(c.get<std::string>()), series, fails, cap, run);
       })) {
    table.rows.push_back(entry["cells"].get<std::vector<std::string>>());
    rows.push_back(entry["row"]);
  }
  PlotSpec plot;
  plot.title = fmt::format("CAT layer, {} variant, $V = {}$: largest length solved against the temperature",
                           setup.variant, setup.vocabulary);
  plot.xlabel = "$c^2$";
  plot.ylabel = "largest $L$ solved (log scale)";
  plot.x_column = "c_squared";
  plot.logy = true;
  for (std::size_t f = 0; f < series.size(); ++f) {
    const std::string label = fmt::format("$N = {}$, $F = {}$", series[f].n, filter_text(series[f].config.filter));
    plot.series.push_back({fmt::format("Lmax_{}", f + 1), "$L_{\\max}$, " + label});
    plot.series.push_back({fmt::format("Lsufficient_{}", f + 1), "sufficient condition, " + label});
  }
  std::vector<std::string> not_monotone;  // the c whose family bisection (of some curve) made non-monotone probes
  for (const auto& row : rows)
    for (std::size_t f = 0; f < series.size(); ++f) {
      const Json& curve = row.at(fmt::format("series{}", f + 1));
      if (!curve.contains("family_monotone_on_probes") || !curve.at("family_monotone_on_probes").get<bool>()) {
        not_monotone.push_back(row.at("c").get<std::string>());
        break;
      }
    }
  Json summary{
      {"variant", setup.variant},
      {"V", setup.vocabulary},
      {"N", setup.n},
      {"L_cap", cap},
      {"rows", rows},
      {"evaluator", evaluator_text(request.fast)},
      {"numbers", setup.numbers},
      {"monotone_on_probes", not_monotone.empty()},
      {"monotonicity", not_monotone.empty()
                           ? std::string("the worst-case family's bisection over L assumes a failure persists at every "
                                         "longer L; on the probes made at every c it holds")
                           : fmt::format("the worst-case family's bisection over L assumes a failure persists at every "
                                         "longer L; violated (or not recorded) by the probes at c = {}",
                                         fmt::join(not_monotone, ", "))},
      {"note",
       "L_max: the largest L at which every valid instance decodes. exact: decided exhaustively (every "
       "valid instance of every length <= L_max decoded, and a certified failure at L_max + 1); "
       "upper: an upper bound from a certified failure of the worst-case family b^p g t b^r g at "
       "L_max + 1, with exhaustive checks up to exhaustive_up_to; at_cap: no instance of the family "
       "fails up to the cap (L_max >= the cap for the family)"}};
  write_sweep(request.output, "cat-length-vs-c", table, plot, summary);
  return summary;
}

Json sweep_smallest_c(const CatSetup& setup, const ParamValues& params, const CatSweepOptions& request,
                      const RunOptions& run) {
  if (setup.length < setup.n + 2)
    throw UsageError(fmt::format("--L must be at least N + 2 = {} for sweep cat --vary L (the lengths N+2..L; got {})",
                                 setup.n + 2, setup.length));
  const FamilyProbe fails = family_probe(request.fast);
  require_gnuplot();
  prepare_output_dir(request.output.dir);
  std::vector<Json> lengths;
  for (int length = setup.n + 2; length <= setup.length; ++length) lengths.emplace_back(length);
  std::optional<Checkpoint> checkpoint =
      fast_checkpoint(request, setup, params, "cat-c-vs-length", run, "L", lengths, 8);
  SweepTable table;
  table.columns = {"L",
                   "c_min",
                   "c_min_squared",
                   "probe",
                   "c_condition",
                   "c_condition_squared",
                   "c_largest_failing",
                   "monotone_on_probes"};
  Json rows = Json::array();
  std::vector<int> not_monotone;
  for (const Json& entry : entries_of(checkpoint, lengths, [&](const Json& length) {
         return smallest_c_entry(setup, length.get<int>(), fails, run);
       })) {
    table.rows.push_back(entry["cells"].get<std::vector<std::string>>());
    rows.push_back(entry["row"]);
    if (table.rows.back().back() != "true") not_monotone.push_back(entry["L"].get<int>());
  }
  PlotSpec plot;
  plot.title = fmt::format(
      "CAT layer, {} variant, $V = {}$, $N = {}$: smallest temperature solving every instance "
      "of length $L$",
      setup.variant, setup.vocabulary, setup.n);
  plot.xlabel = "length $L$";
  plot.ylabel = "$c^2$";
  plot.x_column = "L";
  plot.series = {{"c_min_squared", "smallest $c^2$ (bisection over certified probes)"},
                 {"c_condition_squared", "the sufficient condition's $c^2$"}};
  Json summary{{"variant", setup.variant},
               {"V", setup.vocabulary},
               {"N", setup.n},
               {"rows", rows},
               {"numbers", setup.numbers},
               {"evaluator", evaluator_text(request.fast)},
               {"monotone_on_probes", not_monotone.empty()},
               {"monotonicity",
                not_monotone.empty()
                    ? std::string("assumed between probes by the bisection; on the probes made at every L it holds")
                    : fmt::format("assumed between probes by the bisection; violated by the probes at L = {} (see "
                                  "the CSV)",
                                  fmt::join(not_monotone, ", "))},
               {"note",
                "at each L, c_largest_failing fails and c_min, the smallest multiple of 1/64 found by "
                "bisection, solves: a bracket; each probe decodes every valid instance of length L "
                "(certified), or the worst-case family"}};
  write_sweep(request.output, "cat-c-vs-length", table, plot, summary);
  return summary;
}

}  // namespace tverify::cat
