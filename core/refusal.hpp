// Why an evaluator cannot run a configuration within its limits (weights it cannot represent exactly, an integer
// that could overflow, memory): a reason in words that name no command-line option, or nullopt when it can run.
// Evaluators return it and never throw for it; the command that called one turns the reason into a usage error naming
// its own options.
#pragma once

#include <optional>
#include <string>

namespace tverify {

using Refusal = std::optional<std::string>;

}  // namespace tverify
