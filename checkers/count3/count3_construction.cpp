#include "checkers/count3/count3_construction.hpp"

#include "checkers/count3/count3_claims.hpp"
#include "checkers/count3/sweeps.hpp"
#include "checkers/proof_dump.hpp"
#include "checkers/proof_verdict.hpp"
#include "proofs/count3_proofs.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tverify::count3 {

namespace {

constexpr unsigned entp_timeout_ms = 60'000;

ProgramSemantics semantics_from(const ParamValues& params, const std::string& variant) {
  return {params.choice("mean") == "exact" ? rasp::MeanSemantics::Exact : rasp::MeanSemantics::Truncate,
          variant == "paper" ? Alg4Variant::Paper : Alg4Variant::Corrected};
}

InputSource inputs_from(const ParamValues& params, const RunOptions& options) {
  if (params.choice("distribution") == "experiment") {
    const auto samples = static_cast<std::uint64_t>(params.integer("samples"));
    check_budget(samples * 48, options, "experiment prefixes");
    return InputSource::experiment(static_cast<std::uint64_t>(params.integer("seed")), samples);
  }
  const auto [lo, hi] = params.range("values");
  return InputSource::exhaustive(make_sequence_domain(params.small_int("n"), lo, hi, options));
}

std::vector<ParamSpec> count3_params() {
  return {integer_param("n", "largest sequence length m (every length 1..n is checked)", 1, 64, "5"),
          range_param("values", "the integer values x_i range over, lo:hi (independent of the length)", 0, 1'000'000,
                      "0:4"),
          choice_param("distribution",
                       "exhaustive (every sequence) or experiment (Sec. 6.1 samples; --n, --values refused)",
                       {"exhaustive", "experiment"}, "exhaustive"),
          integer_param("samples", "number of experiment sequences (distribution experiment)", 1, 1'000'000, "100"),
          seed_param("seed of the experiment samples and of the random weights of entp.*"),
          choice_param("mean", "RASP mean: truncate (the reference numpy RASP-L) or exact (rational)",
                       {"truncate", "exact"}, "truncate"),
          choice_param("program", "eval/sweep: which program (all, alg4, alg5, alg6)", {"all", "alg4", "alg5", "alg6"},
                       "all")};
}

std::vector<ClaimSpec> count3_claims() {
  const auto& s = count3_claim_specs();
  return {s.alg2_alg3, s.alg4, s.table5, s.alg5, s.alg6, s.lemma_a6, s.rasp_mlp, s.a2, s.a3, s.thm4_1, s.thm4_2};
}

// The claims checked on the run's input sequences (the others have fixed instances).
std::vector<const ClaimSpec*> claims_on_inputs() {
  const auto& s = count3_claim_specs();
  return {&s.alg2_alg3, &s.alg4, &s.alg5, &s.alg6, &s.rasp_mlp};
}

// What every claim of a count3 check reads, made once per run.
struct Count3CheckContext {
  InputSource inputs;
  ProgramSemantics semantics;
  std::uint64_t seed;
  RunOptions options;
};

Count3CheckContext prepare_count3_run(const ParamValues& params, const std::string& variant,
                                      const ClaimSelection& asked, const RunOptions& options, CheckReport& report) {
  const auto on_inputs = claims_on_inputs();
  const bool needs_inputs =
      std::any_of(on_inputs.begin(), on_inputs.end(), [&](const ClaimSpec* c) { return asked.has(*c); });
  Count3CheckContext run{needs_inputs ? inputs_from(params, options) : InputSource::experiment(0, 0),
                         semantics_from(params, variant), static_cast<std::uint64_t>(params.integer("seed")), options};
  report.arithmetic =
      "exact (RASP interpreter over rationals; transformers with equal scores); interval (alpha, "
      "beta of eq. 5); z3 (entp.a2/a3: free positive exponentials)";
  report.domain_description = needs_inputs ? run.inputs.describe() : "fixed instances (see each claim)";
  report.domain_inputs = needs_inputs ? run.inputs.size() : 0;
  return run;
}

// Each claim of ENTP is checked on its own.
std::vector<ClaimGroup<Count3CheckContext>> count3_claim_groups() {
  const auto& s = count3_claim_specs();
  using Check = std::function<ClaimResult(const Count3CheckContext&)>;
  const std::vector<std::pair<const ClaimSpec*, Check>> checks{
      {&s.alg2_alg3, [](const Count3CheckContext& r) { return check_alg2_alg3(r.inputs, r.options); }},
      {&s.alg4, [](const Count3CheckContext& r) { return check_alg4(r.inputs, r.semantics, r.options); }},
      {&s.table5, [](const Count3CheckContext&) { return check_table5(); }},
      {&s.alg5, [](const Count3CheckContext& r) { return check_alg5(r.inputs, r.semantics, r.options); }},
      {&s.alg6, [](const Count3CheckContext& r) { return check_alg6(r.inputs, r.semantics, r.options); }},
      {&s.lemma_a6, [](const Count3CheckContext&) { return check_lemma_a6(64); }},
      {&s.rasp_mlp, [](const Count3CheckContext& r) { return check_rasp_mlp(r.inputs, r.semantics, r.options); }},
      {&s.a2, [](const Count3CheckContext& r) { return check_a2(r.seed, entp_timeout_ms); }},
      {&s.a3, [](const Count3CheckContext& r) { return check_a3(r.seed, entp_timeout_ms); }},
      {&s.thm4_1, [](const Count3CheckContext& r) { return check_thm4_1(r.seed); }},
      {&s.thm4_2, [](const Count3CheckContext& r) { return check_thm4_2(r.seed); }},
  };
  std::vector<ClaimGroup<Count3CheckContext>> groups;
  for (const auto& [spec, check] : checks)
    groups.push_back({{spec}, [check = check](const Count3CheckContext& run, const ClaimSelection&) {
                        return std::vector<ClaimResult>{check(run)};
                      }});
  return groups;
}

std::vector<VariantSpec> count3_variants() {
  return {{"paper", "Algorithm 4 as printed"}, {"corrected", "Algorithm 4 with the fix of docs/errata.md (N1)"}};
}

std::vector<SweepSpec> count3_sweeps() {
  return {
      {"values",
       false,
       "for sequences of length exactly n, the fraction on which each program agrees with eq. (4) as the value "
       "range 0..K grows",
       {integer_param("L-max", "the largest value K (default 3n, stopping within --max-inputs)", 1, 1'000'000, "")}}};
}

// count3.lemma_a6 is the only claim with a proof of its own (entp.a2 and entp.a3 use Z3 inside check).
void prove_count3(const ParamValues&, const std::string&, const ClaimSelection&, const ProofOptions& options,
                  const RunOptions&, CheckReport& report) {
  const ClaimSpec& lemma_a6 = count3_claim_specs().lemma_a6;
  const proofs::QueryOptions query = query_options(options).named(lemma_a6.id);
  report.arithmetic = "z3 (unsat proofs; sat models replayed in exact arithmetic)";
  report.domain_description = "symbolic: every n >= 1, every (a, b) of the lemma's domain, every eps and M allowed";
  ClaimResult printed = claim_from_proof(lemma_a6, proofs::prove_lemma_a6(proofs::GadgetConstants::printed(), query));
  const ClaimResult tight = claim_from_proof(lemma_a6, proofs::prove_lemma_a6(proofs::GadgetConstants::tight(), query));
  printed.details["tight_constants"] = {{"statement", tight.details.value("proved_statement", "")},
                                        {"verdict", to_string(tight.verdict)},
                                        {"seconds", tight.details.value("seconds", 0.0)}};
  if (tight.details.contains("cross_check"))
    printed.details["tight_constants"]["cross_check"] = tight.details["cross_check"];
  printed.summary += std::string("; tight constants (eps <= 1, M eps >= n): ") + to_string(tight.verdict);
  report.claims.push_back(std::move(printed));
}

Json sweep_count3(const ParamValues& params, const std::string& variant, const SweepRun& sweep, const RunOptions& run) {
  if (sweep.vary != sweep.spec.vary) throw UsageError("--vary values takes no range (got '" + sweep.vary + "')");
  const std::optional<long long> value_max =
      sweep.options.has("L-max") ? std::optional<long long>(sweep.options.integer("L-max")) : std::nullopt;
  return sweep_value_range(params.small_int("n"), params.choice("program"), semantics_from(params, variant), value_max,
                           sweep.output, run);
}

Sequence parse_sequence(const std::string& input) {
  constexpr std::size_t max_length = 1024;  // the RASP-L programs are quadratic in the length
  const std::string what = "a comma-separated list of at most 1024 integers in [0, 1000000000]";
  Sequence x;
  for (const auto& item : split_list(input, ',', "--input", what))
    x.push_back(parse_integer_option("--input value", item, 0, 1'000'000'000));
  if (x.size() > max_length)
    throw UsageError("--input must be " + what + " (got " + std::to_string(x.size()) + " values)");
  return x;
}

std::string seq_text(const rasp::Seq& s) {
  std::string out;
  for (const auto& v : s.values) out += (out.empty() ? "" : " ") + exact_to_string(v);
  return "(" + out + ")";
}

Json exact_values(const rasp::Seq& s) {
  Json out = Json::array();
  for (const auto& v : s.values) out.push_back(exact_to_string(v));
  return out;
}

Evaluation eval_count3(const ParamValues& params, const std::string& variant, const std::string& input, bool trace,
                       long) {
  const Sequence x = parse_sequence(input);
  const ProgramSemantics s = semantics_from(params, variant);
  const std::string program = params.choice("program");
  Evaluation e;
  e.text = fmt::format(
      "x = {} (m = {})\n  Count3 by eq. (4) = {}, Algorithm 2 = {}, Algorithm 3 = {}\n"
      "  Match3' = {}\n",
      fmt::join(x, ","), x.size(), count3_eq4(x), count3_alg2(x), count3_alg3(x), match3_prime(x));
  e.result = {{"x", x},
              {"count3_eq4", count3_eq4(x)},
              {"algorithm2", count3_alg2(x)},
              {"algorithm3", count3_alg3(x)},
              {"match3_prime", match3_prime(x)}};
  auto report_means = [&](const rasp::Run& run, Json& into) {
    into["mean_differences"] = Json::array();
    for (const auto& d : run.mean_differences()) {
      e.text += fmt::format("    mean at {} position {}: exact {}, truncated {}\n", d.site, d.position + 1,
                            exact_to_string(d.exact), exact_to_string(d.truncated));
      into["mean_differences"].push_back({{"site", d.site},
                                          {"position", d.position + 1},
                                          {"exact", exact_to_string(d.exact)},
                                          {"truncated", exact_to_string(d.truncated)}});
    }
  };
  auto traced = [&](const std::string& name, const rasp::Seq& y, const std::string& meaning) {
    if (trace) e.add_trace(name, {y.values.size()}, {y.values.begin(), y.values.end()}, meaning);
  };
  if (program == "all" || program == "alg4") {
    rasp::Run run({.mean = s.mean, .record = true});
    const rasp::Seq y = alg4_count_triplets(rasp::sequence(x), s.alg4);
    e.text += fmt::format("  Algorithm 4 ({}): output at m = {}{}\n", variant, exact_to_string(last_output(y)),
                          trace ? ", every position " + seq_text(y) : "");
    Json& r =
        e.result["algorithm4"] = {{"output", exact_to_string(last_output(y))}, {"every_position", exact_values(y)}};
    report_means(run, r);
    traced("algorithm4.output", y, "Algorithm 4's output at every position (exact)");
  }
  if (program == "all" || program == "alg5") {
    rasp::Run run({.mean = s.mean, .record = true});
    const rasp::Seq y = alg5_has_triplet(rasp::sequence(x));
    e.text += fmt::format("  Algorithm 5: output at m = {}{}\n", exact_to_string(last_output(y)),
                          trace ? ", every position " + seq_text(y) : "");
    Json& r =
        e.result["algorithm5"] = {{"output", exact_to_string(last_output(y))}, {"every_position", exact_values(y)}};
    report_means(run, r);
    traced("algorithm5.output", y, "Algorithm 5's output at every position (exact)");
  }
  if (program == "all" || program == "alg6") {
    rasp::Run run({.mean = s.mean, .record = trace});
    const ChainOfThought cot = generate_alg6(x, 4 * x.size() + 4);
    e.text += fmt::format("  Algorithm 6: generated {} ({}), designed {}\n", fmt::join(cot.generated, ","),
                          cot.terminated ? "ends with EOS = -1" : "no EOS", fmt::join(expected_alg6_chain(x), ","));
    Json& r = e.result["algorithm6"] = {
        {"generated", cot.generated}, {"ends_with_eos", cot.terminated}, {"designed", expected_alg6_chain(x)}};
    report_means(run, r);
  }
  return e;
}

// eval runs the programs on --input alone; check runs every program of its claims, on every sequence (--n, --values)
// or on the experiment's samples (--samples); a sweep over the value range sets it itself and enumerates.
std::vector<std::string> count3_unread_params(const std::string& verb, const SweepRequest* sweep,
                                              const ParamValues& params) {
  if (verb == "eval") return {"n", "values", "distribution", "samples", "seed"};
  if (verb == "check" && params.choice("distribution") == "experiment") return {"program", "n", "values"};
  if (verb == "check") return {"program", "samples"};
  if (sweep && vary_key(sweep->vary) == "values") return {"values", "distribution", "samples", "seed"};
  return {};
}

// eval runs the programs on one --input; check runs every program (--program picks the one a sweep plots).
std::vector<std::string> count3_never_read(const std::string& verb) {
  if (verb == "eval") return {"n", "values", "distribution", "samples", "seed"};
  if (verb == "check") return {"program"};
  return {};
}

}  // namespace

Construction count3_construction() {
  return {{"count3",
           "Ewer, Chae, Zeng, Kim, Lee: ENTP: Encoder-only Next Token Prediction (arXiv 2410.01600 v3)",
           count3_params(),
           count3_variants(),
           count3_claims(),
           count3_sweeps(),
           {.prove_params = std::vector<std::string>{},  // Lemma A.6 is proved for every n at once
            .eval_length_param = "n",
            .unread_params = count3_unread_params,
            .never_read = count3_never_read}},
          {check_in_groups<Count3CheckContext>(prepare_count3_run, count3_claim_groups()), prove_count3, sweep_count3,
           eval_count3}};
}

}  // namespace tverify::count3
