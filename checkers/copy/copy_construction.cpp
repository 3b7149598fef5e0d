#include "checkers/copy/copy_construction.hpp"

#include "checkers/copy/fast_sweeps/length_sweep.hpp"
#include "checkers/copy/fast_sweeps/format_sweep.hpp"
#include "checkers/copy/fast_sweeps/min_bits_sweep.hpp"

#include "checkers/copy/copy_claims.hpp"
#include "checkers/copy/proof_claims.hpp"
#include "checkers/copy/sweeps.hpp"
#include "checkers/checkpoint.hpp"
#include "checkers/sweep_output.hpp"
#include "constructions/copy/finite_precision.hpp"
#include "constructions/copy/onnx_export.hpp"
#include "constructions/copy/weights.hpp"
#include "checkers/copy/transformer_claims.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tverify::copy {

namespace {

// The most weights a transformer tverify builds may hold: both MLP matrices of layer 1 hold nearly all of them, and
// (n d)^2 exact weights at D = n = 64 took gigabytes before the first input.
constexpr std::uint64_t max_transformer_weights = std::uint64_t{1} << 20;

CopyTransformerConfig transformer_config(const ParamValues& params, const std::string& variant, int length) {
  const CopyTransformerConfig config{params.small_int("D"),
                                     params.small_int("n"),
                                     length,
                                     params.choice("embedding") == "c2" ? EmbeddingKind::C2 : EmbeddingKind::OneHot,
                                     variant == "paper" ? TransformerVariant::Paper : TransformerVariant::Corrected,
                                     params.rational("tau")};
  const std::uint64_t weights = exported_weight_count(config.alphabet, config.n, config.embedding);
  if (weights > max_transformer_weights)
    throw UsageError(
        fmt::format("--D {} --n {}: the transformer of Theorem 2.3 would hold {} weights; tverify builds "
                    "at most {} (2^20; smaller D or n)",
                    config.alphabet, config.n, weights, max_transformer_weights));
  return config;
}

std::vector<ParamSpec> copy_params() {
  return {
      integer_param("D", "alphabet size (non-special tokens; with n, at most 2^20 weights in the transformer)", 1, 64,
                    "2"),
      integer_param("n", "n-gram length of the hash (with D, at most 2^20 weights in the transformer)", 1, 64, "2"),
      integer_param("L", "string length", 1, 4096, "4"),
      integer_param("S", "number of GSSM states |S| (Theorem 2.7, Corollary 2.8)", 1, 1'000'000'000'000'000'000, "2"),
      choice_param("reading", "reading of 'repeated n-gram' in Definition 2.2", {"both", "text", "formula"}, "both"),
      choice_param("embedding", "token embedding of the transformer (one-hot, or Lemma C.2)", {"onehot", "c2"},
                   "onehot"),
      rational_param("tau", "layer-2 inverse temperature tau; 'proof' is d ln(8Kd), K = D^n", "proof",
                     {.words = {"proof"}})};
}

std::vector<ClaimSpec> copy_claims() {
  const auto& s = copy_claim_specs();
  const auto& t = transformer_claim_specs();
  const auto& p = proof_claim_specs();
  return {s.alg1,         t.lemma_c1, t.lemma_c2, p.lemma_c3, t.lemma_c4, p.gadget_ghat, p.gadget_gtilde,
          p.gadget_gstar, t.scores,   t.thm2_3,   t.err,      s.lemma2_4, s.thm2_7,      s.cor2_8};
}

std::vector<VariantSpec> copy_variants() {
  return {{"paper", "the construction as printed (Algorithm 1's loop bounds, the gadgets of Appendix C)"},
          {"corrected", "with the minimal fixes written up in docs/errata.md (E-entries)"}};
}

std::vector<SweepSpec> copy_sweeps() {
  const ParamSpec length_max = integer_param(
      "L-max", "the largest L (default: the largest with D^L <= 10^4 for --vary L, 2n + 4 for --vary bits)", 1, 64, "");
  const ParamSpec threshold =
      rational_param("threshold", "mark the first L whose error rate reaches this (default 1/2)", "", {.max = "1"});
  const ParamSpec samples = integer_param("samples", "random strings per L", 1, 1'000'000, "64");
  const ParamSpec seed = seed_param("seed of the random strings");
  return {
      {"tau",
       false,
       "bisect the smallest tau at which the transformer copies every string of [D]^L (exhaustive)",
       {rational_param("resolution", "grid step of the bisection", "1/16", {.min = "1/1048576", .max = "1000"})}},
      {"L", false, "the exact error rate and p_n-gram for L = 1..L-max (exhaustive)", {length_max, threshold}},
      {"bits",
       false,
       "the fewest MPFR bits that copy every string, for L = 1..L-max (exhaustive; a measurement)",
       {length_max}},
      {"L",
       true,
       "--vary L=lo:hi:xF or L=lo:hi:+S: the error rate of sampled strings at large L on the fast exact path",
       {samples, seed, threshold, resume_option()}},
      {"L",
       true,
       "the same strings in floating-point formats instead (a measurement)",
       {samples, seed,
        text_param("formats", "measure these formats instead (float64,float32,bfloat16,float16); selects that sweep",
                   "", "LIST"),
        resume_option()},
       "formats"},
      {"L",
       true,
       "the fewest MPFR bits (2..25) that copy every sampled string, per L (a measurement)",
       {samples, seed,
        flag_param("min-bits",
                   "measure the fewest MPFR bits (2..25) that copy every sampled string; selects that sweep"),
        resume_option()},
       "min-bits"},
  };
}

// eval evaluates --input, whose length is its own; prove's claims hold for every GSSM state count; a sweep over L or
// tau sets it itself; the fast sweeps draw their strings at the lengths of --vary, with neither --S nor a reading;
// the bits sweep measures the transformer alone.
std::vector<std::string> copy_unread_params(const std::string& verb, const SweepRequest* sweep, const ParamValues&) {
  if (verb == "eval") return {"L", "S", "reading"};
  if (verb == "prove") return {"S"};
  if (!sweep) return {};
  if (sweep->fast) return {"L", "S", "reading"};
  if (vary_key(sweep->vary) == "L") return {"L", "S"};
  if (vary_key(sweep->vary) == "tau") return {"tau", "S"};
  if (vary_key(sweep->vary) == "bits") return {"S"};
  return {};
}

// eval generates from one --input; no sweep reads the GSSM's |S|, nor prove (its queries are the transformer's).
std::vector<std::string> copy_never_read(const std::string& verb) {
  if (verb == "eval") return {"L", "S", "reading"};
  if (verb == "prove" || verb == "sweep") return {"S"};
  return {};
}

// What every claim group of a copy check reads, made once per run.
struct CopyCheckContext {
  StringDomain domain;
  CopyTransformerConfig transformer;
  std::vector<NgramReading> readings;
  Alg1Variant alg1_variant;
  std::uint64_t states;
  bool paper;
  RunOptions options;
};

CopyCheckContext prepare_copy_run(const ParamValues& params, const std::string& variant, const ClaimSelection& asked,
                                  const RunOptions& options, CheckReport& report) {
  const StringDomain domain =
      make_string_domain(params.small_int("D"), params.small_int("n"), params.small_int("L"), options);
  const auto& t = transformer_claim_specs();
  const bool transformer =
      asked.has(t.lemma_c1) || asked.has(t.lemma_c4) || asked.has(t.scores) || asked.has(t.thm2_3) || asked.has(t.err);
  report.arithmetic =
      transformer ? "exact (layer 1 and scores, in Q(sqrt r)); interval (softmax and readout)" : "exact";
  report.domain_description = "every string of [D]^L in lexicographic order (x_1 most significant)";
  report.domain_inputs = domain.size;
  return {domain,
          transformer_config(params, variant, domain.length),
          readings_from(params.choice("reading")),
          variant == "paper" ? Alg1Variant::Paper : Alg1Variant::Corrected,
          static_cast<std::uint64_t>(params.integer("S")),
          variant == "paper",
          options};
}

std::vector<ClaimGroup<CopyCheckContext>> copy_claim_groups() {
  const auto& s = copy_claim_specs();
  const auto& t = transformer_claim_specs();
  return {
      {{&s.alg1, &s.lemma2_4},
       [](const CopyCheckContext& run, const ClaimSelection& asked) {
         const auto& s = copy_claim_specs();
         return check_string_claims(run.domain, run.alg1_variant, run.readings,
                                    {.alg1 = asked.has(s.alg1), .lemma2_4 = asked.has(s.lemma2_4)}, run.options);
       }},
      {{&t.lemma_c2},
       [](const CopyCheckContext& run, const ClaimSelection&) {
         return std::vector<ClaimResult>{check_lemma_c2(run.domain.alphabet, run.transformer.variant)};
       }},
      {{&t.lemma_c1, &t.lemma_c4, &t.scores, &t.thm2_3, &t.err},
       [](const CopyCheckContext& run, const ClaimSelection& asked) {
         const auto& t = transformer_claim_specs();
         const TransformerClaimSelection selection{asked.has(t.lemma_c1), asked.has(t.lemma_c4), asked.has(t.scores),
                                                   asked.has(t.thm2_3), asked.has(t.err)};
         return check_transformer_claims(run.domain, run.transformer, run.readings, selection, run.options);
       }},
      {{&s.thm2_7},
       [](const CopyCheckContext& run, const ClaimSelection&) {
         return std::vector<ClaimResult>{check_thm2_7(run.domain, run.states, run.paper, run.options)};
       }},
      {{&s.cor2_8},
       [](const CopyCheckContext& run, const ClaimSelection&) {
         return std::vector<ClaimResult>{check_cor2_8(run.domain, run.states, run.options)};
       }},
  };
}

void prove_copy(const ParamValues& params, const std::string& variant, const ClaimSelection& asked,
                const ProofOptions& options, const RunOptions& run, CheckReport& report) {
  const StringDomain domain =
      make_string_domain(params.small_int("D"), params.small_int("n"), params.small_int("L"), run);
  report.arithmetic = "z3 (unsat proofs; sat models replayed in exact arithmetic)";
  report.domain_description = "symbolic: lemma and gadget statements for all values; " +
                              transformer_claim_specs().scores.id +
                              " for every x in [D]^L without a repeated n-gram as one query per reading";
  report.domain_inputs = domain.size;
  const CopyTransformerConfig config = transformer_config(params, variant, domain.length);
  const std::vector<NgramReading> readings = readings_from(params.choice("reading"));
  report.claims = prove_copy_claims(config, readings, asked.ids(), options);
  const ClaimSpec& scores = transformer_claim_specs().scores;
  if (asked.has(scores)) {  // agreement with the enumeration, reading by reading
    const auto enumerated = check_transformer_claims(domain, config, readings, {false, false, true, false, false}, run);
    for (auto& r : report.claims)
      for (const auto& e : enumerated)
        if (r.id == scores.id && e.reading == r.reading) r.details["enumeration_verdict"] = to_string(e.verdict);
  }
}

// --fast: the error rate vs L at scale (checkers/copy/fast_sweeps/length_sweep.hpp).
Json sweep_fast(const ParamValues& params, const std::string& variant, const SweepRun& sweep, const RunOptions& run) {
  if (sweep.vary.rfind("L=", 0) != 0)
    throw UsageError("--fast sweeps vary L: --vary L=lo:hi:xF or L=lo:hi:+S (got '" + sweep.vary + "')");
  const fast::LengthGrid grid = fast::parse_length_grid(sweep.vary);
  const ParamValues& given = sweep.options;
  fast::FastSweepOptions o;
  o.output = sweep.output;
  o.samples = static_cast<std::uint64_t>(given.integer("samples"));
  o.seed = static_cast<std::uint64_t>(given.integer("seed"));
  o.threshold = given.has("threshold") ? *given.rational("threshold") : Exact(1, 2);  // the error-rate sweep's
  o.resume = given.flag("resume");
  o.threads = run.threads;
  check_budget(static_cast<std::uint64_t>(grid.values().size()) * o.samples, run, "sampled strings");
  fast::require_memory(grid, o);
  const CopyTransformerConfig config = transformer_config(params, variant, params.small_int("L"));
  if (sweep.spec.selector == "min-bits") return fast::sweep_copy_min_bits(config, grid, o);
  if (sweep.spec.selector == "formats")
    return fast::sweep_copy_formats(config, grid, fast::parse_formats(given.text("formats")), o);
  return fast::sweep_copy_length_fast(config, grid, o);
}

Json sweep_copy(const ParamValues& params, const std::string& variant, const SweepRun& sweep, const RunOptions& run) {
  if (sweep.spec.fast) return sweep_fast(params, variant, sweep, run);
  if (sweep.vary != sweep.spec.vary)
    throw UsageError("--vary " + sweep.spec.vary + " takes no range (got '" + sweep.vary + "'; ranges are for --fast)");
  const std::string& vary = sweep.spec.vary;
  CopySweepOptions options;
  options.output = sweep.output;
  options.resolution = sweep.options.has("resolution") ? *sweep.options.rational("resolution") : Exact(1, 16);
  options.threshold = sweep.options.has("threshold") ? *sweep.options.rational("threshold") : Exact(1, 2);
  const int alphabet = params.small_int("D");
  const bool length_given = sweep.options.has("L-max");
  if (vary == "bits") {
    options.length_max = length_given ? sweep.options.small_int("L-max") : 2 * params.small_int("n") + 4;
  } else if (vary == "L") {
    int fits = 0;  // the largest L with D^L <= 10^4 (the default), capped by the run budget
    while (fits < 64 && big_pow(static_cast<unsigned long>(alphabet), static_cast<unsigned long>(fits + 1)) <= 10000)
      ++fits;
    options.length_max = length_given ? sweep.options.small_int("L-max") : std::max(1, fits);
    make_string_domain(alphabet, params.small_int("n"), options.length_max, run);  // the largest run fits the budget
  } else {
    make_string_domain(alphabet, params.small_int("n"), params.small_int("L"), run);
  }
  if (params.choice("reading") != "both")
    throw UsageError("--reading: sweeps report both readings; leave --reading at its default");
  require_gnuplot();
  prepare_output_dir(sweep.output.dir);
  const CopyTransformerConfig config = transformer_config(params, variant, params.small_int("L"));
  if (vary == "bits") return sweep_precision(config, options, run);
  return vary == "tau" ? sweep_tau(config, options, run) : sweep_length(config, options, run);
}

TokenString parse_tokens(const std::string& input, int alphabet) {
  TokenString x;
  for (const auto& item : split_list(input, ',', "--input", "a comma-separated list of tokens in [0, D-1]"))
    x.push_back(static_cast<Token>(parse_integer_option("--input token", item, 0, alphabet - 1)));
  return x;
}

std::string vector_text(const Vector<QuadraticSurd>& v) {
  std::string out;
  for (const auto& e : v) out += (out.empty() ? "" : " ") + e.to_string();
  return "(" + out + ")";
}

Json tokens_json(const TokenString& x) { return Json(std::vector<int>(x.begin(), x.end())); }

// The rows of one layer-1 block (value, key or query) at every position, as one traced tensor [positions, width].
void trace_blocks(Evaluation& e, const std::string& name, const Layer1Blocks& blocks,
                  const Vector<Surd> Layer1Output::*block, const std::string& meaning) {
  std::vector<QuadraticSurd> values;
  for (std::size_t p = 0; p < blocks.size(); ++p)
    values.insert(values.end(), (blocks[p].*block).begin(), (blocks[p].*block).end());
  const std::size_t width = blocks.size() == 0 ? 0 : (blocks[0].*block).size();
  e.add_trace(name, {blocks.size(), width}, std::move(values), meaning);
}

// The transformer of Thm 2.3 on one string: the generated copy and, traced, every block of both layers.
void eval_transformer(const ParamValues& params, const std::string& variant, const TokenString& x, bool trace,
                      Evaluation& e) {
  const CopyTransformer tr(transformer_config(params, variant, static_cast<int>(x.size())));
  const TokenString s = tr.copy_sequence(x, x.size() - 1);
  const auto blocks = tr.layer1(s);
  const CopyRun run = tr.copy_string(x, blocks);
  e.text += fmt::format("Transformer of Theorem 2.3 (variant {}, embedding {}, d = {}, tau = {})\n", variant,
                        params.choice("embedding"), tr.dim(), tr.tau_description());
  Json steps = Json::array();
  for (const auto& step : run.steps)
    steps.push_back({{"position", step.position},
                     {"target", step.target},
                     {"argmax", step.output ? Json(*step.output) : Json(nullptr)},
                     {"margin", to_string(step.margin)},
                     {"bits", step.bits}});
  e.result["transformer"] = {{"embedding", params.choice("embedding")},
                             {"d", tr.dim()},
                             {"tau", tr.tau_description()},
                             {"copy_sequence", tokens_json(s)},
                             {"generated", tokens_json(run.output)},
                             {"copied", run.copied},
                             {"failure", run.copied ? Json(nullptr) : Json(run.failure())},
                             {"steps", steps}};
  if (trace) {
    e.text += "  layer 1 on the copy sequence (positions 1-based; <BOS> = " + std::to_string(tr.bos()) +
              ", <COPY> = " + std::to_string(tr.copy()) + "):\n";
    for (std::size_t p = 0; p < blocks.size(); ++p)
      e.text += fmt::format("    position {} token {}: value {} key {} query {}\n", p + 1, s[p],
                            vector_text(blocks[p].value), vector_text(blocks[p].key), vector_text(blocks[p].query));
    trace_blocks(e, "layer1.value", blocks, &Layer1Output::value, "layer 1's value block at each position (exact)");
    trace_blocks(e, "layer1.key", blocks, &Layer1Output::key, "layer 1's key block T^key at each position (exact)");
    trace_blocks(e, "layer1.query", blocks, &Layer1Output::query, "layer 1's query block T^query at each position");
    e.text += "  layer 2 at each generation step (scores z_j = T^key_j . T^query_i, exact):\n";
    for (const auto& step : run.steps) {
      const auto z = CopyTransformer::scores(blocks, step.position - 1);
      e.text += fmt::format("    step at position {}: z = {}; argmax {} ({}, {} bits), target {}\n", step.position,
                            vector_text(z), step.output ? std::to_string(*step.output) : std::string("undecided"),
                            to_string(step.margin), step.bits, step.target);
      e.add_trace(
          fmt::format("layer2.scores.position_{}", step.position), {z.size()},
          std::vector<QuadraticSurd>(z.begin(), z.end()),
          fmt::format("the scores z_j = T^key_j . T^query_i of the query at position {} (exact)", step.position));
    }
  }
  e.text += fmt::format("  generated y = {}\n  copied: {}{}\n", format_tokens(run.output), run.copied ? "yes" : "no",
                        run.copied ? "" : " (" + run.failure() + ")");
}

Evaluation eval_copy(const ParamValues& params, const std::string& variant, const std::string& input, bool trace,
                     long bits) {
  const int n = params.small_int("n");
  const TokenString x = parse_tokens(input, params.small_int("D"));
  const Alg1Variant v = variant == "paper" ? Alg1Variant::Paper : Alg1Variant::Corrected;
  const Alg1Run run = run_algorithm1(x, n, v, trace);
  Evaluation e;
  e.text = fmt::format("Algorithm 1 (variant {}, n = {}) on x = {}\n", variant, n, format_tokens(x));
  Json repeated = Json::object();
  for (NgramReading r : {NgramReading::Text, NgramReading::Formula}) {
    const bool repeats = has_repeated_window(x, window_length(r, n));
    e.text += fmt::format("  repeated n-gram, {}: {}\n", describe(r), repeats ? "yes" : "no");
    repeated[to_string(r)] = repeats;
  }
  Json keys = Json::array(), steps = Json::array();
  if (trace) {
    e.text += "  keys (loop i = " + std::to_string(first_key_position(v, n)) + ".." + std::to_string(x.size()) + "):\n";
    for (int i : run.key_positions) {
      const TokenString key(x.begin() + (i - 1 - n), x.begin() + (i - 1));
      e.text += fmt::format("    k_{} = ({}), v_{} = {}\n", i, format_tokens(key), i, x[i - 1]);
      keys.push_back({{"i", i}, {"key", tokens_json(key)}, {"value", x[i - 1]}});
    }
    for (const auto& s : run.steps) {
      steps.push_back({{"position", s.position},
                       {"copied_directly", s.copied_directly},
                       {"query", tokens_json(s.query)},
                       {"matching_keys", s.matching_keys},
                       {"output", s.output ? Json(*s.output) : Json(nullptr)}});
      if (s.copied_directly) {
        e.text += fmt::format("    step {}: j <= n, y_{} = x_{} = {}\n", s.position, s.position, s.position, *s.output);
        continue;
      }
      std::string matches;
      for (int i : s.matching_keys) matches += (matches.empty() ? "" : ", ") + std::to_string(i);
      e.text += fmt::format("    step {}: q_{} = ({}), matching keys i = {{{}}}, y_{} = {}\n", s.position, s.position,
                            format_tokens(s.query), matches, s.position,
                            s.output ? std::to_string(*s.output) : std::string("none"));
    }
  }
  e.text += fmt::format("  output y = {}\n  copied: {}{}\n", format_tokens(run.output), run.copied ? "yes" : "no",
                        run.copied ? "" : " (" + run.failure + ")");
  e.result["x"] = tokens_json(x);
  e.result["algorithm1"] = {{"repeated_ngram", repeated},
                            {"output", tokens_json(run.output)},
                            {"copied", run.copied},
                            {"failure", run.copied ? Json(nullptr) : Json(run.failure)}};
  if (trace) e.result["algorithm1"]["keys"] = keys, e.result["algorithm1"]["steps"] = steps;
  eval_transformer(params, variant, x, trace, e);
  if (bits > 0) {
    const CopyTransformer exact(transformer_config(params, variant, static_cast<int>(x.size())));
    const FinitePrecisionCopy finite(exact, bits);
    const bool copies = finite.copies(x);
    e.text += fmt::format("Same transformer in MPFR at {} bits (round to nearest; a measurement, not a verdict): {}\n",
                          bits, copies ? "copies x" : "does not copy x");
    e.result["mpfr"] = {{"bits", bits}, {"copies", copies}, {"note", "round to nearest; a measurement, not a verdict"}};
  }
  return e;
}

std::string export_copy(const ParamValues& params, const std::string& variant) {
  // The model reads sequences of any length: L is not a parameter of its weights.
  return copy_transformer_onnx(CopyTransformer(transformer_config(params, variant, 0)));
}

std::vector<NamedWeights> weights_of_copy(const ParamValues& params, const std::string& variant) {
  return copy_transformer_weights(CopyTransformer(transformer_config(params, variant, 0)));
}

}  // namespace

Construction copy_construction() {
  return {{"copy",
           "Jelassi, Brandfonbrener, Kakade, Malach: Repeat After Me (arXiv 2402.01032)",
           copy_params(),
           copy_variants(),
           copy_claims(),
           copy_sweeps(),
           {.evaluates_in_floating_point = true,
            .export_params = std::vector<std::string>{"D", "n", "embedding", "tau"},
            .eval_length_param = "L",
            .unread_params = copy_unread_params,
            .never_read = copy_never_read}},
          {check_in_groups<CopyCheckContext>(prepare_copy_run, copy_claim_groups()), prove_copy, sweep_copy, eval_copy,
           export_copy, weights_of_copy}};
}

}  // namespace tverify::copy
