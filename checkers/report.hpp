// Tables of certificates for a write-up: one row per claim result, with construction, parameters, domain size and
// verdict.
#pragma once

#include "checkers/verdict.hpp"

#include <string>
#include <vector>

namespace tverify {

enum class TableFormat { Markdown, Latex };

std::string certificates_table(const std::vector<Json>& certificates, TableFormat format);

}  // namespace tverify
