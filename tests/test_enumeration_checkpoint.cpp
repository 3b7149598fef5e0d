// checkers/enumeration_checkpoint: a check stopped part-way and resumed gives the uninterrupted result, for any
// thread count; a checkpoint of another run, another command or another build, or a corrupt one, is refused naming
// what is wrong; and recheck never trusts one (a forged checkpoint yields a certificate that recheck refutes).
#include "checkers/enumerate.hpp"
#include "checkers/enumeration_checkpoint.hpp"
#include "io/errors.hpp"
#include "io/sha256.hpp"
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <numeric>

using namespace tverify;
namespace fs = std::filesystem;

namespace {

using Seen = std::vector<std::uint64_t>;

// The indices visited, in order; `visits` counts the calls; the monitor (if any) is stopped after `stop_after` calls.
Seen enumerate_seen(std::uint64_t count, unsigned threads, EnumerationCheckpoint* checkpoint,
                    std::atomic<std::uint64_t>& visits, RunMonitor* monitor = nullptr, std::uint64_t stop_after = 0) {
  RunOptions o;
  o.threads = threads;
  o.checkpoint = checkpoint;
  o.monitor = monitor;
  return enumerate_indices<Seen>(
      count, o, "indices",
      [&](std::uint64_t i, Seen& acc) {
        acc.push_back(i);
        if (++visits == stop_after && monitor) monitor->stop = true;
      },
      [](Seen& into, Seen&& from) { into.insert(into.end(), from.begin(), from.end()); });
}

const Json run_a = Json{{"construction", "test"}, {"params", {{"V", 3}}}};

std::string usage_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) { return e.what(); }
  return "no error";
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// A checkpoint edited by hand, with its digest recomputed as tverify computes it: what a deliberate forger writes.
Json resealed(Json j) {
  j["sha256"] = sha256_hex(Json::array({j["run"], j["enumerations"]}).dump());
  return j;
}

}  // namespace

TEST_CASE(
    "an enumeration stopped part-way resumes from its checkpoint to the uninterrupted result, for any thread "
    "count, visiting only what was left",
    "[checkpoint]") {
  const fs::path file = tverify::testing::fresh_folder("checkpoint-test", "resume") / "run.checkpoint.json";
  constexpr std::uint64_t count = 20000;
  std::vector<std::uint64_t> all(count);
  std::iota(all.begin(), all.end(), 0);
  std::atomic<std::uint64_t> first_visits{0};
  {
    EnumerationCheckpoint checkpoint(file.string(), run_a, false, std::chrono::seconds(0));
    RunMonitor monitor;
    CHECK_THROWS_AS(enumerate_seen(count, 2, &checkpoint, first_visits, &monitor, 7000), Interrupted);
  }
  REQUIRE(fs::exists(file));
  for (unsigned threads : {1u, 3u}) {
    const fs::path copy = file.parent_path() / ("copy" + std::to_string(threads) + ".json");
    fs::copy_file(file, copy, fs::copy_options::overwrite_existing);
    EnumerationCheckpoint resumed(copy.string(), run_a, true, std::chrono::seconds(30));
    std::atomic<std::uint64_t> visits{0};
    CHECK(enumerate_seen(count, threads, &resumed, visits) == all);
    // At least the chunks finished before the stop were restored; the stopped chunks were visited again.
    CHECK(visits < count - 6000);
    CHECK(visits > 0);
    // The checkpoint now holds the whole enumeration: a second resume visits nothing.
    EnumerationCheckpoint again(copy.string(), run_a, true, std::chrono::seconds(30));
    std::atomic<std::uint64_t> none{0};
    CHECK(enumerate_seen(count, threads, &again, none) == all);
    CHECK(none == 0);
  }
}

TEST_CASE("a checkpoint of another run, size, command or build, or a corrupt one, is refused naming what differs",
          "[checkpoint]") {
  const fs::path folder = tverify::testing::fresh_folder("checkpoint-test", "refusals"), file = folder / "a.json";
  std::atomic<std::uint64_t> visits{0};
  {
    EnumerationCheckpoint checkpoint(file.string(), run_a, false, std::chrono::seconds(0));
    enumerate_seen(1000, 1, &checkpoint, visits);
  }
  CHECK_THAT(usage_error_of([&] { EnumerationCheckpoint(file.string(), run_a, false, std::chrono::seconds(0)); }),
             Catch::Contains("exists: add --resume"));
  CHECK_THAT(usage_error_of(
                 [&] { EnumerationCheckpoint((folder / "none.json").string(), run_a, true, std::chrono::seconds(0)); }),
             Catch::Contains("does not exist (start without --resume)"));
  const Json run_b = Json{{"construction", "test"}, {"params", {{"V", 4}}}};
  CHECK_THAT(usage_error_of([&] { EnumerationCheckpoint(file.string(), run_b, true, std::chrono::seconds(0)); }),
             Catch::Contains("--V is 3 in the checkpoint and 4 in this run"));
  CHECK_THAT(usage_error_of([&] {
               EnumerationCheckpoint other(file.string(), run_a, true, std::chrono::seconds(0));
               enumerate_seen(1001, 1, &other, visits);
             }),
             Catch::Contains("has 1000 indices in 256 chunks, this run's 1001 indices in 256"));

  const Json stored = Json::parse(tverify::testing::read_all(file));
  auto refused_after = [&](const std::function<void(Json&)>& edit) {
    Json edited = stored;
    edit(edited);
    write_text(folder / "edited.json", resealed(edited).dump());
    return usage_error_of([&] {
      EnumerationCheckpoint c((folder / "edited.json").string(), run_a, true, std::chrono::seconds(0));
      enumerate_seen(1000, 1, &c, visits);
    });
  };
  CHECK_THAT(refused_after([](Json& j) {
               j = Json{{"params", {}}, {"rows", Json::array()}};
             }),
             Catch::Contains("is not a checkpoint of `tverify check`"));
  CHECK_THAT(refused_after([](Json& j) { j["tool"]["commit"] = "0000000"; }),
             Catch::Contains("was written by another build of tverify"));
  CHECK_THAT(refused_after([](Json& j) { j["format_version"] = 2; }), Catch::Contains("\"format_version\""));
  CHECK_THAT(refused_after([](Json& j) { j["enumerations"][0]["finished"][0][0] = 256; }),
             Catch::Contains("a chunk below 256"));
  CHECK_THAT(refused_after([](Json& j) { j["enumerations"][0]["finished"][1][0] = 0; }),
             Catch::Contains("above the one before"));
  CHECK_THAT(refused_after([](Json& j) { j["enumerations"][0]["finished"][0][1] = "four"; }),
             Catch::Contains("the accumulator of chunk 0 of enumeration 1 is not one this run writes"));
  CHECK_THAT(refused_after([](Json& j) { j["extra"] = 1; }), Catch::Contains("\"extra\""));
  Json unsealed = stored;
  unsealed["enumerations"][0]["finished"][0][1].push_back(1);
  write_text(folder / "edited.json", unsealed.dump());
  CHECK_THAT(usage_error_of([&] {
               EnumerationCheckpoint((folder / "edited.json").string(), run_a, true, std::chrono::seconds(0));
             }),
             Catch::Contains("does not match its own SHA-256"));
  write_text(folder / "edited.json", "{\"checkpoint_of\": ");
  CHECK_THAT(usage_error_of([&] {
               EnumerationCheckpoint((folder / "edited.json").string(), run_a, true, std::chrono::seconds(0));
             }),
             Catch::Contains("edited.json"));
}

TEST_CASE(
    "check --checkpoint: a resumed run gives the uninterrupted certificate, and recheck ignores the checkpoint "
    "so a forged one is caught",
    "[checkpoint][cli]") {
  const fs::path folder = tverify::testing::fresh_folder("checkpoint-test", "cli"),
                 capture = tverify::testing::fresh_folder("checkpoint-test", "cli-capture");
  const std::vector<std::string> check{"check", "count3", "--claim", "count3.alg2_alg3"};
  auto run = [&](std::vector<std::string> extra, const std::string& n = "4", const std::string& threads = "2") {
    std::vector<std::string> args = check;
    args.insert(args.end(), {"--n", n, "--threads", threads});
    args.insert(args.end(), extra.begin(), extra.end());
    return tverify::testing::run_tverify(args, folder, capture, 120);
  };
  REQUIRE(run({"--json", "plain.json"}).exit_code == 0);
  REQUIRE(run({"--checkpoint", "ck.json", "--json", "first.json"}).exit_code == 0);
  // The checkpoint holds every chunk; a resumed run restores them and writes the same certificate.
  const auto resumed = run({"--checkpoint", "ck.json", "--resume", "--json", "resumed.json"}, "4", "1");
  REQUIRE(resumed.exit_code == 0);
  auto stable = [&](const std::string& name) {
    Json j = Json::parse(tverify::testing::read_all(folder / name));
    j.erase("elapsed_s");
    j.erase("command");
    return j;
  };
  CHECK(stable("resumed.json") == stable("plain.json"));

  // A checkpoint edited to say one input failed: the resumed certificate believes it, recheck does not.
  Json forged = Json::parse(tverify::testing::read_all(folder / "ck.json"));
  Json& tally = forged["enumerations"][0]["finished"][0][1];
  REQUIRE(tally.at(2) == 0);
  tally[1] = tally[1].get<int>() - 1;  // passed
  tally[2] = 1;                        // failed
  write_text(folder / "ck.json", forged.dump());
  const auto unsealed = run({"--checkpoint", "ck.json", "--resume", "--json", "forged.json"});
  CHECK(unsealed.exit_code == 2);
  CHECK_THAT(unsealed.err, Catch::Contains("does not match its own SHA-256"));
  write_text(folder / "ck.json", resealed(forged).dump());
  REQUIRE(run({"--checkpoint", "ck.json", "--resume", "--json", "forged.json"}).exit_code == 1);
  const auto recheck = tverify::testing::run_tverify({"recheck", "forged.json"}, folder, capture, 120);
  CHECK(recheck.exit_code == 1);
  CHECK_THAT(recheck.out, Catch::Contains("DIFFERS"));

  // Bad input: one line, exit 2, nothing written.
  const auto no_file = tverify::testing::run_tverify({"check", "count3", "--resume"}, folder, capture, 60);
  CHECK(no_file.exit_code == 2);
  CHECK_THAT(no_file.err, Catch::Contains("--resume needs --checkpoint FILE"));
  const auto other = run({"--checkpoint", "ck.json", "--resume", "--json", "other.json"}, "3");
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.err, Catch::Contains("--n is 4 in the checkpoint and 3 in this run"));
  CHECK(!fs::exists(folder / "other.json"));
  const auto exists = run({"--checkpoint", "ck.json"});
  CHECK(exists.exit_code == 2);
  CHECK_THAT(exists.err, Catch::Contains("exists: add --resume"));
  const auto every = run({"--checkpoint-every", "-1"});
  CHECK(every.exit_code == 2);
  CHECK_THAT(every.err, Catch::Contains("--checkpoint-every"));
}

TEST_CASE("check --checkpoint: a bound tree forged with its digest recomputed is refused on resume, not read",
          "[checkpoint][cli][branch-and-bound]") {
  const fs::path folder = tverify::testing::fresh_folder("checkpoint-test", "trees"),
                 capture = tverify::testing::fresh_folder("checkpoint-test", "trees-capture");
  auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{
        "check",     "model",    "--onnx",   std::string(TVERIFY_SOURCE_DIR) + "/examples/models/previous.onnx",
        "--task",    "previous", "--V",      "16",
        "--lengths", "1:2",      "--method", "bounds"};
    args.insert(args.end(), extra.begin(), extra.end());
    return tverify::testing::run_tverify(args, folder, capture, 120);
  };
  REQUIRE(run({"--checkpoint", "ck.json"}).exit_code == 0);
  const Json saved = Json::parse(tverify::testing::read_all(folder / "ck.json"));
  // The bound trees' enumeration: each finished chunk's accumulator is a list of trees, each [boxes, decided, open,
  // wrong, unexplored, ...]. Length 1's tree leaves its one box open: its position set emptied, then a token past V.
  std::size_t trees = saved["enumerations"].size();
  for (std::size_t e = 0; e < saved["enumerations"].size(); ++e)
    if (saved["enumerations"][e]["label"] == "bound trees") trees = e;
  REQUIRE(trees < saved["enumerations"].size());
  auto refused = [&](const Json& forged, const std::string& tree) {
    write_text(folder / "ck.json", resealed(forged).dump());
    const auto resumed = run({"--checkpoint", "ck.json", "--resume", "--json", "forged.json"});
    INFO(resumed.err);
    CHECK(resumed.exit_code == 2);
    CHECK_THAT(resumed.err, Catch::Contains("bound tree " + tree + " is not one this run makes"));
    CHECK(!fs::exists(folder / "forged.json"));
  };
  // Each tree its own chunk: [chunk, [tree]], trees in order (length 1; length 2, targets 0 and 1), each tree
  // [boxes, decided, open, wrong, unexplored, no_instances, ...] and each decided box [length, target, box, margin].
  auto tree = [&](Json& checkpoint, std::size_t k) -> Json& {
    for (Json& chunk : checkpoint["enumerations"][trees]["finished"])
      if (chunk[0] == k) return chunk[1][0];
    FAIL("no chunk " << k);
    return checkpoint;
  };
  for (const Json bad_set : {Json::array(), Json::array({0, 16}), Json::array({2, 1}), Json::array({1, 1})}) {
    Json forged = saved;
    REQUIRE(tree(forged, 0)[2].size() == 1);  // open: one box of length 1
    tree(forged, 0)[2][0][0] = bad_set;
    refused(forged, "1 (length 1, target 0)");
  }
  Json emptied = saved;  // the open box taken away: the tree no longer covers length 1
  tree(emptied, 0)[2] = Json::array();
  refused(emptied, "1 (length 1, target 0)");
  Json retargeted = saved;
  REQUIRE(!tree(retargeted, 2)[1].empty());  // length 2, target 1: decided boxes
  tree(retargeted, 2)[1][0][1] = 0;
  refused(retargeted, "3 (length 2, target 1)");
  Json negative = saved;
  tree(negative, 2)[1][0][3] = -1;
  refused(negative, "3 (length 2, target 1)");
  Json counted = saved;  // sequences of no instance beyond the length's 256
  tree(counted, 1)[5] = 1000;
  refused(counted, "2 (length 2, target 0)");
}
