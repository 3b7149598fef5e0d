// An option a run does not read is refused (exit 2, one line naming it), never accepted and ignored, and never
// recorded in a certificate as if it had been used. The cases are the options a hostile-input campaign found
// accepted and ignored; each one read elsewhere is shown still accepted there.
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

tverify::testing::CliResult run_cli(const std::vector<std::string>& args) {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-unread-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return tverify::testing::run_tverify(args, dir, dir, 120);
}

}  // namespace

TEST_CASE("unread options: each verb refuses the parameters it does not read", "[cli][options]") {
  const std::vector<std::vector<std::string>> refused{
      {"eval", "copy", "--input", "0,1", "--L", "5"},
      {"eval", "copy", "--input", "0,1", "--S", "3"},
      {"eval", "copy", "--input", "0,1", "--reading", "text"},
      {"eval", "count3", "--input", "1,2", "--n", "3"},
      {"eval", "count3", "--input", "1,2", "--values", "0:3"},
      {"eval", "count3", "--input", "1,2", "--distribution", "experiment"},
      {"eval", "count3", "--input", "1,2", "--samples", "5"},
      {"eval", "count3", "--input", "1,2", "--seed", "5"},
      {"eval", "cat", "--input", "0,1,0", "--c", "3", "--L", "5"},
      {"eval", "cat", "--input", "0,1,0", "--samples", "5"},
      {"eval", "cat", "--input", "0,1,0", "--seed", "5"},
      {"eval", "cat", "--input", "0,1,0", "--dim", "4"},
      {"eval", "markov", "--input", "0,1", "--samples", "2"},
      {"eval", "model", "--onnx", "m.onnx", "--input", "0", "--lengths", "1:2"},
      {"eval", "model", "--onnx", "m.onnx", "--input", "0", "--decode", "last"},
      {"eval", "model", "--onnx", "m.onnx", "--input", "0", "--seed", "2"},
      {"export", "cat", "--dim", "4", "--onnx", "x.onnx"},
      {"check", "count3", "--program", "alg4"},
      {"check", "cat", "--dim", "4"},
      {"check", "model", "--onnx", "m.onnx", "--task", "reverse", "--V", "2", "--seed", "3"},
      {"check", "model", "--onnx", "m.onnx", "--expected", "e.jsonl", "--V", "3"},
      {"check", "model", "--onnx", "m.onnx", "--expected", "e.jsonl", "--lengths", "5:9"},
      {"sweep", "copy", "--vary", "L", "--L", "5", "--out", "o"},
      {"sweep", "copy", "--vary", "L", "--S", "5", "--out", "o"},
      {"sweep", "copy", "--vary", "tau", "--tau", "3", "--out", "o"},
      {"sweep", "copy", "--vary", "tau", "--S", "3", "--out", "o"},
      {"sweep", "copy", "--fast", "--vary", "L=4:8:x2", "--L", "5", "--out", "o"},
      {"sweep", "copy", "--fast", "--vary", "L=4:8:x2", "--S", "5", "--out", "o"},
      {"sweep", "copy", "--fast", "--vary", "L=4:8:x2", "--reading", "text", "--out", "o"},
      {"sweep", "count3", "--vary", "values", "--values", "0:3", "--out", "o"},
      {"sweep", "count3", "--vary", "values", "--distribution", "experiment", "--out", "o"},
      {"sweep", "count3", "--vary", "values", "--samples", "5", "--out", "o"},
      {"sweep", "count3", "--vary", "values", "--seed", "5", "--out", "o"},
      {"sweep", "cat", "--vary", "L", "--samples", "5", "--out", "o"},
      {"sweep", "cat", "--vary", "c", "--seed", "5", "--out", "o"},
      {"sweep", "markov", "--vary", "pq", "--p", "1/3", "--out", "o"},
      {"sweep", "markov", "--vary", "pq", "--q", "1/3", "--out", "o"},
      {"sweep", "markov", "--vary", "pq", "--samples", "2", "--out", "o"},
      {"sweep", "model", "--vary", "lengths", "--onnx", "m.onnx", "--task", "reverse", "--V", "2", "--seed", "3",
       "--out", "o"},
      // A run option, not a parameter: only the model's sweep records counterexamples.
      {"sweep", "copy", "--fast", "--vary", "L=4:8:x2", "--max-counterexamples", "3", "--out", "o"},
      {"sweep", "count3", "--vary", "values", "--max-counterexamples", "3", "--out", "o"},
  };
  for (const auto& args : refused) {
    std::string line;
    for (const auto& a : args) line += a + " ";
    INFO(line);
    const auto r = run_cli(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("is not read by `tverify " + args[0] + " " + args[1]) != std::string::npos);
    CHECK(!std::filesystem::exists(std::filesystem::temp_directory_path() /
                                   ("tverify-unread-" + std::to_string(::getpid())) / "o"));
  }
}

TEST_CASE("unread options: a flag given an empty value is refused, not taken as the flag", "[cli][options]") {
  for (const std::string flag : {"--force=", "--progress="}) {
    const auto r = run_cli({"check", "count3", "--n", "2", flag});
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("is a flag and takes no value") != std::string::npos);
  }
}

TEST_CASE("unread options: where a verb reads an option, it is accepted", "[cli][options]") {
  CHECK(run_cli({"check", "cat", "--embedding", "stereo", "--dim", "3", "--L", "4", "--claim", "cat.signatures"})
            .exit_code != 2);
  CHECK(run_cli({"eval", "cat", "--embedding", "stereo", "--dim", "3", "--input", "0,1,0"}).exit_code == 0);
  CHECK(run_cli({"eval", "cat", "--L", "6", "--input", "0,1,0"}).exit_code == 0);  // --c auto counts L's keys
  CHECK(run_cli({"eval", "count3", "--input", "1,2", "--program", "alg4"}).exit_code == 0);
  CHECK(run_cli({"eval", "copy", "--input", "0,1", "--tau", "3"}).exit_code == 0);
  CHECK(run_cli({"eval", "markov", "--input", "0,1", "--N", "3"}).exit_code == 0);  // N sizes the positions
}
