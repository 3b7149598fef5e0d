#include "checkers/markov/markov_construction.hpp"

#include "checkers/markov/point_file.hpp"
#include "checkers/markov/sweeps.hpp"
#include "checkers/proof_dump.hpp"
#include "checkers/proof_verdict.hpp"
#include "constructions/markov/weights.hpp"
#include "proofs/markov_proofs.hpp"

#include <fmt/format.h>

namespace tverify::markov {

namespace {

Arbitrary::Fill parse_fill(const std::string& text) {
  if (text == "zero") return Arbitrary::Fill::Zero;
  if (text == "constant") return Arbitrary::Fill::Constant;
  return Arbitrary::Fill::Random;
}

// What the printed points need: the chain, the shapes, the variant and the arbitrary blocks (the weights' parameters).
MarkovSetup point_setup(const ParamValues& params, const std::string& variant) {
  MarkovSetup s{MarkovChain(*params.rational("p"), *params.rational("q")), {}, {}, {}, 2, {}, {}, 1, {}};
  s.shapes = Shapes{params.small_int("d"), params.small_int("m"), params.small_int("r"), params.small_int("N"),
                    params.flag("tied")};
  s.variant = variant == "corrected" ? Variant::Corrected : Variant::Paper;
  s.arbitrary.fill = parse_fill(params.choice("arbitrary"));
  s.arbitrary.seed = static_cast<std::uint64_t>(params.integer("seed"));
  return s;
}

}  // namespace

MarkovSetup make_setup(const ParamValues& params, const std::string& variant, const RunOptions& run) {
  MarkovSetup s = point_setup(params, variant);
  s.samples = params.small_int("samples");
  s.threads = run.threads;
  if (params.text("point-file") != "none") {
    PointFile file = read_point_file(params.text("point-file"), s.shapes);
    s.user_point = std::move(file.point);
    s.user_point_sha256 = file.sha256;
  }
  return s;
}

namespace {

std::vector<ParamSpec> markov_params() {
  return {
      probability_param("p", "P(x' = 1 | x = 0)", "1/2"),
      probability_param("q", "P(x' = 0 | x = 1)", "4/5"),
      integer_param("d", "embedding dimension", 1, 16, "4"),
      integer_param("m", "attention head dimension (W_Q, W_K, W_V are m x d)", 1, 16, "4"),
      integer_param("r", "FF hidden width (W_1 is r x d)", 1, 64, "4"),
      integer_param("N", "sequence length (the loss enumerates all 2^(N+1) - 2 prefixes)", 1, 16, "6"),
      flag_param("tied", "weight tying a = e (Thms. 1-2); without it, the untied model (Thms. 3-4)"),
      choice_param("arbitrary", "the blocks the paper leaves arbitrary (W_{K,Q,V}, W_1, p_n of theta_pi)",
                   {"random", "zero", "constant"}, "random"),
      seed_param("seed of the random blocks and sample points"),
      integer_param("samples", "random points for Lemmas 1-2 (besides theta_star and theta_pi)", 0, 16, "2"),
      input_file_param("point-file",
                       "a JSON parameter point (docs/markov.md): checked by Lemmas 1-2, evaluated by eval", "none")};
}

std::vector<ClaimSpec> markov_claims() {
  const auto& s = markov_claim_specs();
  return {s.lemma1, s.lemma2, s.thm1, s.thm2_stationary, s.thm2_local_minimum,
          s.thm3,   s.thm4,   s.c2,   s.schur,           s.h_alpha_pd};
}

// What every claim group of a Markov check reads, made once per run.
MarkovSetup prepare_markov_run(const ParamValues& params, const std::string& variant, const ClaimSelection&,
                               const RunOptions& options, CheckReport& report) {
  MarkovSetup setup = make_setup(params, variant, options);
  const Layout layout(setup.shapes);
  const std::uint64_t work = prefix_count(setup.shapes.N) * static_cast<std::uint64_t>(layout.size());
  check_budget(work, options, "prefix-parameter pairs (Hessian columns)");
  report.arithmetic =
      "exact (probabilities, closed-form Hessians, LDL^T); interval (logs, exponentials, sigmoids, "
      "losses, autodiff gradients and Hessians); Z3 (the printed algebra with the logs as symbols)";
  report.domain_description = fmt::format("every prefix x_1..x_n, n = 1..{}, with its exact probability; {} parameters",
                                          setup.shapes.N, layout.size());
  report.domain_inputs = prefix_count(setup.shapes.N);
  if (setup.user_point) report.options["point_file"] = {{"sha256", setup.user_point_sha256}};
  return setup;
}

std::vector<ClaimGroup<MarkovSetup>> markov_claim_groups() {
  const auto& s = markov_claim_specs();
  auto one = [](auto check) {
    return [check](const MarkovSetup& setup, const ClaimSelection&) { return std::vector<ClaimResult>{check(setup)}; };
  };
  return {
      {{&s.lemma1}, one([](const MarkovSetup& setup) { return check_lemma1(setup); })},
      {{&s.lemma2}, one([](const MarkovSetup& setup) { return check_lemma2(setup); })},
      {{&s.thm1}, one([](const MarkovSetup& setup) { return check_global_minimum(markov_claim_specs().thm1, setup); })},
      {{&s.thm2_stationary, &s.thm2_local_minimum},  // one analysis of theta_pi for both
       [](const MarkovSetup& setup, const ClaimSelection& asked) {
         const auto& s = markov_claim_specs();
         return check_theta_pi_tied(
             setup, {.stationary = asked.has(s.thm2_stationary), .local_minimum = asked.has(s.thm2_local_minimum)});
       }},
      {{&s.thm3}, one([](const MarkovSetup& setup) { return check_global_minimum(markov_claim_specs().thm3, setup); })},
      {{&s.thm4}, one([](const MarkovSetup& setup) { return check_saddle(setup); })},
      {{&s.c2}, one([](const MarkovSetup&) { return check_c2(); })},
  };
}

std::vector<VariantSpec> markov_variants() {
  return {{"paper", "the points and formulas as printed"},
          {"corrected", "with the fix of docs/errata.md (M1: w* of eq. (10) for any r)"}};
}

std::vector<SweepSpec> markov_sweeps() {
  return {{"pq",
           false,
           "the (p, q) grid: where theta_pi's Hessian block H_alpha is positive definite, singular or neither",
           {text_param("resolution", "the grid step of p and q: 1/G with G an integer in [2, 200] (default 1/20)", "",
                       "RATIONAL")}}};
}

void prove_markov(const ParamValues& params, const std::string&, const ClaimSelection& asked,
                  const ProofOptions& options, const RunOptions&, CheckReport& report) {
  const auto& s = markov_claim_specs();
  const int d = params.small_int("d"), N = params.small_int("N");
  if (d > 4 || N > 6)
    throw UsageError(
        fmt::format("prove markov: --d must be in [1, 4] and --N in [1, 6] (symbolic "
                    "queries grow fast; got d = {}, N = {})",
                    d, N));
  const proofs::QueryOptions query = query_options(options);
  report.arithmetic = "Z3 (nonlinear real arithmetic)";
  report.domain_description = fmt::format("all reals p, q and p_n in R^{} for n <= {}", d, N);
  if (asked.has(s.schur))
    report.claims.push_back(claim_from_proof(s.schur, proofs::prove_markov_schur(d, N, query.named(s.schur.id))));
  if (asked.has(s.h_alpha_pd))
    report.claims.push_back(
        claim_from_proof(s.h_alpha_pd, proofs::prove_markov_h_alpha_pd(d, N, query.named(s.h_alpha_pd.id))));
}

Json sweep_markov(const ParamValues& params, const std::string& variant, const SweepRun& sweep, const RunOptions& run) {
  if (sweep.vary != sweep.spec.vary) throw UsageError("--vary pq takes no range (got '" + sweep.vary + "')");
  return sweep_pq(make_setup(params, variant, run),
                  sweep.options.has("resolution") ? sweep.options.text("resolution") : "", sweep.output);
}

Evaluation eval_markov(const ParamValues& params, const std::string& variant, const std::string& input, bool, long) {
  const MarkovSetup setup = make_setup(params, variant, RunOptions{});
  std::uint64_t bits = 0;
  int n = 0;
  for (const auto& item : split_list(input, ',', "--input", "bits 0/1, comma-separated")) {
    if (item != "0" && item != "1") throw UsageError("--input must be bits 0/1, comma-separated (got '" + input + "')");
    if (n >= setup.shapes.N)
      throw UsageError(fmt::format("--input must have at most N = {} bits (got more)", setup.shapes.N));
    bits |= static_cast<std::uint64_t>(item == "1") << n++;
  }
  Evaluation e;
  const Real inv_sqrt_d = reciprocal(sqrt(Real(setup.shapes.d)));
  if (setup.user_point) {
    const Real g = logit(weights_of(*setup.user_point), bits, n, inv_sqrt_d);
    const Derivatives der = loss_derivatives(setup.chain, *setup.user_point, false, 1);
    Real norm2(0);
    for (const auto& x : der.gradient) norm2 += x * x;
    const std::string kernel = exact_to_string(setup.chain.kernel(bit(bits, n - 1)));
    e.text = fmt::format(
        "point file: logit {}\n  f = P(x_{} = 1 | x_1..x_{}) in {}\n  Markov kernel = {}\n"
        "  population loss L in {}\n  entropy rate in {}\n  |grad L|^2 in {}\n",
        g.to_string(), n + 1, n, sigmoid(g).to_string(), kernel, der.loss.to_string(),
        setup.chain.entropy_rate().to_string(), norm2.to_string());
    e.result["point_file"] = {{"logit", g.to_string()},
                              {"f", sigmoid(g).to_string()},
                              {"markov_kernel", kernel},
                              {"loss", der.loss.to_string()},
                              {"entropy_rate", setup.chain.entropy_rate().to_string()},
                              {"gradient_norm2", norm2.to_string()}};
    return e;
  }
  for (const PointKind kind : {PointKind::Star, PointKind::Pi}) {
    const SymbolicPoint sp = make_point(kind, setup.chain, setup.shapes, setup.arbitrary, setup.variant);
    const Real g = logit(weights_of(sp.point), bits, n, inv_sqrt_d);
    const Exact target = kind == PointKind::Star ? setup.chain.kernel(bit(bits, n - 1)) : setup.chain.pi1();
    const std::string name = kind == PointKind::Star ? "theta_star" : "theta_pi";
    e.text += fmt::format("{} ({}): logit {}\n  f = P(x_{} = 1 | x_1..x_{}) in {}\n  {} = {}\n", name, sp.equation,
                          g.to_string(), n + 1, n, sigmoid(g).to_string(),
                          kind == PointKind::Star ? "Markov kernel" : "pi_1", exact_to_string(target));
    e.result[name] = {{"equation", sp.equation},
                      {"logit", g.to_string()},
                      {"f", sigmoid(g).to_string()},
                      {kind == PointKind::Star ? "markov_kernel" : "pi_1", exact_to_string(target)}};
  }
  return e;
}

// Both printed points (theta_star by eq. 7 or 10, theta_pi by eq. 11) as named tensors, "theta_star.W_1", ...
std::vector<NamedWeights> weights_of_markov(const ParamValues& params, const std::string& variant) {
  const MarkovSetup setup = point_setup(params, variant);
  std::vector<NamedWeights> out;
  for (const PointKind kind : {PointKind::Star, PointKind::Pi}) {
    const SymbolicPoint sp = make_point(kind, setup.chain, setup.shapes, setup.arbitrary, setup.variant);
    for (auto& w : point_weights(kind == PointKind::Star ? "theta_star" : "theta_pi", sp)) out.push_back(std::move(w));
  }
  return out;
}

// eval predicts the next token of --input at both points (N bounds the input and sizes the positions; nothing is
// sampled); the (p, q) sweep sets p and q itself.
std::vector<std::string> markov_unread_params(const std::string& verb, const SweepRequest* sweep, const ParamValues&) {
  if (verb == "eval") return {"samples"};
  if (sweep && vary_key(sweep->vary) == "pq") return {"p", "q", "samples"};
  return {};
}

// eval takes one prefix, never a sample; the one sweep, over the (p, q) grid, draws none and sets p and q itself.
std::vector<std::string> markov_never_read(const std::string& verb) {
  if (verb == "eval") return {"samples"};
  if (verb == "sweep") return {"p", "q", "samples"};
  return {};
}

}  // namespace

Construction markov_construction() {
  // eval prints both points' predictions on the prefix, always (no --trace); the proofs hold for all p, q and points,
  // so prove reads d and N only; the claims keep no counterexample lists.
  const ConstructionFeatures features{
      .eval_traces = false,
      .prove_params = std::vector<std::string>{"d", "N"},
      .export_params = std::vector<std::string>{"p", "q", "d", "m", "r", "N", "tied", "arbitrary", "seed"},
      .records_counterexample_limit = false,
      .unread_params = markov_unread_params,
      .never_read = markov_never_read};
  return {{"markov", "Makkuva, Bondaschi, Girish, Nagle, Jaggi, Kim, Gastpar: Attention with Markov (arXiv 2402.04161)",
           markov_params(), markov_variants(), markov_claims(), markov_sweeps(), features},
          {check_in_groups<MarkovSetup>(prepare_markov_run, markov_claim_groups()),
           prove_markov,
           sweep_markov,
           eval_markov,
           {},
           weights_of_markov}};
}

}  // namespace tverify::markov
