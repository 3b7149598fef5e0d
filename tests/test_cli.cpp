// cli: the tverify executable end to end. Bad input gets one line on stderr naming the parameter and its range,
// exit 2, nothing on stdout and no certificate; good runs write certificates that recheck reproduces.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("tverify-cli-test-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

CliRun run_cli(const std::string& args) {
  const fs::path out = scratch() / "stdout", err = scratch() / "stderr";
  const std::string command = std::string("env -u CI ") + TVERIFY_BINARY + " " + args + " >" + out.string() + " 2>" +
                              err.string() + " </dev/null";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

void expect_usage_error(const std::string& args, const std::string& must_mention) {
  INFO("tverify " << args);
  const CliRun r = run_cli(args);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(lines(r.err) == 1);
  CHECK(r.err.rfind("tverify: error: ", 0) == 0);
  CHECK(r.err.find(must_mention) != std::string::npos);
}

}  // namespace

TEST_CASE("bad parameters: one line naming the parameter and its range, exit 2", "[cli][bad-input]") {
  expect_usage_error("check copy --D 0", "--D must be an integer in [1, 64]");
  expect_usage_error("check copy --D x", "--D must be an integer in [1, 64] (got 'x')");
  expect_usage_error("check copy --D 2.5", "--D must be an integer");
  expect_usage_error("check copy --n 0", "--n must be an integer in [1, 64]");
  expect_usage_error("check copy --L 0", "--L must be an integer in [1, 4096]");
  expect_usage_error("check copy --S -3", "--S must be an integer in [1, ");
  expect_usage_error("check copy --threads 0", "--threads must be an integer in [1, 256]");
  expect_usage_error("check copy --variant fixed", "--variant must be one of paper, corrected");
  expect_usage_error("check copy --reading both3", "--reading must be one of both, text, formula");
  expect_usage_error("eval copy --input 0,5 --D 2", "--input token must be an integer in [0, 1]");
}

TEST_CASE("bad transformer parameters and proof options", "[cli][bad-input]") {
  expect_usage_error("check copy --tau 0",
                     "--tau must be an exact number > 0 (e.g. 12, 7/2, 3.5) or 'proof' (got '0')");
  expect_usage_error("check copy --tau -2", "--tau must be an exact number > 0");
  expect_usage_error("check copy --tau fast", "--tau must be an exact number > 0");
  expect_usage_error("check copy --embedding dense", "--embedding must be one of onehot, c2 (got 'dense')");
  expect_usage_error("eval copy --input 0,1 --bits 1", "--bits must be an integer in [2, 65536]");
  expect_usage_error("prove copy --timeout-s 0", "--timeout-s must be an integer in [1, 86400]");
  expect_usage_error("prove copy --claim copy.alg1", "--claim copy.alg1 has no Z3 proof");
  expect_usage_error("check copy --claim copy.lemma_c3", "is proved with `tverify prove copy`");
  expect_usage_error("prove copy --embedding c2 --claim copy.scores", "one-hot embedding only");
  std::ofstream(scratch() / "a-file") << "x";
  expect_usage_error("prove copy --smt2 " + (scratch() / "a-file").string(), "is not a writable directory");
}

TEST_CASE("prove --smt2 creates a missing folder, also when it is written with a trailing slash", "[cli]") {
  const fs::path dir = scratch() / "queries-with-slash";
  fs::remove_all(dir);
  const CliRun prove = run_cli("prove copy --D 2 --n 1 --L 2 --claim copy.lemma_c3 --smt2 " + dir.string() + "/");
  CHECK(prove.exit_code == 0);
  CHECK(fs::exists(dir / "copy.lemma_c3.smt2"));
}

TEST_CASE("prove writes a certificate that recheck reproduces", "[cli]") {
  const fs::path cert = scratch() / "prove.json";
  const CliRun prove = run_cli("prove copy --variant corrected --D 2 --n 1 --L 2 --json " + cert.string());
  CHECK(prove.exit_code == 0);
  CHECK(prove.out.find("copy.lemma_c3") != std::string::npos);
  const CliRun recheck = run_cli("recheck " + cert.string());
  CHECK(recheck.exit_code == 0);
  CHECK(recheck.out.find("reproduced") != std::string::npos);
}

TEST_CASE("sweep tau and L write CSV, PNG and JSON with the threshold", "[cli][sweep]") {
  const fs::path out = scratch() / "sweeps";
  // The probes are full exhaustive checks; this test asserts the files and that some probe verified the claim (at the
  // proof's tau the construction is verified: test_copy_transformer).
  const CliRun tau = run_cli("sweep copy --vary tau --variant corrected --out " + out.string());
  REQUIRE(tau.exit_code == 0);
  for (const char* ext : {".csv", ".png", ".json", ".gp"})
    CHECK(fs::exists(out / (std::string("tau-D2-n2-L4-onehot-corrected") + ext)));
  CHECK(slurp(out / "tau-D2-n2-L4-onehot-corrected.csv").find("verified") != std::string::npos);
  const CliRun length = run_cli("sweep copy --vary L --variant corrected --D 2 --n 2 --L-max 5 --out " + out.string());
  REQUIRE(length.exit_code == 0);
  // One row per L = 1..5; at L = 4, p_n-gram(text) = 1/2 (hand count in test_copy_claims).
  const std::string rows = slurp(out / "length-D2-n2-onehot-corrected.csv");
  CHECK(rows.find("\n5,") != std::string::npos);
  CHECK(rows.find(",1/2,0.5,") != std::string::npos);
  CHECK(fs::exists(out / "length-D2-n2-onehot-corrected.png"));
  const CliRun bits = run_cli("sweep copy --vary bits --variant corrected --D 2 --n 1 --L-max 3 --out " + out.string());
  REQUIRE(bits.exit_code == 0);
  CHECK(slurp(out / "bits-D2-n1-onehot-corrected.csv").find("L,min_bits,strings_tested") == 0);
}

TEST_CASE("every sweep writes a certificate that recheck reproduces, report tabulates and a forgery fails",
          "[cli][sweep]") {
  const fs::path out = scratch() / "sweep-certificates";
  // One small run of each kind of sweep: exhaustive probes (tau, L, bits, count3's values, a model's lengths), grids
  // (markov's two maps), the fast path with timed rows (error rate, formats, fewest bits), CAT's family probes against
  // L and against c, exact and fast.
  const std::vector<std::pair<std::string, std::string>> sweeps{
      {"sweep copy --vary tau --variant corrected --D 2 --n 2 --L 4", "tau-D2-n2-L4-onehot-corrected"},
      {"sweep copy --vary L --variant corrected --D 2 --n 2 --L-max 5", "length-D2-n2-onehot-corrected"},
      {"sweep copy --vary bits --variant corrected --D 2 --n 1 --L-max 3", "bits-D2-n1-onehot-corrected"},
      {"sweep count3 --vary values --n 2", "count3-values"},
      {"sweep model --vary lengths --onnx " + std::string(TVERIFY_SOURCE_DIR) +
           "/examples/models/sort.onnx --task sort --V 3 --lengths 1:3",
       "model-lengths"},
      {"sweep markov --vary pq --resolution 1/4", "markov-gap"},
      {"sweep markov --vary pq --resolution 1/4", "markov-h-alpha"},
      {"sweep copy --fast --D 16 --n 4 --vary L=8:32:x2 --samples 4", "copy-fast-L"},
      {"sweep copy --fast --D 16 --n 4 --vary L=8:16:x2 --formats float32,float16 --samples 2", "copy-fast-formats"},
      {"sweep copy --fast --D 4 --n 2 --vary L=8:16:x2 --min-bits --samples 2", "copy-fast-min-bits"},
      {"sweep cat --vary L --variant key_delay_full", "cat-c-vs-length"},
      {"sweep cat --vary c --variant ar --N 1 --V 2 --L-max 8", "cat-length-vs-c"},
      {"sweep cat --fast --vary c --variant ar --N 1 --V 3 --L-max 3000", "cat-length-vs-c"}};
  for (const auto& [command, output] : sweeps) {
    INFO(command);
    REQUIRE(run_cli(command + " --out " + out.string()).exit_code == 0);
    const fs::path cert = out / (output + ".json");
    auto j = nlohmann::json::parse(slurp(cert));
    CHECK(j["tool"] == "tverify");
    CHECK(j["verb"] == "sweep");
    CHECK(j["command"].get<std::string>().find(command) != std::string::npos);
    CHECK(j["sweep"]["output"] == output);
    CHECK(j["probes"]["rows"].size() + 1 == static_cast<std::size_t>(lines(slurp(out / (output + ".csv")))));
    const CliRun recheck = run_cli("recheck " + cert.string());
    CHECK(recheck.exit_code == 0);
    CHECK(recheck.out.find("reproduced (" + std::to_string(j["probes"]["rows"].size()) + " probes)") !=
          std::string::npos);
    // Made by another build: its version and commit, wherever the certificate names them, are not compared.
    j["version"] = "0.0.1";
    std::string other_build = j.dump(2);
    const std::string commit = j["commit"].get<std::string>();
    for (auto at = other_build.find(commit); at != std::string::npos; at = other_build.find(commit, at))
      other_build.replace(at, commit.size(), "0000000");
    std::ofstream(out / "other-build.json") << other_build;
    CHECK(run_cli("recheck " + (out / "other-build.json").string()).exit_code == 0);
    const CliRun table = run_cli("report --markdown " + cert.string());
    CHECK(table.exit_code == 0);
    CHECK(table.out.find("| " + j["probes"]["columns"][0].get<std::string>() + " |") != std::string::npos);
  }

  // The tau sweep states a bracket, not a point: at D = 2, n = 2, L = 4 the claim fails at 5/4 and holds at 21/16.
  const auto tau = nlohmann::json::parse(slurp(out / "tau-D2-n2-L4-onehot-corrected.json"));
  CHECK(tau["summary"]["largest_failing_tau"] == "5/4");
  CHECK(tau["summary"]["smallest_verified_tau"] == "21/16");
  CHECK(tau["summary"]["monotone_on_probes"] == true);

  // A forged summary, probe or top-level field is named; an output name that leaves the folder is refused.
  auto forge = [&](const std::string& name, auto change) {
    auto j = tau;
    change(j);
    std::ofstream(out / name) << j.dump(2);
    return (out / name).string();
  };
  const CliRun summary =
      run_cli("recheck " + forge("f1.json", [](auto& j) { j["summary"]["smallest_verified_tau"] = "5/4"; }));
  CHECK(summary.exit_code == 1);
  CHECK(summary.out.find("DIFFERS summary.smallest_verified_tau: stored 5/4, now 21/16") != std::string::npos);
  const CliRun probe = run_cli("recheck " + forge("f2.json", [](auto& j) { j["probes"]["rows"][1][2] = "verified"; }));
  CHECK(probe.out.find("DIFFERS probes.rows[1][2]: stored verified, now refuted") != std::string::npos);
  const CliRun hidden = run_cli("recheck " + forge("f6.json", [](auto& j) { j["summary"]["seconds"] = 1; }));
  CHECK(hidden.out.find("DIFFERS summary.seconds: stored 1, now absent") !=
        std::string::npos);  // only rows' are timings
  const CliRun top = run_cli("recheck " + forge("f3.json", [](auto& j) { j["variant"] = "paper"; }));
  CHECK(top.exit_code == 1);
  CHECK(top.out.find("DIFFERS variant: stored paper, now corrected in its command") != std::string::npos);
  CHECK(top.out.find("DIFFERS summary.config") == std::string::npos);  // the command's variant is what re-runs
  expect_usage_error("recheck " + forge("f4.json", [](auto& j) { j["sweep"]["output"] = "../elsewhere"; }),
                     "\"sweep.output\" must be a file name");
  expect_usage_error("report " + forge("f5.json", [](auto& j) { j["probes"]["rows"][0].erase(0); }),
                     "\"probes.rows[0]\" must be a list of 6 cells, one per column");
}

TEST_CASE("bad sweep requests are refused before any file is written", "[cli][bad-input]") {
  const fs::path out = scratch() / "sweeps-bad";
  expect_usage_error("sweep copy --vary depth --out " + out.string(), "--vary must be one of tau, L, bits");
  expect_usage_error("sweep copy --vary tau --out -", "--out must name a directory");
  expect_usage_error("sweep copy --vary tau --resolution 0 --out " + out.string(),
                     "--resolution must be an exact number in [1/1048576, 1000]");
  expect_usage_error("sweep copy --vary L --threshold 2 --out " + out.string(),
                     "--threshold must be an exact number in (0, 1]");
  expect_usage_error("sweep copy --vary L --D 2 --L-max 40 --out " + out.string(), "--max-inputs");
  CHECK_FALSE(fs::exists(out));
  std::ofstream(scratch() / "not-a-dir") << "x";
  expect_usage_error("sweep copy --vary tau --out " + (scratch() / "not-a-dir").string(),
                     "is not a writable directory");
}

TEST_CASE("unknown constructions and claims name what exists", "[cli][bad-input]") {
  expect_usage_error("check nope", "construction 'nope' does not exist (available: copy, count3, cat, markov, model)");
  expect_usage_error("list nope", "construction 'nope' does not exist");
  expect_usage_error("check copy --claim copy.nope", "--claim 'copy.nope' is not a claim of copy");
  expect_usage_error(
      "frobnicate",
      "'frobnicate' is not a verb (verbs: list, check, prove, sweep, eval, export, report, recheck, completion)");
}

TEST_CASE("a run above the budget is refused without --force", "[cli][bad-input]") {
  expect_usage_error("check copy --D 2 --L 30", "--max-inputs 10000000");
  expect_usage_error("check copy --D 2 --L 12 --max-inputs 100", "raise --max-inputs or pass --force");
  expect_usage_error("check copy --D 64 --L 20", "beyond 2^63");
}

TEST_CASE("an unwritable --json path is refused before any work, and nothing is written", "[cli][bad-input]") {
  expect_usage_error("check copy --json " + (scratch() / "missing-dir" / "c.json").string(), "does not exist");
  expect_usage_error("check copy --json " + scratch().string(), "is a directory");
  CHECK_FALSE(fs::exists(scratch() / "missing-dir"));
}

TEST_CASE("a failing run does not clobber an existing certificate", "[cli][bad-input]") {
  const fs::path cert = scratch() / "keep.json";
  std::ofstream(cert) << "precious";
  expect_usage_error("check copy --D 0 --json " + cert.string(), "--D");
  CHECK(slurp(cert) == "precious");
}

TEST_CASE("recheck refuses truncated, non-JSON and foreign certificates", "[cli][bad-input]") {
  const CliRun good =
      run_cli("check copy --claim copy.alg1 --D 2 --n 2 --L 4 --json " + (scratch() / "good.json").string());
  REQUIRE(good.exit_code == 1);  // the printed Algorithm 1 is refuted
  const std::string full = slurp(scratch() / "good.json");
  std::ofstream(scratch() / "trunc.json") << full.substr(0, full.size() - 20);
  std::ofstream(scratch() / "text.json") << "hello";
  std::ofstream(scratch() / "foreign.json") << R"({"tool": "other"})";
  expect_usage_error("recheck " + (scratch() / "trunc.json").string(), "truncated");
  expect_usage_error("recheck " + (scratch() / "text.json").string(), "not JSON");
  expect_usage_error("recheck " + (scratch() / "foreign.json").string(), "not a tverify certificate");
  expect_usage_error("recheck " + (scratch() / "absent.json").string(), "cannot be read");
}

TEST_CASE("check writes a certificate that recheck reproduces, and a tampered one is caught", "[cli]") {
  const fs::path cert = scratch() / "out.json";
  const CliRun check = run_cli("check copy --claim copy.alg1 --D 2 --n 2 --L 4 --json " + cert.string());
  CHECK(check.exit_code == 1);
  CHECK(check.out.find("copy.alg1 (text)") != std::string::npos);
  CHECK(check.out.find("refuted") != std::string::npos);
  CHECK(check.err.empty());
  const CliRun recheck = run_cli("recheck " + cert.string());
  CHECK(recheck.exit_code == 0);
  CHECK(recheck.out.find("reproduced") != std::string::npos);

  std::string text = slurp(cert);
  const auto at = text.find("\"refuted\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 9, "\"verified\"");
  std::ofstream(scratch() / "tampered.json") << text;
  const CliRun caught = run_cli("recheck " + (scratch() / "tampered.json").string());
  CHECK(caught.exit_code == 1);
  CHECK(caught.out.find("DIFFERS") != std::string::npos);
}

TEST_CASE("exit codes: 0 all verified, 1 refuted, 3 unknown", "[cli]") {
  // L = 5 holds the 4 binary 2-grams once each (e.g. 0 0 1 1 0); L = 6 has no repeat-free string, so nothing is
  // checked and the verdict is unknown, not a vacuous "verified".
  CHECK(run_cli("check copy --variant corrected --claim copy.alg1 --reading text --D 2 --n 2 --L 5").exit_code == 0);
  CHECK(run_cli("check copy --variant corrected --claim copy.alg1 --reading text --D 2 --n 2 --L 6").exit_code == 3);
  CHECK(run_cli("check copy --claim copy.alg1 --D 2 --n 2 --L 4").exit_code == 1);
  CHECK(run_cli("check copy --claim copy.thm2_7 --D 2 --L 3 --S 3").exit_code == 3);
}

TEST_CASE("a claim outside its hypotheses is vacuous: neither verified nor refuted, and no part of the exit code",
          "[cli]") {
  // copy.scores assumes 2L + 2 <= D^n (proof of Thm. 2.3); at D = 2, n = 2, L = 4 it does not hold (10 > 4). Under
  // the text reading the bound holds on all 8 repeat-free strings; under the formula reading it fails on 6 of 14.
  const fs::path cert = scratch() / "vacuous.json";
  const CliRun text = run_cli(
      "check copy --variant corrected --claim copy.scores --claim copy.err --reading text "
      "--D 2 --n 2 --L 4 --json " +
      cert.string());
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("copy.scores (text)         vacuous   checked 8, passed 8, failed 0, unknown 0  [holds outside "
                      "the claim's hypotheses]") != std::string::npos);
  CHECK(text.out.find("1 verified, 0 refuted, 0 unknown, 1 vacuous") != std::string::npos);
  const auto j = nlohmann::json::parse(slurp(cert));
  CHECK(j["claims"][0]["verdict"] == "vacuous");
  CHECK(j["claims"][0]["finding"] == "verified");
  CHECK(j["claims"][0]["outside_hypotheses"] == true);
  CHECK(run_cli("recheck " + cert.string()).exit_code == 0);
  const CliRun table = run_cli("report --markdown " + cert.string());
  CHECK(table.out.find("vacuous (holds outside hypotheses)") != std::string::npos);

  const CliRun formula = run_cli(
      "check copy --variant corrected --claim copy.scores --reading formula --D 2 --n 2 "
      "--L 4");
  CHECK(formula.exit_code == 0);  // the failures lie outside the hypotheses: they refute nothing the paper claims
  CHECK(formula.out.find("vacuous   checked 14, passed 8, failed 6, unknown 0  [fails outside") != std::string::npos);
  CHECK(formula.out.find("smallest counterexample: input [0,0,0,1]") != std::string::npos);

  // A certificate whose verdict and hypotheses disagree, or a vacuous one without its finding, is refused.
  auto forged = j;
  forged["claims"][0]["verdict"] = "verified";
  forged["claims"][0].erase("finding");
  std::ofstream(scratch() / "forged-vacuous.json") << forged.dump();
  expect_usage_error("recheck " + (scratch() / "forged-vacuous.json").string(),
                     "\"claims[0].verdict\" must be vacuous exactly when outside_hypotheses is true");
  forged = j;
  forged["claims"][0]["finding"] = "vacuous";
  std::ofstream(scratch() / "forged-finding.json") << forged.dump();
  expect_usage_error("report --markdown " + (scratch() / "forged-finding.json").string(),
                     "\"claims[0].finding\" must be verified, refuted or unknown");
}

TEST_CASE("every vacuous verdict says which hypothesis does not hold", "[cli]") {
  // copy at L = 5 > D^n = 4 (Theorem 2.3's range, and 2L + 2 > D^n for the score proof), CAT with the filter 1,1
  // (tokens 0,1 and 1,0 convolve alike: the signatures are not distinct), the Markov chain with p + q = 2/5 <= 1.
  const std::vector<std::pair<std::string, std::string>> runs{
      {"check copy --D 2 --n 2 --L 5", "copy.thm2_3"},
      {"check cat --filter 1,1 --V 3 --N 2", "cat.thm1.key_delay"},
      {"check markov --p 1/5 --q 1/5 --N 3 --tied", "markov.thm2.stationary"}};
  for (const auto& [command, expected_vacuous] : runs) {
    INFO(command);
    const fs::path cert = scratch() / "reasons.json";
    run_cli(command + " --json " + cert.string());
    const auto j = nlohmann::json::parse(slurp(cert));
    std::set<std::string> vacuous;
    for (const auto& c : j["claims"])
      if (c["verdict"] == "vacuous") {
        INFO(c["id"]);
        vacuous.insert(c["id"].get<std::string>());
        CHECK(c.contains("reason"));
        CHECK(c.value("reason", std::string()).find("assume") != std::string::npos);
      }
    CHECK(vacuous.count(expected_vacuous) == 1);
  }
}

TEST_CASE("list, eval --trace and report print what they promise", "[cli]") {
  const CliRun list = run_cli("list copy");
  CHECK(list.exit_code == 0);
  CHECK(list.out.find("copy.lemma2_4") != std::string::npos);
  CHECK(list.out.find("--D") != std::string::npos);

  const CliRun eval = run_cli("eval copy --n 2 --D 2 --input 0,0,1,0 --trace");
  CHECK(eval.exit_code == 0);
  CHECK(eval.out.find("k_4 = (0 1)") != std::string::npos);
  CHECK(eval.out.find("copied: no") != std::string::npos);
  const CliRun finite = run_cli("eval copy --n 2 --D 2 --input 0,0,1,0 --variant corrected --bits 24");
  CHECK(finite.exit_code == 0);
  CHECK(finite.out.find("MPFR at 24 bits") != std::string::npos);
  CHECK(finite.out.find("copies x") != std::string::npos);  // the exact run copies it (test_copy_transformer)

  const fs::path cert = scratch() / "for-report.json";
  run_cli("check copy --D 2 --n 1 --L 2 --json " + cert.string());
  const CliRun md = run_cli("report --markdown " + cert.string());
  CHECK(md.exit_code == 0);
  CHECK(md.out.find("| copy | paper |") != std::string::npos);
  const CliRun tex = run_cli("report --latex " + cert.string());
  CHECK(tex.out.find("\\begin{longtable}") != std::string::npos);
  const CliRun some = run_cli("report --markdown --columns claim,verdict " + cert.string());
  CHECK(some.out.find("| claim | verdict |\n") != std::string::npos);
  expect_usage_error("report --columns claim,verdit " + cert.string(),
                     "--columns: 'verdit' is not a column of these tables (columns: construction, variant,");
}

TEST_CASE("help works for every verb and exits 0", "[cli]") {
  for (const char* verb : {"", "list", "check", "check copy", "eval copy", "report", "recheck"}) {
    INFO(verb);
    const CliRun r = run_cli(std::string(verb) + " --help");
    CHECK(r.exit_code == 0);
    CHECK_FALSE(r.out.empty());
  }
  // Each option names the kind of value it takes.
  const std::string help = run_cli("check model --help").out;
  for (const char* typed : {"--onnx FILE", "--V INT", "--lengths LO:HI", "--p RATIONAL", "--task WORD", "--threads INT",
                            "--json FILE", "--claim ID", "--max-memory SIZE"})
    CHECK(help.find(typed) != std::string::npos);
  // No help names a value only TEXT, and no file is described as text: every verb of every construction.
  std::vector<std::string> commands{"list", "report", "recheck", "completion", "export", "weights"};
  for (const char* verb : {"check", "prove", "sweep", "eval"})
    for (const char* name : {"copy", "count3", "cat", "markov", "model"})
      commands.push_back(std::string(verb) + " " + name);
  for (const auto& command : commands) {
    const CliRun r = run_cli(command + " --help");
    if (r.exit_code != 0) continue;  // a verb the construction has not (prove cat)
    INFO(command);
    CHECK(r.out.find(" TEXT") == std::string::npos);
    CHECK(r.out.find("(text") == std::string::npos);
  }
  for (const char* name : {"copy", "count3", "cat", "markov", "model"}) {  // nor does `tverify list NAME`
    const CliRun r = run_cli(std::string("list ") + name);
    INFO("list " << name);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("(text") == std::string::npos);
  }
  CHECK(run_cli("list cat").out.find("(default geometric)") != std::string::npos);
  CHECK(run_cli("sweep markov --help").out.find("--resolution RATIONAL") != std::string::npos);
  CHECK(run_cli("sweep copy --help").out.find("--formats LIST") != std::string::npos);
  CHECK(run_cli("report --help").out.find("certificates FILE") != std::string::npos);
}

TEST_CASE("count3: bad input gets one line and exit 2", "[cli][bad-input][count3]") {
  expect_usage_error("check count3 --values 5:3", "--values must be a range lo:hi of integers with 0 <= lo <= hi");
  expect_usage_error("check count3 --values -1:4", "--values must be a range lo:hi");
  expect_usage_error("check count3 --values 4", "--values must be a range lo:hi");
  expect_usage_error("check count3 --n 0", "--n must be an integer in [1, 64]");
  expect_usage_error("eval count3 --input ''", "--input needs a value (got an empty string)");
  expect_usage_error("eval count3 --input 1,-2", "--input value must be an integer in [0, 1000000000]");
  expect_usage_error("eval count3 --input 1,2 --program alg9", "--program must be one of all, alg4, alg5, alg6");
  expect_usage_error("sweep count3 --vary values --program alg5 --out " + (scratch() / "c3").string(), "Match3'");
  expect_usage_error("prove count3 --claim count3.alg4", "--claim count3.alg4 has no Z3 proof");
  expect_usage_error("check count3 --n 12 --values 0:9", "--max-inputs");
}

TEST_CASE("count3: check writes a certificate that recheck reproduces, and prove proves Lemma A.6", "[cli][count3]") {
  const fs::path cert = scratch() / "count3.json";
  const CliRun check = run_cli("check count3 --claim count3.alg4 --n 4 --values 0:3 --json " + cert.string());
  CHECK(check.exit_code == 1);  // refuted as printed: [1, 2] (errata N1)
  const CliRun recheck = run_cli("recheck " + cert.string());
  CHECK(recheck.exit_code == 0);
  const CliRun corrected = run_cli("check count3 --variant corrected --claim count3.alg4 --n 4 --values 0:3");
  CHECK(corrected.exit_code == 0);
  const CliRun prove = run_cli("prove count3");
  CHECK(prove.exit_code == 0);
  CHECK(prove.out.find("count3.lemma_a6") != std::string::npos);
}

TEST_CASE("count3: the value sweep writes CSV, PNG and JSON", "[cli][sweep][count3]") {
  const fs::path out = scratch() / "count3-sweep";
  const CliRun sweep = run_cli("sweep count3 --vary values --n 3 --L-max 5 --out " + out.string());
  CHECK(sweep.exit_code == 0);
  for (const char* ext : {".csv", ".png", ".json", ".gp"})
    CHECK(fs::exists(out / (std::string("count3-values") + ext)));
}

TEST_CASE("count3: the value sweep runs Algorithm 4 in the run's variant", "[cli][sweep][count3]") {
  // Errata N1: Algorithm 4 as printed agrees with eq. (4) while every value is below the length n, and fails on some
  // sequence once a value reaches it; the corrected one agrees everywhere.
  const fs::path paper = scratch() / "count3-sweep-paper", corrected = scratch() / "count3-sweep-corrected";
  REQUIRE(run_cli("sweep count3 --vary values --n 3 --L-max 4 --program alg4 --out " + paper.string()).exit_code == 0);
  REQUIRE(run_cli("sweep count3 --vary values --n 3 --L-max 4 --program alg4 --variant corrected --out " +
                  corrected.string())
              .exit_code == 0);
  const std::string printed = slurp(paper / "count3-values.csv"), fixed = slurp(corrected / "count3-values.csv");
  CHECK(printed.find("K,sequences,alg4_agree,alg4_fraction\n1,8,8,") == 0);
  CHECK(printed.find("\n2,27,27,") != std::string::npos);
  CHECK(printed.find("\n3,64,64,") == std::string::npos);
  CHECK(fixed.find("K,sequences,alg4-corrected_agree,alg4-corrected_fraction\n") == 0);
  for (const char* row : {"\n1,8,8,", "\n2,27,27,", "\n3,64,64,", "\n4,125,125,"})
    CHECK(fixed.find(row) != std::string::npos);
}

TEST_CASE("cat: bad input gets one line and exit 2", "[cli][bad-input][cat]") {
  expect_usage_error("check cat --V 1", "--V must be an integer in [2, 16]");
  expect_usage_error("check cat --N 0", "--N must be an integer in [1, 4]");
  expect_usage_error("check cat --c 0", "--c must be an exact number in (0, 1000000]");
  expect_usage_error("check cat --c -1/2", "--c must be an exact number in (0, 1000000]");
  expect_usage_error("check cat --c 1000001", "--c must be an exact number in (0, 1000000]");
  expect_usage_error("check cat --filter 0,0", "--filter must be 'geometric'");
  expect_usage_error("check cat --filter 1,x", "--filter must be 'geometric'");
  expect_usage_error("check cat --N 2 --filter 1", "--filter must have length N = 2");
  expect_usage_error("check cat --N 2 --L 2", "--L must be at least N + 1 = 3");
  expect_usage_error("check cat --variant ar --N 2", "--N must be 1 for --variant ar");
  expect_usage_error("check cat --V 2 --embedding custom --vectors '1,0;1,0'", "are equal");
  expect_usage_error("check cat --V 2 --embedding custom --vectors '1,1;1,0'", "is not a unit vector");
  expect_usage_error("check cat --V 3 --embedding custom --vectors '1,0;0,1'", "--vectors must give");
  expect_usage_error("check cat --variant key_delay --claim cat.thm1.value_delay",
                     "is checked with --variant value_delay");
  expect_usage_error("check cat --V 16 --L 64", "--max-inputs");
}

TEST_CASE("cat: check writes a certificate that recheck reproduces, and sweeps write their files", "[cli][cat]") {
  const fs::path cert = scratch() / "cat.json";
  const CliRun check = run_cli("check cat --V 3 --N 2 --L 6 --variant key_delay_full --json " + cert.string());
  CHECK(check.exit_code == 0);
  CHECK(run_cli("recheck " + cert.string()).exit_code == 0);
  const fs::path out = scratch() / "cat-sweep";
  CHECK(run_cli("sweep cat --vary L --variant key_delay_full --V 2 --L 5 --out " + out.string()).exit_code == 0);
  CHECK(fs::exists(out / "cat-c-vs-length.png"));
  // Each L states a bracket: c_largest_failing (a multiple of 1/64 that fails) below c_min, and whether the bisection's
  // probes are monotone.
  const auto smallest_c = nlohmann::json::parse(slurp(out / "cat-c-vs-length.json"))["summary"];
  CHECK(smallest_c["monotone_on_probes"] == true);
  for (const auto& row : smallest_c["rows"]) {
    CHECK(row["monotone_on_probes"] == true);
    if (row["c_largest_failing"] != "-" && row["c_min"].get<std::string>().find('/') != std::string::npos)
      CHECK(row["c_largest_failing"] != row["c_min"]);
  }
  CHECK(slurp(out / "cat-c-vs-length.csv").find(",c_largest_failing,monotone_on_probes\n") != std::string::npos);
  CHECK(run_cli("sweep cat --vary c --variant ar --N 1 --V 2 --L-max 8 --out " + out.string()).exit_code == 0);
  CHECK(fs::exists(out / "cat-length-vs-c.csv"));
  CHECK(fs::exists(out / "cat-length-vs-c.png"));
  const auto length_limit = nlohmann::json::parse(slurp(out / "cat-length-vs-c.json"))["summary"];
  CHECK(length_limit["monotone_on_probes"] == true);
  CHECK(length_limit["rows"][0]["series1"]["family_monotone_on_probes"] == true);
}

TEST_CASE("cat --fast sweep: AR's length limits at L up to 3 * 10^5 are the hand-derived e^{c^2} + 3",
          "[cli][cat][fast][heavy]") {
  // tests/test_fast_cat.cpp derives them: the last L solved is the largest L with L - 3 < e^{c^2}.
  const fs::path out = scratch() / "cat-fast";
  CHECK(run_cli("sweep cat --fast --vary c --variant ar --N 1 --V 3 --L-max 300000 --out " + out.string()).exit_code ==
        0);
  const std::string csv = slurp(out / "cat-length-vs-c.csv");
  CHECK(csv.find("\n3,9.0000,8106,upper,") != std::string::npos);
  CHECK(csv.find("\n7/2,12.2500,208984,upper,") != std::string::npos);
  CHECK(csv.find("\n15/4,14.0625,300000,at_cap,") != std::string::npos);
  CHECK(fs::exists(out / "cat-length-vs-c.png"));
  CHECK(slurp(out / "cat-length-vs-c.json").find("fast path") != std::string::npos);
  expect_usage_error("sweep cat --fast --vary c --L-max 2000000 --out " + out.string(),
                     "--L-max must be an integer in [3, 1048576]");
  expect_usage_error("sweep cat --vary c --L-max 5000 --out " + out.string(),
                     "--L-max must be an integer in [4, 4096]");
  expect_usage_error("sweep cat --vary c --resume --out " + out.string(),
                     "--resume is not an option of sweep cat --vary c");
  expect_usage_error("sweep markov --fast --vary pq --out " + out.string(),
                     "--fast is not an option of `tverify sweep markov`");
  expect_usage_error("sweep count3 --fast --vary values --out " + out.string(),
                     "--fast is not an option of `tverify sweep count3`");
}

TEST_CASE("cat --fast sweeps: a killed sweep resumes without losing a finished point", "[cli][cat][fast][heavy]") {
  struct Sweep {
    std::string args, name;
  };
  for (const Sweep& sweep : {Sweep{"--vary c --variant ar --N 1 --V 3 --L-max 3000", "cat-length-vs-c"},
                             Sweep{"--vary L --variant ar --N 1 --V 3 --L 9", "cat-c-vs-length"}}) {
    INFO(sweep.name);
    const fs::path out = scratch() / ("resume-" + sweep.name);
    fs::remove_all(out);
    const std::string base = "sweep cat --fast " + sweep.args + " --out " + out.string();
    REQUIRE(run_cli(base).exit_code == 0);
    const std::string full_csv = slurp(out / (sweep.name + ".csv"));
    // Kill after two points: keep them in the checkpoint, mark one so that a recomputation would show, drop the rest.
    const fs::path checkpoint = out / (sweep.name + ".checkpoint.json");
    nlohmann::ordered_json cp = nlohmann::ordered_json::parse(slurp(checkpoint));
    auto& rows = cp["rows"];
    REQUIRE(rows.size() > 3);
    rows.erase(rows.begin() + 2, rows.end());
    rows[0]["cells"][1] = "12345";
    std::ofstream(checkpoint) << cp.dump();
    fs::remove(out / (sweep.name + ".csv"));
    REQUIRE(run_cli(base + " --resume").exit_code == 0);
    const std::string resumed = slurp(out / (sweep.name + ".csv"));
    CHECK(resumed.find(",12345,") != std::string::npos);  // the finished point was kept, not recomputed
    CHECK(std::count(resumed.begin(), resumed.end(), '\n') == std::count(full_csv.begin(), full_csv.end(), '\n'));
    // The checkpoint holds every point again, one row per CSV line after the header.
    CHECK(nlohmann::json::parse(slurp(checkpoint))["rows"].size() ==
          static_cast<std::size_t>(std::count(full_csv.begin(), full_csv.end(), '\n') - 1));
    std::string other = sweep.args;
    other.replace(other.find("--V 3"), 5, "--V 4");
    expect_usage_error("sweep cat --fast " + other + " --resume --out " + out.string(), "is for other parameters");
    std::ofstream(checkpoint) << "{\"params\": ";
    expect_usage_error(base + " --resume", "is truncated (incomplete JSON)");
    fs::remove(checkpoint);
    expect_usage_error(base + " --resume", "--resume: no checkpoint at");
  }
}

TEST_CASE("markov: bad input gets one line and exit 2", "[cli][bad-input][markov]") {
  expect_usage_error("check markov --p 1", "--p must be an exact number strictly between 0 and 1");
  expect_usage_error("check markov --q 0", "--q must be an exact number strictly between 0 and 1");
  expect_usage_error("check markov --q x", "--q must be an exact number strictly between 0 and 1");
  expect_usage_error("check markov --d 0", "--d must be an integer in [1, 16]");
  expect_usage_error("check markov --N 0", "--N must be an integer in [1, 16]");
  expect_usage_error("check markov --r 0", "--r must be an integer in [1, 64]");
  expect_usage_error("check markov --m 0", "--m must be an integer in [1, 16]");
  expect_usage_error("check markov --claim markov.thm1", "add --tied");
  expect_usage_error("check markov --tied --claim markov.thm4", "drop --tied");
  expect_usage_error("check markov --N 16 --d 16 --r 64 --m 16", "--max-inputs");
  expect_usage_error("sweep markov --vary pq --resolution 1/1 --out " + (scratch() / "m").string(), "--resolution");
  expect_usage_error("prove markov --d 8", "--d must be in [1, 4]");
  const fs::path point = scratch() / "markov-point.json";
  std::ofstream(point) << R"({"e": ["1/2"], "p": [["-1/4"]], "W_Q": [["1"]], "W_K": [["2"]], "W_V": [["1/3"]],
                             "W_O": [["1"]], "W_1": [["1"]], "W_2": [["-1"]], "b": "0"})";
  const std::string small = "eval markov --d 1 --m 1 --r 1 --N 1 --input 1 --point-file " + point.string();
  CHECK(run_cli(small + " --tied").exit_code == 0);
  expect_usage_error(small, "block a is missing");
  expect_usage_error("eval markov --d 2 --m 1 --r 1 --N 1 --tied --input 1 --point-file " + point.string(),
                     "block e must be a list of d = 2 numbers");
  // JSON numbers are the decimals they are written as: 0.1 is 1/10, not the double nearest to it.
  const fs::path as_numbers = scratch() / "markov-point-numbers.json",
                 as_strings = scratch() / "markov-point-strings.json";
  std::ofstream(as_numbers) << R"({"e": [0.5], "p": [[-0.25]], "W_Q": [[1]], "W_K": [[2]], "W_V": [[0.1]],
                                   "W_O": [[1e-3]], "W_1": [[1]], "W_2": [[-1]], "b": 0.3333})";
  std::ofstream(as_strings) << R"({"e": ["1/2"], "p": [["-1/4"]], "W_Q": [["1"]], "W_K": [["2"]], "W_V": [["1/10"]],
                                   "W_O": [["1/1000"]], "W_1": [["1"]], "W_2": [["-1"]], "b": "3333/10000"})";
  const std::string tied = "eval markov --d 1 --m 1 --r 1 --N 1 --input 1 --tied --point-file ";
  const auto from_numbers = run_cli(tied + as_numbers.string());
  const auto from_strings = run_cli(tied + as_strings.string());
  CHECK(from_numbers.exit_code == 0);
  CHECK(from_numbers.out == from_strings.out);
  std::ofstream(scratch() / "far-point.json") << R"({"e": [0.5], "p": [[-0.25]], "W_Q": [[1]], "W_K": [[2]],
                                                     "W_V": [[0.1]], "W_O": [[1]], "W_1": [[1]], "W_2": [[-1]], "b": 2e6})";
  expect_usage_error(tied + (scratch() / "far-point.json").string(), "b must be an exact number with |x| <= 10^6");
  std::ofstream(scratch() / "bad-point.json") << "{\"e\": [";
  expect_usage_error("eval markov --tied --input 1 --point-file " + (scratch() / "bad-point.json").string(),
                     "is truncated (incomplete JSON)");
}

TEST_CASE("markov: check writes a certificate that recheck reproduces, and the (p, q) sweep its heat maps",
          "[cli][markov]") {
  const fs::path cert = scratch() / "markov.json";
  const CliRun check = run_cli("check markov --p 1/2 --q 4/5 --d 2 --r 2 --N 3 --tied --json " + cert.string());
  // markov.lemma2 and Theorem 2's local minimality are unknown by design; everything else verified
  CHECK(check.exit_code == 3);
  CHECK(check.out.find("markov.thm2.stationary") != std::string::npos);
  const auto certificate = nlohmann::json::parse(slurp(cert));
  for (const auto& claim : certificate["claims"]) {
    INFO(claim["id"]);
    const std::string id = claim["id"];
    if (id == "markov.lemma2" || id == "markov.thm2.local_minimum") {
      CHECK(claim["verdict"] == "unknown");
      CHECK(!claim["reason"].get<std::string>().empty());
    } else {
      CHECK(claim["verdict"] == "verified");
    }
  }
  CHECK(run_cli("recheck " + cert.string()).exit_code == 0);
  const fs::path out = scratch() / "markov-sweep";
  CHECK(run_cli("sweep markov --vary pq --resolution 1/5 --N 2 --out " + out.string()).exit_code == 0);
  CHECK(fs::exists(out / "markov-h-alpha.png"));
  CHECK(fs::exists(out / "markov-gap.png"));
}

TEST_CASE("copy --fast sweep: CSV, plot and certificate; a killed sweep resumes without losing a finished point",
          "[cli][fast]") {
  const fs::path out = scratch() / "copy-fast";
  fs::remove_all(out);
  const std::string base =
      "sweep copy --fast --variant corrected --D 3 --n 2 --vary L=4:32:x2 --samples 20 --out " + out.string();
  REQUIRE(run_cli(base).exit_code == 0);
  for (const char* ext : {".csv", ".png", ".json", ".gp"}) CHECK(fs::exists(out / (std::string("copy-fast-L") + ext)));
  const std::string full_csv = slurp(out / "copy-fast-L.csv");
  // Kill after two points: keep them in the checkpoint, mark them so that a recomputation would show, drop the rest.
  const fs::path checkpoint = out / "copy-fast-L.checkpoint.json";
  nlohmann::ordered_json cp = nlohmann::ordered_json::parse(slurp(checkpoint));
  auto& rows = cp["rows"];
  rows.erase(rows.begin() + 2, rows.end());
  rows[0]["seconds"] = 12345.0;
  std::ofstream(checkpoint) << cp.dump();
  fs::remove(out / "copy-fast-L.csv");
  REQUIRE(run_cli(base + " --resume").exit_code == 0);
  const std::string resumed = slurp(out / "copy-fast-L.csv");
  CHECK(resumed.find("12345.000") != std::string::npos);  // the finished point was kept, not recomputed
  CHECK(std::count(resumed.begin(), resumed.end(), '\n') == std::count(full_csv.begin(), full_csv.end(), '\n'));
  expect_usage_error(
      "sweep copy --fast --variant corrected --D 3 --n 2 --vary L=4:32:x2 --samples 21 --resume --out " + out.string(),
      "is for other parameters");
  expect_usage_error("sweep copy --fast --vary L=4:2:x2 --out " + out.string(), "--vary must be L=lo:hi:xF");
  expect_usage_error("sweep copy --fast --vary L=4:64:x1 --out " + out.string(), "--vary must be L=lo:hi:xF");
  expect_usage_error("sweep copy --fast --embedding c2 --vary L=4:8:x2 --out " + out.string(),
                     "+-1/sqrt(3) here; the fast path computes in integers); use --embedding onehot, or a D where r "
                     "is a square");
  // At D = 16 the corrected codes are +-1/sqrt(4): rational, so the fast path takes them.
  const std::string c2_sweep = "sweep copy --fast --embedding c2 --variant corrected --D 16 --n 2 --vary L=8:16:x2";
  CHECK(run_cli(c2_sweep + " --samples 4 --out " + (out / "c2").string()).exit_code == 0);
  // Scores past 32 bits: at n = 6, M = lcm(1..7) is 7 times lcm(1..6), and the score scale grows with M^2.
  expect_usage_error("sweep copy --fast --variant corrected --D 16 --n 6 --vary L=12:12:x2 --out " + out.string(),
                     "--n: with D = 16 and --variant corrected the fast path takes n <= 5");
  // The printed weights give larger integer scores (bounds about 4 times the corrected ones'): at D = 48 the default
  // (paper) variant stops one n earlier, and says where the corrected one stops.
  expect_usage_error("sweep copy --fast --D 48 --n 5 --vary L=10:10:x2 --out " + out.string(),
                     "--n: with D = 48 and --variant paper the fast path takes n <= 4");
  expect_usage_error("sweep copy --fast --D 48 --n 5 --vary L=10:10:x2 --out " + out.string(),
                     "--variant corrected takes n <= 5");
  // The documented sweep configuration (README, docs/fast.md) takes the default variant (the printed weights): CSV,
  // plot and certificate.
  const fs::path printed = scratch() / "copy-fast-printed";
  fs::remove_all(printed);
  CHECK(run_cli("sweep copy --fast --D 16 --n 4 --vary L=8:32:x2 --samples 8 --out " + printed.string()).exit_code ==
        0);
  for (const char* ext : {".csv", ".png", ".json"}) CHECK(fs::exists(printed / (std::string("copy-fast-L") + ext)));
  CHECK(slurp(printed / "copy-fast-L.json").find("\"variant\": \"paper\"") != std::string::npos);
  expect_usage_error("sweep copy --resume --vary L --out " + out.string(),
                     "--resume is not an option of sweep copy --vary L");
}

TEST_CASE("copy --fast --formats and --min-bits: measurements written, bad input refused", "[cli][fast]") {
  const fs::path out = scratch() / "copy-formats";
  const std::string base =
      "sweep copy --fast --variant corrected --D 3 --n 2 --vary L=4:8:x2 --samples 4 --out " + out.string();
  REQUIRE(run_cli(base + " --formats float32,bfloat16,float16").exit_code == 0);
  CHECK(fs::exists(out / "copy-fast-formats.png"));
  const std::string formats_csv = slurp(out / "copy-fast-formats.csv");
  REQUIRE(run_cli(base + " --formats float32,bfloat16,float16 --resume").exit_code == 0);  // nothing left to run
  CHECK(slurp(out / "copy-fast-formats.csv") == formats_csv);
  expect_usage_error(base + " --formats float32 --resume", "is for other parameters");
  REQUIRE(run_cli(base + " --min-bits").exit_code == 0);
  CHECK(slurp(out / "copy-fast-min-bits.csv").find("L,samples,exact_copied,min_bits") == 0);
  // --resume keeps a finished point (marked) and recomputes the rest.
  const fs::path checkpoint = out / "copy-fast-min-bits.checkpoint.json";
  nlohmann::ordered_json cp = nlohmann::ordered_json::parse(slurp(checkpoint));
  cp["rows"].erase(cp["rows"].begin() + 1, cp["rows"].end());
  cp["rows"][0]["seconds"] = 12345.0;
  std::ofstream(checkpoint) << cp.dump();
  REQUIRE(run_cli(base + " --min-bits --resume").exit_code == 0);
  const std::string resumed = slurp(out / "copy-fast-min-bits.csv");
  CHECK(resumed.find("12345.000") != std::string::npos);
  CHECK(std::count(resumed.begin(), resumed.end(), '\n') == 3);  // header, L = 4, L = 8
  expect_usage_error(base + " --min-bits --formats float32", "separate sweeps");
  expect_usage_error(base + " --formats float8", "--formats must be a comma-separated list");
  expect_usage_error("sweep copy --fast --D 2 --n 2 --vary L=4:64:x2 --min-bits --out " + out.string(),
                     "L must stay <= D^n = 4");
}

TEST_CASE("the version flag, usage on a bare tverify, and - for stdout", "[cli]") {
  const CliRun version = run_cli("--version");
  CHECK(version.exit_code == 0);
  CHECK(version.out.rfind("tverify 0.", 0) == 0);
  CHECK(version.out.find("(commit ") != std::string::npos);
  CHECK(version.out.find("CITATION.cff") != std::string::npos);
  CHECK(run_cli("-V").out == version.out);
  const CliRun bare = run_cli("");
  CHECK(bare.exit_code == 0);
  CHECK(bare.out.find("Usage: tverify") != std::string::npos);
  CHECK(bare.out.find("check") != std::string::npos);
  // --json -: the certificate alone on stdout (it parses), the report on stderr, and no file named '-'
  const CliRun to_stdout = run_cli("check copy --claim copy.err --json - --threads 1");
  CHECK(to_stdout.exit_code == 1);  // copy.err is refuted at the defaults (docs/claims.md)
  const nlohmann::json cert = nlohmann::json::parse(to_stdout.out);
  CHECK(cert["claims"][0]["id"] == "copy.err");
  CHECK(to_stdout.err.find("copy.err") != std::string::npos);
  CHECK_FALSE(fs::exists(fs::current_path() / "-"));
  const CliRun model = run_cli("export copy --onnx -");
  CHECK(model.exit_code == 0);
  CHECK(model.out.size() > 1000);  // the serialized model, not the "written" line
  CHECK(model.out.find("copy_transformer") != std::string::npos);
}

TEST_CASE("eval --json: the result and every traced block as exact tensors, to a file or stdout", "[cli]") {
  const CliRun run = run_cli("eval copy --D 2 --n 2 --input 0,0,1,0 --trace --json -");
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.find("k_4 = (0 1), v_4 = 0") != std::string::npos);  // the text goes to stderr
  const auto j = nlohmann::json::parse(run.out);
  CHECK(j["verb"] == "eval");
  CHECK(j["input"] == "0,0,1,0");
  // Algorithm 1 (paper) keys only from i = n + 2 = 4: k_4 = (x_2 x_3) = (0 1) -> x_4 = 0; q_3 = (0 0) matches none.
  CHECK(j["result"]["algorithm1"]["keys"] == nlohmann::json::parse(R"([{"i": 4, "key": [0, 1], "value": 0}])"));
  CHECK(j["result"]["algorithm1"]["copied"] == false);
  std::map<std::string, nlohmann::json> trace;
  for (const auto& t : j["trace"]) trace[t["name"]] = t;
  // <BOS> 0 0 1 0 <COPY> 0 0 1: 9 positions; one-hot d = D + 2 = 4; keys and queries n (d + 1) = 10 wide.
  CHECK(trace["layer1.value"]["shape"] == nlohmann::json::parse("[9, 4]"));
  CHECK(trace["layer1.key"]["shape"] == nlohmann::json::parse("[9, 10]"));
  // The score line the text prints at position 8 and the tensor hold the same exact scores.
  CHECK(run.err.find("step at position 8: z = (0 0 0 2 1 1 1 1)") != std::string::npos);
  CHECK(trace["layer2.scores.position_8"]["values"] == nlohmann::json::parse(R"(["0","0","0","2","1","1","1","1"])"));

  const fs::path file = scratch() / "eval.json";
  const CliRun to_file = run_cli("eval cat --V 2 --N 2 --input 0,0,1,0,0 --trace --json " + file.string());
  CHECK(to_file.exit_code == 0);
  CHECK(nlohmann::json::parse(slurp(file))["result"]["decoded"].size() == 5);
  expect_usage_error("eval copy --input 0,1 --json " + (scratch() / "no-such-dir" / "e.json").string(),
                     "does not exist");
}

TEST_CASE("printed enclosures: short by default, every digit with --digits 0, the certificate always full", "[cli]") {
  const CliRun short_run = run_cli("eval markov --input 1,0,1");
  CHECK(short_run.out.find("logit [-1.3863, -1.38629]") != std::string::npos);
  const CliRun full = run_cli("eval markov --input 1,0,1 --digits 0");
  CHECK(full.out.find("logit [-1.386294361119890618834464242916353136203e+00, ") != std::string::npos);
  CHECK(run_cli("eval markov --input 1,0,1 --digits 3").out.find("logit [-1.39, -1.38]") != std::string::npos);
  expect_usage_error("eval markov --input 1,0,1 --digits -1", "--digits must be an integer in [0, 1000]");
  expect_usage_error("check markov --digits x", "--digits must be an integer in [0, 1000]");
}

TEST_CASE("a misspelt option or claim id gets the closest one suggested", "[cli][bad-input]") {
  expect_usage_error("check copy --d 2", "--d is not an option of `tverify check copy`; did you mean --D?");
  expect_usage_error("check copy --Tau 3", "did you mean --tau?");
  expect_usage_error("check copy --frobnicate", "--frobnicate is not an option of `tverify check copy`");
  expect_usage_error("check copy --claim copy.thm23", "is not a claim of copy; did you mean copy.thm2_3?");
  expect_usage_error("sweep copy --vary L --out o --L-mx 5", "did you mean --L-max?");
  // Verbs, constructions, the options of every command, and a misspelt option that is also a required one.
  expect_usage_error("chek copy",
                     "'chek' is not a verb (verbs: list, check, prove, sweep, eval, export, report, "
                     "recheck, completion); did you mean check?");
  expect_usage_error("check cpy",
                     "construction 'cpy' does not exist (available: copy, count3, cat, markov, model); "
                     "did you mean copy?");
  expect_usage_error("report --markdwn c.json",
                     "--markdwn is not an option of `tverify report`; did you mean "
                     "--markdown? (see `tverify report --help`)");
  expect_usage_error("recheck --thread 2 c.json",
                     "--thread is not an option of `tverify recheck`; did you mean "
                     "--threads?");
  expect_usage_error("--verison", "--verison is not an option of `tverify`; did you mean --version?");
  expect_usage_error("sweep copy --vry tau --out o",
                     "--vry is not an option of `tverify sweep copy`; did you mean "
                     "--vary?");
}

TEST_CASE("the README's first example exits as the README says", "[cli]") {
  // As printed some of the paper's statements are refuted; corrected, the formula reading of Definition 2.2 still
  // fails by design (errata E2); corrected under the text reading, every claim holds.
  CHECK(run_cli("check copy --threads 2").exit_code == 1);
  CHECK(run_cli("check copy --variant corrected --threads 2").exit_code == 1);
  CHECK(run_cli("check copy --variant corrected --reading text --threads 2").exit_code == 0);
}

TEST_CASE("prove --reading both proves each reading and reports both", "[cli][z3]") {
  const fs::path cert = scratch() / "prove-both.json";
  const CliRun both =
      run_cli("prove copy --variant corrected --D 2 --n 3 --L 3 --claim copy.scores --json " + cert.string());
  CHECK(both.exit_code == 0);
  CHECK(both.out.find("copy.scores (text)         verified") != std::string::npos);
  CHECK(both.out.find("copy.scores (formula)      verified") != std::string::npos);
  const auto j = nlohmann::json::parse(slurp(cert));
  std::vector<std::string> readings;
  for (const auto& claim : j["claims"]) readings.push_back(claim["reading"]);
  CHECK(readings == std::vector<std::string>{"text", "formula"});
}

TEST_CASE("check names the claims it leaves to prove, with the command that decides them", "[cli]") {
  const CliRun all = run_cli("check copy --threads 1");
  CHECK(all.out.find("not checked here, decided by Z3 with `tverify prove copy`: copy.lemma_c3, ") !=
        std::string::npos);
  const CliRun one = run_cli("check copy --claim copy.err --threads 1");  // asked for one claim: nothing left out
  CHECK(one.out.find("not checked here") == std::string::npos);
}
