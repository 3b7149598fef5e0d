#include "checkers/second_solver.hpp"

#include "checkers/errors.hpp"
#include "checkers/programs.hpp"

#include <chrono>
#include <sstream>

namespace tverify {
namespace {

// "cvc5 1.0.3", from the first line of `cvc5 --version` ("This is cvc5 version 1.0.3").
std::string cvc5_version() {
  static const std::string version = [] {
    ProgramCall call{"cvc5", {"--version"}};
    call.capture_output = true;
    call.limit = std::chrono::seconds(10);
    const ProgramRun run = run_program(call);
    const std::string first = run.output.substr(0, run.output.find('\n'));
    const auto at = first.rfind(' ');
    return "cvc5" + (at == std::string::npos ? std::string() : " " + first.substr(at + 1));
  }();
  return version;
}

// The first line of cvc5's output, and the rest (an error's text).
std::pair<std::string, std::string> first_line(const std::string& output) {
  const auto end = output.find('\n');
  return {output.substr(0, end), end == std::string::npos ? std::string() : output.substr(end + 1)};
}

}  // namespace

void require_cvc5() {
  if (!find_program("cvc5"))
    throw UsageError(
        "--cross-check runs each query through cvc5 as well, and no cvc5 executable is on PATH (install the Debian "
        "package cvc5; scripts/setup does)");
}

proofs::SecondAnswer ask_cvc5(const std::string& smt2, unsigned timeout_ms) {
  ProgramCall call{"cvc5", {"--lang=smt2", "--tlimit=" + std::to_string(timeout_ms)}};
  call.input = "(set-logic ALL)\n" + smt2;
  call.capture_output = true;
  call.limit = std::chrono::milliseconds(timeout_ms) + std::chrono::seconds(5);
  const auto start = std::chrono::steady_clock::now();
  const ProgramRun run = run_program(call);
  proofs::SecondAnswer answer{cvc5_version(), "error", "", 0};
  answer.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto [line, rest] = first_line(run.output);
  if (!run.started) {
    answer.detail = "cvc5 could not be started";
  } else if (line == "unsat" || line == "sat") {
    answer.answer = line;
  } else if (line == "unknown") {
    answer.answer = "unknown";
  } else if (run.timed_out || (run.output.empty() && answer.seconds * 1000 >= timeout_ms)) {
    answer.answer = "timeout";
  } else {
    answer.detail = line.empty() ? "no answer (exit code " + std::to_string(run.exit_code) + ")" : line;
  }
  return answer;
}

}  // namespace tverify
