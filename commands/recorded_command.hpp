// The command line a certificate records, read back as the CLI reads it: `tverify VERB CONSTRUCTION --option value
// ...`. recheck runs what this says, not what the certificate's other fields say, so that a certificate edited by
// hand (a claim deleted, counterexamples trimmed with their limit) does not reproduce.
//
// The options a verb reads besides a construction's parameters are declared once here (run_options_of); the CLI
// declares the same names, and tests/test_recorded_command.cpp holds the two together.
#pragma once

#include "checkers/construction.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace tverify {

// One option of a verb that is no parameter of the construction: its name (no dashes), whether it is a flag, and
// for a whole number its inclusive range (a text option has min > max).
struct RunOptionSpec {
  std::string name;
  bool flag = false;
  long long min = 1, max = 0;
  bool repeatable = false;  // --claim
};

// The options `tverify VERB CONSTRUCTION` takes besides the construction's parameters (and, for sweep, its sweeps'
// options).
std::vector<RunOptionSpec> run_options_of(const std::string& verb, const Construction& c);

// The ranges of the limits every run takes (the CLI and recheck read them here).
inline constexpr long long max_threads = 256;
inline constexpr long long max_max_inputs = 1'000'000'000'000'000;
inline constexpr long long max_max_counterexamples = 100'000;
inline constexpr std::size_t default_max_counterexamples = 10;
inline constexpr unsigned default_timeout_ms = 60'000;

struct RecordedCommand {
  std::map<std::string, std::string> params;  // the construction's parameters as given; flags as "true"
  std::string variant;                        // empty: the default
  std::vector<std::string> claims;            // --claim, each once, in order; empty: every claim the verb decides
  std::size_t max_counterexamples = default_max_counterexamples;
  bool max_counterexamples_given = false;
  unsigned timeout_ms = default_timeout_ms;  // prove's --timeout-s
  bool cross_check = false;                  // prove's --cross-check
  std::string vary;                          // sweep's --vary, --fast and its options
  bool fast = false;
  std::map<std::string, std::string> sweep_options;
};

// The command `line` as `tverify verb <c.name()> ...`, or why it is not one: a word the CLI would refuse, an option
// that command does not have, a value out of its range, or another verb or construction.
std::variant<RecordedCommand, std::string> read_recorded_command(const std::string& line, const std::string& verb,
                                                                 const Construction& c);

}  // namespace tverify
