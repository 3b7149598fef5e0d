// Every run is bounded before it starts: parameters whose cost cannot finish are refused inside the advertised
// ranges (or the ranges say where they stop), and eval's input obeys the bounds of check. Each refusal is one line,
// exit 2, nothing on stdout.
#include "io/files.hpp"
#include "checkers/model/engine_calls.hpp"
#include "cli_runner.hpp"
#include "model/onnx_writer.hpp"

#include <catch2/catch.hpp>

#include <fstream>
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
  const auto model = tverify::model::read_model_file(
      std::string(TVERIFY_SOURCE_DIR) + "/tests/models/attention_alibi.onnx", std::nullopt);
  REQUIRE_FALSE(model.graph.rational);
  CHECK(model.rung_converted<256>());
  CHECK_FALSE(model.rung_converted<1024>());
  CHECK_FALSE(model.rung_converted<16384>());
  const auto& top = model.rung_weights<16384>();
  CHECK(model.rung_converted<16384>());
  CHECK(&top == &model.rung_weights<16384>());  // converted once
  CHECK_FALSE(model.rung_converted<4096>());
}

namespace {

const std::string fixtures = std::string(TVERIFY_SOURCE_DIR) + "/tests/models/";
const std::string examples = std::string(TVERIFY_SOURCE_DIR) + "/examples/models/";

// The estimate a run would need, read from its refusal under the smallest budget: "... needs an estimated 40.2 MiB
// (42152345 bytes: ...".
std::uint64_t estimated_bytes(std::vector<std::string> args) {
  args.insert(args.end(), {"--max-memory", "1M"});
  const auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 2);
  const auto open = r.err.find(" ("), bytes = r.err.find(" bytes: ");
  REQUIRE(open != std::string::npos);
  REQUIRE(bytes != std::string::npos);
  return std::stoull(r.err.substr(open + 2, bytes - open - 2));
}

}  // namespace

TEST_CASE("bounded runs: --max-memory takes a size in bytes or K, M, G, T, from 1M to 1024T", "[cli][bounds]") {
  const std::vector<std::string> run{"check",     "model",   "--onnx",      fixtures + "reverse.onnx",
                                     "--task",    "reverse", "--V",         "2",
                                     "--lengths", "1:2",     "--max-memory"};
  auto with = [&](const std::string& size) {
    auto args = run;
    args.push_back(size);
    return args;
  };
  for (const std::string bad : {"0", "1023K", "12X", "-5", "4.5G", "1025T", "G", "99999999999999999999"})
    expect_refusal(with(bad), "--max-memory '" + bad + "' is no size");
  // 1 MiB is a budget no run fits; 8 GiB and more fit this one (under AddressSanitizer the process alone is 130 MiB).
  for (const std::string good : {"1024K", "8192M", "8g", "1024T", "1099511627776"}) {
    const auto r = run_cli(with(good));
    INFO(good << ": " << r.err);
    CHECK(r.exit_code == (good == "1024K" ? 2 : 0));
  }
}

TEST_CASE("bounded runs: a model check above --max-memory is refused, one line naming the estimate and the flag",
          "[cli][bounds][model]") {
  const std::vector<std::string> run{"check",     "model",   "--onnx",       fixtures + "reverse.onnx",
                                     "--task",    "reverse", "--V",          "2",
                                     "--lengths", "1:3",     "--max-memory", "8M"};
  expect_refusal(run, "above --max-memory 8.0 MiB; raise --max-memory or lower --lengths or run fewer --threads");
  // The other constructions are bounded by their parameters' ranges: the option is theirs to refuse, not to ignore.
  expect_refusal({"check", "copy", "--max-memory", "8G"}, "--max-memory");
  expect_refusal({"sweep", "count3", "--vary", "n", "--out", "x", "--max-memory", "8G"}, "--max-memory");
}

namespace {

// A rational model whose values are large: its one-hot tokens pick rows of a [2, width] embedding of thirds, and a
// chain of Mul and Add by constant rows makes `steps` more [seq, width] tensors of rationals of a few limbs each.
std::string wide_rational_model(const std::filesystem::path& dir, std::int64_t width, int steps) {
  tverify::model::OnnxWriter w("wide_rational");
  const std::string tokens = w.token_input("tokens");
  std::vector<tverify::Exact> rows, factors;
  for (std::int64_t i = 0; i < 2 * width; ++i) rows.emplace_back(i % 97 + 1, 3);
  for (std::int64_t i = 0; i < width; ++i) factors.emplace_back(i % 89 + 1, 7);
  const std::string embedding = w.rationals("E", {2, width}, rows), factor = w.rationals("F", {width}, factors);
  std::string x = w.node("Gather", {embedding, tokens}, {{"axis", std::int64_t{0}}});
  for (int s = 0; s < steps; ++s) x = w.node(s % 2 ? "Add" : "Mul", {x, factor});
  w.node("Identity", {x}, {}, "logits");
  w.output("logits", width);
  const auto path = dir / "wide_rational.onnx";
  tverify::write_file_atomically(path.string(), w.serialized());
  return path.string();
}

// Whether the run is refused under a budget of `bytes`: its estimate is above them.
bool refused_under(std::vector<std::string> args, std::uint64_t bytes) {
  args.insert(args.end(), {"--max-memory", std::to_string(bytes)});
  const auto r = run_cli(args);
  INFO(r.err);
  REQUIRE((r.exit_code != 2 || r.err.find("above --max-memory") != std::string::npos));
  return r.exit_code == 2;
}

}  // namespace

TEST_CASE("bounded runs: each model fixture's peak resident memory stays at most its estimate",
          "[model][bounds][heavy]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-memory-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string long_input = (dir / "long.jsonl").string();
  {
    std::ofstream out(long_input);
    out << "{\"input\": [" << tokens(64) << "], \"output\": [" << tokens(64) << "]}\n";
  }
  const std::vector<std::vector<std::string>> runs{
      {"--onnx", fixtures + "reverse.onnx", "--task", "reverse", "--V", "3", "--lengths", "1:6"},
      {"--onnx", fixtures + "identity.onnx", "--task", "ar", "--V", "2", "--lengths", "1:8"},
      {"--onnx", fixtures + "masked_prefix.onnx", "--task", "majority", "--V", "2", "--lengths", "1:6"},
      {"--onnx", fixtures + "attention_alibi.onnx", "--expected", fixtures + "attention_alibi.jsonl"},
      {"--onnx", examples + "histogram.onnx", "--task", "histogram", "--V", "4", "--lengths", "1:4"},
      {"--onnx", examples + "copy.onnx", "--task", "copy", "--V", "3", "--lengths", "1:4"},
      {"--onnx", examples + "sort.onnx", "--task", "sort", "--V", "4", "--lengths", "1:5"},
      // About 330 MiB of exact values in one evaluation: the estimate's share beyond the process is most of it.
      {"--onnx", wide_rational_model(dir, 8192, 6), "--expected", long_input, "--threads", "1"}};
  for (auto args : runs) {
    args.insert(args.begin(), {"check", "model"});
    const auto r = run_cli(args);
    INFO(args[3] << ": " << r.err);
    REQUIRE((r.exit_code == 0 || r.exit_code == 1));
    const auto peak = static_cast<std::uint64_t>(r.peak_resident_kib) * 1024;
    CHECK(peak > 0);
    CHECK(refused_under(args, peak - 1));  // the estimate is at least the peak
  }
  std::filesystem::remove_all(dir);
}
