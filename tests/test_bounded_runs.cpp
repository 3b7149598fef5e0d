// Every run is bounded before it starts: parameters whose cost cannot finish are refused inside the advertised
// ranges (or the ranges say where they stop), and eval's input obeys the bounds of check. Each refusal is one line,
// exit 2, nothing on stdout.
#include "checkers/model/loaded_model.hpp"
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

tverify::testing::CliResult run_cli(const std::vector<std::string>& args) {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-bounded-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return tverify::testing::run_tverify(args, dir, dir, 60);
}

void expect_refusal(const std::vector<std::string>& args, const std::string& must_mention) {
  const auto r = run_cli(args);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find(must_mention) != std::string::npos);
}

// `count` tokens 0,1,0,1,...
std::string tokens(int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += (i ? "," : "") + std::to_string(i % 2);
  return out;
}

}  // namespace

TEST_CASE("bounded runs: eval's input obeys check's length bound", "[cli][bounds]") {
  expect_refusal({"eval", "copy", "--input", tokens(4097)}, "--input has 4097 tokens; eval copy takes at most 4096");
  expect_refusal({"eval", "count3", "--input", tokens(65)}, "eval count3 takes at most 64, the largest --n");
  expect_refusal({"eval", "cat", "--input", tokens(65)}, "eval cat takes at most 64, the largest --L");
  CHECK(run_cli({"eval", "count3", "--input", tokens(64)}).exit_code == 0);
}

TEST_CASE("bounded runs: the copy transformer holds at most 2^20 weights", "[cli][bounds]") {
  // Layer 1's MLP has (n d)^2 weights: D = n = 64 took gigabytes before the first input.
  expect_refusal({"check", "copy", "--D", "64", "--n", "64", "--L", "2"}, "tverify builds at most 1048576");
  expect_refusal({"eval", "copy", "--D", "64", "--n", "64", "--input", "0"}, "tverify builds at most 1048576");
}

TEST_CASE("bounded runs: CAT's c and filter entries are bounded like other numbers", "[cli][bounds]") {
  expect_refusal({"export", "cat", "--c", "1e999999", "--onnx", "x.onnx"}, "--c");
  expect_refusal({"eval", "cat", "--filter", "1e-999999,1", "--input", "0,1,0"}, "[1e-1000, 1e1000]");
  expect_refusal({"check", "cat", "--filter", "1e999999"}, "[1e-1000, 1e1000]");
  expect_refusal({"check", "cat", "--embedding", "stereo", "--dim", "9"}, "--dim must be an integer in [2, 8]");
}

TEST_CASE("bounded runs: a probability below the double range is computed, not an internal error", "[cli][bounds]") {
  const auto r = run_cli({"check", "markov", "--p", "1e-400", "--N", "2"});
  INFO(r.err);
  CHECK(r.exit_code != 4);
  CHECK(r.exit_code >= 0);
}

TEST_CASE("bounded runs: a model's interval weights are converted to a rung only when an input reaches it",
          "[model][bounds]") {
  // attention_alibi has a softmax: its weights go up the interval ladder. Loading converts the first rung only
  // (which refuses a weight no rung holds); the 16,384-bit copy, 4 KiB per weight, exists once asked for.
  const auto model =
      tverify::model::load_model(std::string(TVERIFY_SOURCE_DIR) + "/tests/models/attention_alibi.onnx", std::nullopt);
  REQUIRE_FALSE(model.graph.rational);
  CHECK(model.rung_converted<256>());
  CHECK_FALSE(model.rung_converted<1024>());
  CHECK_FALSE(model.rung_converted<16384>());
  const auto& top = model.rung_weights<16384>();
  CHECK(model.rung_converted<16384>());
  CHECK(&top == &model.rung_weights<16384>());  // converted once
  CHECK_FALSE(model.rung_converted<4096>());
}
