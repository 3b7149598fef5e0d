// What the CLI knows of a construction, as data: its parameters, variants, claims and sweeps, and how to check,
// prove, sweep or evaluate it. The interface knows no construction; checkers/registry.* lists them. The base class
// does what every construction shares: claim-id expansion and validation, timing, the report header, the refusal of
// claims the verb does not decide, and the lookup and validation of a sweep's options. A construction never prints.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/evaluation.hpp"
#include "checkers/params.hpp"
#include "checkers/sweep_output.hpp"
#include "checkers/verdict.hpp"
#include "core/named_weights.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tverify {

struct ProofOptions {
  unsigned timeout_ms = 60'000;
  std::string smt2_dir;      // empty: no SMT-LIB2 dump
  bool cross_check = false;  // each query also put to cvc5 (checkers/second_solver.hpp)
};

struct VariantSpec {
  std::string name;  // "paper", "corrected", "key_delay", ...
  std::string help;  // what differs from the other variants
};

// Which verbs decide a claim.
enum class DecidedBy { Check, Prove, CheckAndProve };

struct ClaimSpec {
  std::string id;         // stable: "copy.alg1"
  std::string section;    // where the paper states it
  std::string statement;  // the paper's wording
  std::string checked;    // what tverify checks, precisely, and on which domain
  std::vector<std::string> params;
  DecidedBy decided_by = DecidedBy::Check;
  // Empty when the claim is about the run's parameters and variant; otherwise why it is not (e.g. "checked with
  // --variant ar"). Unset: always about them.
  std::function<std::string(const ParamValues&, const std::string& variant)> outside_run{};

  bool checked_by_check() const { return decided_by != DecidedBy::Prove; }
  bool checked_by_prove() const { return decided_by != DecidedBy::Check; }
};

// One sweep of a construction: selected by the name before '=' in --vary (and --fast when `fast`), and, among the
// sweeps those select, by its selector option when it has one (the sweep without a selector when none is given). It
// has its own options.
struct SweepSpec {
  std::string vary;                // "tau", "L", ...
  bool fast = false;               // selected by --fast
  std::string help;                // what it varies and what it writes
  std::vector<ParamSpec> options;  // without the dashes; "--out" and "--vary" are every sweep's
  std::string selector{};          // the name of one of `options` whose presence selects this sweep; empty: none
  bool reads_counterexample_limit = false;  // its files record counterexamples, as many as --max-counterexamples
};

// What `tverify sweep` was asked, after the CLI parsed it: the sweep's options are still raw text.
// The key of a --vary value: the name before '=' ("L=1:8:x2" -> "L").
std::string vary_key(const std::string& vary);

struct SweepRequest {
  std::string vary;  // as given ("tau", "L=1024:1048576:x2")
  bool fast = false;
  std::string out_dir;                         // where the CSV, PNG and JSON go
  std::map<std::string, std::string> options;  // name (no dashes) -> text; flags as "true"
  std::string command{};                       // the command line, recorded in the sweep's certificates
  bool max_counterexamples_given = false;      // refused by a sweep that records no counterexample
  std::string figure_size{};                   // --figure-size as given (checkers/sweep_output.hpp); empty: default
};

// A sweep request matched with its spec and its options validated.
struct SweepRun {
  const SweepSpec& spec;
  std::string vary;
  SweepOutput output;
  ParamValues options;
};

// The claims of a run's request, in declaration order (all of them, or those of one group).
class ClaimSelection {
 public:
  explicit ClaimSelection(std::vector<std::string> ids) : ids_(std::move(ids)) {}
  bool has(const ClaimSpec& claim) const;
  const std::vector<std::string>& ids() const { return ids_; }

 private:
  std::vector<std::string> ids_;
};

// What a construction's verbs offer beyond its parameters, variants, claims and sweeps; the defaults fit most.
struct ConstructionFeatures {
  bool evaluates_in_floating_point = false;  // eval --bits
  bool eval_traces = true;                   // eval --trace: eval has intermediate blocks to print
  // The parameters `prove` reads, when it reads fewer than `check` (Z3 proofs over symbols need fewer); nullopt: all.
  std::optional<std::vector<std::string>> prove_params{};
  // The parameters `export` and `weights` read (the weights' parameters); nullopt: all.
  std::optional<std::vector<std::string>> export_params{};
  bool records_counterexample_limit = true;  // check certificates record --max-counterexamples
  // check and sweep estimate their memory before they start and read --max-memory (the model checker); the other
  // constructions' runs are bounded by caps on their parameters, and --max-memory given to them is refused.
  bool estimates_memory = false;
  // The parameter whose range bounds the length of an input check runs (copy's --L): eval's --input obeys the same
  // bound. Empty: eval's input is bounded otherwise.
  std::string eval_length_param{};
  // The parameters `verb` does not read with these values (for a sweep, with its --vary and --fast: `sweep` is set);
  // one of them given is refused before anything runs, never ignored. Unset: every verb reads every parameter it
  // takes.
  std::function<std::vector<std::string>(const std::string& verb, const SweepRequest* sweep, const ParamValues&)>
      unread_params{};
  // The parameters `verb` never reads, whatever the values: left out of its --help and its completion. They are still
  // parsed, so that unread_params refuses one given by name. Unset: none.
  std::function<std::vector<std::string>(const std::string& verb)> never_read{};
};

// What a construction is, as data.
struct ConstructionDeclaration {
  std::string name;   // the CLI word: "copy"
  std::string paper;  // authors, title, arXiv id
  std::vector<ParamSpec> params;
  std::vector<VariantSpec> variants;  // the first is the default
  std::vector<ClaimSpec> claims;      // in the order `tverify list` shows them and runs report them
  std::vector<SweepSpec> sweeps;
  ConstructionFeatures features{};
};

// What a construction does, given validated parameters, variant and claims. `check` fills the report's arithmetic,
// domain and claim results; `prove` (empty: no Z3 proofs) the same; `sweep` (empty: none) writes its files and
// returns the summary; `eval` evaluates one input (tokens, comma-separated), with every intermediate block when
// tracing and, with bits > 0, also in floating point of that many bits (a measurement);
// `export_onnx` (empty: no export) returns the construction's weights as a serialized ONNX model, and `weights`
// (empty: none) the same weights as named exact tensors.
struct ConstructionActions {
  std::function<void(const ParamValues&, const std::string& variant, const ClaimSelection&, const RunOptions&,
                     CheckReport&)>
      check;
  std::function<void(const ParamValues&, const std::string& variant, const ClaimSelection&, const ProofOptions&,
                     const RunOptions&, CheckReport&)>
      prove;
  std::function<Json(const ParamValues&, const std::string& variant, const SweepRun&, const RunOptions&)> sweep;
  std::function<Evaluation(const ParamValues&, const std::string& variant, const std::string& input, bool trace,
                           long bits)>
      eval;
  std::function<std::string(const ParamValues&, const std::string& variant)> export_onnx{};
  std::function<std::vector<NamedWeights>(const ParamValues&, const std::string& variant)> weights{};
};

class Construction {
 public:
  Construction(ConstructionDeclaration declaration, ConstructionActions actions);

  const std::string& name() const { return declaration_.name; }
  const std::string& paper() const { return declaration_.paper; }
  const std::vector<ParamSpec>& params() const { return declaration_.params; }
  // The parameters `verb` reads: params(), or for "prove" the declared prove_params and for "export" and "weights"
  // the declared export_params.
  std::vector<ParamSpec> params_for(const std::string& verb) const;
  // Whether `verb`'s --help and completion show the parameter (ConstructionFeatures::never_read).
  bool shown_for(const std::string& verb, const std::string& param) const;
  const std::vector<VariantSpec>& variants() const { return declaration_.variants; }
  const std::vector<ClaimSpec>& claims() const { return declaration_.claims; }
  const std::vector<SweepSpec>& sweeps() const { return declaration_.sweeps; }
  bool evaluates_in_floating_point() const { return declaration_.features.evaluates_in_floating_point; }
  bool eval_traces() const { return declaration_.features.eval_traces; }
  bool estimates_memory() const { return declaration_.features.estimates_memory; }

  // Checks the given claims (every claim check decides for this run when empty) on the construction's domain. The
  // report's options record the claims as requested (requested_claims), so that recheck re-runs the same command.
  CheckReport check(const ParamValues& params, const std::string& variant, const std::vector<std::string>& claim_ids,
                    const RunOptions& options) const;
  // Proves the given claims (every claim prove decides for this run when empty) with Z3.
  CheckReport prove(const ParamValues& params, const std::string& variant, const std::vector<std::string>& claim_ids,
                    const ProofOptions& options, const RunOptions& run) const;
  // Runs a sweep and writes its files; returns the summary.
  Json sweep(const ParamValues& params, const std::string& variant, const SweepRequest& request,
             const RunOptions& run) const;
  Evaluation eval(const ParamValues& params, const std::string& variant, const std::string& input, bool trace,
                  long bits) const;

  // The construction's weights as a serialized ONNX model (`tverify export`).
  std::string export_onnx(const ParamValues& params, const std::string& variant) const;
  bool has_export() const { return static_cast<bool>(actions_.export_onnx); }
  // The construction's weights as named exact tensors (`import tverify`'s weights()).
  std::vector<NamedWeights> weights(const ParamValues& params, const std::string& variant) const;
  bool has_weights() const { return static_cast<bool>(actions_.weights); }

  const ClaimSpec& claim(const std::string& id) const;  // throws UsageError naming the known ids
  // Throws UsageError when the construction has nothing for `verb` ("prove" without proofs, "sweep" without sweeps,
  // "export" without an ONNX export, "weights" without named weights).
  void require_verb(const std::string& verb) const;
  bool has_proofs() const;
  // The variant's name, the default when empty; throws UsageError naming the variants.
  std::string variant_or_default(const std::string& variant) const;
  // The parameters a certificate of `verb` records: each one the run reads with these values, given or default, in
  // spec order (features.unread_params names those it does not read).
  Json recorded_params(const std::string& verb, const SweepRequest* sweep, const ParamValues& params) const;
  // The claims `verb` ("check" or "prove") decides in this run, in declaration order.
  std::vector<std::string> default_claims(const std::string& verb, const ParamValues& params,
                                          const std::string& variant) const;

 private:
  ClaimSelection requested_claims(const std::string& verb, const ParamValues& params, const std::string& variant,
                                  const std::vector<std::string>& claim_ids) const;
  CheckReport new_report(const std::string& verb, const ParamValues& params, const std::string& variant) const;
  // Throws UsageError naming the first given parameter that `verb` does not read (features.unread_params).
  void refuse_unread(const std::string& verb, const SweepRequest* sweep, const ParamValues& params) const;
  // Throws UsageError when the run is given --max-memory and `verb` estimates no memory for this construction.
  void refuse_unread_budget(const std::string& verb, const RunOptions& options) const;

  ConstructionDeclaration declaration_;
  ConstructionActions actions_;
};

// Claims checked together in one pass, and the function that checks those of them a run asks for (in declaration
// order) from the run's context.
template <class Context>
struct ClaimGroup {
  std::vector<const ClaimSpec*> claims;
  std::function<std::vector<ClaimResult>(const Context&, const ClaimSelection&)> check;
};

// A `check` action from a preparation and claim groups: prepare(params, variant, asked, options, report) makes the
// context every group reads, once per run (and fills the report's arithmetic and domain); then each group with a
// claim asked checks them, in group order.
template <class Context, class Prepare>
auto check_in_groups(Prepare prepare, std::vector<ClaimGroup<Context>> groups) {
  return [prepare, groups](const ParamValues& params, const std::string& variant, const ClaimSelection& asked,
                           const RunOptions& options, CheckReport& report) {
    const Context context = prepare(params, variant, asked, options, report);
    for (const auto& group : groups) {
      std::vector<std::string> ids;
      for (const ClaimSpec* c : group.claims)
        if (asked.has(*c)) ids.push_back(c->id);
      if (ids.empty()) continue;
      for (auto& r : group.check(context, ClaimSelection(std::move(ids)))) report.claims.push_back(std::move(r));
    }
  };
}

// A claim result with the spec's id and statement filled in.
ClaimResult result_for(const ClaimSpec& spec);

}  // namespace tverify
