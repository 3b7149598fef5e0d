// The JSON type of every file tverify reads or writes: objects keep their keys in the order they were written, so a
// certificate prints its fields in the order its writer gives them.
#pragma once

#include <nlohmann/json.hpp>

namespace tverify {

using Json = nlohmann::ordered_json;

}  // namespace tverify
