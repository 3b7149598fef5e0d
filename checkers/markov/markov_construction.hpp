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
  std::vector<std::string> variants() const override { return {"paper", "corrected"}; }
  const std::vector<ClaimSpec>& claims() const override;
  CheckReport check(const ParamValues& params, const std::string& variant, const std::vector<std::string>& claim_ids,
                    const RunOptions& options) const override;
  CheckReport prove(const ParamValues& params, const std::string& variant, const std::vector<std::string>& claim_ids,
                    const ProofOptions& options, const RunOptions& run) const override;
  Json sweep(const ParamValues& params, const std::string& variant, const SweepRequest& request,
             const RunOptions& run) const override;
  std::string eval(const ParamValues& params, const std::string& variant, const std::string& input, bool trace,
                   long bits) const override;
};

// Validates the parameters (UsageError naming the parameter and its range).
MarkovSetup make_setup(const ParamValues& params, const std::string& variant, const RunOptions& run);

}  // namespace tverify::markov
