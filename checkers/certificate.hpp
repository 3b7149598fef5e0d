// Certificates (GUIDE.md §3; format in docs/certificate.md): the JSON record of one check run that `recheck` re-runs
// and `report` tabulates. Writing is atomic (a temporary file renamed into place), so a failed run leaves no partial
// certificate and never clobbers an existing one.
#pragma once

#include "checkers/verdict.hpp"

#include <string>
#include <vector>

namespace tverify {

Json claim_to_json(const ClaimResult& claim);
Json certificate_json(const CheckReport& report, const std::string& command);

// Throws UsageError when `path` cannot be written (missing directory, a directory, no permission). Creates nothing.
void ensure_writable(const std::string& path);
void write_json_atomically(const std::string& path, const Json& json);

// Reads and validates a certificate. Throws UsageError for a missing, truncated or non-JSON file, one from another
// tool, or one missing the fields recheck needs.
Json load_certificate(const std::string& path);

}  // namespace tverify
