// cli help: `tverify check|sweep <construction> --help` shows that construction's own options and variants only.
// The expected options are written out by hand from each construction's documentation (docs/*.md, README's tour), and
// the options a help lists must be those or the options every construction shares.
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace {

tverify::testing::CliResult run_cli(const std::vector<std::string>& args) {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-help-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return tverify::testing::run_tverify(args, dir, dir, 60);
}

struct Expected {
  std::string name;
  std::vector<std::string> params;  // its own parameters (check, sweep and eval take them)
  std::vector<std::string> variants;
  std::vector<std::string> sweep_options;   // beyond --vary, --out and the run options
  std::vector<std::string> claim_prefixes;  // what its claim ids begin with
};

// The options every construction's check or sweep shows besides its own.
const std::vector<std::string> common_options{
    "-h",     "--help",    "--help-all",   "--claim",   "--variant",
    "--json", "--threads", "--max-inputs", "--force",   "--max-counterexamples",
    "--vary", "--out",     "--digits",     "--progress"};
// check's options for every construction: a kept, resumable run.
const std::vector<std::string> check_options{"--checkpoint", "--resume", "--checkpoint-every"};

const std::vector<Expected>& expected() {
  static const std::vector<Expected> all{
      {"copy",
       {"--D", "--n", "--L", "--S", "--reading", "--embedding", "--tau"},
       {"paper", "corrected"},
       {"--fast", "--resolution", "--L-max", "--threshold", "--samples", "--seed", "--formats", "--min-bits",
        "--resume"},
       {"copy."}},
      {"count3",
       {"--n", "--values", "--distribution", "--samples", "--seed", "--mean", "--program"},
       {"paper", "corrected"},
       {"--L-max"},
       {"count3.", "match3.", "entp."}},
      {"cat",
       {"--V", "--N", "--L", "--filter", "--c", "--embedding", "--dim", "--vectors", "--samples", "--seed"},
       {"key_delay", "value_delay", "ar", "key_delay_full", "value_delay_full"},
       {"--fast", "--L-max", "--resume"},
       {"cat."}},
      {"markov",
       {"--p", "--q", "--d", "--m", "--r", "--N", "--tied", "--arbitrary", "--seed", "--samples", "--point-file"},
       {"paper", "corrected"},
       {"--resolution"},
       {"markov."}},
  };
  return all;
}

bool has_option(const std::string& help, const std::string& option) {
  return help.find("  " + option + " ") != std::string::npos || help.find("  " + option + "\n") != std::string::npos ||
         help.find("," + option + " ") != std::string::npos;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The --variant line of a help text.
std::string variant_line(const std::string& help) {
  const auto at = help.find("  --variant ");
  return at == std::string::npos ? "" : help.substr(at, help.find('\n', at) - at);
}

// Every option a help text lists (the words before the first space of its option lines, split at commas).
std::vector<std::string> listed_options(const std::string& help) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = help.find("\n  -", at)) != std::string::npos) {
    const std::size_t start = at + 3, end = help.find(' ', start);
    std::string names = help.substr(start, end - start);
    for (std::size_t comma; (comma = names.find(',')) != std::string::npos; names = names.substr(comma + 1))
      out.push_back(names.substr(0, comma));
    out.push_back(names);
    at = start;
  }
  return out;
}

// The --claim line of a help text.
std::string claim_line(const std::string& help) {
  const auto at = help.find("  --claim ");
  return at == std::string::npos ? "" : help.substr(at, help.find('\n', at) - at);
}

}  // namespace

TEST_CASE("help: check and sweep of each construction show its own options and variants only", "[cli][help]") {
  for (const auto& c : expected()) {
    for (const std::string verb : {"check", "sweep"}) {
      INFO("tverify " << verb << " " << c.name << " --help");
      const auto r = run_cli({verb, c.name, "--help"});
      REQUIRE(r.exit_code == 0);
      // A parameter the verb never reads is not listed (by hand from each construction's docs: no copy sweep reads
      // the GSSM's --S, count3's check runs every program, CAT's sweeps draw no sample, markov's sweep sets p and q).
      const std::map<std::pair<std::string, std::string>, std::vector<std::string>> never_read{
          {{"copy", "sweep"}, {"--S"}},
          {{"count3", "check"}, {"--program"}},
          {{"cat", "sweep"}, {"--samples", "--seed"}},
          {{"markov", "sweep"}, {"--p", "--q", "--samples"}}};
      const auto hidden = never_read.count({c.name, verb}) ? never_read.at({c.name, verb}) : std::vector<std::string>{};
      std::vector<std::string> own;
      for (const auto& p : c.params)
        if (!contains(hidden, p)) own.push_back(p);
      for (const auto& p : hidden) CHECK_FALSE(has_option(r.out, p));
      if (verb == "sweep") own.insert(own.end(), c.sweep_options.begin(), c.sweep_options.end());
      if (verb == "check") own.insert(own.end(), check_options.begin(), check_options.end());
      if (verb == "sweep") own.push_back("--figure-size");
      for (const auto& p : own) CHECK(has_option(r.out, p));
      if (verb == "sweep") CHECK_FALSE(has_option(r.out, "--checkpoint"));
      CHECK(has_option(r.out, "--figure-size") == (verb == "sweep"));
      for (const auto& other : expected()) {
        if (other.name == c.name) continue;
        for (const auto& p : other.params)
          if (!contains(own, p) && !contains(common_options, p)) CHECK_FALSE(has_option(r.out, p));
        for (const auto& o : other.sweep_options)
          if (!contains(own, o) && !contains(common_options, o)) CHECK_FALSE(has_option(r.out, o));
        for (const auto& v : other.variants)
          if (!contains(c.variants, v)) CHECK(variant_line(r.out).find(" " + v + " (") == std::string::npos);
      }
      for (const auto& v : c.variants) CHECK(variant_line(r.out).find(" " + v + " (") != std::string::npos);
      CHECK(has_option(r.out, "--vary") == (verb == "sweep"));
      // A closed list: an option declared for no construction (or for another one) would show here.
      const auto listed = listed_options(r.out);
      CHECK(listed.size() > own.size());
      for (const auto& o : listed) {
        INFO("listed option " << o);
        CHECK((contains(own, o) || contains(common_options, o)));
      }
      // Claim ids of this construction only.
      if (verb == "check") {
        const std::string claims = claim_line(r.out);
        for (const auto& other : expected())
          for (const auto& prefix : other.claim_prefixes)
            CHECK((claims.find(" " + prefix) != std::string::npos || claims.find(", " + prefix) != std::string::npos) ==
                  contains(c.claim_prefixes, prefix));
      }
    }
  }
}

TEST_CASE("help: prove is offered for the constructions with Z3 proofs only", "[cli][help]") {
  for (const std::string name : {"copy", "count3", "markov"}) CHECK(run_cli({"prove", name, "--help"}).exit_code == 0);
  // prove offers the parameters its proofs read: none for count3 (Lemma A.6 for every n), d and N for markov.
  const auto count3 = listed_options(run_cli({"prove", "count3", "--help"}).out);
  for (const std::string p : {"--n", "--values", "--seed"}) CHECK_FALSE(contains(count3, p));
  const auto markov = listed_options(run_cli({"prove", "markov", "--help"}).out);
  CHECK(contains(markov, "--d"));
  CHECK(contains(markov, "--N"));
  for (const std::string p : {"--p", "--q", "--r", "--point-file"}) CHECK_FALSE(contains(markov, p));
  CHECK(run_cli({"prove", "count3", "--n", "5"}).exit_code == 2);
  const auto cat = run_cli({"prove", "cat"});
  CHECK(cat.exit_code == 2);
  CHECK(cat.err.find("construction 'cat' has no Z3 proofs") != std::string::npos);
}

TEST_CASE("help: eval offers --bits only where the construction has a floating-point evaluation", "[cli][help]") {
  CHECK(has_option(run_cli({"eval", "copy", "--help"}).out, "--bits"));
  for (const std::string name : {"count3", "cat", "markov"})
    CHECK_FALSE(has_option(run_cli({"eval", name, "--help"}).out, "--bits"));
}

TEST_CASE("help: each verb of model lists the options it reads; one it never reads is still refused by name",
          "[cli][help]") {
  // From docs/model.md: eval reads the model and one input; check and sweep read the task and its domain, not --logits.
  const auto eval = listed_options(run_cli({"eval", "model", "--help"}).out);
  for (const std::string p : {"--onnx", "--input", "--logits", "--weights-as-decimal"}) CHECK(contains(eval, p));
  for (const std::string p : {"--task", "--V", "--N", "--p", "--q", "--lengths", "--decode", "--bos", "--expected",
                              "--samples", "--seed", "--method", "--max-boxes"})
    CHECK_FALSE(contains(eval, p));
  for (const std::string verb : {"check", "sweep"}) {
    const auto listed = listed_options(run_cli({verb, "model", "--help"}).out);
    INFO(verb);
    CHECK_FALSE(contains(listed, "--logits"));
    for (const std::string p :
         {"--onnx", "--task", "--V", "--lengths", "--decode", "--expected", "--samples", "--seed", "--method"})
      CHECK(contains(listed, p));
  }
  const std::string model = std::string(TVERIFY_SOURCE_DIR) + "/examples/models/previous.onnx";
  const auto task = run_cli({"eval", "model", "--onnx", model, "--input", "16,1", "--task", "previous"});
  CHECK(task.exit_code == 2);
  CHECK_THAT(task.err, Catch::Contains("--task applies to check and sweep model"));
  const auto lengths = run_cli({"eval", "model", "--onnx", model, "--input", "16,1", "--lengths", "1:2"});
  CHECK(lengths.exit_code == 2);
  CHECK_THAT(lengths.err, Catch::Contains("--lengths is not read by `tverify eval model`"));
  const auto logits = run_cli({"check", "model", "--onnx", model, "--task", "previous", "--logits"});
  CHECK(logits.exit_code == 2);
  CHECK_THAT(logits.err, Catch::Contains("--logits is not read by `tverify check model`"));
}

TEST_CASE("help: eval and prove leave out the parameters they never read", "[cli][help]") {
  // By hand from docs: eval generates from one --input (no --L, --S, --reading for copy; no domain for count3; no
  // sample for cat or markov); prove copy's queries are the transformer's (no GSSM --S).
  const std::map<std::pair<std::string, std::string>, std::vector<std::string>> hidden{
      {{"eval", "copy"}, {"--L", "--S", "--reading"}},
      {{"eval", "count3"}, {"--n", "--values", "--distribution", "--samples", "--seed"}},
      {{"eval", "cat"}, {"--samples", "--seed"}},
      {{"eval", "markov"}, {"--samples"}},
      {{"prove", "copy"}, {"--S"}}};
  for (const auto& [command, options] : hidden) {
    INFO(command.first << " " << command.second);
    const auto listed = listed_options(run_cli({command.first, command.second, "--help"}).out);
    CHECK(contains(listed, command.second == "copy"     ? "--D"
                           : command.second == "count3" ? "--mean"
                                                        : "--V") == (command.second != "markov"));
    for (const auto& o : options) CHECK_FALSE(contains(listed, o));
  }
  // Still refused by name when given.
  const auto given = run_cli({"eval", "copy", "--input", "0,1", "--L", "4"});
  CHECK(given.exit_code == 2);
  CHECK_THAT(given.err, Catch::Contains("--L is not read by `tverify eval copy`"));
}
