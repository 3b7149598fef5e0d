// Other programs run by tverify (gnuplot, pdflatex in the tests, cvc5 for prove --cross-check): found on PATH, started
// with posix_spawn and an argument vector, never through a shell, fed their standard input from a string.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tverify {

// The absolute path of the executable file `program` on PATH, if there is one.
std::optional<std::string> find_program(const std::string& program);

struct ProgramRun {
  bool started = false;    // found on PATH and spawned
  bool exited = false;     // exited by itself (not by a signal, not killed at the time limit)
  int exit_code = -1;      // when exited
  bool timed_out = false;  // killed at the time limit
  std::string output;      // its standard output, when captured
};

struct ProgramCall {
  std::string program;
  std::vector<std::string> args;
  std::string cwd = ".";        // the folder it runs in (the program is found on PATH before the change)
  std::string input;            // its standard input
  bool capture_output = false;  // else its standard output is discarded; its standard error always is
  std::optional<std::chrono::milliseconds> limit{};  // killed (SIGKILL) when it runs longer
  std::function<bool()> stop{};  // looked at every 100 ms while it runs: true kills it (SIGKILL), as a time limit
};

ProgramRun run_program(const ProgramCall& call);

// Runs `program` with `args` in folder `cwd`, its standard input fed from `input`, its output discarded. Returns
// whether it ran and exited 0.
bool run_program(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
                 const std::string& input);

}  // namespace tverify
