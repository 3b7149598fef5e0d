// The CAT layer exported as an ONNX model (`tverify export cat`) and read back by the model checker: on seeded random
// sequences, the model's certified argmax at every position must be the token the layer decodes there (CatLayer,
// exact levels and its own readout), from the same weights evaluated by an independent path (the ONNX graph through
// constructions/model). An exact tie of the layer is `unknown` to the model checker (two equal irrational logits are
// never separated, nor called equal).
#include "checkers/files.hpp"
#include "checkers/model/case_check.hpp"
#include "checkers/model/loaded_model.hpp"
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
  std::size_t decided = 0, ties = 0;
  std::optional<std::string> disagreement;
};

model::LoadedModel exported(const CatConfig& config) {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-cat-export-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "cat.onnx", cat_layer_onnx(config));
  model::LoadedModel m = model::load_model((dir / "cat.onnx").string(), std::nullopt);
  std::filesystem::remove_all(dir);
  return m;
}

// Every position of `sequences` seeded random token sequences of length 1..max_length.
Outcome compare(const CatConfig& config, int sequences, int max_length, std::uint64_t seed) {
  const CatLayer layer(config);
  const model::LoadedModel m = exported(config);
  const int vocabulary = static_cast<int>(config.embedding.size());
  std::mt19937_64 rng(seed);
  Outcome out;
  for (int s = 0; s < sequences && !out.disagreement; ++s) {
    Tokens z(1 + rng() % static_cast<std::uint64_t>(max_length));
    for (auto& token : z) token = static_cast<int>(rng() % static_cast<std::uint64_t>(vocabulary));
    std::vector<std::size_t> positions(z.size());
    for (std::size_t t = 0; t < z.size(); ++t) positions[t] = t;
    const std::vector<Decoded> decoded = layer.decode(z, positions);
    model::TaskCase c;
    c.sequence.assign(z.begin(), z.end());
    c.targets.assign(z.size(), -1);
    const model::CaseOutcome got = model::check_case(m, c, model::Decode::Every, {vocabulary, INT64_MAX});
    // A position the layer decodes must have the same certified token in the model; where the layer finds an exact
    // tie the model reports the tie (exact logits) or leaves the input undecided (enclosed ones: no position is read).
    const bool tie = std::any_of(decoded.begin(), decoded.end(), [](const Decoded& d) { return !d.token; });
    bool same = got.kind == model::CaseOutcome::Kind::Unknown ? tie : got.got.size() == z.size();
    for (std::size_t t = 0; same && got.kind != model::CaseOutcome::Kind::Unknown && t < z.size(); ++t)
      same = decoded[t].token ? got.got[t] == *decoded[t].token : got.got[t].is_string();
    if (!same)
      out.disagreement = "z = " + nlohmann::json(z).dump() + ": the layer decodes " +
                         nlohmann::json([&] {
                           std::vector<int> tokens;
                           for (const auto& d : decoded) tokens.push_back(d.token ? *d.token : -1);
                           return tokens;
                         }())
                             .dump() +
                         ", the model gives " + got.got.dump() + " (" + got.detail + ")";
    out.ties += tie;
    out.decided += !tie;
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
  };
  std::uint64_t seed = 1;
  for (const auto& c : cases) {
    INFO(c.name);
    const Outcome o = compare(c.config, 40, 7, seed++);
    INFO(o.disagreement.value_or(""));
    CHECK_FALSE(o.disagreement);
    CHECK(o.decided >= 20);  // of the 40 sequences: most have no exact tie
  }
}

TEST_CASE("export cat: a wrong filter in the model is caught", "[cat][model]") {
  // The model of F = (1, 1/2) against the layer of F = (1, 1/4): the comparison must find a sequence they decode
  // differently.
  CatConfig layer{one_hot_embedding(3), {Exact(1), Exact(1, 4)}, Delay::Key, Exact(4), false};
  CatConfig model_config = layer;
  model_config.filter = {Exact(1), Exact(1, 2)};
  const CatLayer reference(layer);
  const model::LoadedModel m = exported(model_config);
  std::mt19937_64 rng(9);
  bool caught = false;
  for (int s = 0; s < 200 && !caught; ++s) {
    Tokens z(2 + rng() % 6);
    for (auto& token : z) token = static_cast<int>(rng() % 3);
    const Decoded d = reference.decode_last(z);
    if (d.margin != Margin::Certified) continue;
    model::TaskCase c;
    c.sequence.assign(z.begin(), z.end());
    c.targets.assign(z.size(), -1);
    const model::CaseOutcome got = model::check_case(m, c, model::Decode::Every, {3, INT64_MAX});
    caught = got.kind != model::CaseOutcome::Kind::Unknown && got.got.back() != *d.token;
  }
  CHECK(caught);
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
  const testing::CliResult checked = testing::run_tverify(
      {"eval", "model", "--onnx", file, "--input", "0,1,2,0,1"}, dir, dir / "capture");
  CHECK(checked.exit_code == 0);
  const std::string refused_file = (dir / "full.onnx").string();
  const testing::CliResult refused = testing::run_tverify(
      {"export", "cat", "--variant", "key_delay_full", "--onnx", refused_file}, dir, dir / "capture");
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("without a key") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(refused_file));
  std::filesystem::remove_all(dir);
}
