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
  std::vector<VariantSpec> variants() const override;
  const std::vector<ClaimSpec>& claims() const override;
  std::vector<SweepSpec> sweeps() const override;
  std::string eval(const ParamValues& params, const std::string& variant, const std::string& input, bool trace,
                   long bits) const override;

 protected:
  void check_claims(const ParamValues& params, const std::string& variant, const std::vector<std::string>& ids,
                    const RunOptions& options, CheckReport& report) const override;
  Json run_sweep(const ParamValues& params, const std::string& variant, const SweepRun& sweep,
                 const RunOptions& run) const override;
};

// Validates the parameters (UsageError naming the parameter and its range) and builds the layer and its numbers.
CatSetup make_setup(const ParamValues& params, const std::string& variant);

}  // namespace tverify::cat
