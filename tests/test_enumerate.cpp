// checkers/enumerate: a fixed chunk grid, deterministic merge order, exceptions carried out of worker threads.
#include "checkers/enumerate.hpp"
#include "checkers/tally.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <numeric>

using namespace tverify;

TEST_CASE("every index is visited once, and the merged order is the index order for any thread count", "[enumerate]") {
  for (unsigned threads : {1u, 2u, 3u, 7u, 64u}) {
    RunOptions o;
    o.threads = threads;
    const auto seen = enumerate_indices<std::vector<std::uint64_t>>(
        1000, o, "test", [](std::uint64_t i, std::vector<std::uint64_t>& acc) { acc.push_back(i); },
        [](std::vector<std::uint64_t>& into, std::vector<std::uint64_t>&& from) {
          into.insert(into.end(), from.begin(), from.end());
        });
    std::vector<std::uint64_t> expected(1000);
    std::iota(expected.begin(), expected.end(), 0);
    CHECK(seen == expected);
  }
}

TEST_CASE("an empty domain visits nothing", "[enumerate]") {
  RunOptions o;
  o.threads = 4;
  const auto count = enumerate_indices<std::uint64_t>(
      0, o, "test", [](std::uint64_t, std::uint64_t& n) { ++n; }, [](std::uint64_t& a, std::uint64_t&& b) { a += b; });
  CHECK(count == 0);
}

TEST_CASE("an exception in a worker reaches the caller", "[enumerate]") {
  RunOptions o;
  o.threads = 4;
  auto visit = [](std::uint64_t i, int&) {
    if (i == 777) throw std::runtime_error("bad input 777");
  };
  CHECK_THROWS_WITH((enumerate_indices<int>(1000, o, "test", visit, [](int&, int&&) {})), "bad input 777");
}

TEST_CASE("append_limited keeps the first items only", "[enumerate]") {
  std::vector<int> a{1, 2};
  append_limited(a, std::vector<int>{3, 4, 5}, 4);
  CHECK(a == std::vector<int>{1, 2, 3, 4});
}

TEST_CASE("check_budget names the limit and the way out", "[enumerate]") {
  RunOptions o;
  o.max_inputs = 10;
  CHECK_NOTHROW(check_budget(10, o, "domain"));
  CHECK_THROWS_WITH(check_budget(11, o, "domain"), Catch::Contains("--max-inputs 10") && Catch::Contains("--force"));
}

TEST_CASE("the chunk grid partitions any domain, up to 2^64 - 1 inputs, without overflow", "[enumerate]") {
  for (const std::uint64_t count :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{255}, std::uint64_t{256}, std::uint64_t{1000},
        std::uint64_t{1} << 20, std::uint64_t{1} << 30, std::numeric_limits<std::uint64_t>::max()}) {
    INFO(count);
    const std::uint64_t chunks = chunk_count(count);
    CHECK(chunk_begin(count, chunks, 0) == 0);
    CHECK(chunk_begin(count, chunks, chunks) == count);
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const std::uint64_t size = chunk_begin(count, chunks, c + 1) - chunk_begin(count, chunks, c);
      CHECK(size >= count / chunks);
      CHECK(size <= count / chunks + 1);
    }
  }
}

TEST_CASE("the chunk grid: 256 chunks up to 2^20 inputs, then about 4,096 inputs per chunk, at most 65,536",
          "[enumerate]") {
  CHECK(chunk_count(0) == 1);
  CHECK(chunk_count(100) == 100);
  CHECK(chunk_count(1'000'000) == 256);
  CHECK(chunk_count(std::uint64_t{1} << 24) == 4096);  // 2^24 / 2^12
  CHECK(chunk_count(std::uint64_t{1} << 40) == 65536);
}

TEST_CASE("a tally decoded from its wire encoding equals the one encoded, counterexamples and counts included",
          "[enumerate]") {
  Tally t{.limit = 3};
  t.pass();
  t.fail({Json::array({0, 1}), Json::object({{"b", 1}, {"a", 2}}), Json("x"), "step 2"});
  ++t.checked, ++t.unknown;
  t.counts["invalid"] = 7;
  const Tally back = Json::from_cbor(Json::to_cbor(Json(t))).get<Tally>();
  CHECK(Json(back) == Json(t));
  CHECK(back.counterexamples.at(0).expected.dump() == R"({"b":1,"a":2})");  // key order kept
  CHECK(back.count("invalid") == 7);
  CHECK(back.limit == 3);
}
