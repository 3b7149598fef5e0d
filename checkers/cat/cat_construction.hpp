// The CAT layer of Theorem 1 / Corollary 1 as a construction of the CLI: `tverify check cat`, `sweep cat`,
// `eval cat`.
#pragma once

#include "checkers/cat/cat_claims.hpp"
#include "checkers/construction.hpp"

namespace tverify::cat {

class CatConstruction : public Construction {
 public:
  std::string name() const override { return "cat"; }
  std::string paper() const override;
  std::vector<ParamSpec> params() const override;
  std::vector<std::string> variants() const override;
  const std::vector<ClaimSpec>& claims() const override;
  CheckReport check(const ParamValues& params, const std::string& variant, const std::vector<std::string>& claim_ids,
                    const RunOptions& options) const override;
  Json sweep(const ParamValues& params, const std::string& variant, const SweepRequest& request,
             const RunOptions& run) const override;
  std::string eval(const ParamValues& params, const std::string& variant, const std::string& input, bool trace,
                   long bits) const override;
};

// Validates the parameters (UsageError naming the parameter and its range) and builds the layer and its numbers.
CatSetup make_setup(const ParamValues& params, const std::string& variant);

}  // namespace tverify::cat
