// What the CLI knows of a construction: its parameters, variants and claims, and how to check or evaluate it.
// Each paper's folder under checkers/ implements one; the registry lists them. A construction here never prints.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/params.hpp"
#include "checkers/verdict.hpp"

#include <memory>
#include <string>
#include <vector>

namespace tverify {

struct ProofOptions {
  unsigned timeout_ms = 60'000;
  std::string smt2_dir;  // empty: no SMT-LIB2 dump
};

struct SweepRequest {
  std::string vary;     // which parameter varies ("tau", "L", ...)
  std::string out_dir;  // where the CSV, PNG and JSON go
  std::string resolution, length_max, threshold;  // as given on the command line (empty: defaults)
  bool fast = false;    // --fast: the fast exact path (checkers/fast/), for sweeps at large L
  bool resume = false;  // --resume: continue an interrupted sweep from its checkpoint in out_dir
  std::string samples, seed;  // --samples, --seed of sampled sweeps (empty: defaults)
  std::string formats;        // --formats: floating-point formats to measure (fast copy sweep)
  bool min_bits = false;      // --min-bits: the fewest significand bits that copy (fast copy sweep)
};

// Throws UsageError naming the first sweep option that was given but that the sweep does not read (`read`: its
// options, e.g. {"--resolution"}; `sweep` names it, e.g. "sweep count3 --vary values"), so that no option is
// silently ignored.
void reject_unread_sweep_options(const SweepRequest& request, const std::string& sweep, const std::vector<std::string>& read);

struct ClaimSpec {
  std::string id;          // stable: "copy.alg1"
  std::string section;     // where the paper states it
  std::string statement;   // the paper's wording
  std::string checked;     // what tverify checks, precisely, and on which domain
  std::vector<std::string> params;
  bool proof_only = false;  // established by `tverify prove` (Z3), not by enumeration
};

class Construction {
 public:
  virtual ~Construction() = default;
  virtual std::string name() const = 0;
  virtual std::string paper() const = 0;
  virtual std::vector<ParamSpec> params() const = 0;
  virtual std::vector<std::string> variants() const = 0;  // the first is the default ("paper")
  virtual const std::vector<ClaimSpec>& claims() const = 0;

  // Checks the given claims (all when empty) on the construction's domain for these parameters.
  virtual CheckReport check(const ParamValues& params, const std::string& variant,
                            const std::vector<std::string>& claim_ids, const RunOptions& options) const = 0;

  // Proves the given claims (all proof claims when empty) with Z3. Default: the construction has none.
  virtual CheckReport prove(const ParamValues& params, const std::string& variant,
                            const std::vector<std::string>& claim_ids, const ProofOptions& options,
                            const RunOptions& run) const;

  // Runs a sweep and writes its files; returns the summary. Default: the construction has none.
  virtual Json sweep(const ParamValues& params, const std::string& variant, const SweepRequest& request,
                     const RunOptions& run) const;

  // Evaluates one input (tokens, comma-separated) and returns the text to print; with trace, every intermediate block;
  // with bits > 0, also in floating point of that many bits (a measurement).
  virtual std::string eval(const ParamValues& params, const std::string& variant, const std::string& input,
                           bool trace, long bits) const = 0;

  const ClaimSpec& claim(const std::string& id) const;  // throws UsageError naming the known ids

 protected:
  // A report of this construction with its verb ("check" or "prove"), variant, parameters and options filled in.
  CheckReport new_report(const std::string& verb, const ParamValues& params, const std::string& variant,
                         Json options) const;
};

// A claim result with the spec's id and statement filled in.
ClaimResult result_for(const ClaimSpec& spec);

const std::vector<std::unique_ptr<Construction>>& all_constructions();
// Throws UsageError naming the available constructions.
const Construction& find_construction(const std::string& name);

}  // namespace tverify
