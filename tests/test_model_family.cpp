// sweep model --vary family: one check per model of a --family manifest, each row the same as `check model` on that
// model alone, the values where the verdict changes bracketed, and every defect of the manifest refused in one line.
#include "cli_runner.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

tverify::testing::CliResult run(const std::vector<std::string>& args, const fs::path& cwd) {
  static const fs::path capture = tverify::testing::fresh_folder("family-test", "capture");
  return tverify::testing::run_tverify(args, cwd, capture, 120);
}

const std::vector<std::string> task{"--task", "copy", "--V", "2", "--lengths", "1:3"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE(
    "sweep model --vary family: each model's row is its own check, the verdict change is bracketed, and recheck "
    "reproduces it",
    "[model][sweep][cli]") {
  const fs::path folder = tverify::testing::fresh_folder("family-test", "sweep");
  fs::create_directories(folder / "models");
  // The copy construction at three layer-2 temperatures: at tau = 1/4 the softmax is too flat to copy every string
  // of lengths 1..3, at tau = 1 and 2 it copies them (each row below is compared with check model on its file).
  std::ofstream manifest(folder / "models" / "family.jsonl");
  for (const std::string tau : {"2", "1/4", "1"}) {
    const std::string file = "tau-" + std::to_string(std::hash<std::string>{}(tau) % 1000) + ".onnx";
    REQUIRE(run({"export", "copy", "--variant", "corrected", "--D", "2", "--n", "2", "--tau", tau, "--onnx",
                 "models/" + file},
                folder)
                .exit_code == 0);
    manifest << Json{{"tau", tau}, {"onnx", file}}.dump() << "\n";
  }
  manifest.close();
  const auto swept = run(
      with({"sweep", "model", "--vary", "family", "--family", "models/family.jsonl", "--out", "out"}, task), folder);
  REQUIRE(swept.exit_code == 0);
  const Json cert = Json::parse(tverify::testing::read_all(folder / "out" / "model-family.json"));
  const Json& summary = cert["summary"];
  CHECK(summary["parameter"] == "tau");
  REQUIRE(summary["models"].size() == 3);
  CHECK(summary["models"][0]["value"] == "1/4");  // by increasing value, exact
  CHECK(summary["models"][2]["value"] == "2");
  for (const Json& m : summary["models"]) {
    const auto alone =
        run(with({"check", "model", "--onnx", "models/" + m["onnx"].get<std::string>(), "--json", "-"}, task), folder);
    const Json own = Json::parse(alone.out)["claims"][0];
    CHECK(m["verdict"] == own["verdict"]);
    CHECK(m["failed"] == own["failed"]);
    CHECK(m["lengths"] == own["details"]["lengths"]);
  }
  CHECK(summary["models"][0]["verdict"] == "refuted");
  CHECK(summary["models"][1]["verdict"] == "verified");
  CHECK(summary["verdict_changes"] ==
        Json::parse(R"([{"from": {"tau": "1/4", "verdict": "refuted"}, "to": {"tau": "1", "verdict": "verified"}}])"));
  CHECK(run({"recheck", "out/model-family.json"}, folder).exit_code == 0);
  // The certificate beside the manifest's folder, rechecked from another folder: the manifest's relative path names
  // no file from there, so it is read from the certificate's folder, and its models from the manifest's folder.
  fs::copy_file(folder / "out" / "model-family.json", folder / "model-family.json");
  const auto elsewhere = run({"recheck", (folder.filename() / "model-family.json").string()}, folder.parent_path());
  INFO(elsewhere.out << elsewhere.err);
  CHECK(elsewhere.exit_code == 0);
  // A model replaced after the sweep: recheck names the difference.
  const fs::path models = folder / "models";
  fs::copy_file(models / summary["models"][1]["onnx"].get<std::string>(),
                models / summary["models"][0]["onnx"].get<std::string>(), fs::copy_options::overwrite_existing);
  CHECK(run({"recheck", "out/model-family.json"}, folder).exit_code == 1);
}

TEST_CASE("sweep model --vary family: a bad manifest or family is one line, exit 2, nothing written",
          "[model][sweep][cli]") {
  const fs::path folder = tverify::testing::fresh_folder("family-test", "refusals");
  REQUIRE(run({"export", "copy", "--variant", "corrected", "--D", "2", "--n", "2", "--onnx", "d2.onnx"}, folder)
              .exit_code == 0);
  REQUIRE(run({"export", "copy", "--variant", "corrected", "--D", "3", "--n", "2", "--onnx", "d3.onnx"}, folder)
              .exit_code == 0);
  const std::string examples = std::string(TVERIFY_SOURCE_DIR) + "/examples/models/";
  const std::vector<std::pair<std::string, std::string>> cases{
      {R"({"tau": 0.5, "onnx": "d2.onnx"})", "binary floating-point number; write it as a string"},
      {"{\"tau\": \"1\", \"onnx\": \"d2.onnx\"}\n{\"beta\": \"2\", \"onnx\": \"d2.onnx\"}",
       "names the parameter 'beta'; the lines before name 'tau'"},
      {"{\"tau\": \"1\", \"onnx\": \"d2.onnx\"}\n{\"tau\": \"1.0\", \"onnx\": \"d2.onnx\"}",
       "tau = 1.0 is the value of an earlier line (1)"},
      {"{\"tau\": \"1\", \"onnx\": \"d2.onnx\"}\n{\"tau\": \"2\", \"onnx\": \"d3.onnx\"}",
       "the models disagree in vocabulary: 'd2.onnx' has an embedding of 4 rows, 'd3.onnx' an embedding of 5 rows"},
      {R"({"tau": "1", "onnx": "missing.onnx"})", "the model of tau = 1: --onnx 'missing.onnx' cannot be read"},
      {R"({"tau": "x", "onnx": "d2.onnx"})", "is not an exact number"},
      {R"({"onnx": "d2.onnx"})", "must be an object of two fields"},
      {"", "no model"},
      {"not json", "line 1 is not JSON"},
      {R"({"verdict": "1", "onnx": "d2.onnx"})", "the parameter's name 'verdict' is a column of the sweep's table"},
      {R"({"tau": "1e400", "onnx": "d2.onnx"})", "tau = 1e400 is beyond what the figure can place"},
      {"{\"tau\": \"1\", \"onnx\": \"d2.onnx\"}\n{\"tau\": \"1.00000000000000000001\", \"onnx\": \"d2.onnx\"}",
       "fall on the same point of the figure"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    std::ofstream(folder / "family.jsonl") << text;
    const auto r =
        run(with({"sweep", "model", "--vary", "family", "--family", "family.jsonl", "--out", "out"}, task), folder);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(message));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(!fs::exists(folder / "out"));
  }
  // Both embed 5 tokens; the copy model's output classes cannot answer the histogram task: found by its check, which
  // runs before the output folder is made.
  std::ofstream(folder / "family.jsonl") << "{\"seed\": 1, \"onnx\": \"" << examples
                                         << "histogram.onnx\"}\n{\"seed\": 2, "
                                         << "\"onnx\": \"" << examples << "copy.onnx\"}\n";
  const auto layout = run({"sweep", "model", "--vary", "family", "--family", "family.jsonl", "--out", "out", "--task",
                           "histogram", "--V", "4", "--lengths", "1:3"},
                          folder);
  CHECK(layout.exit_code == 2);
  CHECK_THAT(layout.err, Catch::Contains("--family: the model of seed = 2: --onnx"));
  CHECK(!fs::exists(folder / "out"));
  std::ofstream(folder / "family.jsonl") << R"({"tau": "1", "onnx": "d2.onnx"})";
  const auto onnx =
      run(with({"sweep", "model", "--vary", "family", "--family", "family.jsonl", "--onnx", "d2.onnx", "--out", "out"},
               task),
          folder);
  CHECK(onnx.exit_code == 2);
  CHECK_THAT(onnx.err, Catch::Contains("--onnx is not read by `tverify sweep model --vary family`"));
  const auto none = run(with({"sweep", "model", "--vary", "family", "--out", "out"}, task), folder);
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("--vary family needs --family FILE"));
}
