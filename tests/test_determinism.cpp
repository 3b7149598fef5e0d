// A certificate is a function of its command: every construction's certificate is the same, field for field, at 1,
// 2, 3 and 16 threads (timings and the command line aside). The thread counts change how the domain is shared out;
// witnesses, counts and interval enclosures must not see it.
#include "cli_runner.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// The certificate without the fields that differ between runs by design.
Json stable(Json j) {
  if (j.is_object()) {
    for (const char* key : {"elapsed_s", "command", "seconds"}) j.erase(key);
    for (auto& [k, v] : j.items()) v = stable(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = stable(v);
  }
  return j;
}

Json certificate_at(const std::vector<std::string>& check, unsigned threads, const fs::path& dir) {
  std::vector<std::string> args = check;
  const std::string name = "t" + std::to_string(threads) + ".json";
  args.insert(args.end(), {"--threads", std::to_string(threads), "--json", name});
  const auto r = tverify::testing::run_tverify(args, dir, dir);
  INFO(r.err);
  REQUIRE(r.exit_code != 2);
  REQUIRE(r.exit_code != 4);
  return stable(Json::parse(tverify::testing::read_all(dir / name)));
}

}  // namespace

TEST_CASE("certificates do not depend on the thread count", "[determinism][cli][heavy]") {
  const std::vector<std::vector<std::string>> checks{
      {"check", "copy", "--D", "3", "--L", "6", "--S", "3"},
      {"check", "copy", "--variant", "corrected", "--embedding", "c2", "--D", "3", "--n", "2", "--L", "5"},
      {"check", "cat"},
      {"check", "cat", "--variant", "ar", "--N", "1", "--V", "4", "--L", "7", "--embedding", "stereo"},
      // rasp_mlp keeps the first argument outside Lemma A.6's domain: the smallest input, whatever thread met it
      {"check", "count3", "--variant", "corrected", "--n", "4", "--values", "0:4"},
      // interval sums over prefixes, rounded outward: the same only if summed in the same order
      {"check", "markov", "--N", "4"},
      {"check", "markov", "--N", "3", "--tied"},
      // failures, exact ties and inputs left unknown at the ladder's ceiling, merged by input length
      {"check", "model", "--onnx", std::string(TVERIFY_SOURCE_DIR) + "/tests/models/masked_prefix.onnx", "--task",
       "majority", "--V", "2", "--lengths", "1:4"},
  };
  const fs::path dir = fs::temp_directory_path() / ("tverify-determinism-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const auto& check : checks) {
    INFO(check[1] << " " << check.size());
    const Json one = certificate_at(check, 1, dir);
    for (const unsigned threads : {2u, 3u, 16u, 16u}) {
      INFO("threads " << threads);
      CHECK(certificate_at(check, threads, dir) == one);
    }
  }
  fs::remove_all(dir);
}
