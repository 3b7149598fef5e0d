// Text output of the CLI: what a researcher reads on the terminal. Certificates carry the full record.
#pragma once

#include "checkers/registry.hpp"

#include <string>

namespace tverify::cli {

std::string format_report(const CheckReport& report);
std::string format_construction_list();
std::string format_construction(const Construction& c);

}  // namespace tverify::cli
