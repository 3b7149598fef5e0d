// copy.thm2_7 (every GSSM with |S| states has err > 1 - |S|/D^L) and copy.cor2_8 (mem(S) < L log D - 1 gives
// err > 1/2), over the uniform copy distribution on [D]^L. err is computed exactly: the fraction of the D^L strings a
// model does not copy.
#include "checkers/copy/copy_claims.hpp"
#include "constructions/copy/gssm.hpp"
#include "core/exact.hpp"

#include <optional>

namespace tverify::copy {
namespace {

// How many strings of the domain a model copies; `generate(index, x)` returns its output on x.
template <class Generate>
std::uint64_t count_copied(const StringDomain& d, Generate generate) {
  std::uint64_t copied = 0;
  for (std::uint64_t i = 0; i < d.size; ++i) {
    const TokenString x = string_at(i, d.alphabet, d.length);
    if (generate(i, x) == x) ++copied;
  }
  return copied;
}

Exact error_of(std::uint64_t copied, const StringDomain& d) { return Exact(1) - Exact(BigInt(copied), BigInt(d.size)); }

Exact theorem_bound(const StringDomain& d, std::uint64_t states) {
  return Exact(1) - Exact(BigInt(states), BigInt(d.size));
}

Json describe_gssm(const Gssm& g) {
  return Json{{"states", g.states},
              {"initial", g.initial},
              {"readout", g.readout},
              {"update", g.update},
              {"tokens", "0.." + std::to_string(g.alphabet - 1) + " alphabet, " + std::to_string(g.bos()) + " <BOS>, " +
                             std::to_string(g.copy_token()) + " <COPY>"}};
}

// The most strings any GSSM with `states` states copies, by enumerating all of them; nullopt when over budget.
struct Exhaustive {
  std::uint64_t models = 0;
  std::uint64_t best_copied = 0;
  std::uint64_t best_index = 0;
};

void to_json(Json& j, const Exhaustive& e) { put_fields(j, e.models, e.best_copied, e.best_index); }
void from_json(const Json& j, Exhaustive& e) { get_fields(j, e.models, e.best_copied, e.best_index); }

std::optional<Exhaustive> best_over_all_gssms(const StringDomain& d, std::uint64_t states, const RunOptions& options) {
  if (states > 8) return std::nullopt;
  const std::uint64_t models = gssm_count(d.alphabet, static_cast<int>(states));
  if (models == 0 || models > options.max_inputs / std::max<std::uint64_t>(1, d.size)) return std::nullopt;
  auto visit = [&](std::uint64_t index, Exhaustive& acc) {
    const Gssm g = gssm_at(index, d.alphabet, static_cast<int>(states));
    const std::uint64_t copied = count_copied(d, [&](std::uint64_t, const TokenString& x) { return g.generate(x); });
    if (acc.models == 0 || copied > acc.best_copied) {
      acc.best_copied = copied;
      acc.best_index = index;
    }
    ++acc.models;
  };
  auto merge = [](Exhaustive& into, Exhaustive&& from) {
    if (from.models && (into.models == 0 || from.best_copied > into.best_copied)) {
      into.best_copied = from.best_copied;
      into.best_index = from.best_index;
    }
    into.models += from.models;
  };
  return enumerate_indices<Exhaustive>(models, options, "GSSMs", visit, merge);
}

// Lemma D.1's form (final state + decoder) storing the first strings: err attains the bound exactly?
Json tightness(const StringDomain& d, std::uint64_t states) {
  const StoreFirstStringsModel model{d.alphabet, d.length, states};
  const std::uint64_t copied = count_copied(d, [&](std::uint64_t i, const TokenString&) { return model.generate(i); });
  const Exact err = error_of(copied, d);
  return Json{{"model", "Lemma D.1 form: the first |S|-1 strings get their own state, the rest share the last"},
              {"copied", copied},
              {"err", exact_to_string(err)},
              {"attains_bound", err == theorem_bound(d, states)}};
}

ClaimResult base_result(const ClaimSpec& spec) {
  ClaimResult r;
  r.id = spec.id;
  r.statement = spec.statement;
  return r;
}

}  // namespace

ClaimResult check_thm2_7(const StringDomain& d, std::uint64_t states, bool strict, const RunOptions& options) {
  ClaimResult r = base_result(copy_claim_specs().thm2_7);
  const Exact bound = theorem_bound(d, states);
  r.details["inequality"] = strict ? "err > 1 - |S|/D^L (as printed)" : "err >= 1 - |S|/D^L (corrected)";
  r.details["bound"] = exact_to_string(bound);
  r.details["tightness"] = tightness(d, states);
  auto violates = [&](const Exact& err) { return strict ? !(err > bound) : !(err >= bound); };
  r.summary = "bound 1 - |S|/D^L = " + exact_to_string(bound);

  if (bound < 0 || (!strict && bound == 0)) {  // err >= 0 always
    r.checked = r.passed = 1;
    r.set_verdict_from_counts();
    r.reason = "the bound is " + exact_to_string(bound) + " and every error is >= 0";
    return r;
  }
  // A real GSSM (update, readout, initial state) attaining the bound, when S <= D.
  if (states <= static_cast<std::uint64_t>(d.alphabet)) {
    const Gssm g = constant_string_gssm(d.alphabet, static_cast<int>(states));
    const Exact err = error_of(count_copied(d, [&](std::uint64_t, const TokenString& x) { return g.generate(x); }), d);
    r.details["constant_string_gssm_err"] = exact_to_string(err);
    if (violates(err)) {
      r.checked = r.failed = 1;
      r.summary += ", attained by a " + std::to_string(states) + "-state GSSM";
      r.counterexamples.push_back(
          {describe_gssm(g), Json("err " + std::string(strict ? "> " : ">= ") + exact_to_string(bound)),
           Json(exact_to_string(err)), "a GSSM that copies exactly the |S| constant strings a^L, a < |S|"});
      r.set_verdict_from_counts();
      return r;
    }
  }
  const auto all = best_over_all_gssms(d, states, options);
  if (!all) {
    r.reason = "not every GSSM with |S| = " + std::to_string(states) +
               " states fits the budget, and no GSSM attaining the bound was constructed";
    r.set_verdict_from_counts();
    return r;
  }
  const Exact best_err = error_of(all->best_copied, d);
  r.summary += ", smallest err over all " + std::to_string(all->models) + " GSSMs = " + exact_to_string(best_err);
  r.checked = all->models;
  r.details["gssms_enumerated"] = all->models;
  r.details["smallest_err_over_all_gssms"] = exact_to_string(best_err);
  if (violates(best_err)) {
    r.failed = 1;
    r.passed = r.checked - 1;
    r.counterexamples.push_back({describe_gssm(gssm_at(all->best_index, d.alphabet, static_cast<int>(states))),
                                 Json("err " + std::string(strict ? "> " : ">= ") + exact_to_string(bound)),
                                 Json(exact_to_string(best_err)), "the GSSM with the smallest error"});
  } else {
    r.passed = r.checked;
  }
  r.set_verdict_from_counts();
  return r;
}

ClaimResult check_cor2_8(const StringDomain& d, std::uint64_t states, const RunOptions& /*options*/) {
  ClaimResult r = base_result(copy_claim_specs().cor2_8);
  // mem(S) = log2 |S| ("the number of bits", Sec. 2.1), so mem(S) < L log2 D - 1  <=>  2 |S| < D^L, exactly.
  const bool hypothesis = BigInt(2) * states < BigInt(d.size);
  const Exact bound = theorem_bound(d, states);
  const bool conclusion = bound > Exact(1, 2);
  r.outside_hypotheses = !hypothesis;
  r.details["hypothesis_2S_below_D_pow_L"] = hypothesis;
  r.details["bound"] = exact_to_string(bound);
  r.details["bound_above_half"] = conclusion;
  r.details["tightness"] = tightness(d, states);
  r.checked = 1;
  r.summary = "bound " + exact_to_string(bound) + (conclusion ? " > 1/2" : " <= 1/2") +
              (hypothesis ? ", 2|S| < D^L" : ", 2|S| >= D^L");
  const bool holds = !hypothesis || conclusion;  // the implication, decided exactly
  const bool tight = r.details["tightness"]["attains_bound"].get<bool>();
  r.passed = holds && tight ? 1 : 0;
  r.failed = 1 - r.passed;
  if (!holds)
    r.counterexamples.push_back({Json{{"D", d.alphabet}, {"L", d.length}, {"S", states}}, Json("bound > 1/2"),
                                 Json(exact_to_string(bound)), "hypothesis holds but the bound is not above 1/2"});
  if (!tight)
    r.counterexamples.push_back({Json{{"D", d.alphabet}, {"L", d.length}, {"S", states}},
                                 Json("err = " + exact_to_string(bound)), r.details["tightness"]["err"],
                                 "the best Lemma D.1-form model misses the bound"});
  r.set_verdict_from_counts();
  if (!hypothesis) r.reason = "2|S| >= D^L: outside the corollary's hypothesis";
  return r;
}

}  // namespace tverify::copy
