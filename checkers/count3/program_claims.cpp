// count3.alg2_alg3, count3.alg4, count3.table5, match3.alg5, count3.alg6: ENTP's algorithms and RASP programs
// against their definitions (eq. 4, Match3' of Sec. 6.2), under the exact RASP interpreter.
#include "checkers/count3/count3_claims.hpp"

#include <fmt/format.h>

namespace tverify::count3 {

namespace {

Json value_json(const rasp::Value& v) {
  if (denominator(v) == 1) return Json(static_cast<long long>(numerator(v)));
  return Json(exact_to_string(v));
}

std::string mean_name(rasp::MeanSemantics m) {
  return m == rasp::MeanSemantics::Truncate ? "truncate toward zero (reference)" : "exact rational";
}

// Runs `program` on x under the semantics; returns the output and counts the means whose truncation changed them.
template <class Program>
rasp::Seq run_program(Program program, const Sequence& x, const rasp::RunOptions& run_options,
                      std::uint64_t& mean_differences) {
  rasp::Run run(run_options);
  rasp::Seq out = program(rasp::sequence(x));
  mean_differences += run.mean_differences().size();
  return out;
}

void note_semantics(ClaimResult& r, const ProgramSemantics& s, std::uint64_t mean_differences, const InputSource& in) {
  r.details["mean"] = mean_name(s.mean);
  r.details["mean_differences"] = mean_differences;
  r.details["mean_differences_note"] =
      "number of (input, aggregate, position) where the truncated mean differs from the exact one";
  r.details["inputs"] = in.describe();
}

}  // namespace

ClaimResult check_alg2_alg3(const InputSource& inputs, const RunOptions& options) {
  ClaimResult r = result_for(count3_claim_specs().alg2_alg3);
  const Tally t = check_inputs(inputs, options, r.id, [](const Sequence& x, Tally& tally) {
    const long long expected = count3_eq4(x), alg2 = count3_alg2(x), alg3 = count3_alg3(x);
    if (alg2 == expected && alg3 == expected) return tally.pass();
    tally.fail({Json(x), Json(expected), Json({{"alg2", alg2}, {"alg3", alg3}}), "differs from eq. (4)"});
  });
  t.fill(r);
  r.summary = fmt::format("{}/{} sequences agree", t.passed, t.checked);
  r.details["inputs"] = inputs.describe();
  return r;
}

ClaimResult check_alg4(const InputSource& inputs, const ProgramSemantics& s, const RunOptions& options) {
  ClaimResult r = result_for(count3_claim_specs().alg4);
  const Tally t = check_inputs(inputs, options, r.id, [&](const Sequence& x, Tally& tally) {
    const auto out = last_output(run_program([&](const rasp::Seq& seq) { return alg4_count_triplets(seq, s.alg4); }, x,
                                             {s.mean}, tally.counts["mean_differences"]));
    const long long expected = count3_eq4(x);
    if (out == expected) return tally.pass();
    bool large = false;
    for (long long v : x) large = large || v >= static_cast<long long>(x.size());
    if (large) ++tally.counts["failures_with_large_value"];
    tally.fail({Json(x), Json(expected), value_json(out),
                large ? "some x_i >= m = |x|: g(a, b) is a mod b only for 0 <= a < 2b" : "all x_i < m"});
  });
  t.fill(r);
  r.summary = fmt::format("{}/{} inputs give Count3", t.passed, t.checked);
  note_semantics(r, s, t.count("mean_differences"), inputs);
  r.details["failures_with_some_value_at_least_length"] = t.count("failures_with_large_value");
  r.details["variant"] =
      s.alg4 == Alg4Variant::Paper ? "paper: g(a, b) = a if a < b else a - b" : "corrected: g replaced by floor modulo";
  return r;
}

ClaimResult check_table5() {
  ClaimResult r = result_for(count3_claim_specs().table5);
  const Sequence& printed = table5_sequence();
  Tally t;
  for (std::size_t m = table5_seed_length; m < printed.size(); ++m) {
    const Sequence prefix(printed.begin(), printed.begin() + static_cast<std::ptrdiff_t>(m));
    const long long by_eq4 = count3_eq4(prefix);
    if (by_eq4 == printed[m] && count3_alg2(prefix) == by_eq4 && count3_alg3(prefix) == by_eq4) {
      t.pass();
      continue;
    }
    t.fail({Json(prefix), Json(by_eq4), Json(printed[m]), fmt::format("printed x_{} differs", m + 1)});
  }
  t.fill(r);
  r.summary = fmt::format("{}/{} printed continuations follow eq. (4)", t.passed, t.checked);
  r.details["sequence"] = printed;
  return r;
}

ClaimResult check_alg5(const InputSource& inputs, const ProgramSemantics& s, const RunOptions& options) {
  ClaimResult r = result_for(count3_claim_specs().alg5);
  const Tally t = check_inputs(inputs, options, r.id, [&](const Sequence& x, Tally& tally) {
    std::uint64_t& differences = tally.counts["mean_differences"];
    const long long expected = match3_prime(x);
    const auto printed = last_output(run_program(alg5_has_triplet, x, {s.mean}, differences));
    if (printed != expected)
      return tally.fail({Json(x), Json(expected), value_json(printed), "as printed, last position"});
    const rasp::Seq causal = run_program(alg5_has_triplet, x, {s.mean, true}, differences);
    for (std::size_t j = 0; j < x.size(); ++j) {
      const long long prefix_expected =
          match3_prime(Sequence(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(j + 1)));
      if (causal[j] != prefix_expected)
        return tally.fail({Json(x), Json(prefix_expected), value_json(causal[j]),
                           fmt::format("as a decoder (every attention causal), position {}", j + 1)});
    }
    tally.pass();
  });
  t.fill(r);
  r.summary =
      fmt::format("{}/{} inputs: Match3' at the last position and, causally, at every position", t.passed, t.checked);
  note_semantics(r, s, t.count("mean_differences"), inputs);
  return r;
}

namespace {

// The first position where two token sequences differ, or -1.
long first_difference(const Sequence& a, const Sequence& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (a[i] != b[i]) return static_cast<long>(i);
  return a.size() == b.size() ? -1 : static_cast<long>(std::min(a.size(), b.size()));
}

}  // namespace

ClaimResult check_alg6(const InputSource& inputs, const ProgramSemantics& s, const RunOptions& options) {
  ClaimResult r = result_for(count3_claim_specs().alg6);
  const Tally t = check_inputs(inputs, options, r.id, [&](const Sequence& x, Tally& tally) {
    std::uint64_t& differences = tally.counts["mean_differences"];
    const Sequence expected = expected_alg6_chain(x);
    ChainOfThought cot;
    {
      rasp::Run run({s.mean});
      cot = generate_alg6(x, expected.size() + x.size() + 2);
      differences += run.mean_differences().size();
    }
    if (cot.non_integer)
      return tally.fail({Json(x), Json(expected), Json(cot.generated),
                         "generated a non-integer value " + exact_to_string(*cot.non_integer)});
    if (const long at = first_difference(cot.generated, expected); at >= 0) {
      const std::size_t answer_at = 2 * x.size();
      if (cot.generated.size() <= answer_at || cot.generated[answer_at] != expected[answer_at])
        ++tally.counts["wrong_answers"];
      return tally.fail({Json(x), Json(expected), Json(cot.generated),
                         fmt::format("chain of thought differs at generated token {}", at + 1)});
    }
    // One causal pass over x, EOS, and all generated tokens but the last predicts each generated token.
    Sequence whole = x;
    whole.push_back(eos_token);
    whole.insert(whole.end(), cot.generated.begin(), cot.generated.end() - 1);
    const rasp::Seq causal = run_program(alg6_count_triplets, whole, {s.mean, true}, differences);
    for (std::size_t k = 0; k < cot.generated.size(); ++k)
      if (causal[x.size() + k] != cot.generated[k])
        return tally.fail(
            {Json(x), Json(cot.generated[k]), value_json(causal[x.size() + k]),
             fmt::format("one causal pass: position {} does not predict generated token {}", x.size() + k + 1, k + 1)});
    tally.pass();
  });
  t.fill(r);
  r.summary = fmt::format("{}/{} inputs: chain of thought, answer and EOS as designed", t.passed, t.checked);
  note_semantics(r, s, t.count("mean_differences"), inputs);
  r.details["eos_token"] = eos_token;
  r.details["wrong_answers"] = t.count("wrong_answers");
  return r;
}

Agreement count3_agreement(const std::string& program, const InputSource& inputs, rasp::MeanSemantics mean,
                           const RunOptions& options) {
  const Tally t = check_inputs(inputs, options, "agreement " + program, [&](const Sequence& x, Tally& tally) {
    std::uint64_t ignored = 0;
    const long long expected = count3_eq4(x);
    rasp::Value got;
    if (program == "alg6") {
      rasp::Run run({mean});
      const ChainOfThought cot = generate_alg6(x, 4 * x.size() + 4);
      const std::size_t answer_at = 2 * x.size();
      got = cot.generated.size() > answer_at ? rasp::Value(cot.generated[answer_at]) : rasp::Value(-1);
    } else {
      const Alg4Variant v = program == "alg4" ? Alg4Variant::Paper : Alg4Variant::Corrected;
      got = last_output(
          run_program([&](const rasp::Seq& seq) { return alg4_count_triplets(seq, v); }, x, {mean}, ignored));
    }
    if (got == expected) return tally.pass();
    ++tally.checked, ++tally.failed;
  });
  return {t.checked, t.passed};
}

}  // namespace tverify::count3
