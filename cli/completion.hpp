// `tverify completion bash|zsh`: a shell completion script generated from the parsed CLI itself, so that it offers
// exactly the verbs, constructions and options each command accepts (the same declarations --help lists), and files
// or folders after an option whose value is a FILE or a DIR.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace tverify::cli {

// The script for `shell` ("bash" or "zsh"; UsageError otherwise). zsh's is bash's under bashcompinit.
std::string completion_script(const CLI::App& app, const std::string& shell);

}  // namespace tverify::cli
