// Tables of certificates for a write-up. PerClaim: one row per claim result (construction, parameters, domain size,
// counts, verdict, summary). PerCertificate ("--wide"): one row per certificate, one column per claim (and reading).
// A sweep's certificate gets its own table after them: a line naming the sweep with its summary, one row per probe.
#pragma once

#include "checkers/verdict.hpp"

#include <string>
#include <vector>

namespace tverify {

enum class TableFormat { Markdown, Latex };
enum class TableLayout { PerClaim, PerCertificate };

std::string certificates_table(const std::vector<Json>& certificates, TableFormat format,
                               TableLayout layout = TableLayout::PerClaim);

}  // namespace tverify
