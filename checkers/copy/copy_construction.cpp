#include "checkers/copy/copy_construction.hpp"

#include "checkers/fast/copy_length_sweep.hpp"
#include "checkers/fast/format_sweep.hpp"
#include "checkers/fast/min_bits_sweep.hpp"

#include "checkers/copy/copy_claims.hpp"
#include "checkers/copy/proof_claims.hpp"
#include "checkers/copy/sweeps.hpp"
#include "checkers/sweep_output.hpp"
#include "constructions/copy/finite_precision.hpp"
#include "checkers/copy/transformer_claims.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace tverify::copy {

namespace {

CopyTransformerConfig transformer_config(const ParamValues& params, const std::string& variant, int length) {
  return {params.small_int("D"),
          params.small_int("n"),
          length,
          params.choice("embedding") == "c2" ? EmbeddingKind::C2 : EmbeddingKind::OneHot,
          variant == "paper" ? TransformerVariant::Paper : TransformerVariant::Corrected,
          params.rational("tau")};
}

}  // namespace

std::string CopyConstruction::paper() const {
  return "Jelassi, Brandfonbrener, Kakade, Malach: Repeat After Me (arXiv 2402.01032)";
}

std::vector<ParamSpec> CopyConstruction::params() const {
  using K = ParamSpec::Kind;
  return {
      {"D", "alphabet size (non-special tokens)", K::Integer, 1, 64, {}, "2"},
      {"n", "n-gram length of the hash", K::Integer, 1, 64, {}, "2"},
      {"L", "string length", K::Integer, 1, 4096, {}, "4"},
      {"S", "number of GSSM states |S| (Theorem 2.7, Corollary 2.8)", K::Integer, 1, 1'000'000'000'000'000'000, {},
       "2"},
      {"reading", "reading of 'repeated n-gram' in Definition 2.2", K::Choice, 0, 0, {"both", "text", "formula"},
       "both"},
      {"embedding", "token embedding of the transformer (one-hot, or Lemma C.2)", K::Choice, 0, 0, {"onehot", "c2"},
       "onehot"},
      {"tau", "layer-2 inverse temperature tau; 'proof' is d ln(8Kd), K = D^n", K::PositiveRational, 0, 0, {"proof"},
       "proof"},
  };
}

const std::vector<ClaimSpec>& CopyConstruction::claims() const {
  static const std::vector<ClaimSpec> list = [] {
    const auto& s = copy_claim_specs();
    const auto& t = transformer_claim_specs();
    const auto& p = proof_claim_specs();
    return std::vector<ClaimSpec>{s.alg1,          t.lemma_c1,        t.lemma_c2,         p.lemma_c3,
                                  t.lemma_c4,      p.gadget_ghat,     p.gadget_gtilde,    p.gadget_gstar,
                                  t.scores,        t.thm2_3,          t.err,              s.lemma2_4,
                                  s.thm2_7,        s.cor2_8};
  }();
  return list;
}

CheckReport CopyConstruction::check(const ParamValues& params, const std::string& variant,
                                    const std::vector<std::string>& claim_ids, const RunOptions& options) const {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> ids = claim_ids;
  if (ids.empty())
    for (const auto& c : claims())
      if (!c.proof_only) ids.push_back(c.id);
  for (const auto& id : ids)  // unknown ids fail before any work
    if (claim(id).proof_only) throw UsageError("--claim " + id + " is proved with `tverify prove copy`, not enumerated");
  auto wanted = [&](const std::string& id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };

  const StringDomain domain =
      make_string_domain(params.small_int("D"), params.small_int("n"), params.small_int("L"), options);
  const auto states = static_cast<std::uint64_t>(params.integer("S"));
  const Alg1Variant alg1_variant = variant == "paper" ? Alg1Variant::Paper : Alg1Variant::Corrected;

  CheckReport report =
      new_report("check", params, variant, Json{{"max_counterexamples", options.max_counterexamples}});
  const CopyTransformerConfig transformer = transformer_config(params, variant, domain.length);
  const TransformerClaimSelection selection{wanted("copy.lemma_c1"), wanted("copy.lemma_c4"), wanted("copy.scores"),
                                            wanted("copy.thm2_3"), wanted("copy.err")};
  const auto readings = readings_from(params.choice("reading"));
  report.arithmetic = selection.any() ? "exact (layer 1 and scores, in Q(sqrt r)); interval (softmax and readout)"
                                      : "exact";
  report.domain_description = "every string of [D]^L in lexicographic order (x_1 most significant)";
  report.domain_inputs = domain.size;
  auto append = [&](std::vector<ClaimResult> more) {
    for (auto& r : more) report.claims.push_back(std::move(r));
  };
  if (wanted("copy.alg1") || wanted("copy.lemma2_4"))
    append(check_string_claims(domain, alg1_variant, readings, wanted("copy.alg1"), wanted("copy.lemma2_4"), options));
  if (wanted("copy.lemma_c2")) report.claims.push_back(check_lemma_c2(domain.alphabet, transformer.variant));
  if (selection.any()) append(check_transformer_claims(domain, transformer, readings, selection, options));
  if (wanted("copy.thm2_7")) report.claims.push_back(check_thm2_7(domain, states, variant == "paper", options));
  if (wanted("copy.cor2_8")) report.claims.push_back(check_cor2_8(domain, states, options));
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}


CheckReport CopyConstruction::prove(const ParamValues& params, const std::string& variant,
                                    const std::vector<std::string>& claim_ids, const ProofOptions& options,
                                    const RunOptions& run) const {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::string> provable{"copy.lemma_c3", "copy.gadget_ghat", "copy.gadget_gtilde",
                                          "copy.gadget_gstar", "copy.scores"};
  std::vector<std::string> ids = claim_ids.empty() ? provable : claim_ids;
  for (const auto& id : ids) {
    claim(id);
    if (std::find(provable.begin(), provable.end(), id) == provable.end())
      throw UsageError("--claim " + id + " has no Z3 proof (provable: copy.lemma_c3, copy.gadget_ghat, "
                       "copy.gadget_gtilde, copy.gadget_gstar, copy.scores)");
  }
  const StringDomain domain = make_string_domain(params.small_int("D"), params.small_int("n"), params.small_int("L"), run);
  CheckReport report = new_report("prove", params, variant, Json{{"timeout_ms", options.timeout_ms}});
  report.arithmetic = "z3 (unsat proofs; sat models replayed in exact arithmetic)";
  report.domain_description = "symbolic: lemma and gadget statements for all values; copy.scores for every x in "
                              "[D]^L without a repeated n-gram as one query";
  report.domain_inputs = domain.size;
  report.claims = prove_copy_claims(transformer_config(params, variant, domain.length), ids, options);
  if (std::find(ids.begin(), ids.end(), "copy.scores") != ids.end()) {  // agreement with the enumeration
    const auto enumerated = check_transformer_claims(domain, transformer_config(params, variant, domain.length),
                                                     {NgramReading::Text}, {false, false, true, false, false}, run);
    for (auto& r : report.claims)
      if (r.id == "copy.scores") r.details["enumeration_verdict"] = to_string(enumerated.front().verdict);
  }
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

namespace {

Exact parse_positive(const std::string& option, const std::string& text, const Exact& fallback, const Exact& max) {
  if (text.empty()) return fallback;
  try {
    const Exact q = parse_exact(text);
    if (q > 0 && q <= max) return q;
  } catch (const std::invalid_argument&) {
  }
  throw UsageError(option + " must be an exact number in (0, " + exact_to_string(max) + "] (got '" + text + "')");
}

}  // namespace

// --fast: the error rate vs L at scale (checkers/fast/copy_length_sweep.hpp).
Json CopyConstruction::sweep_fast(const ParamValues& params, const std::string& variant, const SweepRequest& request,
                                  const RunOptions& run) const {
  if (request.vary.rfind("L=", 0) != 0)
    throw UsageError("--fast sweeps vary L: --vary L=lo:hi:xF or L=lo:hi:+S (got '" + request.vary + "')");
  const fast::LengthGrid grid = fast::parse_length_grid(request.vary);
  std::vector<std::string> read{"--fast", "--resume", "--samples", "--seed", "--formats", "--min-bits"};
  if (request.formats.empty() && !request.min_bits) read.push_back("--threshold");  // the error-rate sweep's mark
  reject_unread_sweep_options(request, "sweep copy --fast", read);
  fast::FastSweepOptions o;
  o.out_dir = request.out_dir;
  o.samples = request.samples.empty() ? 64 : static_cast<std::uint64_t>(parse_integer_option("--samples", request.samples, 1, 1'000'000));
  o.seed = request.seed.empty() ? 1 : static_cast<std::uint64_t>(parse_integer_option("--seed", request.seed, 0, 1'000'000'000'000));
  o.threshold = parse_positive("--threshold", request.threshold, Exact(1, 2), Exact(1));
  o.resume = request.resume;
  o.threads = run.threads;
  check_budget(static_cast<std::uint64_t>(grid.values().size()) * o.samples, run, "sampled strings");
  fast::require_memory(grid, o);
  if (request.min_bits) {
    if (!request.formats.empty()) throw UsageError("--min-bits and --formats are separate sweeps: give one of them");
    return fast::sweep_copy_min_bits(transformer_config(params, variant, params.small_int("L")), grid, o);
  }
  if (!request.formats.empty()) {
    return fast::sweep_copy_formats(transformer_config(params, variant, params.small_int("L")), grid,
                                    fast::parse_formats(request.formats), o);
  }
  return fast::sweep_copy_length_fast(transformer_config(params, variant, params.small_int("L")), grid, o);
}

Json CopyConstruction::sweep(const ParamValues& params, const std::string& variant, const SweepRequest& request,
                             const RunOptions& run) const {
  if (request.fast) return sweep_fast(params, variant, request, run);
  if (request.vary != "tau" && request.vary != "L" && request.vary != "bits")
    throw UsageError("--vary must be one of tau, L, bits (got '" + request.vary + "')");
  reject_unread_sweep_options(request, "sweep copy --vary " + request.vary,
                              request.vary == "tau" ? std::vector<std::string>{"--fast", "--resolution"}
                              : request.vary == "L" ? std::vector<std::string>{"--fast", "--L-max", "--threshold"}
                                                    : std::vector<std::string>{"--fast", "--L-max"});
  if (request.out_dir.empty()) throw UsageError("--out must name a directory for the CSV, PNG and JSON");
  CopySweepOptions sweep;
  sweep.out_dir = request.out_dir;
  sweep.resolution = parse_positive("--resolution", request.resolution, Exact(1, 16), Exact(1000));
  if (sweep.resolution < Exact(1, 1 << 20))  // each halving is one more exhaustive probe
    throw UsageError("--resolution must be an exact number in [1/1048576, 1000] (got '" + request.resolution + "')");
  sweep.threshold = parse_positive("--threshold", request.threshold, Exact(1, 2), Exact(1));
  const int alphabet = params.small_int("D");
  if (request.vary == "bits") {
    sweep.length_max = request.length_max.empty()
                           ? 2 * params.small_int("n") + 4
                           : static_cast<int>(parse_integer_option("--L-max", request.length_max, 1, 64));
  } else if (request.vary == "L") {
    int fits = 0;  // the largest L with D^L <= 10^4 (the default), capped by the run budget
    while (fits < 64 && big_pow(static_cast<unsigned long>(alphabet), static_cast<unsigned long>(fits + 1)) <= 10000)
      ++fits;
    sweep.length_max = request.length_max.empty()
                           ? std::max(1, fits)
                           : static_cast<int>(parse_integer_option("--L-max", request.length_max, 1, 64));
    make_string_domain(alphabet, params.small_int("n"), sweep.length_max, run);  // the largest run fits the budget
  } else {
    make_string_domain(alphabet, params.small_int("n"), params.small_int("L"), run);
  }
  if (params.choice("reading") != "both")
    throw UsageError("--reading: sweeps report both readings; leave --reading at its default");
  require_gnuplot();
  prepare_output_dir(request.out_dir);
  const CopyTransformerConfig config = transformer_config(params, variant, params.small_int("L"));
  if (request.vary == "bits") return sweep_precision(config, sweep, run);
  return request.vary == "tau" ? sweep_tau(config, sweep, run) : sweep_length(config, sweep, run);
}

namespace {

TokenString parse_tokens(const std::string& input, int alphabet) {
  TokenString x;
  for (const auto& item : split_list(input, ',', "--input", "a comma-separated list of tokens in [0, D-1]"))
    x.push_back(static_cast<Token>(parse_integer_option("--input token", item, 0, alphabet - 1)));
  return x;
}

}  // namespace

namespace {

std::string vector_text(const Vector<QuadraticSurd>& v) {
  std::string out;
  for (const auto& e : v) out += (out.empty() ? "" : " ") + e.to_string();
  return "(" + out + ")";
}

// The transformer of Thm 2.3 on one string: the generated copy and, traced, every block of both layers.
std::string eval_transformer(const ParamValues& params, const std::string& variant, const TokenString& x, bool trace) {
  const CopyTransformer tr(transformer_config(params, variant, static_cast<int>(x.size())));
  const TokenString s = tr.copy_sequence(x, x.size() - 1);
  const auto blocks = tr.layer1(s);
  const CopyRun run = tr.copy_string(x, blocks);
  std::string out = fmt::format("Transformer of Theorem 2.3 (variant {}, embedding {}, d = {}, tau = {})\n", variant,
                                params.choice("embedding"), tr.dim(), tr.tau_description());
  if (trace) {
    out += "  layer 1 on the copy sequence (positions 1-based; <BOS> = " + std::to_string(tr.bos()) +
           ", <COPY> = " + std::to_string(tr.copy()) + "):\n";
    for (std::size_t p = 0; p < blocks.size(); ++p)
      out += fmt::format("    position {} token {}: value {} key {} query {}\n", p + 1, s[p],
                         vector_text(blocks[p].value), vector_text(blocks[p].key), vector_text(blocks[p].query));
    out += "  layer 2 at each generation step (scores z_j = T^key_j . T^query_i, exact):\n";
    for (const auto& step : run.steps)
      out += fmt::format("    step at position {}: z = {}; argmax {} ({}, {} bits), target {}\n", step.position,
                         vector_text(CopyTransformer::scores(blocks, step.position - 1)),
                         step.output ? std::to_string(*step.output) : std::string("undecided"), to_string(step.margin),
                         step.bits, step.target);
  }
  out += fmt::format("  generated y = {}\n  copied: {}{}\n", format_tokens(run.output), run.copied ? "yes" : "no",
                     run.copied ? "" : " (" + run.failure() + ")");
  return out;
}

}  // namespace

std::string CopyConstruction::eval(const ParamValues& params, const std::string& variant, const std::string& input,
                                   bool trace, long bits) const {
  const int n = params.small_int("n");
  const TokenString x = parse_tokens(input, params.small_int("D"));
  const Alg1Variant v = variant == "paper" ? Alg1Variant::Paper : Alg1Variant::Corrected;
  const Alg1Run run = run_algorithm1(x, n, v, trace);
  std::string out = fmt::format("Algorithm 1 (variant {}, n = {}) on x = {}\n", variant, n, format_tokens(x));
  for (NgramReading r : {NgramReading::Text, NgramReading::Formula})
    out += fmt::format("  repeated n-gram, {}: {}\n", describe(r),
                       has_repeated_window(x, window_length(r, n)) ? "yes" : "no");
  if (trace) {
    out += "  keys (loop i = " + std::to_string(first_key_position(v, n)) + ".." + std::to_string(x.size()) + "):\n";
    for (int i : run.key_positions)
      out += fmt::format("    k_{} = ({}), v_{} = {}\n", i,
                         format_tokens(TokenString(x.begin() + (i - 1 - n), x.begin() + (i - 1))), i, x[i - 1]);
    for (const auto& s : run.steps) {
      if (s.copied_directly) {
        out += fmt::format("    step {}: j <= n, y_{} = x_{} = {}\n", s.position, s.position, s.position, *s.output);
        continue;
      }
      std::string matches;
      for (int i : s.matching_keys) matches += (matches.empty() ? "" : ", ") + std::to_string(i);
      out += fmt::format("    step {}: q_{} = ({}), matching keys i = {{{}}}, y_{} = {}\n", s.position, s.position,
                         format_tokens(s.query), matches, s.position,
                         s.output ? std::to_string(*s.output) : std::string("none"));
    }
  }
  out += fmt::format("  output y = {}\n  copied: {}{}\n", format_tokens(run.output), run.copied ? "yes" : "no",
                     run.copied ? "" : " (" + run.failure + ")");
  out += eval_transformer(params, variant, x, trace);
  if (bits > 0) {
    const CopyTransformer exact(transformer_config(params, variant, static_cast<int>(x.size())));
    const FinitePrecisionCopy finite(exact);
    const RuntimeMpfr::Precision precision(bits);
    out += fmt::format("Same transformer in MPFR at {} bits (round to nearest; a measurement, not a verdict): {}\n",
                       bits, finite.copies(x) ? "copies x" : "does not copy x");
  }
  return out;
}

}  // namespace tverify::copy
