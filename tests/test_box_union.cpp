// union_size (checkers/model/box_union.hpp): the members of a union of boxes, counted without listing them, against
// the members listed one by one on random boxes, and on hand-counted unions past the 2^27 members the bounds method
// lists.
#include "checkers/model/box_union.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <set>

using namespace tverify::model;

namespace {

// Every member of every box, each once.
std::set<std::vector<std::int64_t>> members(const std::vector<DataBox>& boxes) {
  std::set<std::vector<std::int64_t>> out;
  for (const DataBox& box : boxes) {
    std::vector<std::size_t> pick(box.size(), 0);
    while (true) {
      std::vector<std::int64_t> member;
      for (std::size_t p = 0; p < box.size(); ++p) member.push_back(box[p][pick[p]]);
      out.insert(member);
      std::size_t p = 0;
      while (p < box.size() && ++pick[p] == box[p].size()) pick[p++] = 0;
      if (p == box.size()) break;
    }
  }
  return out;
}

std::vector<std::int64_t> every_token(long long V) {
  std::vector<std::int64_t> all;
  for (long long t = 0; t < V; ++t) all.push_back(t);
  return all;
}

}  // namespace

TEST_CASE("box union: the listed members' count on random overlapping boxes", "[bounds][union]") {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 400; ++round) {
    const long long V = 1 + static_cast<long long>(rng() % 5);
    const std::size_t n = 1 + rng() % 4, count = rng() % 6;
    std::vector<DataBox> boxes;
    for (std::size_t b = 0; b < count; ++b) {
      DataBox box;
      for (std::size_t p = 0; p < n; ++p) {
        std::vector<std::int64_t> set;
        for (long long t = 0; t < V; ++t)
          if (rng() % 2) set.push_back(t);
        if (set.empty()) set.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(V)));
        box.push_back(set);
      }
      boxes.push_back(box);
    }
    INFO("round " << round);
    REQUIRE(union_size(boxes, V, 1u << 20) == members(boxes).size());
  }
}

TEST_CASE("box union: hand-counted unions past 2^27 members", "[bounds][union]") {
  const long long V = 16;
  const auto all = every_token(V);
  // x_1 = 0 or x_2 = 0 among 16^8 sequences: 2 * 16^7 - 16^6 (the sequences with both counted once).
  const DataBox first_zero{{0}, all, all, all, all, all, all, all};
  const DataBox second_zero{all, {0}, all, all, all, all, all, all};
  CHECK(union_size({first_zero, second_zero}, V, 1u << 20) == 2 * (std::uint64_t{1} << 28) - (std::uint64_t{1} << 24));
  // The same box twice, and a box inside another, add nothing.
  const DataBox inside{{0}, {0, 1}, all, all, all, all, all, all};
  CHECK(union_size({first_zero, first_zero, inside}, V, 1u << 20) == std::uint64_t{1} << 28);
  // The whole length.
  CHECK(union_size({first_zero, DataBox(8, all)}, V, 1u << 20) == std::uint64_t{1} << 32);
  CHECK(union_size({}, V, 1u << 20) == 0u);
}

TEST_CASE("box union: a count past its step budget gives up instead of guessing", "[bounds][union]") {
  const long long V = 4;
  const auto all = every_token(V);
  std::vector<DataBox> boxes;
  for (std::int64_t t = 0; t < V; ++t) boxes.push_back({{t}, all, {t}});  // 8 steps at the first position alone
  CHECK(union_size(boxes, V, 2) == std::nullopt);
  CHECK(union_size(boxes, V, 100) == 16u);
}
