#include "checkers/copy/sweeps.hpp"

#include "checkers/copy/transformer_claims.hpp"
#include "checkers/sweep_output.hpp"
#include "constructions/copy/finite_precision.hpp"

#include <cmath>
#include <random>

#include <fmt/format.h>

namespace tverify::copy {
namespace {

std::string decimal(const Exact& q) { return fmt::format("{:.6g}", q.convert_to<double>()); }

// copy.thm2_3 (text reading) at one tau: the verdict and how many repeat-free strings were copied.
ClaimResult thm2_3_at(const CopyTransformerConfig& base, const Exact& tau, const RunOptions& run) {
  CopyTransformerConfig config = base;
  config.tau = tau;
  const StringDomain domain = make_string_domain(config.alphabet, config.n, config.length, run);
  return check_transformer_claims(domain, config, {NgramReading::Text}, {.thm2_3 = true}, run).front();
}

// An exact upper bound of the proof's tau = d ln(8 K d).
Exact proof_tau_upper(const CopyTransformerConfig& config) {
  const int d = embedding_dim(config.embedding, config.alphabet);
  using I = Interval<128>;
  const I tau =
      I(d) *
      log(I(Exact(BigInt(8) *
                  big_pow(static_cast<unsigned long>(config.alphabet), static_cast<unsigned long>(config.n)) * d)));
  return tau.upper();
}

// Whether the rows (sorted by the swept value) never go from `verified` back to anything else in `column`.
bool verdicts_monotone(const SweepTable& table, std::size_t column) {
  bool verified_before = false;
  for (const auto& row : table.rows) {
    const bool verified = row[column] == to_string(Verdict::Verified);
    if (verified_before && !verified) return false;
    verified_before = verified_before || verified;
  }
  return true;
}

// The configuration in words for a figure's title ("$D = 2$, $n = 3$, $L = 8$, corrected, one-hot embedding").
std::string config_words(const CopyTransformerConfig& c, bool with_length = true) {
  return fmt::format("$D = {}$, $n = {}${}, {}, {} embedding", c.alphabet, c.n,
                     with_length ? fmt::format(", $L = {}$", c.length) : "", to_string(c.variant),
                     c.embedding == EmbeddingKind::OneHot ? "one-hot" : "C.2");
}

std::string config_name(const CopyTransformerConfig& c, bool with_length = true) {
  return fmt::format("D{}-n{}{}-{}-{}", c.alphabet, c.n, with_length ? "-L" + std::to_string(c.length) : "",
                     to_string(c.embedding), to_string(c.variant));
}

}  // namespace

Json sweep_tau(const CopyTransformerConfig& config, const CopySweepOptions& sweep, const RunOptions& run) {
  SweepTable table{{"tau", "tau_decimal", "verdict", "copied", "checked", "fraction_copied"}, {}};
  bool outside_hypotheses = false;
  auto probe = [&](const BigInt& k) {
    const Exact tau = Exact(k) * sweep.resolution;
    const ClaimResult r = thm2_3_at(config, tau, run);
    outside_hypotheses = r.outside_hypotheses;
    table.rows.push_back({exact_to_string(tau), decimal(tau), to_string(r.verdict), std::to_string(r.passed),
                          std::to_string(r.checked),
                          decimal(r.checked ? Exact(BigInt(r.passed), BigInt(r.checked)) : Exact(0))});
    return r.verdict == Verdict::Verified;
  };
  const Exact proof = proof_tau_upper(config);
  const Exact steps = proof / sweep.resolution;
  BigInt hi = BigInt(numerator(steps) / denominator(steps)) + 1;  // the first grid point above the proof's tau
  BigInt lo = 0;  // tau = 0 (uniform attention) is not probed: the bracket's lower end is the largest failing probe
  bool found = probe(hi);
  for (int doubling = 0; !found && doubling < 12; ++doubling) {
    lo = hi;
    found = probe(hi *= 2);
  }
  if (!found) lo = hi;  // every probe failed: the last is the largest
  Json summary{{"sweep", "tau"},
               {"construction", "copy"},
               {"claim", transformer_claim_specs().thm2_3.id + " (text reading)"},
               {"config", config_name(config)},
               {"resolution", exact_to_string(sweep.resolution)},
               {"proof_tau", fmt::format("d ln(8Kd) <= {}", decimal(proof))}};
  if (outside_hypotheses)
    summary["hypotheses"] =
        "outside Theorem 2.3's range 2n <= L <= D^n: the claim asserts nothing here (vacuous), "
        "and each probe's verdict says only what the check found";
  if (found) {
    while (hi - lo > 1) {
      const BigInt mid = (lo + hi) / 2;
      if (probe(mid))
        hi = mid;
      else
        lo = mid;
    }
  }
  std::sort(table.rows.begin(), table.rows.end(),
            [](const auto& a, const auto& b) { return parse_exact(a[0]) < parse_exact(b[0]); });
  // What is verified is a bracket: the claim fails at the largest failing probe and holds at the smallest verified
  // one. That no tau between them (or beyond) changes the verdict is the bisection's monotonicity assumption; whether
  // the probes themselves are monotone is checked.
  const Exact smallest_verified = Exact(hi) * sweep.resolution;
  summary["smallest_verified_tau"] = found ? Json(exact_to_string(smallest_verified)) : Json(nullptr);
  summary["largest_failing_tau"] = lo > 0 ? Json(exact_to_string(Exact(lo) * sweep.resolution)) : Json(nullptr);
  const bool monotone = verdicts_monotone(table, 2);
  summary["monotone_on_probes"] = monotone;
  summary["monotonicity"] = fmt::format("assumed between probes by the bisection; on the {} probes made it {}",
                                        table.rows.size(), monotone ? "holds" : "is violated (see the CSV)");
  if (found)
    summary["smallest_verified_over_proof_tau"] = decimal(smallest_verified / proof);
  else
    summary["note"] = transformer_claim_specs().thm2_3.id +
                      " was not verified at any probed tau up to 2^12 times the "
                      "proof's";
  PlotSpec plot{"Theorem 2.3 against the softmax temperature: " + config_words(config),
                "temperature $\\tau$ (log scale)",
                "fraction of repeat-free strings copied (certified)",
                true,
                false,
                std::pair{0.0, 1.05},
                "tau_decimal",
                {{"fraction_copied", "each probe: an exhaustive check", SeriesStyle::Points}},
                {}};
  plot.verdict_column = "verdict";
  if (found) plot.marks.push_back({smallest_verified.convert_to<double>(), "smallest verified $\\tau$"});
  plot.marks.push_back({proof.convert_to<double>(), "the proof's $\\tau = d \\ln(8Kd)$"});
  write_sweep(sweep.output, "tau-" + config_name(config), table, plot, summary);
  return summary;
}

namespace {

constexpr long kMinBits = 2;  // the smallest precision tverify evaluates (`--bits` is >= 2)

// The repeat-free strings (text reading) the precision sweep tests at one L: all, or a seeded sample.
std::vector<TokenString> precision_test_strings(const CopyTransformerConfig& c, const CopySweepOptions& sweep,
                                                bool& exhaustive) {
  const BigInt total = big_pow(static_cast<unsigned long>(c.alphabet), static_cast<unsigned long>(c.length));
  std::vector<TokenString> strings;
  exhaustive = total <= 100000;
  if (exhaustive) {
    for (std::uint64_t i = 0; i < total.convert_to<std::uint64_t>(); ++i) {
      TokenString x = string_at(i, c.alphabet, c.length);
      if (!has_repeated_window(x, c.n)) strings.push_back(std::move(x));
    }
    return strings;
  }
  std::mt19937_64 rng(sweep.seed * 1000003u + static_cast<std::uint64_t>(c.length));
  std::uniform_int_distribution<int> token(0, c.alphabet - 1);
  for (std::uint64_t tries = 0; strings.size() < sweep.samples && tries < 100 * sweep.samples; ++tries) {
    TokenString x(static_cast<std::size_t>(c.length));
    for (auto& t : x) t = token(rng);
    if (!has_repeated_window(x, c.n)) strings.push_back(std::move(x));
  }
  return strings;
}

}  // namespace

Json sweep_precision(const CopyTransformerConfig& config, const CopySweepOptions& sweep, const RunOptions&) {
  SweepTable table{{"L", "min_bits", "strings_tested", "exhaustive", "log2_log2_L"}, {}};
  Json points = Json::array();
  for (int length = std::max(2, 2 * config.n); length <= sweep.length_max; ++length) {
    CopyTransformerConfig c = config;
    c.length = length;
    bool exhaustive = false;
    const auto strings = precision_test_strings(c, sweep, exhaustive);
    if (strings.empty()) continue;  // no repeat-free string of this length
    const CopyTransformer exact(c);
    std::optional<long> fewest;
    for (long bits = kMinBits; bits <= 64 && !fewest; ++bits) {
      const FinitePrecisionCopy finite(exact, bits);
      bool all = true;
      for (const auto& x : strings)
        if (!(all = finite.copies(x))) break;
      if (all) fewest = bits;
    }
    const double loglog = std::log2(std::log2(static_cast<double>(length)));
    table.rows.push_back({std::to_string(length), fewest ? std::to_string(*fewest) : "none <= 64",
                          std::to_string(strings.size()), exhaustive ? "yes" : "sampled",
                          fmt::format("{:.4f}", loglog)});
    points.push_back({{"L", length},
                      {"min_bits", fewest ? Json(*fewest) : Json(nullptr)},
                      {"strings_tested", strings.size()},
                      {"exhaustive", exhaustive}});
  }
  Json summary{{"sweep", "bits"},
               {"construction", "copy"},
               {"config", config_name(config, false)},
               {"arithmetic", "MPFR, round to nearest at every operation (a measurement, not a verification)"},
               {"points", points},
               {"samples_when_not_exhaustive", sweep.samples},
               {"seed", sweep.seed}};
  PlotSpec plot{"Fewest MPFR bits that still copy every tested repeat-free string: " + config_words(config, false),
                "length $L$",
                "bits of precision",
                false,
                false,
                std::nullopt,
                "L",
                {{"min_bits", "fewest bits (measured, round to nearest)"}, {"log2_log2_L", "$\\log_2 \\log_2 L$"}},
                {}};
  write_sweep(sweep.output, "bits-" + config_name(config, false), table, plot, summary);
  return summary;
}

Json sweep_length(const CopyTransformerConfig& config, const CopySweepOptions& sweep, const RunOptions& run) {
  SweepTable table{{"L", "err", "err_decimal", "p_text", "p_text_decimal", "p_formula", "p_formula_decimal",
                    "L2_D_minus_n", "L2_D_minus_n_decimal", "thm2_3_text"},
                   {}};
  std::optional<int> crossing;
  for (int length = 1; length <= sweep.length_max; ++length) {
    CopyTransformerConfig c = config;
    c.length = length;
    const StringDomain domain = make_string_domain(c.alphabet, c.n, length, run);
    const auto results = check_transformer_claims(domain, c, {NgramReading::Text, NgramReading::Formula},
                                                  {.thm2_3 = true, .err = true}, run);
    std::string err = "unknown", p_text, p_formula, thm = "unknown";
    const auto& claims = transformer_claim_specs();
    for (const auto& r : results) {
      if (r.id == claims.err.id && r.details.contains("err")) err = r.details["err"].get<std::string>();
      if (r.id == claims.err.id && r.reading == "text") p_text = r.details["p_ngram"].get<std::string>();
      if (r.id == claims.err.id && r.reading == "formula") p_formula = r.details["p_ngram"].get<std::string>();
      if (r.id == claims.thm2_3.id && r.reading == "text") thm = to_string(r.verdict);
    }
    const Exact bound(BigInt(length) * length,
                      big_pow(static_cast<unsigned long>(c.alphabet), static_cast<unsigned long>(c.n)));
    table.rows.push_back({std::to_string(length), err, err == "unknown" ? "" : decimal(parse_exact(err)), p_text,
                          decimal(parse_exact(p_text)), p_formula, decimal(parse_exact(p_formula)),
                          exact_to_string(bound), decimal(bound), thm});
    if (!crossing && err != "unknown" && parse_exact(err) >= sweep.threshold) crossing = length;
  }
  Json summary{{"sweep", "L"},
               {"construction", "copy"},
               {"config", config_name(config, false)},
               {"threshold", exact_to_string(sweep.threshold)},
               {"first_L_with_err_at_or_above_threshold", crossing ? Json(*crossing) : Json(nullptr)},
               {"L_max", sweep.length_max}};
  PlotSpec plot{"Exact error rate of the copy transformer against the length: " + config_words(config, false),
                "length $L$",
                "probability over uniform strings",
                false,
                false,
                std::pair{0.0, 1.05},
                "L",
                {{"err_decimal", "error rate (transformer, certified)"},
                 {"p_text_decimal", "$p_{n\\mathrm{-gram}}$ (text reading)"},
                 {"p_formula_decimal", "$p_{n\\mathrm{-gram}}$ (formula reading)"},
                 {"L2_D_minus_n_decimal", "Lemma 2.4's bound $L^2 D^{-n}$"}},
                {}};
  const double top_of_range =
      big_pow(static_cast<unsigned long>(config.alphabet), static_cast<unsigned long>(config.n)).convert_to<double>();
  if (2.0 * config.n <= sweep.length_max) {
    plot.shade = std::pair{2.0 * config.n, std::min(top_of_range, static_cast<double>(sweep.length_max))};
    plot.shade_label = "Theorem 2.3's range $2n \\le L \\le D^n$";
  }
  if (crossing)
    plot.marks.push_back(
        {static_cast<double>(*crossing), "first $L$ with error rate $\\ge " + exact_to_string(sweep.threshold) + "$"});
  write_sweep(sweep.output, "length-" + config_name(config, false), table, plot, summary);
  return summary;
}

}  // namespace tverify::copy
