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
};

}  // namespace tverify::count3
