// cli fuzz: malformed command lines are usage errors. Over a thousand invocations -- a fixed corpus (bad values a
// bad-input campaign found, forged certificates, checkpoints and point files, hostile paths, broken command-line
// syntax) and a seeded generator of mutations of cheap valid command lines (bad values, dropped / repeated / unknown
// options, garbage tokens) -- each run without a shell in an empty scratch folder, must end with exit code 2, nothing
// on stdout, exactly one stderr line starting "tverify: error: ", the scratch folder still empty and every input file
// untouched. A second case runs well-formed extreme values (huge or tiny exact numbers, an empty sweep range): they
// may be computed or refused, but never end in a crash, a hang or an internal error (exit 4).
//
// Every invocation of the first case is malformed by the rules (cli/main.cpp: a malformed parameter or a corrupt
// certificate, checkpoint or point file is one line on stderr and exit 2, with nothing written), so the refusal comes
// before any work. The command lines the generator mutates run in well under a second when valid, so an invocation
// that is wrongly accepted still returns quickly (and fails here because it printed a report or wrote files); one
// that runs past kTimeout is killed and reported. Certificates and checkpoints are made by the binary under test at
// the start (so the forgeries follow its formats), and the unforged ones must be accepted.
//
// Building this file alone with -DTVERIFY_CLI_FUZZ_DUMP -DTVERIFY_BINARY='"path"' (no Catch2, no project library)
// gives a program that prints the corpus, one JSON object per line, or with --run runs it as the test does: for
// measuring the corpus without building the test binary.
#include "cli_runner.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#ifndef TVERIFY_CLI_FUZZ_DUMP
#include <catch2/catch.hpp>
#else
#include <iostream>
#endif

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using Args = std::vector<std::string>;

// ------------------------------------------------------------------------------------------------ running tverify

constexpr double kTimeout = 5.0;     // seconds; a refusal takes milliseconds
constexpr const char* kIn = "@IN@";  // in an argument: the absolute path of the invocation's input folder

struct Fixture {
  enum class Kind { File, Dir, Fifo };
  std::string path{};  // relative to the input folder
  std::string text{};  // File only
  Kind kind = Kind::File;
};

struct Invocation {
  std::string origin{};  // "corpus: ..." or "generated #k: ..."
  Args args{};           // kIn stands for the input folder
  std::vector<Fixture> fixtures{};
  double timeout = kTimeout;
};

using Outcome = tverify::testing::CliResult;
using tverify::testing::read_all;
using tverify::testing::run_tverify;

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// Every entry below `dir`: its kind, and for a regular file its size, modification time and content.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> entries;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path p = it->path();
    const std::string rel = fs::relative(p, dir).string();
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) continue;
    std::string state = std::to_string(st.st_mode) + " ";
    if (S_ISREG(st.st_mode))
      state += std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
               std::to_string(st.st_mtim.tv_nsec) + " " + read_all(p);
    entries[rel] = state;
  }
  return entries;
}

void make_fixtures(const fs::path& in, const std::vector<Fixture>& fixtures) {
  fs::create_directories(in);
  for (const auto& f : fixtures) {
    const fs::path p = in / f.path;
    fs::create_directories(p.parent_path());
    if (f.kind == Fixture::Kind::Dir) {
      fs::create_directories(p);
    } else if (f.kind == Fixture::Kind::Fifo) {
      ::mkfifo(p.c_str(), 0644);
    } else {
      std::ofstream(p, std::ios::binary) << f.text;
    }
  }
}

fs::path scratch_root() {
  static const fs::path root = [] {
    const fs::path d = fs::temp_directory_path() / ("tverify-cli-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
  }();
  return root;
}

Args concat(Args a, const Args& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Args expand(const Args& args, const fs::path& in) {
  Args out;
  for (const auto& a : args) out.push_back(replace_all(a, kIn, in.string()));
  return out;
}

// A JSON string literal of `text` (invalid UTF-8 replaced), for messages.
std::string literal(const std::string& text) { return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string quoted(const Args& args) {
  std::string out = "tverify";
  for (const auto& a : args) {
    const bool plain =
        !a.empty() && a.size() < 200 && a.find_first_of(" \t\n'\"\\$;&|<>()*?[]#~`") == std::string::npos;
    const std::string shown =
        a.size() < 200 ? literal(a) : literal(a.substr(0, 40)) + "...(" + std::to_string(a.size()) + " bytes)";
    out += " " + (plain ? a : shown);
  }
  return out;
}

// Runs one invocation in fresh folders and returns what is wrong with its outcome (empty: a clean usage error).
std::vector<std::string> check_invocation(const Invocation& inv, std::size_t index, Outcome& r) {
  const fs::path base = scratch_root() / std::to_string(index);
  fs::remove_all(base);
  const fs::path cwd = base / "cwd", in = base / "in";
  fs::create_directories(cwd);
  make_fixtures(in, inv.fixtures);
  const auto inputs_before = snapshot(in);
  r = run_tverify(expand(inv.args, in), cwd, base, inv.timeout);
  std::vector<std::string> problems;
  if (r.timed_out)
    problems.push_back("still running after " + std::to_string(static_cast<int>(inv.timeout)) + " s (killed)");
  else if (r.signal != 0)
    problems.push_back("killed by signal " + std::to_string(r.signal));
  else if (r.exit_code != 2)
    problems.push_back("exit code " + std::to_string(r.exit_code) + ", not 2");
  if (!r.out.empty()) problems.push_back("stdout is not empty");
  const auto lines = std::count(r.err.begin(), r.err.end(), '\n');
  if (lines != 1 || r.err.empty() || r.err.back() != '\n')
    problems.push_back("stderr has " + std::to_string(lines) + " lines, not 1");
  if (r.err.rfind("tverify: error: ", 0) != 0) problems.push_back("stderr does not start with \"tverify: error: \"");
  const auto written = snapshot(cwd);
  if (!written.empty()) {
    std::string names;
    for (const auto& [name, state] : written) names += (names.empty() ? "" : ", ") + name;
    problems.push_back("wrote into the scratch folder: " + names);
  }
  if (snapshot(in) != inputs_before) problems.push_back("changed its input files");
  fs::remove_all(base);
  return problems;
}

// ----------------------------------------------------------------------------------------- what tverify accepts

// splitmix64: the same sequence on every platform (std::uniform_int_distribution is not).
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }
};

enum class Kind {
  Int,
  Choice,
  Rational,
  Range,
  Probability,
  Filter,
  Vectors,
  PointFile,
  Claim,
  Variant,
  Json,
  Smt2,
  Out,
  Vary,
  Resolution,
  LMax,
  Threshold,
  Formats,
  Input,
  Flag
};

// Every member has a default initializer, so that brace-initializing the leading ones leaves the rest defaulted
// without -Wmissing-field-initializers.
struct Option {
  std::string name{};  // with dashes
  Kind kind = Kind::Int;
  long long lo = 0, hi = 0;          // Int, Range
  std::vector<std::string> words{};  // Choice, Variant; Rational: its words; Claim: valid ids; Input: its construction
};

using Options = std::vector<Option>;

Options construction_options(const std::string& c) {
  using K = Kind;
  if (c == "copy")
    return {{"--D", K::Int, 1, 64},
            {"--n", K::Int, 1, 64},
            {"--L", K::Int, 1, 4096},
            {"--S", K::Int, 1, 1'000'000'000'000'000'000},
            {"--reading", K::Choice, 0, 0, {"both", "text", "formula"}},
            {"--embedding", K::Choice, 0, 0, {"onehot", "c2"}},
            {"--tau", K::Rational, 0, 0, {"proof"}}};
  if (c == "count3")
    return {{"--n", K::Int, 1, 64},
            {"--values", K::Range, 0, 1'000'000},
            {"--distribution", K::Choice, 0, 0, {"exhaustive", "experiment"}},
            {"--samples", K::Int, 1, 1'000'000},
            {"--seed", K::Int, 0, 1'000'000'000'000},
            {"--mean", K::Choice, 0, 0, {"truncate", "exact"}},
            {"--program", K::Choice, 0, 0, {"all", "alg4", "alg5", "alg6"}}};
  if (c == "cat")
    return {{"--V", K::Int, 2, 16},
            {"--N", K::Int, 1, 4},
            {"--L", K::Int, 2, 64},
            {"--filter", K::Filter},
            {"--c", K::Rational, 0, 0, {"auto"}},
            {"--embedding", K::Choice, 0, 0, {"onehot", "stereo", "custom"}},
            {"--dim", K::Int, 2, 8},
            {"--vectors", K::Vectors},
            {"--samples", K::Int, 1, 100'000},
            {"--seed", K::Int, 0, 1'000'000'000'000}};
  return {{"--p", K::Probability},
          {"--q", K::Probability},
          {"--d", K::Int, 1, 16},
          {"--m", K::Int, 1, 16},
          {"--r", K::Int, 1, 64},
          {"--N", K::Int, 1, 16},
          {"--tied", K::Flag},
          {"--arbitrary", K::Choice, 0, 0, {"random", "zero", "constant"}},
          {"--seed", K::Int, 0, 1'000'000'000'000},
          {"--samples", K::Int, 0, 16},
          {"--point-file", K::PointFile}};
}

std::vector<std::string> variants_of(const std::string& c) {
  if (c == "cat") return {"key_delay", "value_delay", "ar", "key_delay_full", "value_delay_full"};
  return {"paper", "corrected"};
}

std::vector<std::string> claims_of(const std::string& c) {
  if (c == "copy") return {"copy.alg1", "copy.lemma_c3", "copy.thm2_3"};
  if (c == "count3") return {"count3.alg2_alg3", "count3.lemma_a6", "entp.a2"};
  if (c == "cat") return {"cat.signatures", "cat.filters"};
  return {"markov.c2", "markov.schur", "markov.lemma1"};
}

Options common_run_options() {
  return {{"--threads", Kind::Int, 1, 256},
          {"--max-inputs", Kind::Int, 1, 1'000'000'000'000'000},
          {"--max-counterexamples", Kind::Int, 0, 100'000},
          {"--force", Kind::Flag}};
}

// A cheap valid command line and the options its verb and construction take.
struct Baseline {
  std::string name{};
  Args args{};
  Options options{};
  std::vector<std::string> required{};  // options whose absence is an error
};

std::vector<Baseline> baselines() {
  std::vector<Baseline> out;
  auto add = [&](const std::string& verb, const std::string& c, const Args& rest) {  // `tverify verb c rest...`
    Baseline b{verb + " " + c, concat({verb, c}, rest), construction_options(c), {}};
    const Option variant{"--variant", Kind::Variant, 0, 0, variants_of(c)};
    if (verb == "check" || verb == "prove") {
      b.options.push_back({"--claim", Kind::Claim, 0, 0, claims_of(c)});
      b.options.push_back(variant);
      b.options.push_back({"--json", Kind::Json});
      for (const auto& o : common_run_options()) b.options.push_back(o);
      if (verb == "prove") {
        b.options.push_back({"--smt2", Kind::Smt2});
        b.options.push_back({"--timeout-s", Kind::Int, 1, 86400});
      }
    } else if (verb == "sweep") {
      b.options.push_back({"--vary", Kind::Vary});
      b.options.push_back({"--out", Kind::Out});
      b.options.push_back({"--resolution", Kind::Resolution});
      b.options.push_back({"--L-max", Kind::LMax});
      b.options.push_back({"--threshold", Kind::Threshold});
      b.options.push_back(variant);
      b.options.push_back({"--fast", Kind::Flag});
      b.options.push_back({"--resume", Kind::Flag});
      b.options.push_back({"--min-bits", Kind::Flag});
      b.options.push_back({"--formats", Kind::Formats});
      if (c == "copy") {  // the other constructions have their own --samples and --seed parameters
        b.options.push_back({"--samples", Kind::Int, 1, 1'000'000});
        b.options.push_back({"--seed", Kind::Int, 0, 1'000'000'000'000});
      }
      for (const auto& o : common_run_options()) b.options.push_back(o);
      b.required = {"--vary", "--out"};
    } else if (verb == "export") {  // the weights' parameters only (ConstructionFeatures::export_params)
      const std::set<std::string> read =
          c == "copy"
              ? std::set<std::string>{"--D", "--n", "--embedding", "--tau"}
              : std::set<std::string>{"--V", "--N", "--L", "--filter", "--c", "--embedding", "--dim", "--vectors"};
      std::erase_if(b.options, [&](const Option& o) { return !read.count(o.name); });
      b.options.push_back(variant);
      b.options.push_back({"--onnx", Kind::Json});
      b.required = {"--onnx"};
    } else {
      b.options.push_back({"--input", Kind::Input, 0, 0, {c}});
      b.options.push_back(variant);
      b.options.push_back({"--trace", Kind::Flag});
      b.options.push_back({"--bits", Kind::Int, 2, 65536});
      b.required = {"--input"};
    }
    out.push_back(std::move(b));
  };
  add("check", "copy", {"--D", "2", "--n", "1", "--L", "2", "--claim", "copy.alg1", "--threads", "1"});
  add("prove", "copy", {"--D", "2", "--n", "1", "--L", "2", "--claim", "copy.lemma_c3", "--threads", "1"});
  add("sweep", "copy", {"--vary", "tau", "--D", "2", "--n", "1", "--L", "2", "--out", "o", "--threads", "1"});
  add("sweep", "copy", {"--vary", "L", "--D", "2", "--n", "1", "--L-max", "2", "--out", "o", "--threads", "1"});
  add("sweep", "copy", {"--vary", "bits", "--D", "2", "--n", "1", "--L-max", "2", "--out", "o", "--threads", "1"});
  add("sweep", "copy", {"--fast", "--vary", "L=4:8:x2", "--samples", "1", "--out", "o", "--threads", "1"});
  add("eval", "copy", {"--input", "0,1"});
  add("export", "copy", {"--D", "2", "--n", "1", "--onnx", "copy.onnx"});
  add("check", "count3", {"--n", "2", "--values", "0:1", "--claim", "count3.alg2_alg3", "--threads", "1"});
  add("prove", "count3", {"--threads", "1"});
  add("sweep", "count3", {"--vary", "values", "--n", "2", "--L-max", "1", "--out", "o", "--threads", "1"});
  add("eval", "count3", {"--input", "0,1"});
  add("check", "cat", {"--V", "2", "--N", "1", "--L", "3", "--claim", "cat.signatures", "--threads", "1"});
  add("check", "cat",
      {"--V", "2", "--N", "1", "--L", "3", "--claim", "cat.signatures", "--embedding", "custom", "--vectors", "1,0;0,1",
       "--threads", "1"});
  add("sweep", "cat", {"--vary", "L", "--V", "2", "--N", "1", "--L", "3", "--out", "o", "--threads", "1"});
  add("sweep", "cat", {"--vary", "c", "--V", "2", "--N", "1", "--L-max", "3", "--out", "o", "--threads", "1"});
  add("sweep", "cat", {"--fast", "--vary", "L", "--V", "2", "--N", "1", "--L", "3", "--out", "o", "--threads", "1"});
  add("eval", "cat", {"--N", "1", "--input", "0,1"});
  add("export", "cat", {"--V", "2", "--N", "1", "--onnx", "cat.onnx"});
  add("check", "markov", {"--N", "1", "--d", "1", "--m", "1", "--r", "1", "--claim", "markov.c2", "--threads", "1"});
  add("prove", "markov", {"--N", "1", "--d", "1", "--threads", "1"});
  add("sweep", "markov",
      {"--vary", "pq", "--N", "1", "--d", "1", "--m", "1", "--r", "1", "--resolution", "1/2", "--out", "o", "--threads",
       "1"});
  add("eval", "markov", {"--input", "0,1"});
  const std::string reverse_model = std::string(TVERIFY_SOURCE_DIR) + "/tests/models/reverse.onnx";
  add("check", "model",
      {"--onnx", reverse_model, "--task", "reverse", "--V", "2", "--lengths", "1:2", "--threads", "1"});
  add("sweep", "model",
      {"--vary", "lengths", "--onnx", reverse_model, "--task", "reverse", "--V", "2", "--lengths", "1:2", "--out", "o",
       "--threads", "1"});
  add("eval", "model", {"--onnx", reverse_model, "--input", "2,0,1"});
  Options recheck = common_run_options();
  out.push_back({"recheck", {"recheck", std::string(kIn) + "/cert.json", "--threads", "1"}, recheck, {}});
  out.push_back({"report",
                 {"report", std::string(kIn) + "/cert.json"},
                 {{"--markdown", Kind::Flag}, {"--latex", Kind::Flag}, {"--wide", Kind::Flag}},
                 {}});
  out.push_back({"list", {"list", "copy"}, {}, {}});
  return out;
}

// ------------------------------------------------------------------------------------------------- bad values

std::string upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

// Values that are malformed for every option of this kind (and for `o` in particular), never a valid spelling.
std::vector<std::string> bad_values(const Option& o) {
  const std::vector<std::string> not_a_number{"",
                                              " ",
                                              "abc",
                                              "1x",
                                              "0x10",
                                              "1e30",
                                              "1/0",
                                              "1.5",
                                              " 2",
                                              "2 ",
                                              "\t2",
                                              "2\n",
                                              "\xef\xbc\x92" /* fullwidth 2 */,
                                              "\xd9\xa2" /* arabic 2 */,
                                              "2,",
                                              ",2",
                                              "2,3",
                                              "NaN",
                                              "inf",
                                              "'2'",
                                              "null",
                                              "true",
                                              "2^64"};
  switch (o.kind) {
    case Kind::Int: {
      std::vector<std::string> v = not_a_number;
      for (const char* s : {"18446744073709551616", "9223372036854775808", "-9223372036854775809", "1/2", "2.0"})
        v.push_back(s);
      v.push_back(std::to_string(o.lo - 1));
      v.push_back(std::to_string(o.hi + 1));
      if (o.hi >= 1000) v.push_back("1e3");
      return v;
    }
    case Kind::Choice:
    case Kind::Variant: {
      const std::string w = o.words.front();
      std::vector<std::string> v{"",
                                 " ",
                                 "X",
                                 "1",
                                 upper(w),
                                 w + " ",
                                 " " + w,
                                 w + ",",
                                 w + "," + o.words.back(),
                                 w + "\n",
                                 w.substr(0, w.size() - 1),
                                 "\xef\xbd\x90" + w.substr(1)};
      if (o.kind == Kind::Variant) v.push_back(o.words.front() == "paper" ? "key_delay" : "paper");
      return v;
    }
    case Kind::Rational: {
      std::vector<std::string> v{"",     "0",     "-1",   "-1/2",         "1/0", "0/0", "-0",    "abc",
                                 "1//2", "1/2/3", "1/-2", "1e",           "e5",  ".",   "1.2.3", "inf",
                                 "nan",  " 1",    "1 ",   "\xef\xbc\x91", "1,2", "0.0", "0e5",   "0x1"};
      for (const auto& w : o.words) v.insert(v.end(), {upper(w), w + " "});
      return v;
    }
    case Kind::Range:
      return {"",
              "5:3",
              "-1:4",
              "4",
              ":",
              "1:",
              ":1",
              "0:1:2",
              "0:" + std::to_string(o.hi + 1),
              "a:b",
              "0 :1",
              "0: 1",
              "0;1",
              "0-4",
              "1e3:2e3",
              "0:1e30",
              "0:18446744073709551616",
              "0:1,"};
    case Kind::Probability:
      return {"", "0", "1", "-1/2", "3/2", "1/0", "abc", " 1/2", "1/2 ", "0.5.5", "inf", "0/0", "1e400"};
    case Kind::Filter:  // the baselines have N = 1
      return {"",   ",",  "1,",         ",1",        "1,,1", "0",  "x",   "1/0", "inf",
              " 1", "1 ", "geometric ", "GEOMETRIC", "1;1",  "-0", "0,0", "1,1"};
    case Kind::Vectors:  // V = 2
      return {"",    ";",       "x",         "1,0;",     "1,0;0,1;",    ";1,0;0,1",  "1,0;;0,1", "1,0,;0,1",
              "1;0", "a,b;c,d", "1/0,1;0,1", "1,0 ;0,1", "1,0;0,1;0,1", "1,0,0;0,1", "0,0;0,1",  "3/5,4/5;3/5,4/5"};
    case Kind::PointFile:
      return {"",
              std::string(kIn) + "/missing.json",
              kIn,
              std::string(kIn) + "/dir",
              std::string(kIn) + "/afile",
              "/dev/null",
              "/proc/self/mem"};
    case Kind::Claim: {
      const std::string c = o.words.front().substr(0, o.words.front().find('.'));
      return {"",
              " ",
              "nope",
              c + ".nope",
              upper(o.words.front()),
              o.words.front() + " ",
              o.words.front() + ",",
              o.words.front() + "," + o.words.back(),
              c == "copy" ? "cat.signatures" : "copy.alg1"};
    }
    case Kind::Json:
      return {"",
              kIn,
              std::string(kIn) + "/dir",
              std::string(kIn) + "/dir/",
              std::string(kIn) + "/nodir/c.json",
              std::string(kIn) + "/afile/c.json",
              "/dev/null"};
    case Kind::Smt2: return {"", "/dev/null", std::string(kIn) + "/afile", std::string(kIn) + "/afile/sub"};
    case Kind::Out: return {"", "/dev/null", std::string(kIn) + "/afile", std::string(kIn) + "/afile/sub"};
    case Kind::Vary:
      return {"",
              " ",
              "x",
              "TAU",
              "tau ",
              "L ",
              "l",
              "values,",
              "pq ",
              "L=",
              "c,L",
              "bits,tau",
              "L=1:2",
              "L=0:4:x2",
              "L=4:2:x2",
              "L=1:4:x1",
              "L=1:4:+0",
              "L=1:4:y2",
              "L=1:1048577:x2",
              "L=-1:4:x2",
              "L=1:4:x2:",
              "L=4:8:x2 ",
              "L= 4:8:x2",
              "L=4:8:x 2",
              "L=4:8:x9999999999999999999",
              "L=4:8:x2\n",
              "L=0x1:4:x2",
              "L=4:8:x-2",
              "L=4:8:+-1",
              "L=:4:x2",
              "L=1::x2",
              "L=1:4:",
              "L=1:4:x",
              "L=1.0:4:x2",
              "L=1e1:20:x2",
              "L=4:8:x2,",
              "l=4:8:x2",
              "L=4:8:X2",
              "L=\t4:8:x2"};
    case Kind::Resolution: return {"", " ", "0", "-1", "1/0", "x", "1001", "1e30", "0/0", "-1/2", "1/2 ", "1//2"};
    case Kind::LMax:
      return {"", " ", "abc", "0", "-1", "1e30", "2^64", "18446744073709551616", " 2", "2 ", "2.0", "1/0", "1048577"};
    case Kind::Threshold: return {"", " ", "0", "2", "1/0", "x", "-1/2", "1e30", " 1/2", "1/2 ", "0/1", "1.5"};
    case Kind::Formats:
      return {"",        ",",      "float32,", ",float32", "float32,,float16",
              "FLOAT32", "float8", " float32", "float32 ", "float32;float16"};
    case Kind::Input: {
      const std::string c = o.words.front();
      std::vector<std::string> v{"",     ",",     "0,1,", ",0,1", "0,,1",
                                 " 0,1", "0,1 ",  "0;1",  "0 1",  "a",
                                 "-1",   "0,1,,", "0x1",  "1e30", "18446744073709551616"};
      if (c == "copy") v.insert(v.end(), {"2", "0,2"});
      if (c == "count3") v.insert(v.end(), {"1000000001", "1e3"});
      if (c == "cat") v.insert(v.end(), {"3", "0,3"});
      if (c == "markov") v.insert(v.end(), {"2", "01", "0,1,0,1,0,1,0", ",,,"});
      if (c == "model") v.insert(v.end(), {"9", "0,9", "1000001"});
      return v;
    }
    case Kind::Flag: return {"3", "abc", "2", "-1", "x"};
  }
  return {};
}

// --------------------------------------------------------------------------------------------- the generator

Args set_option(Args args, const std::string& option, const std::string& value, bool with_equals) {
  const auto it = std::find(args.begin(), args.end(), option);
  if (it != args.end() && it + 1 != args.end()) {
    const auto at = it - args.begin();
    args.erase(args.begin() + at, args.begin() + at + 2);
  }
  if (with_equals) {
    args.push_back(option + "=" + value);
  } else {
    args.push_back(option);
    args.push_back(value);
  }
  return args;
}

// One malformed mutation of `b`; `what` says which.
Args mutate(const Baseline& b, Rng& rng, std::string& what) {
  const std::vector<std::string> unknown{"--bogus",
                                         "--bogus=1",
                                         "-x",
                                         "---D",
                                         "--D-",
                                         "-D",
                                         "--=1",
                                         "\xe2\x80\x94"
                                         "D",
                                         "--help-al",
                                         "--Threads",
                                         "--thread",
                                         "--forc"};
  const std::vector<std::string> garbage{"garbage",  "0", "x=1", "copy", "check",
                                         "\xc3\xa9", "-", "''",  "@",    std::string(kIn) + "/afile"};
  std::vector<Option> valued, flags;
  for (const auto& o : b.options) (o.kind == Kind::Flag ? flags : valued).push_back(o);
  const std::size_t first = b.args.size() >= 2 && b.args[0] != "recheck" && b.args[0] != "report" ? 2 : 1;
  for (;;) {
    const std::size_t op = rng.below(100);
    if (op < 58 && !valued.empty()) {  // a bad value (sometimes two, on different options)
      const Option& o = rng.pick(valued);
      const std::string v = rng.pick(bad_values(o));
      const bool equals = !v.empty() && rng.below(4) == 0;
      Args a = set_option(b.args, o.name, v, equals);
      what = "bad value " + o.name + (equals ? "=" : " ") + literal(v);
      if (rng.below(6) == 0) {
        const Option& o2 = rng.pick(valued);
        if (o2.name != o.name) {
          const std::string v2 = rng.pick(bad_values(o2));
          a = set_option(a, o2.name, v2, false);
          what += ", and " + o2.name + " " + literal(v2);
        }
      }
      return a;
    }
    if (op < 66 && !flags.empty()) {  // a flag given a value
      const Option& o = rng.pick(flags);
      const std::string v = rng.pick(bad_values(o));
      Args a = b.args;
      a.push_back(o.name + "=" + v);
      what = "flag with a value " + o.name + "=" + v;
      return a;
    }
    if (op < 76) {  // an unknown option, anywhere after the subcommand
      Args a = b.args;
      const std::string u = rng.pick(unknown);
      const std::size_t at = first + rng.below(a.size() - first + 1);
      a.insert(a.begin() + static_cast<std::ptrdiff_t>(at), u);
      what = "unknown option " + u + " at " + std::to_string(at);
      return a;
    }
    if (op < 84 && b.args[0] != "report") {  // a stray token (report takes any number of files)
      Args a = b.args;
      const std::string g = rng.pick(garbage);
      const std::size_t at = first + rng.below(a.size() - first + 1);
      a.insert(a.begin() + static_cast<std::ptrdiff_t>(at), g);
      what = "stray token " + literal(g) + " at " + std::to_string(at);
      return a;
    }
    if (op < 90) {  // a single-value option given twice
      std::vector<std::size_t> at;
      for (std::size_t i = first; i + 1 < b.args.size(); ++i)
        if (b.args[i].rfind("--", 0) == 0 && b.args[i] != "--claim" && b.args[i + 1].rfind("--", 0) != 0)
          at.push_back(i);
      if (at.empty()) continue;
      const std::size_t i = rng.pick(at);
      Args a = b.args;
      a.push_back(b.args[i]);
      a.push_back(rng.below(2) ? b.args[i + 1] : b.args[i + 1] + "0");
      what = "repeated option " + b.args[i];
      return a;
    }
    if (op < 95) {  // an option without its value
      std::vector<std::size_t> at;
      for (std::size_t i = first; i + 1 < b.args.size(); ++i)
        if (b.args[i].rfind("--", 0) == 0 && b.args[i + 1].rfind("--", 0) != 0) at.push_back(i);
      if (at.empty()) continue;
      const std::size_t i = rng.pick(at);
      Args a = b.args;
      a.erase(a.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      what = "no value after " + b.args[i];
      return a;
    }
    if (!b.required.empty()) {  // a required option left out
      const std::string r = rng.pick(b.required);
      Args a = b.args;
      const auto it = std::find(a.begin(), a.end(), r);
      if (it == a.end()) continue;
      a.erase(it, it + 2);
      what = "without " + r;
      return a;
    }
  }
}

// ------------------------------------------------------------------------------------------------ the corpus

// Valid certificates and checkpoints, made by the binary under test (so the corpus follows its formats), and the
// mutations of them. The unmutated files are checked to be accepted, so that each refusal is the forged field's.
struct Seeds {
  std::string cert;                                // check copy --D 2 --n 1 --L 2 --claim copy.alg1
  std::string prove_cert;                          // prove copy --D 2 --n 1 --L 2 --claim copy.lemma_c3
  std::map<std::string, std::string> checkpoints;  // sweep name -> checkpoint text
};

struct CheckpointSweep {
  std::string name, folder, file, key;
  Args args;  // without --out and --resume
};

const std::vector<CheckpointSweep>& checkpoint_sweeps() {
  static const std::vector<CheckpointSweep> list{
      {"copy-fast-L",
       "cf",
       "copy-fast-L.checkpoint.json",
       "L",
       {"sweep", "copy", "--fast", "--vary", "L=4:8:x2", "--samples", "2", "--threads", "1"}},
      {"copy-fast-min-bits",
       "cm",
       "copy-fast-min-bits.checkpoint.json",
       "L",
       {"sweep", "copy", "--fast", "--min-bits", "--vary", "L=2:4:x2", "--samples", "2", "--threads", "1"}},
      {"copy-fast-formats",
       "cfm",
       "copy-fast-formats.checkpoint.json",
       "L",
       {"sweep", "copy", "--fast", "--formats", "float32", "--vary", "L=2:4:x2", "--samples", "2", "--threads", "1"}},
      {"cat-c-vs-length",
       "cl",
       "cat-c-vs-length.checkpoint.json",
       "L",
       {"sweep", "cat", "--fast", "--vary", "L", "--V", "2", "--N", "1", "--L", "4", "--threads", "1"}},
      {"cat-length-vs-c",
       "cc",
       "cat-length-vs-c.checkpoint.json",
       "c",
       {"sweep", "cat", "--fast", "--vary", "c", "--V", "2", "--N", "1", "--L-max", "4", "--threads", "1"}},
  };
  return list;
}

// Runs a command that must succeed (exit 0, 1 or 3: a verdict) in `dir`; returns its stderr when it did not.
std::string run_seed_command(const Args& args, const fs::path& dir) {
  fs::create_directories(dir);
  const Outcome r = run_tverify(args, dir, dir, 120);
  if (r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3) return {};
  return quoted(args) + ": exit " + std::to_string(r.exit_code) + ": " + r.err;
}

Seeds make_seeds(std::vector<std::string>& errors) {
  Seeds s;
  const fs::path dir = scratch_root() / "seeds";
  fs::remove_all(dir);
  auto note = [&](const std::string& e) {
    if (!e.empty()) errors.push_back(e);
  };
  note(run_seed_command({"check", "copy", "--D", "2", "--n", "1", "--L", "2", "--claim", "copy.alg1", "--threads", "1",
                         "--json", "cert.json"},
                        dir));
  note(run_seed_command({"prove", "copy", "--D", "2", "--n", "1", "--L", "2", "--claim", "copy.lemma_c3", "--threads",
                         "1", "--json", "prove.json"},
                        dir));
  s.cert = read_all(dir / "cert.json");
  s.prove_cert = read_all(dir / "prove.json");
  for (const auto& sw : checkpoint_sweeps()) {
    note(run_seed_command(concat(sw.args, {"--out", sw.folder}), dir));
    s.checkpoints[sw.name] = read_all(dir / sw.folder / sw.file);
  }
  return s;
}

std::string deep_nesting(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// Text mutations of a JSON document that no writer of it produces.
std::vector<std::pair<std::string, std::string>> corrupt_texts(const Json& j) {
  const std::string s = j.dump();
  return {{"a list", "[]"},
          {"null", "null"},
          {"empty", ""},
          {"whitespace", "  \n"},
          {"truncated", s.substr(0, s.size() / 2)},
          {"trailing garbage", s + "x"},
          {"two documents", s + s},
          {"a number past the double range", s.substr(0, s.size() - 1) + ",\"zz\":1e400}"},
          {"a negative number past the double range", s.substr(0, s.size() - 1) + ",\"zz\":-1e400}"},
          {"120000 nested arrays", s.substr(0, s.size() - 1) + ",\"zz\":" + deep_nesting(120000) + "}"},
          {"65 nested arrays", s.substr(0, s.size() - 1) + ",\"zz\":" + deep_nesting(65) + "}"},
          {"invalid UTF-8", s.substr(0, s.size() - 1) + ",\"zz\":\"\xff\xfe\"}"},
          {"a comment", "// c\n" + s}};
}

void add_certificate_corpus(std::vector<Invocation>& corpus, const Seeds& seeds) {
  auto forged = [](const std::string& text, const std::function<void(Json&)>& f) {
    Json j = Json::parse(text);
    f(j);
    return j.dump(1);
  };
  const std::uint64_t uint64_max = 18446744073709551615ull;
  const std::vector<std::pair<std::string, std::function<void(Json&)>>> fields{
      {"tool 5", [](Json& j) { j["tool"] = 5; }},
      {"no tool", [](Json& j) { j.erase("tool"); }},
      {"construction 5", [](Json& j) { j["construction"] = 5; }},
      {"unknown construction", [](Json& j) { j["construction"] = "nope"; }},
      {"empty construction", [](Json& j) { j["construction"] = ""; }},
      {"no construction", [](Json& j) { j.erase("construction"); }},
      {"variant 5", [](Json& j) { j["variant"] = 5; }},
      {"unknown variant", [](Json& j) { j["variant"] = "nope"; }},
      {"empty variant", [](Json& j) { j["variant"] = ""; }},
      {"no variant", [](Json& j) { j.erase("variant"); }},
      {"verb sweep", [](Json& j) { j["verb"] = "sweep"; }},
      {"verb 5", [](Json& j) { j["verb"] = 5; }},
      {"command 5", [](Json& j) { j["command"] = 5; }},
      {"commit a list", [](Json& j) { j["commit"] = Json::array(); }},
      {"params a list", [](Json& j) { j["params"] = Json::array(); }},
      {"params a string", [](Json& j) { j["params"] = "D=2"; }},
      {"no params", [](Json& j) { j.erase("params"); }},
      {"a parameter an object",
       [](Json& j) {
         j["params"]["D"] = Json{{"a", 1}};
       }},
      {"a parameter a list", [](Json& j) { j["params"]["D"] = Json::array({2}); }},
      {"a parameter a fraction", [](Json& j) { j["params"]["D"] = 2.5; }},
      {"a parameter a float", [](Json& j) { j["params"]["D"] = 2.0; }},
      {"a parameter null", [](Json& j) { j["params"]["D"] = nullptr; }},
      {"a parameter a boolean", [](Json& j) { j["params"]["D"] = true; }},
      {"a parameter out of range", [](Json& j) { j["params"]["D"] = 0; }},
      {"a parameter 2^64 - 1", [=](Json& j) { j["params"]["D"] = uint64_max; }},
      {"an unknown parameter", [](Json& j) { j["params"]["bogus"] = 1; }},
      {"a malformed parameter string", [](Json& j) { j["params"]["D"] = "2 "; }},
      {"options a list", [](Json& j) { j["options"] = Json::array(); }},
      {"max_counterexamples a string", [](Json& j) { j["options"]["max_counterexamples"] = "10"; }},
      {"max_counterexamples -1", [](Json& j) { j["options"]["max_counterexamples"] = -1; }},
      {"max_counterexamples 2.5", [](Json& j) { j["options"]["max_counterexamples"] = 2.5; }},
      {"max_counterexamples 10^6", [](Json& j) { j["options"]["max_counterexamples"] = 1000000; }},
      {"timeout_ms -1", [](Json& j) { j["options"]["timeout_ms"] = -1; }},
      {"timeout_ms a string", [](Json& j) { j["options"]["timeout_ms"] = "1"; }},
      {"timeout_ms 0 (no --timeout-s gives it)", [](Json& j) { j["options"]["timeout_ms"] = 0; }},
      {"requested_claims a string", [](Json& j) { j["options"]["requested_claims"] = "copy.alg1"; }},
      {"requested_claims [5]", [](Json& j) { j["options"]["requested_claims"] = Json::array({5}); }},
      {"requested_claims nested",
       [](Json& j) { j["options"]["requested_claims"] = Json::array({Json::array({"copy.alg1"})}); }},
      {"claims an object",
       [](Json& j) {
         j["claims"] = Json{{"id", "copy.alg1"}};
       }},
      {"claims a string", [](Json& j) { j["claims"] = "x"; }},
      {"no claims", [](Json& j) { j.erase("claims"); }},
      {"claims [5]", [](Json& j) { j["claims"] = Json::array({5}); }},
      {"claim id 5", [](Json& j) { j["claims"][0]["id"] = 5; }},
      {"claim without id", [](Json& j) { j["claims"][0].erase("id"); }},
      {"verdict maybe", [](Json& j) { j["claims"][0]["verdict"] = "maybe"; }},
      {"verdict 1", [](Json& j) { j["claims"][0]["verdict"] = 1; }},
      {"no verdict", [](Json& j) { j["claims"][0].erase("verdict"); }},
      {"count a string", [](Json& j) { j["claims"][0]["checked"] = "2"; }},
      {"count -1", [](Json& j) { j["claims"][0]["passed"] = -1; }},
      {"count 2.5", [](Json& j) { j["claims"][0]["failed"] = 2.5; }},
      {"count 2^63", [](Json& j) { j["claims"][0]["unknown"] = std::uint64_t{1} << 63; }},
      {"count null", [](Json& j) { j["claims"][0]["checked"] = nullptr; }},
      {"count a boolean", [](Json& j) { j["claims"][0]["checked"] = true; }},
      {"outside_hypotheses a string", [](Json& j) { j["claims"][0]["outside_hypotheses"] = "no"; }},
      {"counterexamples an object", [](Json& j) { j["claims"][0]["counterexamples"] = Json::object(); }},
      {"details a list", [](Json& j) { j["claims"][0]["details"] = Json::array(); }},
      {"summary 5", [](Json& j) { j["claims"][0]["summary"] = 5; }},
      {"statement 5", [](Json& j) { j["claims"][0]["statement"] = 5; }},
      {"reading 5", [](Json& j) { j["claims"][0]["reading"] = 5; }},
      {"domain a list", [](Json& j) { j["domain"] = Json::array(); }},
      {"domain.inputs -1", [](Json& j) { j["domain"]["inputs"] = -1; }},
      {"domain.inputs a string", [](Json& j) { j["domain"]["inputs"] = "4"; }},
      {"elapsed_s a string", [](Json& j) { j["elapsed_s"] = "x"; }},
      {"elapsed_s -1", [](Json& j) { j["elapsed_s"] = -1; }},
      {"elapsed_s -0.5", [](Json& j) { j["elapsed_s"] = -0.5; }},
  };
  for (const auto& [label, cert] : {std::pair<std::string, std::string>{"check", seeds.cert},
                                    std::pair<std::string, std::string>{"prove", seeds.prove_cert}}) {
    std::vector<std::pair<std::string, std::string>> texts;
    for (const auto& [name, f] : fields) texts.emplace_back(name, forged(cert, f));
    for (const auto& t : corrupt_texts(Json::parse(cert))) texts.push_back(t);
    texts.emplace_back("an unknown requested claim",
                       forged(cert, [](Json& j) { j["options"]["requested_claims"] = Json::array({"copy.nope"}); }));
    for (const auto& [name, text] : texts) {
      const std::vector<Fixture> files{{"c.json", text}};
      const std::string path = std::string(kIn) + "/c.json";
      corpus.push_back({"certificate (" + label + "): " + name, {"recheck", path, "--threads", "1"}, files});
      if (label == "check") corpus.push_back({"certificate (report): " + name, {"report", path}, files});
    }
  }
  // the certificate file itself
  for (const auto& [name, path, fixtures] : std::vector<std::tuple<std::string, std::string, std::vector<Fixture>>>{
           {"a folder", kIn, {}},
           {"missing", std::string(kIn) + "/missing.json", {}},
           {"/dev/null", "/dev/null", {}},
           {"/dev/zero", "/dev/zero", {}},
           {"/proc/self/mem", "/proc/self/mem", {}},
           {"a FIFO", std::string(kIn) + "/fifo", {{"fifo", "", Fixture::Kind::Fifo}}},
           {"empty name", "", {}}}) {
    corpus.push_back({"certificate file: " + name, {"recheck", path}, fixtures, 3});
    corpus.push_back({"certificate file: " + name, {"report", path}, fixtures, 3});
  }
}

void add_checkpoint_corpus(std::vector<Invocation>& corpus, const Seeds& seeds) {
  for (const auto& sw : checkpoint_sweeps()) {
    const Json valid = Json::parse(seeds.checkpoints.at(sw.name));
    const Json& row = valid["rows"][0];
    const Json key = row[sw.key];
    std::vector<std::pair<std::string, Json>> rows;  // (what, the forged first row) -- or a whole document below
    auto with = [&](const std::string& field, Json value) {
      Json r = row;
      r[field] = std::move(value);
      return r;
    };
    auto without = [&](const std::string& field) {
      Json r = row;
      r.erase(field);
      return r;
    };
    rows.emplace_back("the key a string",
                      with(sw.key, key.is_string() ? Json(key.get<std::string>() + " ") : Json(key.dump())));
    rows.emplace_back("the key a float", with(sw.key, key.is_string() ? Json(0.5) : Json(key.get<double>())));
    rows.emplace_back("the key off the grid", with(sw.key, key.is_string() ? Json("2/4") : Json(key.get<long>() + 1)));
    rows.emplace_back("the key null", with(sw.key, nullptr));
    rows.emplace_back("no key", without(sw.key));
    if (sw.name.rfind("copy", 0) == 0) {
      const std::uint64_t samples = row["samples"].get<std::uint64_t>();
      rows.emplace_back("samples 0", with("samples", 0));
      rows.emplace_back("samples of another run", with("samples", samples + 1));
      rows.emplace_back("samples -2", with("samples", -2));
      rows.emplace_back("samples a string", with("samples", std::to_string(samples)));
      rows.emplace_back("samples a float", with("samples", static_cast<double>(samples)));
      const std::string count = sw.name == "copy-fast-L" ? "errors" : "exact_copied";
      rows.emplace_back(count + " > samples", with(count, samples + 1));
      rows.emplace_back(count + " -1", with(count, -1));
      rows.emplace_back(count + " a string", with(count, "1"));
      rows.emplace_back(count + " 2.5", with(count, 2.5));
      rows.emplace_back(count + " null", with(count, nullptr));
      rows.emplace_back(count + " a boolean", with(count, true));
      rows.emplace_back(count + " 2^63", with(count, std::uint64_t{1} << 63));
      if (row.contains("undecided")) rows.emplace_back("undecided > samples", with("undecided", samples + 1));
      if (row.contains("repeats_text")) rows.emplace_back("repeats_text > samples", with("repeats_text", samples + 1));
      if (row.contains("steps")) {
        rows.emplace_back("steps -1", with("steps", -1));
        rows.emplace_back("steps a string", with("steps", "7"));
      }
      if (row.contains("seconds")) {
        rows.emplace_back("seconds -1", with("seconds", -1));
        rows.emplace_back("seconds a string", with("seconds", "x"));
        rows.emplace_back("seconds null", with("seconds", nullptr));
      }
      if (row.contains("min_bits")) {
        rows.emplace_back("min_bits 1", with("min_bits", 1));
        rows.emplace_back("min_bits 65", with("min_bits", 65));
        rows.emplace_back("min_bits a string", with("min_bits", "2"));
        rows.emplace_back("probes an object", with("probes", Json::object()));
        rows.emplace_back("probes [5]", with("probes", Json::array({5})));
      }
      if (row.contains("formats")) {
        rows.emplace_back("formats without float32", with("formats", Json::object()));
        rows.emplace_back("formats a list", with("formats", Json::array()));
        Json f = row["formats"];
        f["float32"]["failures"] = samples + 1;
        rows.emplace_back("failures > samples", with("formats", f));
        f["float32"]["failures"] = -1;
        rows.emplace_back("failures -1", with("formats", f));
      }
    } else {
      const std::size_t cells = row["cells"].size();
      rows.emplace_back("cells too short", with("cells", Json::array({row["cells"][0]})));
      rows.emplace_back("cells numbers", with("cells", Json(std::vector<int>(cells, 1))));
      rows.emplace_back("cells an object", with("cells", Json::object()));
      rows.emplace_back("cells not numbers", with("cells", Json(std::vector<std::string>(cells, "x"))));
      rows.emplace_back("row a list", with("row", Json::array()));
      rows.emplace_back("row a string", with("row", "x"));
      rows.emplace_back("row empty", with("row", Json::object()));
      Json other = row["row"];
      other[sw.key] = sw.key == "c" ? Json("9") : Json(99);
      rows.emplace_back("row for another key", with("row", other));
      if (sw.key == "c") {
        rows.emplace_back("all_at_cap a string", with("all_at_cap", "no"));
        rows.emplace_back("all_at_cap null", with("all_at_cap", nullptr));
        rows.emplace_back("no all_at_cap", without("all_at_cap"));
      }
    }
    std::vector<std::pair<std::string, std::string>> texts;
    for (const auto& [what, forged_row] : rows) {
      Json j = valid;
      j["rows"][0] = forged_row;
      texts.emplace_back(what, j.dump(1));
    }
    {
      Json j = valid;
      j["rows"].push_back(row);
      texts.emplace_back("a duplicated row", j.dump(1));
      j = valid;
      j["rows"][0] = Json::array({1, 2});
      texts.emplace_back("a row that is a list", j.dump(1));
      j = valid;
      j["rows"] = Json{{"0", row}};
      texts.emplace_back("rows an object", j.dump(1));
      j = valid;
      j.erase("rows");
      texts.emplace_back("no rows", j.dump(1));
      j = valid;
      j["rows"] = nullptr;
      texts.emplace_back("rows null", j.dump(1));
      j = valid;
      j.erase("params");
      texts.emplace_back("no params", j.dump(1));
      j = valid;
      j["params"]["sweep"] = "another sweep";
      texts.emplace_back("other params", j.dump(1));
    }
    for (const auto& t : corrupt_texts(valid)) texts.push_back(t);
    const Args args = concat(sw.args, {"--out", std::string(kIn) + "/" + sw.folder, "--resume"});
    for (const auto& [what, text] : texts)
      corpus.push_back({"checkpoint " + sw.name + ": " + what, args, {{sw.folder + "/" + sw.file, text}}});
    const std::string file = sw.folder + "/" + sw.file;
    corpus.push_back({"checkpoint " + sw.name + ": a folder", args, {{file, "", Fixture::Kind::Dir}}});
    corpus.push_back({"checkpoint " + sw.name + ": a FIFO", args, {{file, "", Fixture::Kind::Fifo}}, 3});
    corpus.push_back({"checkpoint " + sw.name + ": missing", args, {{sw.folder + "/keep", "x"}}});
    // --resume without a checkpoint must not create the output folder
    corpus.push_back(
        {"checkpoint " + sw.name + ": --resume into a new folder", concat(sw.args, {"--out", "o", "--resume"}), {}});
  }
}

// A valid point for --N 1 --d 1 --m 1 --r 1 (untied), with `b` and the block `W_1` spelled as given.
std::string point_text(const std::string& b, const std::string& w1 = "[[\"0\"]]", const std::string& extra = "") {
  return "{\"e\": [\"1\"], \"a\": [\"1\"], \"p\": [[\"0\"]], \"W_Q\": [[\"0\"]], \"W_K\": [[\"0\"]], "
         "\"W_V\": [[\"0\"]], "
         "\"W_O\": [[\"0\"]], \"W_1\": " +
         w1 + ", \"W_2\": [[\"0\"]], \"b\": " + b + extra + "}";
}

void add_point_file_corpus(std::vector<Invocation>& corpus) {
  const std::vector<std::pair<std::string, std::string>> texts{
      {"b past the double range", point_text("1e400")},
      {"b past the double range, negative", point_text("-1e400")},
      {"b a JSON number past 10^6", point_text("1.5e6")},
      {"b a negative JSON number past 10^6", point_text("-1000000.5")},
      {"b 1/0", point_text("\"1/0\"")},
      {"b x", point_text("\"x\"")},
      {"b empty", point_text("\"\"")},
      {"b null", point_text("null")},
      {"b true", point_text("true")},
      {"b a list", point_text("[\"0\"]")},
      {"e a string", replace_all(point_text("\"0\""), "\"e\": [\"1\"]", "\"e\": \"1\"")},
      {"e too long", replace_all(point_text("\"0\""), "\"e\": [\"1\"]", "\"e\": [\"1\", \"2\"]")},
      {"p not a matrix", replace_all(point_text("\"0\""), "\"p\": [[\"0\"]]", "\"p\": [\"0\"]")},
      {"p row too long", replace_all(point_text("\"0\""), "\"p\": [[\"0\"]]", "\"p\": [[\"0\", \"0\"]]")},
      {"an entry an object", replace_all(point_text("\"0\""), "\"W_Q\": [[\"0\"]]", "\"W_Q\": [[{\"x\": 1}]]")},
      {"no b", replace_all(point_text("\"0\""), ", \"b\": \"0\"", "")},
      {"an unknown block", point_text("\"0\"", "[[\"0\"]]", ", \"zz\": [\"1\"]")},
      {"a list", "[]"},
      {"a number", "5"},
      {"empty", ""},
      {"truncated", point_text("\"0\"").substr(0, 40)},
      {"trailing garbage", point_text("\"0\"") + " x"},
      {"two documents", point_text("\"0\"") + point_text("\"0\"")},
      {"120000 nested arrays", "{\"b\": " + deep_nesting(120000) + "}"},
      {"invalid UTF-8", point_text("\"\xff\xfe\"")},
      {"a NUL byte", std::string("{\"b\": \"0\0\"}", 11)},
  };
  const Args eval{"eval",         "markov",
                  "--N",          "1",
                  "--d",          "1",
                  "--m",          "1",
                  "--r",          "1",
                  "--input",      "0",
                  "--point-file", std::string(kIn) + "/pt.json"};
  const Args check{"check",        "markov",
                   "--N",          "1",
                   "--d",          "1",
                   "--m",          "1",
                   "--r",          "1",
                   "--samples",    "0",
                   "--claim",      "markov.lemma1",
                   "--threads",    "1",
                   "--point-file", std::string(kIn) + "/pt.json"};
  for (const auto& [what, text] : texts) {
    corpus.push_back({"point file: " + what, eval, {{"pt.json", text}}});
    corpus.push_back({"point file (check): " + what, check, {{"pt.json", text}}});
  }
  corpus.push_back({"point file: a folder", eval, {{"pt.json", "", Fixture::Kind::Dir}}});
  corpus.push_back({"point file: a FIFO", eval, {{"pt.json", "", Fixture::Kind::Fifo}}, 3});
  for (const std::string path : {".", "/", "/proc/self/mem", "/dev/null", "/dev/zero"}) {
    corpus.push_back({"point file: " + path, {"eval", "markov", "--input", "0,1", "--point-file", path}, {}});
    corpus.push_back({"point file (sweep): " + path,
                      {"sweep", "markov", "--vary", "pq", "--N", "1", "--d", "1", "--m", "1", "--r", "1",
                       "--resolution", "1/2", "--out", "o", "--point-file", path},
                      {}});
  }
}

void add_fixed_corpus(std::vector<Invocation>& corpus) {
  auto add = [&](const std::string& origin, Args args, std::vector<Fixture> files = {}) {
    corpus.push_back({origin, std::move(args), std::move(files)});
  };
  add("known: a vector entry past the double range (not a unit vector)",
      {"check", "cat", "--V", "2", "--N", "1", "--L", "3", "--embedding", "custom", "--vectors", "1e400,0;0,1"});
  // empty values are errors, not the option left out
  add("known: empty value", {"check", "copy", "--json", ""});
  add("known: empty value", {"sweep", "copy", "--vary", "tau", "--out", ""});
  add("known: empty value", {"check", "copy", "--variant", ""});
  add("known: empty value", {"list", ""});
  add("known: empty value", {"recheck", ""});
  // trailing and doubled separators
  add("known: --input trailing comma", {"eval", "copy", "--input", "0,1,"});
  add("known: --input empty token", {"eval", "copy", "--input", "0,,1"});
  add("known: --input trailing comma", {"eval", "count3", "--input", "0,1,"});
  add("known: --input trailing comma", {"eval", "cat", "--input", "0,1,"});
  add("known: --input trailing comma", {"eval", "markov", "--input", "0,1,"});
  add("known: --input empty bit", {"eval", "markov", "--input", "0,,1"});
  add("known: --input leading comma", {"eval", "markov", "--input", ",0,1"});
  add("known: --input bits without commas", {"eval", "markov", "--input", "01"});
  add("known: --filter trailing comma", {"check", "cat", "--V", "2", "--N", "1", "--L", "3", "--filter", "1,"});
  add("known: --filter trailing comma", {"check", "cat", "--V", "2", "--N", "2", "--L", "3", "--filter", "1,1,"});
  add("known: --vectors trailing separator",
      {"check", "cat", "--V", "2", "--N", "1", "--L", "3", "--embedding", "custom", "--vectors", "1,0;0,1;"});
  add("known: --vectors trailing comma",
      {"check", "cat", "--V", "2", "--N", "1", "--L", "3", "--embedding", "custom", "--vectors", "1,0,;0,1"});
  add("known: --formats trailing comma",
      {"sweep", "copy", "--fast", "--vary", "L=4:8:x2", "--samples", "1", "--formats", "float32,", "--out", "o"});
  // a malformed value of an option the run does not read
  add("known: --vectors without --embedding custom",
      {"check", "cat", "--V", "2", "--N", "1", "--L", "3", "--vectors", ";"});
  add("known: --bits ignored by eval markov (count3 and cat refuse it)",
      {"eval", "markov", "--input", "0,1", "--bits", "24"});
  add("known: --p not read by prove markov", {"prove", "markov", "--N", "1", "--d", "1", "--p", "0"});
  add("known: --q not read by prove markov", {"prove", "markov", "--N", "1", "--d", "1", "--q", "abc"});
  add("known: --point-file not read by prove markov",
      {"prove", "markov", "--N", "1", "--d", "1", "--point-file", std::string(kIn) + "/missing.json"});
  for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{{"--L-max", "abc"},
                                                                                      {"--threshold", "1/0"},
                                                                                      {"--resolution", "x"},
                                                                                      {"--samples", "-1"},
                                                                                      {"--seed", "abc"},
                                                                                      {"--formats", "x"}})
    for (const Args& sweep : std::vector<Args>{
             {"sweep", "copy", "--vary", "tau", "--D", "2", "--n", "1", "--L", "2", "--out", "o", "--threads", "1"},
             {"sweep", "count3", "--vary", "values", "--n", "2", "--L-max", "1", "--out", "o", "--threads", "1"},
             {"sweep", "cat", "--vary", "L", "--V", "2", "--N", "1", "--L", "3", "--out", "o", "--threads", "1"},
             {"sweep", "markov", "--vary", "pq", "--N", "1", "--d", "1", "--m", "1", "--r", "1", "--resolution", "1/2",
              "--out", "o", "--threads", "1"}})
      add("known: sweep " + sweep[1] + " ignores " + option, set_option(sweep, option, value, false));
  // flags given values
  add("known: --force=3", {"check", "copy", "--force=3", "--D", "2", "--n", "1", "--L", "2", "--claim", "copy.alg1"});
  add("known: --trace=3", {"eval", "copy", "--input", "0,1", "--trace=3"});
  add("known: --latex=3", {"report", "--latex=3", std::string(kIn) + "/cert.json"});
  // runs above the budget without --force
  add("known: count3 rows above --max-inputs without --force",
      {"sweep", "count3", "--vary", "values", "--n", "2", "--L-max", "50", "--max-inputs", "100", "--out", "o"});
  // runs too large for memory or time, refused up front with the estimate
  add("known: 64 threads at L = 2^20 (about 2 GB of tables each)",
      {"sweep", "copy", "--fast", "--vary", "L=1048576:1048576:x2", "--samples", "1", "--threads", "64", "--out", "o"});
  add("known: count3 values up to 10^6",
      {"sweep", "count3", "--vary", "values", "--n", "2", "--L-max", "1000000", "--out", "o"});
  add("known: 16^4 N-grams compared pairwise",
      {"check", "cat", "--V", "16", "--N", "4", "--L", "5", "--claim", "cat.signatures"});
  add("known: 10^5 sampled filters x 256 N-grams",
      {"check", "cat", "--V", "4", "--N", "4", "--L", "5", "--claim", "cat.filters", "--samples", "100000"});
  add("known: a tau grid of 10^-7", {"sweep", "copy", "--vary", "tau", "--resolution", "1/10000000", "--out", "o"});
  add("known: the bits sweep to L = 4096", {"sweep", "copy", "--vary", "bits", "--L-max", "4096", "--out", "o"});
  {
    std::string long_input = "0";
    for (int i = 0; i < 1024; ++i) long_input += ",1";
    add("known: eval count3 on 1,025 values", {"eval", "count3", "--input", long_input});
    add("known: eval cat on 1,025 tokens", {"eval", "cat", "--input", long_input});
  }
  // --smt2 and --out folders made before a refusal
  add("known: --smt2 folder made before a bad claim",
      {"prove", "copy", "--D", "2", "--n", "1", "--L", "2", "--claim", "copy.alg1", "--smt2", "d"});
  add("known: --smt2 folder made before an unknown claim", {"prove", "copy", "--claim", "nope", "--smt2", "d"});
  add("known: --smt2 folder made before a bad claim", {"prove", "count3", "--claim", "count3.alg4", "--smt2", "d"});
  add("known: --smt2 folder made before a bad claim", {"prove", "markov", "--claim", "markov.c2", "--smt2", "d"});
  add("known: --smt2 folder made before a refusal", {"prove", "markov", "--d", "5", "--smt2", "d"});
  add("known: --smt2 folder made before a refusal", {"prove", "cat", "--smt2", "d"});
  // paths
  for (const std::string& json : {std::string(kIn), std::string(kIn) + "/dir", std::string(kIn) + "/nodir/c.json",
                                  std::string("/dev/null"), std::string(kIn) + "/fifo"})
    add("paths: --json " + json,
        {"check", "copy", "--D", "2", "--n", "1", "--L", "2", "--claim", "copy.alg1", "--json", json},
        {{"dir", "", Fixture::Kind::Dir}, {"fifo", "", Fixture::Kind::Fifo}});
  add("paths: --json with a bad parameter", {"check", "copy", "--D", "0", "--json", "c.json"});
  add("paths: --json with a bad claim", {"check", "copy", "--claim", "nope", "--json", "c.json"});
  // command-line syntax (a bare `tverify` is not here: it prints the usage and exits 0, tests/test_cli.cpp)
  for (const Args& a :
       std::vector<Args>{{""},
                         {" "},
                         {"CHECK", "copy"},
                         {"check ", "copy"},
                         {"chec"},
                         {"check"},
                         {"check", "COPY"},
                         {"check", "copy "},
                         {"check", ""},
                         {"check", "--bogus"},
                         {"eval", "copy"},
                         {"list", "copy", "x"},
                         {"list", "--D", "2"},
                         {"list", "COPY"},
                         {"list", "nope"},
                         {"--bogus"},
                         {"-x"},
                         {"--threads", "1"},
                         {"check", "copy", "cat"},
                         {"check", "copy", "check", "cat"},
                         {"sweep"},
                         {"sweep", "copy"},
                         {"report"},
                         {"report", "--latex"},
                         {"recheck"},
                         {"--", "list"},
                         {"list", "--", "copy", "x"},
                         {"\xc3\xa9"},
                         {"\xff"},
                         {std::string(100000, 'x')},
                         {"check", "copy", "--D", std::string(100000, '2')},
                         {"eval", "copy", "--input", "0", "--D=3=4"},
                         {"eval", "copy", "--input", "0", "--D", "--n"},
                         {"eval", "copy", "--input"},
                         {"eval", "copy", "--input", "0", "--variant", "paper", "--variant", "corrected"},
                         {"eval", "copy", "--input", "0", "--D", "2", "--D", "2"},
                         {"eval", "copy", "--input", "0", "--input", "1"},
                         {"report", std::string(kIn) + "/cert.json", "--latex", "--markdown"},
                         {"recheck", std::string(kIn) + "/cert.json", std::string(kIn) + "/cert.json"}})
    add("syntax: " + quoted(a), a);
}

std::vector<Fixture> standard_fixtures(const std::string& cert) {
  return {{"afile", "x"}, {"dir", "", Fixture::Kind::Dir}, {"cert.json", cert}};
}

constexpr std::uint64_t kSeed = 20261123;
constexpr std::size_t kGenerated = 1000;

// The whole list: the fixed corpus, then kGenerated mutations drawn with kSeed (the same list on every run).
std::vector<Invocation> all_invocations(const Seeds& seeds) {
  std::vector<Invocation> corpus;
  add_fixed_corpus(corpus);
  add_certificate_corpus(corpus, seeds);
  add_checkpoint_corpus(corpus, seeds);
  add_point_file_corpus(corpus);
  for (auto& inv : corpus) {  // every invocation may name the standard fixtures
    const auto standard = standard_fixtures(seeds.cert);
    for (const auto& f : standard)
      if (std::none_of(inv.fixtures.begin(), inv.fixtures.end(), [&](const Fixture& g) { return g.path == f.path; }))
        inv.fixtures.push_back(f);
    inv.origin = "corpus: " + inv.origin;
  }
  const auto bases = baselines();
  Rng rng{kSeed};
  for (std::size_t k = 0; k < kGenerated; ++k) {
    const Baseline& b = bases[k % bases.size()];  // every baseline equally often
    std::string what;
    Args args = mutate(b, rng, what);
    corpus.push_back({"generated #" + std::to_string(k) + " from `" + b.name + "`: " + what, std::move(args),
                      standard_fixtures(seeds.cert)});
  }
  return corpus;
}

// The unmutated seeds are accepted (exit 0), so that each refusal in the corpus is the forged field's.
std::vector<std::string> check_seeds_accepted(const Seeds& seeds) {
  std::vector<Invocation> controls{
      {"recheck of the valid certificate",
       {"recheck", std::string(kIn) + "/cert.json", "--threads", "1"},
       standard_fixtures(seeds.cert)},
      {"recheck of the valid prove certificate",
       {"recheck", std::string(kIn) + "/p.json", "--threads", "1"},
       {{"p.json", seeds.prove_cert}}},
      {"report of the valid certificate", {"report", std::string(kIn) + "/cert.json"}, standard_fixtures(seeds.cert)},
      {"the valid point file",
       {"eval", "markov", "--N", "1", "--d", "1", "--m", "1", "--r", "1", "--input", "0", "--point-file",
        std::string(kIn) + "/pt.json"},
       {{"pt.json", point_text("\"-1\"")}}}};
  for (const auto& sw : checkpoint_sweeps())
    controls.push_back({"--resume from the valid checkpoint " + sw.name,
                        concat(sw.args, {"--out", std::string(kIn) + "/" + sw.folder, "--resume"}),
                        {{sw.folder + "/" + sw.file, seeds.checkpoints.at(sw.name)}}});
  std::vector<std::string> failures;
  for (std::size_t i = 0; i < controls.size(); ++i) {
    const fs::path base = scratch_root() / ("control-" + std::to_string(i));
    fs::create_directories(base / "cwd");
    make_fixtures(base / "in", controls[i].fixtures);
    const Outcome r = run_tverify(expand(controls[i].args, base / "in"), base / "cwd", base, 60);
    if (r.exit_code != 0)
      failures.push_back(controls[i].origin + ": exit " + std::to_string(r.exit_code) + ": " + r.err);
    fs::remove_all(base);
  }
  return failures;
}

// Well-formed values at the edges (huge or tiny exact numbers, a sweep over an empty range): tverify may compute or
// refuse them, but it must not crash, hang or end in an internal error (exit 4 is always a bug), and a refusal is a
// clean usage error that writes nothing.
std::vector<Invocation> extreme_invocations() {
  const std::string point = std::string(kIn) + "/pt.json";
  const Args markov_check{
      "check",   "markov",        "--N",       "1", "--d",          "1",  "--m", "1", "--r", "1", "--samples", "0",
      "--claim", "markov.lemma1", "--threads", "1", "--point-file", point};
  return {
      {"a filter entry past the double range", {"check", "cat", "--filter", "1e400,1", "--threads", "1"}},
      {"filter entries 19 orders of magnitude apart (a double holds both)",
       {"check", "cat", "--filter", "1e19,1", "--threads", "1"}},
      {"a filter entry below the double range",
       {"check", "cat", "--V", "2", "--N", "2", "--L", "3", "--filter", "1e-400,1", "--threads", "1"}},
      {"a filter entry past the double range", {"eval", "cat", "--filter", "1e400,1", "--input", "0,1,0"}},
      // Refused: every claim's exact scores would carry the filter's million digits (entries are bounded by 1e1000).
      {"a huge filter of one entry",
       {"check", "cat", "--V", "2", "--N", "1", "--L", "3", "--filter", "1e999999", "--threads", "1"}},
      {"a huge tau",
       {"check", "copy", "--D", "2", "--n", "1", "--L", "2", "--claim", "copy.thm2_3", "--tau", "1e999999"}},
      {"a tiny tau",
       {"check", "copy", "--D", "2", "--n", "1", "--L", "2", "--claim", "copy.thm2_3", "--tau", "1e-999999"}},
      {"a tiny p", {"eval", "markov", "--p", "1e-999999", "--input", "0"}},
      {"a point-file integer past 2^63", markov_check, {{"pt.json", point_text("18446744073709551615")}}},
      {"a point-file integer of 2^63", markov_check, {{"pt.json", point_text("9223372036854775808")}}},
      {"a point-file number past 2^63 as a string",
       markov_check,
       {{"pt.json", point_text("\"18446744073709551615\"")}}},
      {"sweep cat --vary L over an empty range (L < N + 2)",
       {"sweep", "cat", "--vary", "L", "--V", "2", "--N", "1", "--L", "2", "--out", "o", "--threads", "1"}},
      {"sweep cat --vary L over an empty range (L < N + 2)",
       {"sweep", "cat", "--vary", "L", "--V", "2", "--N", "2", "--L", "3", "--out", "o", "--threads", "1"}},
  };
}

std::vector<std::string> check_extreme(const Invocation& inv, std::size_t index, Outcome& r) {
  const fs::path base = scratch_root() / ("extreme-" + std::to_string(index));
  fs::remove_all(base);
  fs::create_directories(base / "cwd");
  make_fixtures(base / "in", inv.fixtures);
  r = run_tverify(expand(inv.args, base / "in"), base / "cwd", base, inv.timeout);
  std::vector<std::string> problems;
  if (r.timed_out)
    problems.push_back("still running after " + std::to_string(static_cast<int>(inv.timeout)) + " s");
  else if (r.signal != 0)
    problems.push_back("killed by signal " + std::to_string(r.signal));
  else if (r.exit_code < 0 || r.exit_code > 3)
    problems.push_back("exit code " + std::to_string(r.exit_code));
  if (r.exit_code == 2) {
    if (!r.out.empty()) problems.push_back("a usage error with output on stdout");
    if (std::count(r.err.begin(), r.err.end(), '\n') != 1 || r.err.rfind("tverify: error: ", 0) != 0)
      problems.push_back("a usage error that is not one line starting \"tverify: error: \"");
    if (!snapshot(base / "cwd").empty()) problems.push_back("a usage error that wrote into the scratch folder");
  }
  fs::remove_all(base);
  return problems;
}

// An integer in a point file means its value: 2^64 - 1 as a JSON integer evaluates as the string "18446744073709551615"
// does (it was read as -1). Empty when it does; else what differs.
// A point-file integer is read exactly: written as a JSON number or as a string it gives the same output, and one
// past 2^63 is refused, not wrapped around to -1.
std::string point_integer_read_exactly() {
  auto run_with = [](const std::string& b, int i) {
    const fs::path base = scratch_root() / ("exact-" + std::to_string(i));
    fs::create_directories(base / "cwd");
    make_fixtures(base / "in", {{"pt.json", point_text(b)}});
    const Outcome r = run_tverify(expand({"eval", "markov", "--N", "1", "--d", "1", "--m", "1", "--r", "1", "--input",
                                          "0", "--point-file", std::string(kIn) + "/pt.json"},
                                         base / "in"),
                                  base / "cwd", base, kTimeout);
    fs::remove_all(base);
    return std::make_pair(r.exit_code, "exit " + std::to_string(r.exit_code) + ": " + r.out + r.err);
  };
  const auto number = run_with("999999", 0), text = run_with("\"999999\"", 1);
  if (number.second != text.second)
    return "b = 999999 gives\n" + number.second.substr(0, 300) + "\nbut b = \"999999\" gives\n" +
           text.second.substr(0, 300);
  const auto huge = run_with("18446744073709551615", 2);
  if (huge.first != 2) return "b = 18446744073709551615 is not refused:\n" + huge.second.substr(0, 300);
  return {};
}

}  // namespace

#ifndef TVERIFY_CLI_FUZZ_DUMP

TEST_CASE("cli fuzz: a thousand malformed invocations are each one usage error and write nothing", "[cli][fuzz]") {
  std::vector<std::string> seed_errors;
  const Seeds seeds = make_seeds(seed_errors);
  {
    INFO("seed commands that failed: " << seed_errors.size()
                                       << (seed_errors.empty() ? "" : " -- " + seed_errors.front()));
    REQUIRE(seed_errors.empty());
  }
  for (const auto& failure : check_seeds_accepted(seeds)) {
    INFO("a valid seed is refused, so the corpus built from it tests nothing: " << failure);
    CHECK(false);
  }
  const std::vector<Invocation> invocations = all_invocations(seeds);
  REQUIRE(invocations.size() >= 1000);
  std::size_t failed = 0;
  double seconds = 0;
  for (std::size_t i = 0; i < invocations.size(); ++i) {
    const Invocation& inv = invocations[i];
    Outcome r;
    const auto problems = check_invocation(inv, i, r);
    seconds += r.seconds;
    if (problems.empty()) continue;
    ++failed;
    std::string text;
    for (const auto& p : problems) text += "\n  - " + p;
    INFO(inv.origin << "\n  " << quoted(inv.args) << text << "\n  stderr: " << r.err.substr(0, 300)
                    << "\n  stdout: " << r.out.substr(0, 200));
    CHECK(problems.empty());
  }
  INFO(failed << " of " << invocations.size() << " malformed invocations were not a clean usage error (" << seconds
              << " s of tverify runs)");
  CHECK(failed == 0);
  fs::remove_all(scratch_root());
}

TEST_CASE("cli fuzz: extreme but well-formed values never crash, hang or end in an internal error", "[cli][fuzz]") {
  const auto invocations = extreme_invocations();
  for (std::size_t i = 0; i < invocations.size(); ++i) {
    Outcome r;
    const auto problems = check_extreme(invocations[i], i, r);
    std::string text;
    for (const auto& p : problems) text += "\n  - " + p;
    INFO(invocations[i].origin << "\n  " << quoted(invocations[i].args) << text
                               << "\n  stderr: " << r.err.substr(0, 300));
    CHECK(problems.empty());
  }
  const std::string differs = point_integer_read_exactly();
  INFO(differs);
  CHECK(differs.empty());
  fs::remove_all(scratch_root());
}

#else

// tverify_cli_fuzz_dump          prints the corpus, one JSON object per line (strings as byte lists);
// tverify_cli_fuzz_dump --run    runs it as the test does and prints each invocation that is not a clean usage error.
int main(int argc, char** argv) {
  std::vector<std::string> errors;
  const Seeds seeds = make_seeds(errors);
  for (const auto& e : errors) std::cerr << "seed command failed: " << e << "\n";
  if (!errors.empty()) return 1;
  for (const auto& failure : check_seeds_accepted(seeds)) std::cerr << "control failed: " << failure << "\n";
  const auto invocations = all_invocations(seeds);
  if (argc > 1 && std::string(argv[1]) == "--run") {
    std::size_t failed = 0;
    double seconds = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < invocations.size(); ++i) {
      Outcome r;
      const auto problems = check_invocation(invocations[i], i, r);
      seconds += r.seconds;
      if (problems.empty()) continue;
      ++failed;
      std::cout << invocations[i].origin << "\n  " << quoted(invocations[i].args) << "\n";
      for (const auto& p : problems) std::cout << "  - " << p << "\n";
      std::cout << "  stderr: " << r.err.substr(0, 200) << "\n";
    }
    const auto extremes = extreme_invocations();
    for (std::size_t i = 0; i < extremes.size(); ++i) {
      Outcome r;
      const auto problems = check_extreme(extremes[i], i, r);
      seconds += r.seconds;
      if (problems.empty()) continue;
      ++failed;
      std::cout << "extreme: " << extremes[i].origin << "\n  " << quoted(extremes[i].args) << "\n";
      for (const auto& p : problems) std::cout << "  - " << p << "\n";
      std::cout << "  stderr: " << r.err.substr(0, 200) << "\n";
    }
    if (const std::string differs = point_integer_read_exactly(); !differs.empty()) {
      ++failed;
      std::cout << "exactness: " << differs << "\n";
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << failed << " of " << invocations.size() << " + " << extremes.size() + 1 << " checks failed; " << seconds
              << " s in tverify, " << wall << " s in all\n";
    fs::remove_all(scratch_root());
    return failed == 0 ? 0 : 1;
  }
  auto bytes = [](const std::string& s) { return Json::binary_t(std::vector<std::uint8_t>(s.begin(), s.end())); };
  for (const auto& inv : invocations) {
    Json files = Json::object();
    for (const auto& f : inv.fixtures)
      files[f.path] = f.kind == Fixture::Kind::File  ? Json(bytes(f.text))
                      : f.kind == Fixture::Kind::Dir ? Json{{"dir", 1}}
                                                     : Json{{"fifo", 1}};
    Json args = Json::array();
    for (const auto& a : inv.args) args.push_back(bytes(a));
    const Json line{{"origin", literal(inv.origin)}, {"args", args}, {"files", files}, {"timeout_s", inv.timeout}};
    std::cout << line.dump() << "\n";
  }
  fs::remove_all(scratch_root());
  return 0;
}

#endif
