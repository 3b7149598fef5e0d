// Attention with Markov as a construction of the CLI: `tverify check markov`, `prove markov`, `sweep markov`,
// `eval markov`.
#pragma once

#include "checkers/markov/markov_claims.hpp"

namespace tverify::markov {

class MarkovConstruction : public Construction {
 public:
  std::string name() const override { return "markov"; }
  std::string paper() const override;
  std::vector<ParamSpec> params() const override;
  std::vector<VariantSpec> variants() const override;
  const std::vector<ClaimSpec>& claims() const override;
  std::vector<SweepSpec> sweeps() const override;
  std::string eval(const ParamValues& params, const std::string& variant, const std::string& input, bool trace,
                   long bits) const override;

 protected:
  void check_claims(const ParamValues& params, const std::string& variant, const std::vector<std::string>& ids,
                    const RunOptions& options, CheckReport& report) const override;
  void prove_claims(const ParamValues& params, const std::string& variant, const std::vector<std::string>& ids,
                    const ProofOptions& options, const RunOptions& run, CheckReport& report) const override;
  Json run_sweep(const ParamValues& params, const std::string& variant, const SweepRun& sweep,
                 const RunOptions& run) const override;
  Json check_report_options(const RunOptions&) const override { return Json::object(); }  // no counterexample lists
};

// Validates the parameters (UsageError naming the parameter and its range).
MarkovSetup make_setup(const ParamValues& params, const std::string& variant, const RunOptions& run);

}  // namespace tverify::markov
