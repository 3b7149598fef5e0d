// ENTP's Count3 and the encoder/decoder theorems, as a construction of the CLI: `tverify check count3`,
// `prove count3`, `sweep count3`, `eval count3`.
#pragma once

#include "checkers/construction.hpp"

namespace tverify::count3 {

class Count3Construction : public Construction {
 public:
  std::string name() const override { return "count3"; }
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

}  // namespace tverify::count3
