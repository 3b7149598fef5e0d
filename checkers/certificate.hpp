// Certificates (format in docs/certificate.md): the JSON record of one check run that `recheck` re-runs and compares
// field by field, and `report` tabulates. Writing is atomic (io/files.hpp), so a failed run leaves no partial
// certificate and never clobbers an existing one.
#pragma once

#include "checkers/verdict.hpp"

#include <map>
#include <string>
#include <vector>

namespace tverify {

// The certificate format this tverify writes and reads (`format_version`); a certificate without the field is read
// as this format.
inline constexpr int certificate_format_version = 1;

Json claim_to_json(const ClaimResult& claim);
Json certificate_json(const CheckReport& report, const std::string& command);

// What a sweep certificate says of its command: the build, the libraries, the command line, and the request itself
// (construction, variant, parameters, --vary, --fast and the sweep's options as given, --resume left out: it
// changes no result).
Json sweep_certificate_header(const std::string& command, const std::string& construction, const std::string& variant,
                              const Json& params, const std::string& vary, bool fast,
                              const std::map<std::string, std::string>& options);
// A sweep's certificate: the header, which of the sweep's outputs this is (`output`, the files' name), the sweep's
// summary and every probe (the CSV's columns and rows).
Json sweep_certificate(const Json& header, const std::string& output, const Json& summary,
                       const std::vector<std::string>& columns, const std::vector<std::vector<std::string>>& rows);

// Throws UsageError when `path` cannot be written (missing directory, a directory, no permission). Creates nothing.
void ensure_writable(const std::string& path);
void write_json_atomically(const std::string& path, const Json& json);

// Reads and validates a certificate. Throws UsageError naming the file and the field for a missing, unreadable,
// truncated, too deeply nested or non-JSON file, one from another tool, or one whose fields have the wrong type or
// range (counts are whole numbers, verdicts one of the three, parameters strings, whole numbers or booleans); and a
// sweep's certificate whose folder holds files its manifest does not list as they are (checkers/file_manifest.hpp).
Json load_certificate(const std::string& path);
Json validated_certificate(const Json& certificate, const std::string& what);

// A JSON value as text: a string as it is, anything else as its JSON.
std::string json_text(const Json& value);

// One field that differs between a stored certificate and a fresh run of its command: its path ("domain.inputs",
// "claims: copy.alg1.failed"), and both values as short text ("absent" for a missing field or claim).
struct CertificateDifference {
  std::string field, stored, now;
};
// Every field but those that differ between runs by design (timings, version, commit, command, Z3 dump paths);
// claims are matched by id and reading, so a deleted or added claim is a difference.
std::vector<CertificateDifference> compare_certificates(const Json& stored, const Json& fresh);

}  // namespace tverify
