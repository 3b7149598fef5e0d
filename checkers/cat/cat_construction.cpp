#include "checkers/cat/cat_construction.hpp"

#include "checkers/cat/sweeps.hpp"
#include "checkers/checkpoint.hpp"
#include "constructions/cat/tasks.hpp"
#include "constructions/cat/temperature.hpp"
#include "constructions/cat/onnx_export.hpp"
#include "constructions/cat/weights.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tverify::cat {

namespace {

const Exact max_auto_c_squared(big_pow(10, 24));  // keeps choose_c's search and the exponentials in range
constexpr std::uint64_t max_ngrams = 4096;
constexpr std::size_t max_eval_length = 1024;  // one evaluation is quadratic in the length

std::uint64_t ngram_count(int vocabulary, int n) {
  std::uint64_t count = 1;
  for (int i = 0; i < n; ++i) count *= static_cast<std::uint64_t>(vocabulary);
  return count;
}

Exact parse_entry(const std::string& option, const std::string& text, const std::string& allowed) {
  try {
    return parse_exact(text);
  } catch (const std::invalid_argument&) { throw UsageError(option + " must be " + allowed + " (got '" + text + "')"); }
}

// A filter entry is 0 or of magnitude in [10^-1000, 10^1000] (past the double range both ways): the layer's exact
// scores carry every digit of it, so an entry of a million digits makes every score a million digits long.
bool within_filter_range(const Exact& x) {
  static const Exact smallest(1, big_pow(10, 1000)), largest(big_pow(10, 1000));
  return x == 0 || (abs(x) >= smallest && abs(x) <= largest);
}

Filter parse_filter(const std::string& text, int n) {
  const std::string allowed =
      "'geometric' (F_j = 2^-j, j < N) or N comma-separated exact numbers, not all zero, each "
      "0 or of magnitude in [1e-1000, 1e1000]";
  Filter f;
  if (text == "geometric") {
    for (int j = 0; j < n; ++j) f.emplace_back(1, BigInt(1) << j);
    return f;
  }
  for (const auto& item : split_list(text, ',', "--filter", allowed))
    f.push_back(parse_entry("--filter", item, allowed));
  if (f.empty() || std::all_of(f.begin(), f.end(), [](const Exact& x) { return x == 0; }) ||
      !std::all_of(f.begin(), f.end(), within_filter_range))
    throw UsageError("--filter must be " + allowed + " (got '" + text + "')");
  return f;
}

TokenEmbedding make_embedding(const ParamValues& params, int vocabulary) {
  const std::string kind = params.choice("embedding");
  if (kind != "custom" && params.text("vectors") != "none")
    throw UsageError("--vectors is read only with --embedding custom (got --embedding " + kind + ")");
  if (kind == "onehot") return one_hot_embedding(vocabulary);
  if (kind == "stereo") return stereographic_embedding(vocabulary, params.small_int("dim"));
  const std::string allowed =
      "V unit vectors with exact coordinates, ';' between vectors and ',' between coordinates "
      "(e.g. '1,0;0,1;3/5,4/5')";
  std::vector<ExactVector> vectors;
  for (const auto& row : split_list(params.text("vectors"), ';', "--vectors", allowed)) {
    ExactVector v;
    for (const auto& item : split_list(row, ',', "--vectors", allowed))
      v.push_back(parse_entry("--vectors", item, allowed));
    vectors.push_back(v);
  }
  if (static_cast<int>(vectors.size()) != vocabulary)
    throw UsageError(fmt::format("--vectors must give {} (got {} vectors)", allowed, vectors.size()));
  try {
    return custom_embedding(std::move(vectors));
  } catch (const std::invalid_argument& e) {
    throw UsageError("--vectors: " + std::string(e.what()) + "; it must give " + allowed);
  }
}

Json exact_vector_json(const Filter& f) {
  Json out = Json::array();
  for (const auto& x : f) out.push_back(exact_to_string(x));
  return out;
}

}  // namespace

CatSetup make_setup(const ParamValues& params, const std::string& variant) {
  CatSetup s;
  s.variant = variant;
  s.vocabulary = params.small_int("V");
  s.n = params.small_int("N");
  s.length = params.small_int("L");
  const bool ar = variant == "ar";
  if (ar && s.n != 1) throw UsageError(fmt::format("--N must be 1 for --variant ar (Corollary 1; got {})", s.n));
  if (ngram_count(s.vocabulary, s.n) > max_ngrams)  // every setup compares the N-gram signatures pairwise
    throw UsageError(
        fmt::format("--V and --N: V^N = {} N-grams, more than {} (their signatures are compared "
                    "pairwise: about 30 s at 4096 on this machine)",
                    ngram_count(s.vocabulary, s.n), max_ngrams));
  if (s.length < s.n + 1)
    throw UsageError(fmt::format("--L must be at least N + 1 = {} to hold an instance (got {})", s.n + 1, s.length));
  s.config.embedding = make_embedding(params, s.vocabulary);
  s.config.filter = ar ? Filter{Exact(1)} : parse_filter(params.text("filter"), s.n);
  if (static_cast<int>(s.config.filter.size()) != s.n)
    throw UsageError(fmt::format("--filter must have length N = {} (Theorem 1's filter has length N; got {})", s.n,
                                 s.config.filter.size()));
  s.config.delay = variant.rfind("value_delay", 0) == 0 ? Delay::Value : Delay::Key;
  s.config.full_windows = variant.size() > 5 && variant.substr(variant.size() - 5) == "_full";
  s.signatures = analyse_signatures(s.config.filter, s.config.embedding, s.n);
  const Exact delta2 = s.config.embedding.min_distance_squared();
  const long others = std::max(1, s.length - (s.config.delay == Delay::Key ? 1 : 2));
  const auto given_c = params.rational("c");
  s.numbers["Delta_squared"] = exact_to_string(delta2);
  s.numbers["filter"] = exact_vector_json(s.config.filter);
  if (const auto padded = padded_collision(s.config.filter, s.config.embedding, s.n))
    s.numbers["padded_window_collision"] = {{"ngram", padded->first}, {"partial_window", padded->second}};
  Exact c = given_c.value_or(Exact(4));
  if (s.signatures.distinct() && s.signatures.max_cosine) {
    const auto gamma = s.signatures.gamma();
    s.numbers["max_cos_squared"] = exact_to_string(s.signatures.max_cosine->square);
    s.numbers["closest_ngrams"] = {s.signatures.closest->first, s.signatures.closest->second};
    s.numbers["Gamma"] = gamma.to_string();
    s.numbers["condition"] = fmt::format("c^2 > ln(2 * {} / Delta) / min(Gamma, 1) = {}", others,
                                         required_c_squared(others, delta2, gamma).to_string());
    if (!given_c && required_c_squared(others, delta2, gamma).upper() > max_auto_c_squared)
      throw UsageError(
          fmt::format("--c auto: the sufficient condition needs c^2 > {} (the largest c^2 auto chooses is "
                      "10^24: Gamma = {}, the N-gram signatures are nearly parallel); give --c, or a "
                      "--filter whose entries are of comparable size",
                      required_c_squared(others, delta2, gamma).to_string(), gamma.to_string()));
    if (!given_c) c = choose_c(others, delta2, gamma);
    s.numbers["sufficient_length_at_this_c"] = sufficient_length(c * c, delta2, gamma, s.config.delay);
  } else {
    s.numbers["condition"] = "none: the N-gram signatures are not distinct (Gamma = 0)";
    s.c_from_condition = false;
  }
  s.c_from_condition = s.c_from_condition && !given_c;
  s.config.c_squared = c * c;
  s.numbers["c"] = exact_to_string(c);
  s.numbers["c_squared"] = exact_to_string(c * c);
  s.numbers["c_source"] = given_c ? "--c" : (s.c_from_condition ? "the sufficient condition" : "default 4");
  s.numbers["reconstruction"] = "docs/cat.md [hypothesis]: layer, tasks and delays";
  return s;
}

namespace {

std::vector<VariantSpec> cat_variants() {
  return {{"key_delay", "Theorem 1 with the key convolved (keys delayed by one position)"},
          {"value_delay", "Theorem 1 with the value convolved"},
          {"ar", "Corollary 1: associative recall, N = 1"},
          {"key_delay_full", "key_delay with zero-padded partial windows left out (errata C1)"},
          {"value_delay_full", "value_delay with zero-padded partial windows left out (errata C1)"}};
}

std::vector<SweepSpec> cat_sweeps() {
  const ParamSpec resume = resume_option();
  const ParamSpec length_max =
      integer_param("L-max", "the largest L probed (default 64, at most 4096; with --fast 2^20)", 3, 1L << 20, "");
  const std::string c_help = "for each c on a grid, the largest L at which every worst-case NAR instance decodes";
  const std::string l_help = "for each L from N + 2 to --L, the smallest c (a multiple of 1/64) solving every instance";
  return {{"c", false, c_help, {length_max}},
          {"L", false, l_help, {}},
          {"c", true, c_help + ", on the fast path, with a checkpoint", {length_max, resume}},
          {"L", true, l_help + ", on the fast path, with a checkpoint", {resume}}};
}

std::vector<ParamSpec> cat_params() {
  return {
      integer_param("V", "vocabulary size", 2, 16, "3"),
      integer_param("N", "N-gram length (1 for AR)", 1, 4, "2"),
      integer_param("L", "largest sequence length (every length N+1..L is checked)", 2, 64, "8"),
      text_param("filter", "'geometric' (F_j = 2^-j) or N exact numbers 'F_0,F_1,...' (F_0 weighs the newest token)",
                 "geometric", "LIST"),
      rational_param("c",
                     "inverse temperature c (logits scale with c^2); 'auto': the smallest k/64 meeting the "
                     "sufficient condition",
                     "auto", {.words = {"auto"}, .max = "1000000"}),
      choice_param("embedding", "token embeddings: onehot, stereo (rational unit vectors in R^dim), custom (--vectors)",
                   {"onehot", "stereo", "custom"}, "onehot"),
      integer_param("dim",
                    "dimension of the stereo embedding (its setup grows about tenfold per dimension: about a minute "
                    "at 8)",
                    2, 8, "3"),
      text_param("vectors", "custom embedding: 'x,y,..;x,y,..' (V unit vectors)", "none", "VECTORS"),
      integer_param("samples", "random filters sampled by cat.filters", 1, 100'000, "200"),
      seed_param("seed of the filter samples")};
}

std::vector<ClaimSpec> cat_claims() {
  const auto& s = cat_claim_specs();
  return {s.signatures, s.thm1_key_delay, s.thm1_value_delay, s.cor1, s.mqnar, s.filters};
}

// What every claim group of a CAT check reads, made once per run.
struct CatCheckContext {
  CatSetup setup;
  std::uint64_t samples, seed;  // cat.filters
  RunOptions options;
};

CatCheckContext prepare_cat_run(const ParamValues& params, const std::string& variant, const ClaimSelection& asked,
                                const RunOptions& options, CheckReport& report) {
  const auto samples = static_cast<std::uint64_t>(params.integer("samples"));
  if (asked.has(cat_claim_specs().filters)) {  // each sampled filter compares every pair
    const std::uint64_t grams = ngram_count(params.small_int("V"), params.small_int("N"));
    check_budget(samples * grams * (grams - 1) / 2, options,
                 "pairs of N-gram signatures over the sampled filters (" + cat_claim_specs().filters.id +
                     ": --samples x V^N (V^N - 1) / 2)");
  }
  CatSetup setup = make_setup(params, variant);
  const auto domain = make_sequence_domain(setup.length, 0, setup.vocabulary - 1, options, setup.n + 1);  // budget
  report.arithmetic = "exact (convolutions, inner products, cos^2, Delta^2); interval (cosines, softmax, decoding)";
  report.domain_description = fmt::format("every sequence over [V] of length {}..{}; the valid instances of each task",
                                          setup.n + 1, setup.length);
  report.domain_inputs = domain.size;
  return {std::move(setup), samples, static_cast<std::uint64_t>(params.integer("seed")), options};
}

std::vector<ClaimGroup<CatCheckContext>> cat_claim_groups() {
  const auto& s = cat_claim_specs();
  auto one = [](auto check) {
    return [check](const CatCheckContext& run, const ClaimSelection&) { return std::vector<ClaimResult>{check(run)}; };
  };
  // Theorem 1's delays and Corollary 1: the layer recalls on every instance, under distinct signatures.
  auto recall = [](const ClaimSpec& spec) {
    return [&spec](const CatCheckContext& run) {
      ClaimResult r = check_recall(spec, run.setup, run.options);
      r.outside_hypotheses = !run.setup.signatures.distinct();
      if (r.outside_hypotheses && r.reason.empty())
        r.reason =
            "Theorem 1 and Corollary 1 assume distinct signatures (claim " + cat_claim_specs().signatures.id + ")";
      return r;
    };
  };
  return {
      {{&s.signatures}, one([](const CatCheckContext& run) { return check_signatures(run.setup); })},
      {{&s.thm1_key_delay}, one(recall(s.thm1_key_delay))},  // one of the three per variant (outside_run)
      {{&s.thm1_value_delay}, one(recall(s.thm1_value_delay))},
      {{&s.cor1}, one(recall(s.cor1))},
      {{&s.mqnar}, one([](const CatCheckContext& run) { return check_mqnar(run.setup, run.options); })},
      {{&s.filters}, one([](const CatCheckContext& run) { return check_filters(run.setup, run.samples, run.seed); })},
  };
}

Json sweep_cat(const ParamValues& params, const std::string& variant, const SweepRun& sweep, const RunOptions& run) {
  if (sweep.vary != sweep.spec.vary)
    throw UsageError("--vary " + sweep.spec.vary + " takes no value (got '" + sweep.vary + "')");
  CatSweepOptions options;
  options.output = sweep.output;
  options.fast = sweep.spec.fast;
  options.resume = sweep.options.has("resume") && sweep.options.flag("resume");
  if (sweep.options.has("L-max")) options.length_max = static_cast<long>(sweep.options.integer("L-max"));
  const CatSetup setup = make_setup(params, variant);
  return sweep.spec.vary == "c" ? sweep_length_limit(setup, params, options, run)
                                : sweep_smallest_c(setup, params, options, run);
}

Evaluation eval_cat(const ParamValues& params, const std::string& variant, const std::string& input, bool trace, long) {
  const CatSetup setup = make_setup(params, variant);
  Tokens z;
  const std::string what =
      fmt::format("a comma-separated list of at most {} tokens in [0, {}]", max_eval_length, setup.vocabulary - 1);
  for (const auto& item : split_list(input, ',', "--input", what))
    z.push_back(static_cast<int>(parse_integer_option("--input token", item, 0, setup.vocabulary - 1)));
  if (z.size() > max_eval_length)
    throw UsageError("--input must be " + what + " (got " + std::to_string(z.size()) + ")");
  const CatLayer layer(setup.config);
  Evaluation e;
  e.text =
      fmt::format("CAT layer ({}, filter {}, c = {}, c^2 = {}) on z = {}\n", variant, setup.numbers["filter"].dump(),
                  setup.numbers["c"].get<std::string>(), exact_to_string(setup.config.c_squared), fmt::join(z, ","));
  const auto match = nar_match(z, setup.n);
  e.text += match ? fmt::format("  NAR: the last {}-gram occurs once before, ending at {}; target z_{} = {}\n", setup.n,
                                *match + 1, *match + 2, z[*match + 1])
                  : "  NAR: not a valid instance (the last N-gram has no unique earlier occurrence)\n";
  e.result["z"] = z;
  e.result["nar"] =
      match ? Json{{"valid", true}, {"match_ends_at", *match + 1}, {"target", z[*match + 1]}} : Json{{"valid", false}};
  std::vector<std::size_t> all;
  for (std::size_t t = 0; t < z.size(); ++t) all.push_back(t);
  const auto decoded = layer.decode(z, all);
  if (trace) {
    const auto s = layer.streams(z);
    const auto scores = layer.exact_scores(s, z.size() - 1);
    for (std::size_t j = 0; j < scores.keys.size(); ++j)
      e.text += fmt::format("    key {}: <q, k> = {}, |q|^2 = {}, |k|^2 = {}\n", scores.keys[j] + 1,
                            exact_to_string(scores.dots[j]), exact_to_string(scores.query_norm2),
                            exact_to_string(scores.key_norms2[j]));
    const std::size_t keys = scores.keys.size();
    e.add_trace("scores.dots", {keys}, {scores.dots.begin(), scores.dots.end()},
                "<q, k> of the last position's query with each key (exact)");
    e.add_trace("scores.key_norms2", {keys}, {scores.key_norms2.begin(), scores.key_norms2.end()},
                "|k|^2 of each key (exact)");
    e.add_trace("scores.query_norm2", {}, {QuadraticSurd(scores.query_norm2)}, "|q|^2 of the last position's query");
  }
  Json positions = Json::array();
  for (std::size_t t = 0; t < z.size(); ++t) {
    e.text += fmt::format("  position {}: decodes to {} ({}, {} bits)\n", t + 1,
                          decoded[t].token ? std::to_string(*decoded[t].token) : std::string("-"),
                          to_string(decoded[t].margin), decoded[t].bits);
    positions.push_back({{"position", t + 1},
                         {"token", decoded[t].token ? Json(*decoded[t].token) : Json(nullptr)},
                         {"margin", to_string(decoded[t].margin)},
                         {"bits", decoded[t].bits}});
  }
  e.result["decoded"] = positions;
  return e;
}

std::vector<NamedWeights> weights_of_cat(const ParamValues& params, const std::string& variant) {
  return cat_layer_weights(make_setup(params, variant).config);
}

// export cat: the layer as an ONNX model (constructions/cat/onnx_export.hpp).
std::string export_cat(const ParamValues& params, const std::string& variant) {
  const CatConfig config = make_setup(params, variant).config;
  if (config.full_windows)
    throw UsageError("export cat --variant " + variant +
                     ": leaving out the partial windows leaves the first queries "
                     "without a key, which a softmax cannot express; export key_delay, value_delay or ar");
  return cat_layer_onnx(config);
}

// --dim is the stereo embedding's (make_embedding refuses --vectors without the custom one); eval decodes --input
// alone, reading --L only for --c auto (the sufficient condition counts the keys); the sweeps draw no random filters.
std::vector<std::string> cat_unread_params(const std::string& verb, const SweepRequest* sweep,
                                           const ParamValues& params) {
  std::vector<std::string> out;
  if (params.choice("embedding") != "stereo") out.push_back("dim");
  if (verb == "eval" && params.rational("c")) out.push_back("L");
  if (verb == "eval") out.insert(out.end(), {"samples", "seed"});
  if (sweep) out.insert(out.end(), {"samples", "seed"});
  return out;
}

// eval takes one --input, and the sweeps enumerate their own domains: neither draws a sample.
std::vector<std::string> cat_never_read(const std::string& verb) {
  if (verb == "eval" || verb == "sweep") return {"samples", "seed"};
  return {};
}

}  // namespace

Construction cat_construction() {
  return {{"cat",
           "Li, Zhang, Huang, Oymak: On the Power of Convolution Augmented Transformer (arXiv 2407.05591)",
           cat_params(),
           cat_variants(),
           cat_claims(),
           cat_sweeps(),
           // c auto depends on L (the sufficient condition counts the keys)
           {.export_params = std::vector<std::string>{"V", "N", "L", "filter", "c", "embedding", "dim", "vectors"},
            .eval_length_param = "L",
            .unread_params = cat_unread_params,
            .never_read = cat_never_read}},
          {check_in_groups<CatCheckContext>(prepare_cat_run, cat_claim_groups()),
           {},
           sweep_cat,
           eval_cat,
           export_cat,
           weights_of_cat}};
}

}  // namespace tverify::cat
