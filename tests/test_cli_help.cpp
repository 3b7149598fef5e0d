// cli help: `tverify check|sweep <construction> --help` shows that construction's own options and variants only.
// The expected options are written out by hand from each construction's documentation (docs/*.md, README's tour).
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
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
  std::vector<std::string> params;         // its own parameters (check, sweep and eval take them)
  std::vector<std::string> variants;
  std::vector<std::string> sweep_options;  // beyond --vary, --out and the run options
};

const std::vector<Expected>& expected() {
  static const std::vector<Expected> all{
      {"copy", {"--D", "--n", "--L", "--S", "--reading", "--embedding", "--tau"}, {"paper", "corrected"},
       {"--fast", "--resolution", "--L-max", "--threshold", "--samples", "--seed", "--formats", "--min-bits",
        "--resume"}},
      {"count3", {"--n", "--values", "--distribution", "--samples", "--seed", "--mean", "--program"},
       {"paper", "corrected"}, {"--L-max"}},
      {"cat", {"--V", "--N", "--L", "--filter", "--c", "--embedding", "--dim", "--vectors", "--samples", "--seed"},
       {"key_delay", "value_delay", "ar", "key_delay_full", "value_delay_full"}, {"--fast", "--L-max", "--resume"}},
      {"markov", {"--p", "--q", "--d", "--m", "--r", "--N", "--tied", "--arbitrary", "--seed", "--samples",
                  "--point-file"},
       {"paper", "corrected"}, {"--resolution"}},
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

}  // namespace

TEST_CASE("help: check and sweep of each construction show its own options and variants only", "[cli][help]") {
  for (const auto& c : expected()) {
    for (const std::string verb : {"check", "sweep"}) {
      INFO("tverify " << verb << " " << c.name << " --help");
      const auto r = run_cli({verb, c.name, "--help"});
      REQUIRE(r.exit_code == 0);
      std::vector<std::string> own = c.params;
      if (verb == "sweep") own.insert(own.end(), c.sweep_options.begin(), c.sweep_options.end());
      for (const auto& p : own) CHECK(has_option(r.out, p));
      for (const auto& other : expected()) {
        if (other.name == c.name) continue;
        for (const auto& p : other.params)
          if (!contains(own, p)) CHECK_FALSE(has_option(r.out, p));
        for (const auto& o : other.sweep_options)
          if (!contains(own, o)) CHECK_FALSE(has_option(r.out, o));
        for (const auto& v : other.variants)
          if (!contains(c.variants, v)) CHECK(variant_line(r.out).find(" " + v + " (") == std::string::npos);
      }
      for (const auto& v : c.variants) CHECK(variant_line(r.out).find(" " + v + " (") != std::string::npos);
      CHECK(has_option(r.out, "--vary") == (verb == "sweep"));
    }
  }
}

TEST_CASE("help: prove is offered for the constructions with Z3 proofs only", "[cli][help]") {
  for (const std::string name : {"copy", "count3", "markov"})
    CHECK(run_cli({"prove", name, "--help"}).exit_code == 0);
  const auto cat = run_cli({"prove", "cat"});
  CHECK(cat.exit_code == 2);
  CHECK(cat.err.find("construction 'cat' has no Z3 proofs") != std::string::npos);
}

TEST_CASE("help: eval offers --bits only where the construction has a floating-point evaluation", "[cli][help]") {
  CHECK(has_option(run_cli({"eval", "copy", "--help"}).out, "--bits"));
  for (const std::string name : {"count3", "cat", "markov"})
    CHECK_FALSE(has_option(run_cli({"eval", name, "--help"}).out, "--bits"));
}
