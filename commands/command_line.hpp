// The command line a certificate records, as a POSIX shell writes and reads it: the CLI quotes each word of its argv
// (the Python package does the same with shlex.join), and recheck splits the recorded line back into words.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tverify {

// The word as it is when it holds only characters a shell leaves alone (letters, digits, @%+=:,./-_), else in single
// quotes, each ' inside written '\''.
std::string shell_quoted(const std::string& word);

// The words of a command line as a POSIX shell splits it: '...' literal, "..." with \ escaping only \ " $ ` and
// newline, a \ outside quotes escaping the next character, adjacent pieces joined into one word; nullopt for an
// unclosed quote or a trailing backslash.
std::optional<std::vector<std::string>> shell_words(const std::string& line);

}  // namespace tverify
