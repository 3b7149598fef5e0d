// proofs/z3_query: a query in progress is stopped by interrupt_queries from another thread, and reported unknown.
#include "proofs/z3_query.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <thread>

using namespace tverify;

TEST_CASE("z3 query: interrupt_queries stops a running query, which is unknown", "[z3]") {
  // Integers with x^3 + y^3 + z^3 = 33: nonlinear integer arithmetic, which Z3 searches for far longer than the
  // query's 60 s timeout (the smallest solution has 16-digit numbers).
  z3::context ctx;
  const z3::expr x = ctx.int_const("x"), y = ctx.int_const("y"), z = ctx.int_const("z");
  const z3::expr goal = x * x * x + y * y * y + z * z * z != 33;
  const auto start = std::chrono::steady_clock::now();
  auto query = std::async(std::launch::async, [&] { return proofs::prove(ctx, "cubes", {}, goal, {}); });
  REQUIRE(query.wait_for(std::chrono::milliseconds(500)) == std::future_status::timeout);  // still running
  proofs::interrupt_queries();
  REQUIRE(query.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  const proofs::QueryOutcome out = query.get();
  CHECK(out.status == proofs::QueryStatus::Unknown);
  CHECK(out.reason == "interrupted");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  // A query that starts afterwards runs as usual.
  const z3::expr a = ctx.real_const("a");
  CHECK(proofs::prove(ctx, "square", {}, a * a >= 0, {}).status == proofs::QueryStatus::Proved);
}
