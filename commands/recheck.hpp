// `tverify recheck` and `report` read a certificate as a command line: its construction, variant, parameters and
// claim ids are validated as the CLI would validate them, and recheck re-runs that command and compares every field
// it can reproduce (compare_certificates).
#pragma once

#include "checkers/certificate.hpp"
#include "checkers/construction.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tverify {

// The claims the certificate's command asked for (every claim when it named none), each once; a certificate without
// the record asks for the claims it holds.
std::vector<std::string> requested_claims_of(const Json& certificate);

// The command a certificate records, validated: a known construction and variant, parameters in range, known claim
// ids. Throws UsageError naming the certificate (`path`).
struct CertificateCommand {
  const Construction& construction;
  ParamValues params;
  std::string variant;
};
CertificateCommand certificate_command(const Json& certificate, const std::string& path);

struct RecheckResult {
  std::vector<CertificateDifference> differences;   // empty: reproduced
  std::size_t claim_results = 0;                    // in the fresh run (a sweep's: its probes)
  std::optional<std::string> made_at_other_commit;  // the certificate's commit, when it is not this build's
  std::string counted = "claim results";            // what claim_results counts
};
// Re-runs the certificate's command (with its counterexample limit and Z3 timeout; threads from `options`). A sweep
// certificate's command runs into a temporary folder, and the certificate of the same output is compared, its
// probes' timings aside.
RecheckResult recheck_certificate(const Json& certificate, const std::string& path, RunOptions options);

}  // namespace tverify
