// What the CLI knows of a construction, as data: its parameters, variants, claims and sweeps, and how to check,
// prove, sweep or evaluate it. The interface knows no construction; checkers/registry.* lists them. The base class
// does what every construction shares: claim-id expansion and validation, timing, the report header, the refusal of
// claims the verb does not decide, and the lookup and validation of a sweep's options. A construction never prints.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/params.hpp"
#include "checkers/verdict.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tverify {

struct ProofOptions {
  unsigned timeout_ms = 60'000;
  std::string smt2_dir;  // empty: no SMT-LIB2 dump
};

struct VariantSpec {
  std::string name;  // "paper", "corrected", "key_delay", ...
  std::string help;  // what differs from the other variants
};

// Which verbs decide a claim.
enum class DecidedBy { Check, Prove, CheckAndProve };

struct ClaimSpec {
  std::string id;          // stable: "copy.alg1"
  std::string section;     // where the paper states it
  std::string statement;   // the paper's wording
  std::string checked;     // what tverify checks, precisely, and on which domain
  std::vector<std::string> params;
  DecidedBy decided_by = DecidedBy::Check;
  // Empty when the claim is about the run's parameters and variant; otherwise why it is not (e.g. "checked with
  // --variant ar"). Unset: always about them.
  std::function<std::string(const ParamValues&, const std::string& variant)> outside_run;

  bool checked_by_check() const { return decided_by != DecidedBy::Prove; }
  bool checked_by_prove() const { return decided_by != DecidedBy::Check; }
};

// One sweep of a construction: selected by the name before '=' in --vary (and --fast when `fast`), with its own options.
struct SweepSpec {
  std::string vary;  // "tau", "L", ...
  bool fast = false;  // selected by --fast
  std::string help;   // what it varies and what it writes
  std::vector<ParamSpec> options;  // without the dashes; "--out" and "--vary" are every sweep's
};

// What `tverify sweep` was asked, after the CLI parsed it: the sweep's options are still raw text.
struct SweepRequest {
  std::string vary;     // as given ("tau", "L=1024:1048576:x2")
  bool fast = false;
  std::string out_dir;  // where the CSV, PNG and JSON go
  std::map<std::string, std::string> options;  // name (no dashes) -> text; flags as "true"
};

// A sweep request matched with its spec and its options validated.
struct SweepRun {
  const SweepSpec& spec;
  std::string vary;
  std::string out_dir;
  ParamValues options;
};

class Construction {
 public:
  virtual ~Construction() = default;
  virtual std::string name() const = 0;
  virtual std::string paper() const = 0;
  virtual std::vector<ParamSpec> params() const = 0;
  virtual std::vector<VariantSpec> variants() const = 0;  // the first is the default
  virtual const std::vector<ClaimSpec>& claims() const = 0;
  virtual std::vector<SweepSpec> sweeps() const { return {}; }
  virtual bool evaluates_in_floating_point() const { return false; }  // eval --bits

  // Checks the given claims (every claim check decides for this run when empty) on the construction's domain.
  CheckReport check(const ParamValues& params, const std::string& variant, const std::vector<std::string>& claim_ids,
                    const RunOptions& options) const;
  // Proves the given claims (every claim prove decides for this run when empty) with Z3.
  CheckReport prove(const ParamValues& params, const std::string& variant, const std::vector<std::string>& claim_ids,
                    const ProofOptions& options, const RunOptions& run) const;
  // Runs a sweep and writes its files; returns the summary.
  Json sweep(const ParamValues& params, const std::string& variant, const SweepRequest& request,
             const RunOptions& run) const;

  // Evaluates one input (tokens, comma-separated) and returns the text to print; with trace, every intermediate block;
  // with bits > 0 (only when evaluates_in_floating_point()), also in floating point of that many bits (a measurement).
  virtual std::string eval(const ParamValues& params, const std::string& variant, const std::string& input,
                           bool trace, long bits) const = 0;

  const ClaimSpec& claim(const std::string& id) const;  // throws UsageError naming the known ids
  bool has_proofs() const;
  // The variant's name, the default when empty; throws UsageError naming the variants.
  std::string variant_or_default(const std::string& variant) const;
  // The claims `verb` ("check" or "prove") decides in this run, in declaration order.
  std::vector<std::string> default_claims(const std::string& verb, const ParamValues& params,
                                          const std::string& variant) const;

 protected:
  // Fills in the report's arithmetic, domain and claim results for `ids` (validated, in the order asked).
  virtual void check_claims(const ParamValues& params, const std::string& variant, const std::vector<std::string>& ids,
                            const RunOptions& options, CheckReport& report) const = 0;
  virtual void prove_claims(const ParamValues& params, const std::string& variant, const std::vector<std::string>& ids,
                            const ProofOptions& options, const RunOptions& run, CheckReport& report) const;
  virtual Json run_sweep(const ParamValues& params, const std::string& variant, const SweepRun& sweep,
                         const RunOptions& run) const;
  // The options recorded in a check report (default: the counterexample limit).
  virtual Json check_report_options(const RunOptions& options) const;

 private:
  std::vector<std::string> requested_claims(const std::string& verb, const ParamValues& params,
                                            const std::string& variant, const std::vector<std::string>& claim_ids) const;
};

// A claim result with the spec's id and statement filled in.
ClaimResult result_for(const ClaimSpec& spec);

}  // namespace tverify
