// checkers/programs: other programs run without a shell, fed and read through pipes without either side waiting on a
// full one, and stopped at a time limit or when the caller asks.
#include "checkers/programs.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>

using namespace tverify;

TEST_CASE("programs: a megabyte goes through cat and comes back whole", "[programs]") {
  std::string input;
  for (int i = 0; i < 100'000; ++i) input += "line " + std::to_string(i) + "\n";  // about 1 MB, past any pipe
  ProgramCall call{"cat", {}};
  call.input = input;
  call.capture_output = true;
  call.limit = std::chrono::seconds(30);
  const ProgramRun run = run_program(call);
  CHECK(run.started);
  CHECK(run.exited);
  CHECK(run.exit_code == 0);
  CHECK(run.output == input);
}

TEST_CASE("programs: a time limit or a caller's stop kills the program", "[programs]") {
  ProgramCall slow{"sleep", {"30"}};
  slow.limit = std::chrono::milliseconds(300);
  auto start = std::chrono::steady_clock::now();
  ProgramRun run = run_program(slow);
  CHECK(run.timed_out);
  CHECK_FALSE(run.exited);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  ProgramCall stopped{"sleep", {"30"}};
  stopped.capture_output = true;
  std::atomic<int> looks{0};
  stopped.stop = [&] { return ++looks > 3; };  // asked to stop at the fourth look, about 300 ms in
  start = std::chrono::steady_clock::now();
  run = run_program(stopped);
  CHECK(run.timed_out);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK_FALSE(run_program(ProgramCall{"no-such-program-tverify", {}}).started);
  CHECK_FALSE(run_program("false", {}, ".", ""));
  CHECK(run_program("true", {}, ".", ""));
}
