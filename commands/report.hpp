// Tables of certificates for a write-up (commands/table_render.hpp renders them). PerClaim: one row per claim result
// (construction, parameters, domain size, counts, verdict, summary). PerCertificate ("--wide"): one row per
// certificate, one column per claim (and reading). Sweep certificates get tables of their own after them: with
// PerClaim one per certificate, captioned with the sweep and its summary, one row per probe; with PerCertificate one
// per kind of sweep (construction, --vary, --fast), one row per certificate: its parameters and its summary's
// numbers. `columns`, when not empty, keeps only the named columns (a table with none of them is left out); a name
// that is no column is a UsageError listing the columns.
#pragma once

#include "checkers/verdict.hpp"

#include <string>
#include <vector>

namespace tverify {

enum class TableFormat { Markdown, Latex, LatexTwoColumn };
enum class TableLayout { PerClaim, PerCertificate };

std::string certificates_table(const std::vector<Json>& certificates, TableFormat format,
                               TableLayout layout = TableLayout::PerClaim,
                               const std::vector<std::string>& columns = {});

}  // namespace tverify
