#include "checkers/copy/transformer_claims.hpp"
#include "checkers/tally.hpp"
#include "core/precision_ladder.hpp"

#include <array>
#include <fmt/format.h>

namespace tverify::copy {

void mark_scores_hypotheses(ClaimResult& r, int alphabet, int n, int length) {
  r.outside_hypotheses =
      BigInt(2 * length + 2) > big_pow(static_cast<unsigned long>(alphabet), static_cast<unsigned long>(n));
  if (r.outside_hypotheses) r.reason = "the proof assumes 2L + 2 <= K = D^n";
}

namespace {

std::string vector_text(const Vector<Surd>& v) {
  std::string out = "(";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i].to_string();
  return out + ")";
}

Vector<Surd> psi_row(const CopyTransformer& tr, Token token) {
  Vector<Surd> row;
  for (std::size_t c = 0; c < tr.embedding().cols(); ++c)
    row.push_back(tr.embedding()(static_cast<std::size_t>(token), c));
  return row;
}

// One block of Lemma C.4 at one position: its name, what the lemma says, what layer 1 computed.
struct BlockCheck {
  std::string name;
  Vector<Surd> expected, got;
};

// Lemma C.4 with L replaced by L_C = L + 1, at 1-based position p of the sequence s. As printed, the n-gram
// blocks start at p > n (keys) and p >= n (queries); the corrected statement (errata E6) starts both at p > n + 1,
// where the gadgets start: ghat is zeroed for p <= n, and at p = n + 1 because g_n = Psi(<BOS>) there.
std::vector<BlockCheck> lemma_c4_blocks(const CopyTransformer& tr, const TokenString& s, std::size_t p,
                                        const Layer1Output& out) {
  const int n = tr.config().n, d = tr.dim();
  const bool printed = tr.config().variant == TransformerVariant::Paper;
  const auto un_ = static_cast<std::size_t>(n);
  const bool key_blocks_on = printed ? p > un_ : p > un_ + 1;
  const bool query_blocks_on = printed ? p >= un_ : p > un_ + 1;
  const std::size_t lc = static_cast<std::size_t>(tr.config().length) + 1;
  const Vector<Surd> zero(static_cast<std::size_t>(d), Surd(0));
  auto slice = [&](const Vector<Surd>& v, std::size_t at, std::size_t len) {
    return Vector<Surd>(v.begin() + static_cast<long>(at), v.begin() + static_cast<long>(at + len));
  };
  auto token_at = [&](std::size_t one_based) { return s[one_based - 1]; };
  std::vector<BlockCheck> checks{{"value", psi_row(tr, token_at(p)), out.value}};
  const auto un = static_cast<std::size_t>(n), ud = static_cast<std::size_t>(d);
  for (std::size_t t = 1; t <= un; ++t) {
    checks.push_back({fmt::format("key block t={}", t), key_blocks_on ? psi_row(tr, token_at(p - t)) : zero,
                      slice(out.key, (t - 1) * ud, ud)});
    checks.push_back(
        {fmt::format("key position t={}", t), {Surd(p == t + 1 ? 1 : 0)}, slice(out.key, un * ud + t - 1, 1)});
    checks.push_back({fmt::format("query block t={}", t), query_blocks_on ? psi_row(tr, token_at(p - t + 1)) : zero,
                      slice(out.query, (t - 1) * ud, ud)});
    checks.push_back(
        {fmt::format("query position t={}", t), {Surd(p == lc + t ? n : 0)}, slice(out.query, un * ud + t - 1, 1)});
  }
  return checks;
}

struct Failure {  // the first failure on one string
  Json input;
  std::string detail;
  Json expected, got;
};

// A failure (when there is one) recorded in a claim's tally.
void record(Tally& tally, const std::optional<Failure>& f) {
  if (!f) return tally.pass();
  tally.fail({f->input, f->expected, f->got, f->detail});
}

// Every transformer claim's tally over a chunk of strings.
struct TransformerTally {
  Tally lemma_c1, lemma_c4;
  std::map<std::string, std::uint64_t> lemma_c4_sites;  // "position p, block" -> failing strings
  std::array<Tally, 2> scores, thm2_3;                  // by reading
  std::array<std::uint64_t, 2> with_repeat{};
  // Strings failing the printed statement (target score n and |z_j| < n - 1/d), by reading.
  std::array<std::uint64_t, 2> printed_statement_failures{};
  std::uint64_t not_copied = 0, undecided = 0;
  std::uint64_t tied = 0;  // of not_copied: strings whose run ended in an exact tie (counted as a failure)
  std::array<std::uint64_t, 4> agreement{};  // [alg1 copies][transformer copies]

  void set_limit(std::size_t limit) {
    for (Tally* t : {&lemma_c1, &lemma_c4, &scores[0], &scores[1], &thm2_3[0], &thm2_3[1]}) t->limit = limit;
  }
  void merge(TransformerTally&& o) {
    lemma_c1.merge(std::move(o.lemma_c1));
    lemma_c4.merge(std::move(o.lemma_c4));
    for (auto& [site, count] : o.lemma_c4_sites) lemma_c4_sites[site] += count;
    for (std::size_t r = 0; r < 2; ++r) {
      scores[r].merge(std::move(o.scores[r]));
      thm2_3[r].merge(std::move(o.thm2_3[r]));
      with_repeat[r] += o.with_repeat[r];
      printed_statement_failures[r] += o.printed_statement_failures[r];
    }
    not_copied += o.not_copied;
    tied += o.tied;
    undecided += o.undecided;
    for (std::size_t k = 0; k < 4; ++k) agreement[k] += o.agreement[k];
  }
};

void to_json(Json& j, const TransformerTally& t) {
  put_fields(j, t.lemma_c1, t.lemma_c4, t.lemma_c4_sites, t.scores, t.thm2_3, t.with_repeat,
             t.printed_statement_failures, t.not_copied, t.undecided, t.tied, t.agreement);
}
void from_json(const Json& j, TransformerTally& t) {
  get_fields(j, t.lemma_c1, t.lemma_c4, t.lemma_c4_sites, t.scores, t.thm2_3, t.with_repeat,
             t.printed_statement_failures, t.not_copied, t.undecided, t.tied, t.agreement);
}

std::optional<Failure> check_lemma_c1_on(const CopyTransformer& tr, const TokenString& x, const TokenString& s) {
  for (int t = 1; t <= tr.config().n + 1; ++t) {
    const auto heads = tr.head_outputs(s, t);
    for (std::size_t i = 1; i <= s.size(); ++i) {  // h_t = 1/min(t,i) sum_{j=max(1,i-t+1)}^{i} x_j
      const std::size_t window = std::min<std::size_t>(static_cast<std::size_t>(t), i);
      Vector<Surd> expected(static_cast<std::size_t>(tr.dim()), Surd(0));
      for (std::size_t j = i - window + 1; j <= i; ++j) expected = expected + psi_row(tr, s[j - 1]);
      expected = scaled(expected, Surd(Exact(1, static_cast<long>(window))));
      if (!(expected == heads[i - 1]))
        return Failure{Json(x), fmt::format("h_{} at position {}", t, i), vector_text(expected),
                       vector_text(heads[i - 1])};
    }
  }
  return std::nullopt;
}

// Lemma C.4 on one string; every failing (position, block) is counted in `sites`, the first one returned.
std::optional<Failure> check_lemma_c4_on(const CopyTransformer& tr, const TokenString& x, const TokenString& s,
                                         const Layer1Blocks& blocks, std::map<std::string, std::uint64_t>& sites) {
  std::optional<Failure> first;
  for (std::size_t p = 1; p <= s.size(); ++p)
    for (const auto& b : lemma_c4_blocks(tr, s, p, blocks[p - 1])) {
      if (b.expected == b.got) continue;
      const std::string site = fmt::format("position {}: {}", p, b.name);
      ++sites[site];
      if (!first) first = Failure{Json(x), site, vector_text(b.expected), vector_text(b.got)};
    }
  return first;
}

// The claim in the proof of Thm 2.3 (CopyTransformer::find_score_violation) as a counterexample. The corrected
// statement (errata E7) bounds z_j from above only, which is all Lemma C.3's proof uses.
std::optional<Failure> check_scores_on(const CopyTransformer& tr, const TokenString& x, const Layer1Blocks& blocks,
                                       bool two_sided) {
  const auto v = tr.find_score_violation(blocks, two_sided);
  if (!v) return std::nullopt;
  const Surd bound = Surd(Exact(tr.config().n)) - Surd(Exact(1, tr.dim()));
  if (v->target)
    return Failure{
        Json(x),
        fmt::format("query position {}: target key {} scores {}, not n", v->query, v->key, v->score.to_string()),
        Json(std::to_string(tr.config().n)), Json(v->score.to_string())};
  return Failure{Json(x),
                 fmt::format("query position {}: key {} scores {}, {} not < n - 1/d", v->query, v->key,
                             v->score.to_string(), two_sided ? "|z|" : "z"),
                 Json(std::string(two_sided ? "|z| < " : "z < ") + bound.to_string()), Json(v->score.to_string())};
}

ClaimResult result_from(const ClaimSpec& spec, const Tally& t, std::string reading = {}) {
  ClaimResult r;
  r.id = spec.id;
  r.statement = spec.statement;
  r.reading = std::move(reading);
  r.checked = t.checked;
  r.passed = t.passed;
  r.failed = t.failed;
  r.unknown = t.unknown;
  r.counterexamples = t.counterexamples;
  r.set_verdict_from_counts();
  return r;
}

// What every transformer claim result records about the run.
struct ResultContext {
  const StringDomain& domain;
  const CopyTransformerConfig& config;
  int dim;
  std::string tau;

  bool theorem_range() const {  // Theorem 2.3: 2n <= L <= D^n
    return 2 * domain.n <= domain.length &&
           BigInt(domain.length) <=
               big_pow(static_cast<unsigned long>(domain.alphabet), static_cast<unsigned long>(domain.n));
  }
  Json settings() const {
    return Json{{"embedding", to_string(config.embedding)},
                {"tau", tau},
                {"d", dim},
                {"positions", "s_1 = <BOS>, s_2..s_{L+1} = x, s_{L+2} = <COPY>; Appendix C's L is L + 1"}};
  }
};

ClaimResult lemma_c1_result(const ClaimSpec& spec, const TransformerTally& tally, const ResultContext& c) {
  ClaimResult r = result_from(spec, tally.lemma_c1);
  r.summary = fmt::format("h_1..h_{} exact at all {} positions of {} strings", c.domain.n + 1, 2 * c.domain.length + 1,
                          tally.lemma_c1.checked);
  return r;
}

ClaimResult lemma_c4_result(const ClaimSpec& spec, const TransformerTally& tally, const ResultContext& c) {
  ClaimResult r = result_from(spec, tally.lemma_c4);
  r.outside_hypotheses = c.config.embedding != EmbeddingKind::OneHot;
  if (r.outside_hypotheses) r.reason = "Lemma C.4 assumes the one-hot embedding";
  Json sites = Json::object();
  for (const auto& [site, count] : tally.lemma_c4_sites) sites[site] = count;
  r.details["failing_sites"] = sites;
  r.summary = tally.lemma_c4_sites.empty()
                  ? "every block at every position as stated"
                  : fmt::format("{} (position, block) sites fail, first: {}", tally.lemma_c4_sites.size(),
                                tally.lemma_c4_sites.begin()->first);
  r.details["settings"] = c.settings();
  return r;
}

ClaimResult scores_result(const ClaimSpec& spec, const TransformerTally& tally, NgramReading reading,
                          const ResultContext& c) {
  const auto ri = static_cast<std::size_t>(reading);
  ClaimResult r = result_from(spec, tally.scores[ri], to_string(reading));
  mark_scores_hypotheses(r, c.domain.alphabet, c.domain.n, c.domain.length);
  r.summary = fmt::format("{}/{} repeat-free strings", r.passed, r.checked);
  r.details["bound"] = c.config.variant == TransformerVariant::Paper ? "|z_j| < n - 1/d (as printed)"
                                                                     : "z_j < n - 1/d (corrected, errata E7)";
  // Every way the printed statement can fail counts here: a target score other than n, or |z_j| >= n - 1/d.
  r.details["strings_failing_the_printed_statement"] = tally.printed_statement_failures[ri];
  r.details["settings"] = c.settings();
  return r;
}

ClaimResult thm2_3_result(const ClaimSpec& spec, const TransformerTally& tally, NgramReading reading,
                          const ResultContext& c) {
  ClaimResult r = result_from(spec, tally.thm2_3[static_cast<std::size_t>(reading)], to_string(reading));
  r.outside_hypotheses = !c.theorem_range();
  if (r.outside_hypotheses) r.reason = "Theorem 2.3 assumes 2n <= L <= D^n";
  r.summary = fmt::format("copied {}/{} repeat-free strings, {} undecided", r.passed, r.checked, r.unknown);
  if (r.unknown > 0)
    r.reason = fmt::format("{} strings have a generation step undecided up to the precision ladder's ceiling, {} bits",
                           r.unknown, standard_rungs.ceiling);
  r.details["settings"] = c.settings();
  r.details["agreement_with_algorithm1"] = {{"both_copy", tally.agreement[3]},
                                            {"only_transformer_copies", tally.agreement[1]},
                                            {"only_algorithm1_copies", tally.agreement[2]},
                                            {"neither", tally.agreement[0]}};
  return r;
}

ClaimResult err_result(const ClaimSpec& spec, const TransformerTally& tally, NgramReading reading,
                       const ResultContext& c) {
  ClaimResult r;
  r.id = spec.id;
  r.statement = spec.statement;
  r.reading = to_string(reading);
  r.checked = 1;
  r.outside_hypotheses = !c.theorem_range();
  if (r.outside_hypotheses) r.reason = "Theorem 2.3 assumes 2n <= L <= D^n";
  const Exact p(BigInt(tally.with_repeat[static_cast<std::size_t>(reading)]), BigInt(c.domain.size));
  r.details["p_ngram"] = exact_to_string(p);
  r.details["settings"] = c.settings();
  if (tally.undecided > 0) {
    r.unknown = 1;
    r.reason = fmt::format("{} strings have a generation step undecided up to the precision ladder's ceiling, {} bits",
                           tally.undecided, standard_rungs.ceiling);
  } else {
    const Exact err(BigInt(tally.not_copied), BigInt(c.domain.size));
    r.details["err"] = exact_to_string(err);
    // An exact tie in the argmax counts as an error; the rate without those strings says whether a verdict rests
    // on that convention.
    r.details["errors_from_exact_ties"] = tally.tied;
    const Exact err_without_ties(BigInt(tally.not_copied - tally.tied), BigInt(c.domain.size));
    r.details["err_without_exact_ties"] = exact_to_string(err_without_ties);
    const bool holds = err < p;
    r.passed = holds;
    r.failed = !holds;
    r.summary = "err = " + exact_to_string(err) + (holds ? " < " : " >= ") + "p = " + exact_to_string(p);
    if (tally.tied > 0)
      r.summary += fmt::format(
          " ({} of the failing strings end in an exact tie, counted as errors; without them err "
          "= {}{})",
          tally.tied, exact_to_string(err_without_ties),
          !holds && err_without_ties < p ? ": the refutation rests on that convention" : "");
    if (!holds)
      r.counterexamples.push_back({Json{{"D", c.domain.alphabet}, {"n", c.domain.n}, {"L", c.domain.length}},
                                   Json("err < " + exact_to_string(p)), Json(exact_to_string(err)),
                                   "the exact error rate over [D]^L is not below p_n-gram"});
  }
  r.set_verdict_from_counts();
  return r;
}

}  // namespace

std::vector<ClaimResult> check_transformer_claims(const StringDomain& d, const CopyTransformerConfig& config,
                                                  const std::vector<NgramReading>& readings,
                                                  const TransformerClaimSelection& want, const RunOptions& options) {
  const CopyTransformer tr(config);
  const std::size_t limit = options.max_counterexamples;
  const Alg1Variant alg1_variant =
      config.variant == TransformerVariant::Paper ? Alg1Variant::Paper : Alg1Variant::Corrected;
  auto visit = [&](std::uint64_t index, TransformerTally& tally) {
    tally.set_limit(limit);
    const TokenString x = string_at(index, d.alphabet, d.length);
    const TokenString s = tr.copy_sequence(x, x.size() - 1);  // positions 1..2L+1: every query the copy uses
    if (want.lemma_c1) {
      const auto f = check_lemma_c1_on(tr, x, s);
      record(tally.lemma_c1, f);
    }
    if (!want.lemma_c4 && !want.scores && !want.thm2_3 && !want.err) return;
    const Layer1Blocks blocks = tr.layer1(s);
    if (want.lemma_c4) {
      const auto f = check_lemma_c4_on(tr, x, s, blocks, tally.lemma_c4_sites);
      record(tally.lemma_c4, f);
    }
    const bool printed = config.variant == TransformerVariant::Paper;
    std::optional<Failure> score_failure;
    bool printed_fails = false;
    if (want.scores) {
      score_failure = check_scores_on(tr, x, blocks, printed);
      printed_fails = printed ? score_failure.has_value() : check_scores_on(tr, x, blocks, true).has_value();
    }
    std::optional<CopyRun> run;
    if (want.thm2_3 || want.err) {
      run = tr.copy_string(x, blocks);
      if (!run->decided)
        ++tally.undecided;
      else if (!run->copied) {
        ++tally.not_copied;
        tally.tied += run->steps.back().margin == Margin::Tie;
      }
      const bool alg1 = run_algorithm1(x, d.n, alg1_variant).copied;
      ++tally.agreement[(alg1 ? 2 : 0) + (run->copied ? 1 : 0)];
    }
    for (NgramReading reading : readings) {
      const auto r = static_cast<std::size_t>(reading);
      if (has_repeated_window(x, window_length(reading, d.n))) {
        ++tally.with_repeat[r];
        continue;
      }
      if (want.scores) {
        record(tally.scores[r], score_failure);
        tally.printed_statement_failures[r] += printed_fails;
      }
      if (!want.thm2_3) continue;
      if (!run->decided) {
        ++tally.thm2_3[r].checked;
        ++tally.thm2_3[r].unknown;
        continue;
      }
      record(tally.thm2_3[r],
             run->copied ? std::nullopt
                         : std::optional<Failure>(Failure{Json(x), run->failure(), Json(x), Json(run->output)}));
    }
  };
  auto merge = [](TransformerTally& into, TransformerTally&& from) { into.merge(std::move(from)); };
  const TransformerTally tally = enumerate_indices<TransformerTally>(d.size, options, "strings", visit, merge);

  const ResultContext context{d, config, tr.dim(), tr.tau_description()};
  const auto& specs = transformer_claim_specs();
  std::vector<ClaimResult> results;
  if (want.lemma_c1) results.push_back(lemma_c1_result(specs.lemma_c1, tally, context));
  if (want.lemma_c4) results.push_back(lemma_c4_result(specs.lemma_c4, tally, context));
  for (NgramReading reading : readings)
    if (want.scores) results.push_back(scores_result(specs.scores, tally, reading, context));
  for (NgramReading reading : readings)
    if (want.thm2_3) results.push_back(thm2_3_result(specs.thm2_3, tally, reading, context));
  for (NgramReading reading : readings)
    if (want.err) results.push_back(err_result(specs.err, tally, reading, context));
  return results;
}

ClaimResult check_lemma_c2(int alphabet, TransformerVariant variant) {
  const Matrix<Surd> psi = make_embedding(EmbeddingKind::C2, alphabet, variant);
  const int d = embedding_dim(EmbeddingKind::C2, alphabet);
  const Token bos = bos_token(alphabet), copy = copy_token(alphabet);
  const auto tokens = static_cast<Token>(psi.rows());
  ClaimResult r;
  r.id = transformer_claim_specs().lemma_c2.id;
  r.statement = transformer_claim_specs().lemma_c2.statement;
  auto row = [&](Token t) {
    Vector<Surd> v;
    for (std::size_t c = 0; c < psi.cols(); ++c) v.push_back(psi(static_cast<std::size_t>(t), c));
    return v;
  };
  auto property = [&](bool ok, const std::string& what, const Json& input, const std::string& expected,
                      const std::string& got) {
    ++r.checked;
    if (ok) {
      ++r.passed;
      return;
    }
    ++r.failed;
    r.counterexamples.push_back({input, Json(expected), Json(got), what});
  };
  const Surd inner_bound = Surd(1) - Surd(Exact(1, d));
  for (Token x = 0; x < tokens; ++x) {
    const Vector<Surd> v = row(x);
    const Surd norm2 = dot(v, v);
    property(norm2 == Surd(1), "||Psi(x)||_2 = 1", Json{{"x", x}}, "1", "sqrt(" + norm2.to_string() + ")");
    for (const Surd& e : v)
      property(e <= Surd(1) && -e <= Surd(1), "||Psi(x)||_inf <= 1", Json{{"x", x}}, "<= 1", e.to_string());
    for (Token y = 0; y < tokens; ++y) {
      if (y == x) continue;
      const Surd inner = dot(v, row(y));
      property(inner < inner_bound, "<Psi(x), Psi(x')> < 1 - 1/d", Json{{"x", x}, {"x'", y}},
               "< " + inner_bound.to_string(), inner.to_string());
      if (y == bos || y == copy)
        property(inner == Surd(0), "orthogonal to <BOS> and <COPY>", Json{{"x", x}, {"x'", y}}, "0", inner.to_string());
    }
  }
  r.set_verdict_from_counts();
  r.details["d"] = d;
  r.details["entries"] =
      variant == TransformerVariant::Paper ? "+-1/sqrt(d) (as printed)" : "+-1/sqrt(d-2) (corrected)";
  r.summary = fmt::format("{} of {} property instances hold (d = {})", r.passed, r.checked, d);
  return r;
}

}  // namespace tverify::copy
