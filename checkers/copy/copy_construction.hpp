// The copy construction of Repeat After Me (Jelassi et al., arXiv 2402.01032) as the CLI sees it.
#pragma once

#include "checkers/construction.hpp"

namespace tverify::copy {

class CopyConstruction final : public Construction {
 public:
  std::string name() const override { return "copy"; }
  std::string paper() const override;
  std::vector<ParamSpec> params() const override;
  std::vector<VariantSpec> variants() const override;
  const std::vector<ClaimSpec>& claims() const override;
  std::vector<SweepSpec> sweeps() const override;
  bool evaluates_in_floating_point() const override { return true; }
  std::string eval(const ParamValues& params, const std::string& variant, const std::string& input, bool trace,
                   long bits) const override;

 protected:
  void check_claims(const ParamValues& params, const std::string& variant, const std::vector<std::string>& ids,
                    const RunOptions& options, CheckReport& report) const override;
  void prove_claims(const ParamValues& params, const std::string& variant, const std::vector<std::string>& ids,
                    const ProofOptions& options, const RunOptions& run, CheckReport& report) const override;
  Json run_sweep(const ParamValues& params, const std::string& variant, const SweepRun& sweep,
                 const RunOptions& run) const override;

 private:
  Json sweep_fast(const ParamValues& params, const std::string& variant, const SweepRun& sweep,
                  const RunOptions& run) const;
};

}  // namespace tverify::copy
