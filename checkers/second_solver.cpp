#include "checkers/second_solver.hpp"

#include "io/errors.hpp"
#include "checkers/programs.hpp"

#include <chrono>
#include <sstream>
#include <utility>

namespace tverify {
namespace {

// "cvc5 1.0.3", from the word after "version" in `cvc5 --version` ("This is cvc5 version 1.0.3 [git ...]").
std::string cvc5_version() {
  static const std::string version = [] {
    ProgramCall call{"cvc5", {"--version"}};
    call.capture_output = true;
    call.limit = std::chrono::seconds(10);
    std::istringstream words(run_program(call).output);
    std::string word;
    while (words >> word)
      if (word == "version" && words >> word) return "cvc5 " + word;
    return std::string("cvc5");
  }();
  return version;
}

// The first line of cvc5's output that is an answer ("unsat", "sat", "unknown"), or else its first line.
std::pair<bool, std::string> answer_line(const std::string& output) {
  std::istringstream lines(output);
  std::string line, first;
  while (std::getline(lines, line)) {
    if (line == "unsat" || line == "sat" || line == "unknown") return {true, line};
    if (first.empty()) first = line;
  }
  return {false, first};
}

}  // namespace

void require_cvc5() {
  if (!find_program("cvc5"))
    throw UsageError(
        "--cross-check runs each query through cvc5 as well, and no cvc5 executable is on PATH (install the Debian "
        "package cvc5; scripts/setup does)");
}

proofs::SecondAnswer ask_cvc5(const std::string& smt2, unsigned timeout_ms, const std::function<bool()>& stopped) {
  const std::string solver = cvc5_version();  // before the clock starts: it runs cvc5 once per process
  ProgramCall call{"cvc5", {"--lang=smt2", "--tlimit=" + std::to_string(timeout_ms)}};
  call.input = "(set-logic ALL)\n" + smt2;
  call.capture_output = true;
  call.limit = std::chrono::milliseconds(timeout_ms) + std::chrono::seconds(5);
  call.stop = stopped;
  const auto start = std::chrono::steady_clock::now();
  const ProgramRun run = run_program(call);
  proofs::SecondAnswer answer{solver, "error", "", 0};
  answer.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto [answered, line] = answer_line(run.output);
  if (!run.started) {
    answer.detail = "cvc5 could not be started";
  } else if (answered) {
    answer.answer = line;
  } else if (run.timed_out || (line.empty() && answer.seconds * 1000 >= timeout_ms)) {
    answer.answer = "timeout";  // --tlimit ends cvc5 by abort(), with nothing on its output
  } else {
    answer.detail = line.empty() ? "no answer (exit code " + std::to_string(run.exit_code) + ")" : line;
  }
  return answer;
}

}  // namespace tverify
