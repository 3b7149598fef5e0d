// A seeded structured fuzzer for everything tverify reads back: certificates (recheck, report), sweep checkpoints
// (--resume) and Markov point files (--point-file). Each case mutates a valid document, as bytes (flips, cuts,
// insertions, repeated spans) or as a JSON tree (a value replaced by one of another type or out of range: huge and
// negative integers, 1e308, deep nesting, strings, null). Every mutant must be accepted or refused with a UsageError;
// any other exception, a crash or a sanitizer report fails the test. A certificate that validation accepts must also
// go through the code that reads it afterwards (the comparison of recheck and the tables of report) without error.
#include "checkers/certificate.hpp"
#include "io/errors.hpp"
#include "checkers/checkpoint.hpp"
#include "io/files.hpp"
#include "checkers/markov/point_file.hpp"
#include "commands/report.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

using namespace tverify;
namespace fs = std::filesystem;

namespace {

fs::path fuzz_dir() {
  static const fs::path d = [] {
    const fs::path p = fs::temp_directory_path() / ("tverify-parse-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

// A value of a random kind, many of them out of every range the readers accept.
Json random_value(std::mt19937_64& rng) {
  switch (rng() % 14) {
    case 0: return Json(nullptr);
    case 1: return Json(-1);
    case 2: return Json(std::numeric_limits<std::uint64_t>::max());
    case 3: return Json(std::numeric_limits<std::int64_t>::min());
    case 4: return Json(1e308);
    case 5: return Json(-0.5);
    case 6: return Json("");
    case 7: return Json("1/0");
    case 8: return Json(true);
    case 9: return Json::array();
    case 10: return Json::object();
    case 11: {
      Json deep = Json::array();
      for (int i = 0; i < 80; ++i) deep = Json::array({deep});
      return deep;
    }
    case 12: return Json(static_cast<std::int64_t>(rng() % 2000) - 1000);
    default: return Json("verified");
  }
}

// Every value of the tree, by pointer, to pick one to replace.
void collect(Json& j, std::vector<Json*>& out) {
  out.push_back(&j);
  if (j.is_object())
    for (auto& [k, v] : j.items()) collect(v, out);
  else if (j.is_array())
    for (auto& v : j) collect(v, out);
}

std::string mutate_tree(Json doc, std::mt19937_64& rng) {
  std::vector<Json*> nodes;
  collect(doc, nodes);
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    Json* node = nodes[rng() % nodes.size()];
    if (node->is_object() && !node->empty() && rng() % 3 == 0) {
      node->erase(node->begin());  // a field deleted
      break;                       // the pointers below it are gone
    }
    *node = random_value(rng);
    break;
  }
  return doc.dump();
}

std::string mutate_bytes(std::string text, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = rng() % text.size();
    switch (rng() % 5) {
      case 0: text[at] = static_cast<char>(rng() % 256); break;
      case 1: text.resize(at); break;
      case 2: text.insert(at, 1, "{}[]\",:0123456789-eE."[rng() % 21]); break;
      case 3: text.erase(at, 1 + rng() % 8); break;
      default: text.insert(at, text.substr(at, 1 + rng() % 32)); break;
    }
  }
  return text;
}

std::string mutant(const Json& seed, std::mt19937_64& rng) {
  return rng() % 2 == 0 ? mutate_tree(seed, rng) : mutate_bytes(seed.dump(), rng);
}

// Runs `read` on `cases` mutants of `seed`: each must succeed or throw UsageError. Returns how many were accepted.
std::size_t fuzz(const Json& seed, std::uint64_t rng_seed, int cases,
                 const std::function<void(const std::string&)>& read) {
  std::mt19937_64 rng(rng_seed);
  std::size_t accepted = 0;
  for (int i = 0; i < cases; ++i) {
    const std::string text = mutant(seed, rng);
    try {
      read(text);
      ++accepted;
    } catch (const UsageError&) {
    } catch (const std::exception& e) {
      INFO("case " << i << ": " << text.substr(0, 400));
      FAIL("not a UsageError: " << e.what());
    }
  }
  return accepted;
}

Json sample_certificate() {
  CheckReport r;
  r.construction = "copy";
  r.variant = "paper";
  r.params = Json{{"D", 2}, {"n", 2}, {"L", 4}, {"reading", "both"}};
  r.options = Json{{"max_counterexamples", 10}, {"requested_claims", Json::array({"copy.alg1"})}};
  r.arithmetic = "exact";
  r.domain_description = "every string";
  r.domain_inputs = 16;
  ClaimResult c;
  c.id = "copy.alg1";
  c.reading = "text";
  c.statement = "copies";
  c.verdict = Verdict::Refuted;
  c.checked = 8;
  c.failed = 8;
  c.counterexamples.push_back({Json({0, 0, 1, 0}), Json({0, 0, 1, 0}), Json({0, 0}), "step 3"});
  c.details = Json{{"settings", {{"tau", "proof"}}}};
  c.summary = "copied 0/8";
  r.claims.push_back(c);
  return certificate_json(r, "tverify check copy --claim copy.alg1");
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST_CASE("parse fuzz: certificates are accepted or refused with a usage error, never worse", "[fuzz][certificate]") {
  const Json seed = sample_certificate();
  REQUIRE_NOTHROW(validated_certificate(seed, "seed"));
  const std::size_t accepted = fuzz(seed, 20261123, 6000, [&](const std::string& text) {
    const Json cert = validated_certificate(parse_json_text(text, "mutant"), "mutant");
    // What recheck and report do with an accepted certificate.
    (void)compare_certificates(seed, cert);
    (void)compare_certificates(cert, seed);
    for (const auto format : {TableFormat::Markdown, TableFormat::Latex})
      for (const auto layout : {TableLayout::PerClaim, TableLayout::PerCertificate})
        (void)certificates_table({cert, seed}, format, layout);
  });
  CHECK(accepted > 0);  // some mutants (a changed summary, a deleted optional field) are valid certificates
}

TEST_CASE("parse fuzz: checkpoints are accepted or refused with a usage error, never worse", "[fuzz][fast]") {
  const fs::path dir = fuzz_dir() / "checkpoint";
  fs::create_directories(dir);
  const Json params{{"sweep", "error rate"}, {"D", 3}, {"samples", 4}};
  Json rows = Json::array();
  for (const long length : {4, 8, 16})
    rows.push_back(
        Json{{"L", length}, {"samples", 4}, {"errors", 1}, {"undecided", 0}, {"steps", 12}, {"seconds", 0.25}});
  const Json seed{{"params", params}, {"rows", rows}};
  const std::vector<Json> grid{Json(4), Json(8), Json(16)};
  auto check = [](const Json& row, const FieldCheck& f, const std::string& at) {
    const std::uint64_t samples = f.count(row, "samples", at + ".samples", 4);
    for (const char* k : {"errors", "undecided"}) f.count(row, k, at + "." + k, samples);
    f.count(row, "steps", at + ".steps", std::uint64_t{1} << 62);
    f.number(row, "seconds", at + ".seconds", true);
  };
  const fs::path file = dir / "sweep.checkpoint.json";
  const std::size_t accepted = fuzz(seed, 7, 4000, [&](const std::string& text) {
    write(file, text);
    const Checkpoint checkpoint(dir.string(), "sweep", params, true, grid, check);
    for (const Json& row : checkpoint.sorted_rows()) {  // what a resumed sweep then reads
      (void)row["samples"].get<std::uint64_t>();
      (void)row["errors"].get<std::uint64_t>();
      (void)row["L"].get<long>();
    }
  });
  CHECK(accepted > 0);
}

TEST_CASE("parse fuzz: point files are accepted or refused with a usage error, never worse", "[fuzz][markov]") {
  const fs::path dir = fuzz_dir() / "point";
  fs::create_directories(dir);
  const markov::Shapes shapes{1, 1, 1, 1, true};
  const Json seed{{"e", {"1/2"}},   {"p", {{"-1/4"}}}, {"W_Q", {{"1"}}}, {"W_K", {{"2"}}}, {"W_V", {{"1/3"}}},
                  {"W_O", {{"0"}}}, {"W_1", {{"1"}}},  {"W_2", {{"1"}}}, {"b", 3}};
  const fs::path file = dir / "point.json";
  write(file, seed.dump());
  REQUIRE_NOTHROW(markov::read_point_file(file.string(), shapes));
  const std::size_t accepted = fuzz(seed, 11, 4000, [&](const std::string& text) {
    write(file, text);
    (void)markov::read_point_file(file.string(), shapes);
  });
  CHECK(accepted > 0);
  fs::remove_all(fuzz_dir());
}
