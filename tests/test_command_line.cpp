// The recorded command line: the CLI's quoting and Python's shlex.join read back word for word, as a shell would.
#include "commands/command_line.hpp"

#include <catch2/catch.hpp>

using namespace tverify;
using Words = std::vector<std::string>;

TEST_CASE("command lines: every word quoted by the CLI reads back as it was", "[command-line]") {
  const Words words{"tverify", "check", "model", "--onnx", "a b/it's/q\"d/new\nline/back\\slash/$HOME/`x`.onnx",
                    "--tau",   "7/2",   "--L=4", ""};
  std::string line;
  for (const auto& w : words) line += (line.empty() ? "" : " ") + shell_quoted(w);
  CHECK(shell_quoted("7/2") == "7/2");
  CHECK(shell_quoted("it's") == "'it'\\''s'");
  CHECK(shell_quoted("") == "''");
  CHECK(shell_words(line) == Words(words));
}

TEST_CASE("command lines: Python's shlex.join and a shell's other quotes read back", "[command-line]") {
  // shlex.join(["tverify", "check", "model", "--onnx", "a b/it's/q\"d/new\nline/back\\slash.onnx"]), by Python 3.11
  CHECK(shell_words("tverify check model --onnx 'a b/it'\"'\"'s/q\"d/new\nline/back\\slash.onnx'") ==
        Words{"tverify", "check", "model", "--onnx", "a b/it's/q\"d/new\nline/back\\slash.onnx"});
  // Inside "...", a backslash escapes only \ " $ ` (and newline); outside quotes, any character.
  CHECK(shell_words("\"a\\\"b\\\\c\\d\" e\\ f g\\\\h") == Words{"a\"b\\c\\d", "e f", "g\\h"});
  CHECK(shell_words("  --D   2\t--n 3 ") == Words{"--D", "2", "--n", "3"});
  CHECK(shell_words("") == Words{});
  CHECK_FALSE(shell_words("'unclosed").has_value());
  CHECK_FALSE(shell_words("\"unclosed").has_value());
  CHECK_FALSE(shell_words("trailing\\").has_value());
}
