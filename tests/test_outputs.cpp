// What tverify writes cannot be corrupted and what it reads cannot crash it: atomic writes that keep the previous file
// on failure, no shell between tverify and a file name, locked output folders, sweep files replaced as a set, and
// certificates and checkpoints that are validated field by field (a forged field is exit 2, or a named difference).
#include "io/errors.hpp"
#include "io/files.hpp"
#include "checkers/programs.hpp"
#include "cli_runner.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace tverify;
using tverify::testing::CliResult;
using tverify::testing::read_all;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// Runs tverify in `cwd`; its output is captured beside `cwd`, so `cwd` holds only what tverify wrote.
CliResult run_in(const fs::path& cwd, const std::vector<std::string>& args) {
  const fs::path capture = cwd.parent_path() / (cwd.filename().string() + ".capture");
  fs::create_directories(capture);
  return tverify::testing::run_tverify(args, cwd, capture);
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

void expect_one_line_error(const CliResult& r, const std::string& must_mention) {
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.rfind("tverify: error: ", 0) == 0);
  CHECK(r.err.find(must_mention) != std::string::npos);
}

const std::vector<std::string> count3_sweep_files{
    "count3-values-latex.pdf", "count3-values-latex.tex", "count3-values.csv", "count3-values.gp",
    "count3-values.json",      "count3-values.pdf",       "count3-values.png", "count3-values.sha256"};

}  // namespace

TEST_CASE("write_file_atomically replaces regular files and refuses every other kind of target", "[files]") {
  const fs::path dir = tverify::testing::fresh_folder("outputs", "atomic");
  write_file_atomically(dir / "a.txt", "one");
  write_file_atomically(dir / "a.txt", "two");
  CHECK(read_all(dir / "a.txt") == "two");
  CHECK(names_in(dir) == std::vector<std::string>{"a.txt"});

  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
  CHECK_THROWS_AS(write_file_atomically(dir / "fifo", "x"), UsageError);
  CHECK(fs::is_fifo(dir / "fifo"));
  fs::create_directory(dir / "sub");
  CHECK_THROWS_WITH(write_file_atomically(dir / "sub", "x"), Catch::Contains("is a directory"));
  CHECK_THROWS_WITH(write_file_atomically(dir / "missing" / "a.txt", "x"), Catch::Contains("cannot write"));
  CHECK(names_in(dir) == std::vector<std::string>{"a.txt", "fifo", "sub"});
}

TEST_CASE("staged files: nothing replaced until commit, no temporary file left either way", "[files]") {
  const fs::path dir = tverify::testing::fresh_folder("outputs", "staged");
  write_text(dir / "a.csv", "old csv");
  write_text(dir / "a.json", "old json");
  {
    StagedFiles files;
    files.stage(dir / "a.csv", "new csv");
    files.stage(dir / "a.json", "new json");
    CHECK(read_all(dir / "a.csv") == "old csv");  // abandoned: the destructor removes the staged files
  }
  CHECK(names_in(dir) == std::vector<std::string>{"a.csv", "a.json"});
  CHECK(read_all(dir / "a.json") == "old json");
  StagedFiles files;
  files.stage(dir / "a.csv", "new csv");
  files.stage(dir / "a.json", "new json");
  files.commit();
  CHECK(read_all(dir / "a.csv") == "new csv");
  CHECK(read_all(dir / "a.json") == "new json");
  CHECK(names_in(dir) == std::vector<std::string>{"a.csv", "a.json"});
}

TEST_CASE("an output folder is locked while held, and its stale temporary files are removed", "[files]") {
  const fs::path dir = tverify::testing::fresh_folder("outputs", "lock");
  write_text(dir / ".tverify-tmp.a.csv.AbC123", "left by a killed run");
  fs::last_write_time(dir / ".tverify-tmp.a.csv.AbC123", fs::file_time_type::clock::now() - std::chrono::minutes(5));
  write_text(dir / ".tverify-tmp.b.json.XyZ789", "being written by a check --json now");
  {
    OutputDirLock held(dir.string(), "--out");
    CHECK(names_in(dir) == std::vector<std::string>{".tverify-tmp.b.json.XyZ789"});
    CHECK_THROWS_WITH(OutputDirLock(dir.string(), "--out"), Catch::Contains("in use by another tverify run"));
  }
  CHECK_NOTHROW(OutputDirLock(dir.string(), "--out"));
  CHECK_THROWS_WITH(OutputDirLock("", "--out"), Catch::Contains("--out needs a directory name"));
}

TEST_CASE("reading refuses folders, unreadable files and JSON it cannot hold", "[files]") {
  const fs::path dir = tverify::testing::fresh_folder("outputs", "read");
  CHECK_THROWS_WITH(read_text_file(dir.string(), "x"), Catch::Contains("is not a regular file"));
  CHECK_THROWS_WITH(read_text_file("/proc/self/mem", "x"), Catch::Contains("cannot be read"));
  CHECK_THROWS_WITH(read_text_file("", "x"), Catch::Contains("empty"));
  CHECK_THROWS_WITH(parse_json_text(std::string(120000, '[') + std::string(120000, ']'), "x"),
                    Catch::Contains("deeper than 64"));
  CHECK_THROWS_WITH(parse_json_text("{\"a\": 1e400}", "x"), Catch::Contains("outside the range of a double"));
  CHECK_THROWS_WITH(parse_json_text("{\"a\": ", "x"), Catch::Contains("truncated"));
  CHECK(parse_json_text(std::string(63, '[') + std::string(63, ']'), "x").is_array());
}

TEST_CASE("sweep output: a hostile folder name reaches no shell, and the set of files is complete", "[cli][outputs]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "hostile");
  const std::string hostile = "x'; touch PWNED; '";
  for (const std::string& name : {hostile, std::string("it's \"quoted\" $(touch PWNED2)")}) {
    INFO(name);
    const CliResult r = run_in(cwd, {"sweep", "count3", "--vary", "values", "--n", "2", "--out", name});
    CHECK(r.exit_code == 0);
    CHECK(names_in(cwd / name) == count3_sweep_files);
  }
  CHECK_FALSE(fs::exists(cwd / "PWNED"));
  CHECK_FALSE(fs::exists(cwd / "PWNED2"));
  // The script names its files relative to its own folder, so it re-runs there.
  const std::string script = read_all(cwd / hostile / "count3-values.gp");
  CHECK(script.find("set output 'count3-values.png'") != std::string::npos);
  CHECK(script.find("PWNED") == std::string::npos);
  struct stat st {};
  REQUIRE(::stat((cwd / hostile / "count3-values.png").c_str(), &st) == 0);
  CHECK((st.st_mode & 0044) != 0);  // readable by others like the other outputs, not mkstemp's 0600
  for (const char* figure : {"count3-values.png", "count3-values.pdf", "count3-values-latex.tex"}) {
    fs::remove(cwd / hostile / figure);
    REQUIRE(run_program("gnuplot", {"count3-values.gp"}, (cwd / hostile).string(), ""));
    CHECK(fs::file_size(cwd / hostile / figure) > 0);
  }
}

TEST_CASE("sweep output: a sweep whose range holds no probe says so, not a full disk", "[cli][outputs]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "empty-sweep");
  // --vary bits probes L from 2n = 4 on: --L-max 3 leaves nothing, and gnuplot had nothing to draw.
  expect_one_line_error(run_in(cwd, {"sweep", "copy", "--vary", "bits", "--L-max", "3", "--out", "o"}),
                        "has no probe to write: its range is empty");
}

TEST_CASE("sweep output: a second run into a locked folder is refused; stale temporaries go", "[cli][outputs]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "locked");
  fs::create_directories(cwd / "out");
  write_text(cwd / "out" / ".tverify-tmp.count3-values.csv.Zz9999", "stale");
  fs::last_write_time(cwd / "out" / ".tverify-tmp.count3-values.csv.Zz9999",
                      fs::file_time_type::clock::now() - std::chrono::minutes(5));
  const int fd = ::open((cwd / "out").c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);  // as another run holding the folder would
  expect_one_line_error(run_in(cwd, {"sweep", "count3", "--vary", "values", "--n", "2", "--out", "out"}),
                        "in use by another tverify run");
  ::close(fd);
  CHECK(run_in(cwd, {"sweep", "count3", "--vary", "values", "--n", "2", "--out", "out"}).exit_code == 0);
  CHECK(names_in(cwd / "out") == count3_sweep_files);
}

TEST_CASE("sweep output: a set mixed by a run killed between its renames is refused by its readers", "[cli][outputs]") {
  // A SIGKILL after the CSV's rename and before the others' leaves the new run's CSV beside the old run's
  // certificate and manifest: made here from two real sweeps, --n 2 into `old` and --n 3 into `new`.
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "mixed-set");
  REQUIRE(run_in(cwd, {"sweep", "count3", "--vary", "values", "--n", "2", "--out", "old"}).exit_code == 0);
  REQUIRE(run_in(cwd, {"sweep", "count3", "--vary", "values", "--n", "3", "--out", "new"}).exit_code == 0);
  CHECK(run_in(cwd, {"report", "old/count3-values.json"}).exit_code == 0);
  REQUIRE(read_all(cwd / "old" / "count3-values.csv") != read_all(cwd / "new" / "count3-values.csv"));
  fs::copy_file(cwd / "new" / "count3-values.csv", cwd / "old" / "count3-values.csv",
                fs::copy_options::overwrite_existing);
  for (const std::string verb : {"report", "recheck"})
    expect_one_line_error(run_in(cwd, {verb, "old/count3-values.json"}),
                          "count3-values.csv' does not match its manifest 'old/count3-values.sha256'");
  // The manifest is sha256sum's: the same tool finds the same file.
  CHECK(run_program("sha256sum", {"--check", "--quiet", "count3-values.sha256"}, (cwd / "new").string(), ""));
  CHECK_FALSE(run_program("sha256sum", {"--check", "--quiet", "count3-values.sha256"}, (cwd / "old").string(), ""));
  // A certificate copied elsewhere alone has no manifest to answer to; a malformed manifest is refused.
  fs::copy_file(cwd / "new" / "count3-values.json", cwd / "alone.json");
  CHECK(run_in(cwd, {"report", "alone.json"}).exit_code == 0);
  write_text(cwd / "new" / "count3-values.sha256", "not a digest  count3-values.json\n");
  expect_one_line_error(run_in(cwd, {"report", "new/count3-values.json"}), "sha256sum's format");
  // Running the sweep again repairs the set.
  REQUIRE(run_in(cwd, {"sweep", "count3", "--vary", "values", "--n", "2", "--out", "old"}).exit_code == 0);
  CHECK(run_in(cwd, {"report", "old/count3-values.json"}).exit_code == 0);
}

TEST_CASE("certificates onto devices and FIFOs are refused, planted links are not followed", "[cli][outputs]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "json-targets");
  REQUIRE(::mkfifo((cwd / "fifo").c_str(), 0644) == 0);
  expect_one_line_error(run_in(cwd, {"check", "copy", "--json", "fifo"}), "is not a regular file");
  CHECK(fs::is_fifo(cwd / "fifo"));
  expect_one_line_error(run_in(cwd, {"check", "copy", "--json", "/dev/null"}), "is not a regular file");
  expect_one_line_error(run_in(cwd, {"check", "copy", "--json", ""}), "--json needs a value (got an empty string)");
  // The name a predictable temporary file would have had, planted as a link to a file that must not change.
  write_text(cwd / "victim", "victim");
  fs::create_symlink(cwd / "victim", cwd / "a.json.tmp");
  CHECK(run_in(cwd, {"check", "copy", "--json", "a.json"}).exit_code == 1);
  CHECK(read_all(cwd / "victim") == "victim");
  CHECK(Json::parse(read_all(cwd / "a.json"))["tool"] == "tverify");
  // A link at the target is replaced only when it leads to a regular file in the same folder.
  expect_one_line_error(run_in(cwd, {"check", "copy", "--json", "/dev/stdout"}), "is a link that");
  fs::create_symlink("victim", cwd / "nearby.json");
  fs::create_symlink("nowhere", cwd / "dangling.json");
  expect_one_line_error(run_in(cwd, {"check", "copy", "--json", "dangling.json"}), "leads nowhere");
  CHECK(run_in(cwd, {"check", "copy", "--json", "nearby.json"}).exit_code == 1);
  CHECK(read_all(cwd / "victim") == "victim");
  CHECK(fs::is_regular_file(fs::symlink_status(cwd / "nearby.json")));
}

TEST_CASE("an output that is one of the run's inputs is refused before anything runs", "[cli][outputs]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "input-as-output");
  const std::string model = std::string(TVERIFY_SOURCE_DIR) + "/tests/models/identity.onnx";
  fs::copy_file(model, cwd / "m.onnx");
  const std::string before = read_all(cwd / "m.onnx");
  expect_one_line_error(
      run_in(cwd, {"check", "model", "--onnx", "m.onnx", "--task", "reverse", "--V", "2", "--json", "m.onnx"}),
      "--json 'm.onnx' is the same file as --onnx 'm.onnx'");
  fs::create_symlink("m.onnx", cwd / "alias.json");
  expect_one_line_error(
      run_in(cwd, {"check", "model", "--onnx", "m.onnx", "--task", "reverse", "--V", "2", "--json", "alias.json"}),
      "is the same file as --onnx");
  CHECK(read_all(cwd / "m.onnx") == before);
}

TEST_CASE("a failed certificate write keeps the previous file and names it", "[cli][outputs]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "full-disk");
  write_text(cwd / "a.json", "precious");
  // A file-size limit of 4 KiB stands in for a full disk: the certificate (about 30 KB) cannot be written.
  const std::string command = "cd '" + cwd.string() + "' && env -u CI bash -c \"trap '' XFSZ; ulimit -f 4; exec " +
                              TVERIFY_BINARY + " check copy --json a.json\" >out.txt 2>err.txt";
  const int status = std::system(command.c_str());
  CHECK(WEXITSTATUS(status) == 2);
  const std::string err = read_all(cwd / "err.txt");
  CHECK(err.find("cannot write 'a.json'") != std::string::npos);
  CHECK(std::count(err.begin(), err.end(), '\n') == 1);
  CHECK(read_all(cwd / "a.json") == "precious");
  CHECK(names_in(cwd) == std::vector<std::string>{"a.json", "err.txt", "out.txt"});
}

TEST_CASE("without a trap of SIGXFSZ, a file-size limit is still an error naming the file", "[cli][outputs]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "file-size-limit");
  write_text(cwd / "a.json", "precious");
  const std::string command = "cd '" + cwd.string() + "' && env -u CI bash -c \"ulimit -f 4; exec " + TVERIFY_BINARY +
                              " check copy --json a.json\" >out.txt 2>err.txt";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  const std::string err = read_all(cwd / "err.txt");
  CHECK(err.find("cannot write 'a.json'") != std::string::npos);
  CHECK(read_all(cwd / "a.json") == "precious");
  CHECK(names_in(cwd) == std::vector<std::string>{"a.json", "err.txt", "out.txt"});
}

TEST_CASE("prove --smt2 writes through the atomic writer: links replaced, FIFOs and bad names refused",
          "[cli][outputs]") {
  const std::vector<std::string> prove{"prove", "copy", "--claim", "copy.lemma_c3", "--smt2", "queries"};
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "smt2");
  fs::create_directories(cwd / "queries");
  // A link planted at the dump's name, to a file outside the folder that must not change: refused, naming it.
  write_text(cwd / "victim", "victim");
  fs::create_symlink(cwd / "victim", cwd / "queries" / "copy.lemma_c3.smt2");
  expect_one_line_error(run_in(cwd, prove), "outside its folder");
  CHECK(read_all(cwd / "victim") == "victim");
  // A link to a regular file in the same folder is replaced, never followed.
  fs::remove(cwd / "queries" / "copy.lemma_c3.smt2");
  write_text(cwd / "queries" / "kept", "kept");
  fs::create_symlink("kept", cwd / "queries" / "copy.lemma_c3.smt2");
  CHECK(run_in(cwd, prove).exit_code == 0);
  CHECK(read_all(cwd / "queries" / "kept") == "kept");
  CHECK(fs::is_regular_file(fs::symlink_status(cwd / "queries" / "copy.lemma_c3.smt2")));
  CHECK(read_all(cwd / "queries" / "copy.lemma_c3.smt2").find("(check-sat)") != std::string::npos);
  // A FIFO at the dump's name is refused at once (no hang), with nothing on stdout.
  fs::remove(cwd / "queries" / "copy.lemma_c3.smt2");
  REQUIRE(::mkfifo((cwd / "queries" / "copy.lemma_c3.smt2").c_str(), 0644) == 0);
  expect_one_line_error(run_in(cwd, prove), "is not a regular file");
  fs::remove(cwd / "queries" / "copy.lemma_c3.smt2");
  // --smt2 naming a file, a name past the system's limit, and a loop of links: one line each, exit 2.
  write_text(cwd / "plain", "plain");
  expect_one_line_error(run_in(cwd, {"prove", "copy", "--claim", "copy.lemma_c3", "--smt2", "plain"}),
                        "--smt2 'plain'");
  expect_one_line_error(run_in(cwd, {"prove", "copy", "--claim", "copy.lemma_c3", "--smt2", std::string(5000, 'q')}),
                        "--smt2");
  fs::create_symlink(cwd / "loop-b", cwd / "loop-a");
  fs::create_symlink(cwd / "loop-a", cwd / "loop-b");
  expect_one_line_error(run_in(cwd, {"prove", "copy", "--claim", "copy.lemma_c3", "--smt2", "loop-a/q"}), "--smt2");
  // A full file system (a file-size limit of 4 KiB stands in: the score queries are about 28 KB) is an error naming
  // the dump, with the previous dumps kept.
  for (const std::string reading : {"text", "formula"})
    write_text(cwd / "queries" / ("copy.scores.D2-n2-L4.paper." + reading + ".smt2"), "previous");
  const std::string command = "cd '" + cwd.string() + "' && env -u CI bash -c \"ulimit -f 4; exec " + TVERIFY_BINARY +
                              " prove copy --claim copy.scores --smt2 queries\" >out.txt 2>err.txt";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(read_all(cwd / "err.txt").find("cannot write 'queries/copy.scores.D2-n2-L4.paper.") != std::string::npos);
  for (const std::string reading : {"text", "formula"})
    CHECK(read_all(cwd / "queries" / ("copy.scores.D2-n2-L4.paper." + reading + ".smt2")) == "previous");
}

TEST_CASE("certificates: wrong types and ranges are exit 2 for recheck and report, never a crash",
          "[cli][certificate]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "forged");
  REQUIRE(run_in(cwd, {"check", "copy", "--json", "a.json"}).exit_code == 1);
  const Json good = Json::parse(read_all(cwd / "a.json"));
  struct Forgery {
    std::string name, must_mention;
    std::function<void(Json&)> edit;
  };
  const std::vector<Forgery> forgeries{
      {"tool", "field \"tool\" must be \"tverify\"", [](Json& j) { j["tool"] = 5; }},
      {"count-as-string", "claims[0].passed", [](Json& j) { j["claims"][0]["passed"] = "3"; }},
      {"negative-count", "claims[1].failed", [](Json& j) { j["claims"][1]["failed"] = -1; }},
      {"verdict", "claims[0].verdict", [](Json& j) { j["claims"][0]["verdict"] = "proved"; }},
      {"claims", "field \"claims\" must be a list", [](Json& j) { j["claims"] = Json::object(); }},
      {"params", "params.D", [](Json& j) { j["params"]["D"] = Json::array({2}); }},
      {"options", "options.max_counterexamples", [](Json& j) { j["options"]["max_counterexamples"] = "ten"; }},
      {"domain", "domain.inputs", [](Json& j) { j["domain"]["inputs"] = 1.5; }},
      {"construction", "construction 'nope' does not exist", [](Json& j) { j["construction"] = "nope"; }},
      // a forged copy of a claim after the genuine one would otherwise pass recheck and show in report --wide
      {"duplicate-claim", "copy.alg1 (text) twice",
       [](Json& j) {
         Json copy = j["claims"][0];
         copy["verdict"] = "verified";
         j["claims"].push_back(copy);
       }},
  };
  for (const auto& f : forgeries) {
    INFO(f.name);
    Json j = good;
    f.edit(j);
    write_text(cwd / (f.name + ".json"), j.dump());
    expect_one_line_error(run_in(cwd, {"recheck", f.name + ".json"}), f.must_mention);
    expect_one_line_error(run_in(cwd, {"report", f.name + ".json"}), f.must_mention);
  }
  std::string text = good.dump();
  text.replace(text.find("\"elapsed_s\":"), 12, "\"elapsed_s\":1e400,\"x\":");
  write_text(cwd / "huge.json", text);
  expect_one_line_error(run_in(cwd, {"recheck", "huge.json"}), "outside the range of a double");
  write_text(cwd / "deep.json", std::string(120000, '[') + std::string(120000, ']'));
  expect_one_line_error(run_in(cwd, {"report", "deep.json"}), "deeper than 64");
  expect_one_line_error(run_in(cwd, {"recheck", "."}), "is not a regular file");
}

TEST_CASE("recheck names every field that differs, top-level fields and deleted claims included",
          "[cli][certificate]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "recheck-fields");
  REQUIRE(run_in(cwd, {"check", "copy", "--json", "a.json"}).exit_code == 1);
  CHECK(run_in(cwd, {"recheck", "a.json"}).exit_code == 0);
  // A claim asked for twice is checked and recorded once, and the certificate reproduces.
  REQUIRE(run_in(cwd, {"check", "copy", "--claim", "copy.alg1", "--claim", "copy.alg1", "--json", "twice.json"})
              .exit_code == 1);
  CHECK(Json::parse(read_all(cwd / "twice.json"))["options"]["requested_claims"] == Json::array({"copy.alg1"}));
  CHECK(run_in(cwd, {"recheck", "twice.json"}).exit_code == 0);
  const Json good = Json::parse(read_all(cwd / "a.json"));
  struct Edit {
    std::string name, must_mention;
    std::function<void(Json&)> edit;
  };
  const std::vector<Edit> edits{
      {"inputs", "DIFFERS domain.inputs: stored 17, now 16", [](Json& j) { j["domain"]["inputs"] = 17; }},
      {"arithmetic", "DIFFERS arithmetic", [](Json& j) { j["arithmetic"] = "floating point"; }},
      {"count", "DIFFERS claims: copy.alg1 (text).failed", [](Json& j) { j["claims"][0]["failed"] = 0; }},
      {"deleted", "DIFFERS claims: copy.alg1 (text): stored absent, now refuted",
       [](Json& j) { j["claims"].erase(j["claims"].begin()); }},
      {"added-field", "DIFFERS extra: stored 1, now absent", [](Json& j) { j["extra"] = 1; }},
      // The stored parameters and variant are the ones the recorded command gives (`check copy`: the defaults).
      {"parameter", "DIFFERS params.L: stored 5, now 4 in its command", [](Json& j) { j["params"]["L"] = 5; }},
      {"variant", "DIFFERS variant: stored corrected, now paper in its command",
       [](Json& j) { j["variant"] = "corrected"; }},
      {"command", "DIFFERS params.D: stored 2, now 3 in its command",
       [](Json& j) { j["command"] = "tverify check copy --D 3"; }},
      {"command-value",
       "DIFFERS command: stored tverify check copy --D x, now not a command of `tverify check copy`: --D must be an "
       "integer",
       [](Json& j) { j["command"] = "tverify check copy --D x"; }},
  };
  for (const auto& e : edits) {
    INFO(e.name);
    Json j = good;
    e.edit(j);
    write_text(cwd / (e.name + ".json"), j.dump());
    const CliResult r = run_in(cwd, {"recheck", e.name + ".json"});
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(e.must_mention) != std::string::npos);
  }
}

TEST_CASE("checkpoints: forged rows and other options are refused before --resume uses them", "[cli][fast]") {
  const fs::path cwd = tverify::testing::fresh_folder("outputs", "forged-checkpoint");
  const std::vector<std::string> base{"sweep", "copy",   "--fast",    "--variant", "corrected", "--D",   "3",  "--n",
                                      "2",     "--vary", "L=4:16:x2", "--samples", "4",         "--out", "out"};
  REQUIRE(run_in(cwd, base).exit_code == 0);
  const fs::path checkpoint = cwd / "out" / "copy-fast-L.checkpoint.json";
  const Json good = Json::parse(read_all(checkpoint));
  REQUIRE(good["rows"].size() == 3);
  auto resume = base;
  resume.push_back("--resume");
  struct Forgery {
    std::string name, must_mention;
    std::function<void(Json&)> edit;
  };
  const std::vector<Forgery> forgeries{
      {"errors above samples", "rows[0].errors", [](Json& j) { j["rows"][0]["errors"] = 5; }},
      {"no samples", "rows[1].samples", [](Json& j) { j["rows"][1]["samples"] = 0; }},
      {"negative", "rows[0].undecided", [](Json& j) { j["rows"][0]["undecided"] = -1; }},
      {"off the grid", "rows[2].L\" must be a point of this sweep's grid", [](Json& j) { j["rows"][2]["L"] = 12; }},
      {"duplicate", "duplicate", [](Json& j) { j["rows"][1]["L"] = 4; }},
      {"wrong type", "rows[0].steps", [](Json& j) { j["rows"][0]["steps"] = "many"; }},
      {"not a row", "rows[0]\" must be an object", [](Json& j) { j["rows"][0] = 4; }},
      {"other seed", "is for other parameters", [](Json& j) { j["params"]["seed"] = 2; }},
      {"more steps by bound than steps", "rows[0].steps_by_bound",
       [](Json& j) { j["rows"][0]["steps_by_bound"] = j["rows"][0]["steps"].get<std::uint64_t>() + 1; }},
      {"a field no row has", "rows[1].note\" must be absent", [](Json& j) { j["rows"][1]["note"] = "extra"; }},
  };
  for (const auto& f : forgeries) {
    INFO(f.name);
    Json j = good;
    f.edit(j);
    write_text(checkpoint, j.dump());
    const std::string csv = read_all(cwd / "out" / "copy-fast-L.csv");
    expect_one_line_error(run_in(cwd, resume), f.must_mention);
    CHECK(read_all(cwd / "out" / "copy-fast-L.csv") == csv);  // nothing already written is lost
  }
  write_text(checkpoint, good.dump());
  CHECK(run_in(cwd, resume).exit_code == 0);
}
