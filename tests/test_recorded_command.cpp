// checkers/recorded_command: a certificate's command line read back as the CLI reads it, and the table of the options
// each verb takes held against the options the CLI's --help lists.
#include "commands/recorded_command.hpp"
#include "checkers/registry.hpp"
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <set>

using namespace tverify;

namespace {

RecordedCommand read_ok(const std::string& line, const std::string& verb, const std::string& construction) {
  const auto read = read_recorded_command(line, verb, find_construction(construction));
  if (const auto* why = std::get_if<std::string>(&read)) FAIL("not read: " << *why);
  return std::get<RecordedCommand>(read);
}

std::string why_not(const std::string& line, const std::string& verb, const std::string& construction) {
  const auto read = read_recorded_command(line, verb, find_construction(construction));
  const auto* why = std::get_if<std::string>(&read);
  return why ? *why : std::string("(read)");
}

// The options (long names, without dashes) that `tverify ARGS --help` lists.
std::set<std::string> help_options(const std::vector<std::string>& args) {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-recorded-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<std::string> with_help = args;
  with_help.push_back("--help");
  const auto result = tverify::testing::run_tverify(with_help, dir, dir, 60);
  REQUIRE(result.exit_code == 0);
  std::set<std::string> out;
  const std::regex option_line(R"(^  (?:-\w, )?--([A-Za-z0-9-]+))");
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_search(line, m, option_line)) out.insert(m[1]);
  out.erase("help");
  out.erase("help-all");
  return out;
}

}  // namespace

TEST_CASE("recorded command: the CLI's forms are read back, defaults filled in", "[recheck][command-line]") {
  const RecordedCommand r = read_ok(
      "tverify check copy --D=3 --n 2 --claim copy.alg1 --claim copy.alg1 --claim=copy.lemma_c1 --variant corrected "
      "--max-counterexamples 3 --threads 2 --force --json 'a b.json'",
      "check", "copy");
  CHECK(r.params == std::map<std::string, std::string>{{"D", "3"}, {"n", "2"}});
  CHECK(r.claims == std::vector<std::string>{"copy.alg1", "copy.lemma_c1"});
  CHECK(r.variant == "corrected");
  CHECK(r.max_counterexamples == 3);
  const RecordedCommand defaults = read_ok("tverify check copy", "check", "copy");
  CHECK(defaults.claims.empty());
  CHECK(defaults.max_counterexamples == 10);
  CHECK(read_ok("tverify prove count3 --timeout-s 7", "prove", "count3").timeout_ms == 7000);
  const RecordedCommand sweep = read_ok("tverify sweep count3 --vary values --out runs --L-max 4", "sweep", "count3");
  CHECK(sweep.vary == "values");
  CHECK(sweep.sweep_options == std::map<std::string, std::string>{{"L-max", "4"}});
}

TEST_CASE("recorded command: what the CLI would refuse is named", "[recheck][command-line]") {
  CHECK(why_not("tverify check count3", "check", "copy").find("does not start with `tverify check copy`") !=
        std::string::npos);
  CHECK(why_not("tverify check copy --D", "check", "copy") == "--D has no value");
  CHECK(why_not("tverify check copy --force=yes", "check", "copy") == "--force is a flag and takes no value");
  CHECK(why_not("tverify check copy --D 2 --D 3", "check", "copy") == "--D is given twice");
  CHECK(why_not("tverify check copy --smt2 q", "check", "copy") == "--smt2 is not an option of this command");
  CHECK(why_not("tverify check copy --D 99", "check", "copy").find("[1, 64]") != std::string::npos);
  CHECK(why_not("tverify check copy --claim copy.nope", "check", "copy").find("is not a claim of copy") !=
        std::string::npos);
  CHECK(why_not("tverify check copy --threads 0", "check", "copy").find("--threads") != std::string::npos);
  CHECK(why_not("tverify check copy --json ''", "check", "copy") == "--json needs a value (got an empty string)");
  CHECK(why_not("tverify check copy stray", "check", "copy") == "'stray' is no option");
  CHECK(why_not("tverify sweep count3 --out runs", "sweep", "count3") == "a sweep without --vary");
}

TEST_CASE("recorded command: each verb's options are those its --help lists", "[recheck][command-line][cli]") {
  for (const auto& c : all_constructions()) {
    for (const std::string verb : {"check", "prove", "sweep"}) {
      if (verb == "prove" && !c->has_proofs()) continue;
      if (verb == "sweep" && c->sweeps().empty()) continue;
      INFO(verb << " " << c->name());
      std::set<std::string> table;
      for (const auto& o : run_options_of(verb, *c)) table.insert(o.name);
      for (const auto& p : c->params_for(verb))
        if (c->shown_for(verb, p.name)) table.insert(p.name);  // one the verb never reads is parsed, not listed
      if (verb == "sweep")
        for (const auto& s : c->sweeps())
          for (const auto& o : s.options) table.insert(o.name);
      CHECK(help_options({verb, c->name()}) == table);
    }
  }
}
