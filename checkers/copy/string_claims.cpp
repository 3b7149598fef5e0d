// copy.alg1 (Algorithm 1 copies every string without a repeated n-gram) and copy.lemma2_4 (p_n-gram < L^2 D^-n),
// both readings of Definition 2.2, over every string of [D]^L.
#include "checkers/copy/copy_claims.hpp"
#include "checkers/tally.hpp"
#include "core/exact.hpp"

#include <array>
#include <limits>

namespace tverify::copy {
namespace {

// What one reading accumulates over a range of strings.
struct ReadingTally {
  Tally repeat_free_runs;  // Algorithm 1 on the strings without a repeated n-gram; counterexamples: those not copied
  // Algorithm 1 on the strings with a repeated n-gram; its one counterexample, the smallest string not copied, is the
  // "fails on some string" witness.
  Tally repeated_runs{.limit = 1};
  std::uint64_t strings_with_repeat = 0;  // whether or not Algorithm 1 ran

  void merge(ReadingTally&& o) {
    repeat_free_runs.merge(std::move(o.repeat_free_runs));
    repeated_runs.merge(std::move(o.repeated_runs));
    strings_with_repeat += o.strings_with_repeat;
  }
};

void to_json(Json& j, const ReadingTally& t) {
  put_fields(j, t.repeat_free_runs, t.repeated_runs, t.strings_with_repeat);
}
void from_json(const Json& j, ReadingTally& t) {
  get_fields(j, t.repeat_free_runs, t.repeated_runs, t.strings_with_repeat);
}

// Both readings' tallies over a chunk of strings.
struct StringTally {
  std::array<ReadingTally, 2> by_reading;  // indexed by NgramReading
};

void to_json(Json& j, const StringTally& t) { j = t.by_reading; }
void from_json(const Json& j, StringTally& t) { j.get_to(t.by_reading); }

Counterexample copy_counterexample(const TokenString& x, const Alg1Run& run) {
  return {Json(x), Json(x), Json(run.output), run.failure};
}

// Algorithm 1's run on x, recorded in `tally`; the counterexample is built only when the tally keeps it.
void record(Tally& tally, const TokenString& x, const Alg1Run& run) {
  if (run.copied) return tally.pass();
  const bool kept = tally.counterexamples.size() < tally.limit;
  tally.fail(kept ? copy_counterexample(x, run) : Counterexample{});
}

ClaimResult alg1_result(const ClaimSpec& spec, NgramReading reading, const ReadingTally& t, Alg1Variant variant,
                        int n) {
  ClaimResult r;
  r.id = spec.id;
  r.statement = spec.statement;
  r.reading = to_string(reading);
  t.repeat_free_runs.fill(r);
  r.summary = "copied " + std::to_string(t.repeat_free_runs.passed) + "/" + std::to_string(t.repeat_free_runs.checked) +
              " repeat-free strings";
  if (r.checked == 0) r.reason = "no string of the domain is free of repeated n-grams under this reading";
  r.details["reading"] = describe(reading);
  r.details["first_key_position"] = first_key_position(variant, n);
  r.details["strings_with_repeat"] = t.strings_with_repeat;
  r.details["failed_with_repeat"] = t.repeated_runs.failed;
  if (!t.repeated_runs.counterexamples.empty()) {
    const auto& w = t.repeated_runs.counterexamples.front();
    r.details["sharpness"] = {
        {"holds", true}, {"smallest_failing_string_with_repeat", w.input}, {"got", w.got}, {"detail", w.detail}};
  } else {
    r.details["sharpness"] = {{"holds", false},
                              {"detail", "every string with a repeated n-gram in this domain is copied too"}};
  }
  return r;
}

ClaimResult lemma2_4_result(const ClaimSpec& spec, NgramReading reading, const ReadingTally& t, const StringDomain& d) {
  ClaimResult r;
  r.id = spec.id;
  r.statement = spec.statement;
  r.reading = to_string(reading);
  const Exact p(BigInt(t.strings_with_repeat), BigInt(d.size));
  const Exact bound(BigInt(d.length) * d.length,
                    big_pow(static_cast<unsigned long>(d.alphabet), static_cast<unsigned long>(d.n)));
  r.checked = 1;
  const bool holds = p < bound;
  r.passed = holds ? 1 : 0;
  r.failed = holds ? 0 : 1;
  r.set_verdict_from_counts();
  r.summary = "p = " + exact_to_string(p) + (holds ? " < " : " >= ") + exact_to_string(bound);
  r.details["reading"] = describe(reading);
  r.details["strings"] = d.size;
  r.details["strings_with_repeat"] = t.strings_with_repeat;
  r.details["p_ngram"] = exact_to_string(p);
  r.details["bound_L2_D_minus_n"] = exact_to_string(bound);
  if (!holds)
    r.counterexamples.push_back({Json{{"D", d.alphabet}, {"n", d.n}, {"L", d.length}},
                                 Json("p_ngram < " + exact_to_string(bound)), Json(exact_to_string(p)),
                                 "the exact probability is not below the bound"});
  return r;
}

}  // namespace

StringDomain make_string_domain(int alphabet, int n, int length, const RunOptions& options) {
  const BigInt size = big_pow(static_cast<unsigned long>(alphabet), static_cast<unsigned long>(length));
  const BigInt cap(std::numeric_limits<std::int64_t>::max());
  if (size > cap)
    throw UsageError("--L " + std::to_string(length) + " gives D^L = " + std::to_string(alphabet) + "^" +
                     std::to_string(length) +
                     " strings, beyond 2^63: choose L with D^L <= " + std::to_string(options.max_inputs));
  StringDomain d{alphabet, n, length, size.convert_to<std::uint64_t>()};
  check_budget(d.size, options, "the domain [D]^L");
  return d;
}

std::vector<NgramReading> readings_from(const std::string& choice) {
  if (choice == "text") return {NgramReading::Text};
  if (choice == "formula") return {NgramReading::Formula};
  return {NgramReading::Text, NgramReading::Formula};
}

std::vector<ClaimResult> check_string_claims(const StringDomain& d, Alg1Variant variant,
                                             const std::vector<NgramReading>& readings, StringClaimSelection want,
                                             const RunOptions& options) {
  const std::size_t limit = options.max_counterexamples;
  auto visit = [&](std::uint64_t index, StringTally& tally) {
    const TokenString x = string_at(index, d.alphabet, d.length);
    std::optional<Alg1Run> run;
    if (want.alg1) run = run_algorithm1(x, d.n, variant);
    for (NgramReading reading : readings) {
      ReadingTally& t = tally.by_reading[static_cast<std::size_t>(reading)];
      t.repeat_free_runs.limit = limit;
      const bool repeat = has_repeated_window(x, window_length(reading, d.n));
      if (repeat) ++t.strings_with_repeat;
      if (run) record(repeat ? t.repeated_runs : t.repeat_free_runs, x, *run);
    }
  };
  auto merge = [](StringTally& into, StringTally&& from) {
    for (std::size_t k = 0; k < 2; ++k) into.by_reading[k].merge(std::move(from.by_reading[k]));
  };
  const StringTally tally = enumerate_indices<StringTally>(d.size, options, "strings", visit, merge);

  const CopyClaimSpecs& specs = copy_claim_specs();
  auto tally_of = [&](NgramReading r) -> const ReadingTally& { return tally.by_reading[static_cast<std::size_t>(r)]; };
  std::vector<ClaimResult> results;
  if (want.alg1)
    for (NgramReading reading : readings)
      results.push_back(alg1_result(specs.alg1, reading, tally_of(reading), variant, d.n));
  if (want.lemma2_4)
    for (NgramReading reading : readings)
      results.push_back(lemma2_4_result(specs.lemma2_4, reading, tally_of(reading), d));
  return results;
}

}  // namespace tverify::copy
