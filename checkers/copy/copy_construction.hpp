// The copy construction of Repeat After Me (Jelassi et al., arXiv 2402.01032) as the CLI sees it.
#pragma once

#include "checkers/construction.hpp"

namespace tverify::copy {

class CopyConstruction final : public Construction {
 public:
  std::string name() const override { return "copy"; }
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

 private:
  Json sweep_fast(const ParamValues& params, const std::string& variant, const SweepRequest& request,
                  const RunOptions& run) const;
};

}  // namespace tverify::copy
