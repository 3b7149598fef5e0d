// The CAT layer exported as an ONNX model (`tverify export cat`) and read back by the model checker: on seeded random
// sequences, the model's certified argmax at every position must be the token the layer decodes there (CatLayer,
// exact levels and its own readout), from the same weights evaluated by an independent path (the ONNX graph through
// constructions/model). An exact tie of the layer is the same tie for the model checker: the scores are cosines,
// radical sums, whose exponentials exact exp-log arithmetic computes, so two equal logits differ by exactly 0.
#include "io/files.hpp"
#include "model/case_check.hpp"
#include "checkers/model/engine_calls.hpp"
#include "cli_runner.hpp"
#include "constructions/cat/onnx_export.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <random>

using namespace tverify;
using namespace tverify::cat;

namespace {

struct Outcome {
  std::size_t decided = 0, ties = 0;  // positions
  std::optional<std::string> disagreement;
};

model::LoadedModel exported(const CatConfig& config) {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-cat-export-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "cat.onnx", cat_layer_onnx(config));
  model::LoadedModel m = model::read_model_file((dir / "cat.onnx").string(), std::nullopt);
  std::filesystem::remove_all(dir);
  return m;
}

// The model's reading at position t of z alone (a position the model cannot decide leaves the others alone).
model::CaseOutcome read_at(const model::LoadedModel& m, const Tokens& z, std::size_t t, int vocabulary) {
  model::TaskCase c;
  c.sequence.assign(z.begin(), z.end());
  c.read_from = t;
  c.targets = {-1};
  return model::outcome_of_case(m, c, model::Decode::Every, {vocabulary, INT64_MAX});
}

// Every position of `sequences` seeded random token sequences of length 1..max_length, decoded by the layer of
// `layer_config` and read from the model exported from `model_config` (the same config, but in the test that shows a
// wrong model is caught). Where the layer decodes a token, the model's certified argmax must be that token; where the
// layer finds an exact tie, the model must report a tie.
Outcome compare(const CatConfig& layer_config, const CatConfig& model_config, int sequences, int max_length,
                std::uint64_t seed) {
  const CatLayer layer(layer_config);
  const model::LoadedModel m = exported(model_config);
  const int vocabulary = static_cast<int>(layer_config.embedding.size());
  std::mt19937_64 rng(seed);
  Outcome out;
  for (int s = 0; s < sequences && !out.disagreement; ++s) {
    Tokens z(1 + rng() % static_cast<std::uint64_t>(max_length));
    for (auto& token : z) token = static_cast<int>(rng() % static_cast<std::uint64_t>(vocabulary));
    std::vector<std::size_t> positions(z.size());
    for (std::size_t t = 0; t < z.size(); ++t) positions[t] = t;
    const std::vector<Decoded> decoded = layer.decode(z, positions);
    for (std::size_t t = 0; t < z.size() && !out.disagreement; ++t) {
      const model::CaseOutcome got = read_at(m, z, t, vocabulary);
      const bool unknown = got.kind == model::CaseOutcome::Kind::Unknown;
      const bool same =
          decoded[t].token ? !unknown && got.got.front() == *decoded[t].token : !unknown && got.got.front().is_string();
      if (!same)
        out.disagreement = "z = " + nlohmann::json(z).dump() + ", position " + std::to_string(t) + ": the layer " +
                           (decoded[t].token ? "decodes " + std::to_string(*decoded[t].token) : std::string("ties")) +
                           ", the model gives " + got.got.dump() + " " + got.detail;
      out.ties += !decoded[t].token;
      out.decided += decoded[t].token.has_value();
    }
  }
  return out;
}

}  // namespace

TEST_CASE("export cat: the model decodes as the layer at every position, each delay and embedding", "[cat][model]") {
  struct Case {
    const char* name;
    CatConfig config;
  };
  const std::vector<Case> cases{
      {"key delay, one-hot V = 3, F = (1, 1/2), c^2 = 4",
       {one_hot_embedding(3), {Exact(1), Exact(1, 2)}, Delay::Key, Exact(4), false}},
      {"value delay, one-hot V = 3, F = (1, 1/3), c^2 = 9/4",
       {one_hot_embedding(3), {Exact(1), Exact(1, 3)}, Delay::Value, Exact(9, 4), false}},
      {"AR (key delay, N = 1), stereographic V = 4 in R^3, c^2 = 16",
       {stereographic_embedding(4, 3), {Exact(1)}, Delay::Key, Exact(16), false}},
      {"key delay, stereographic V = 4 in R^2, F = (1, -1/2, 1/4), c^2 = 2",
       {stereographic_embedding(4, 2), {Exact(1), Exact(-1, 2), Exact(1, 4)}, Delay::Key, Exact(2), false}},
      // A repeated token cancels: (F * X)_t = 0 exactly, from non-dyadic embedding entries (3/5, 4/5, ...), which the
      // zero-row guard must decide although the graph is enclosed in intervals.
      {"value delay, stereographic V = 3 in R^2, F = (1/3, -1/3), c^2 = 4",
       {stereographic_embedding(3, 2), {Exact(1, 3), Exact(-1, 3)}, Delay::Value, Exact(4), false}},
  };
  std::uint64_t seed = 1;
  for (const auto& c : cases) {
    INFO(c.name);
    const Outcome o = compare(c.config, c.config, 40, 7, seed++);
    INFO(o.disagreement.value_or(""));
    CHECK_FALSE(o.disagreement);
    CHECK(o.decided > 4 * o.ties);  // most positions have no exact tie
  }
}

TEST_CASE("export cat: a wrong filter in the model is caught", "[cat][model]") {
  // The model of F = (1, 1/2) against the layer of F = (1, 1/4): the comparison must find a position they decode
  // differently.
  const CatConfig layer{one_hot_embedding(3), {Exact(1), Exact(1, 4)}, Delay::Key, Exact(4), false};
  CatConfig model_config = layer;
  model_config.filter = {Exact(1), Exact(1, 2)};
  CHECK(compare(layer, model_config, 200, 7, 9).disagreement);
}

TEST_CASE("export cat: the CLI writes the model; variants with partial windows left out are refused", "[cat][model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-cat-export-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "capture");
  const std::string file = (dir / "cat.onnx").string();
  const testing::CliResult ok =
      testing::run_tverify({"export", "cat", "--V", "3", "--N", "2", "--onnx", file}, dir, dir / "capture");
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(std::filesystem::exists(file));
  const testing::CliResult checked =
      testing::run_tverify({"eval", "model", "--onnx", file, "--input", "0,1,2,0,1"}, dir, dir / "capture");
  CHECK(checked.exit_code == 0);
  const std::string refused_file = (dir / "full.onnx").string();
  const testing::CliResult refused = testing::run_tverify(
      {"export", "cat", "--variant", "key_delay_full", "--onnx", refused_file}, dir, dir / "capture");
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("without a key") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(refused_file));
  std::filesystem::remove_all(dir);
}
