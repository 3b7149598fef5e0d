// The one place that knows every construction: `tverify list`, the CLI's subcommands and certificates find them here.
#pragma once

#include "checkers/construction.hpp"

#include <memory>
#include <string>
#include <vector>

namespace tverify {

const std::vector<std::unique_ptr<Construction>>& all_constructions();
// Throws UsageError naming the available constructions.
const Construction& find_construction(const std::string& name);

}  // namespace tverify
