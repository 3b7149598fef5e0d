// The loops shared out among MPI ranks (checkers/cluster.hpp), seen from one rank of a job of two: a fake Cluster
// hands this rank every other item and stands in for the other rank. map_items must compute exactly this rank's items,
// within the rank (no cluster active inside compute), and return every item's result in item order: on rank 0 its own
// and those that arrive from the other rank (here in reverse order), elsewhere what rank 0 broadcasts.
#include "checkers/cluster.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace tverify;

namespace {

constexpr std::uint64_t kItems = 7;

std::string result_of(std::uint64_t i) { return "item " + std::to_string(i); }

// Rank `rank` of two: items i with i % 2 == rank are this rank's; the other rank's results reach rank 0's sink when
// the loop ends, latest first, as {index, result} pairs (the encoding distribute_items sends).
class TwoRanks : public Cluster {
 public:
  explicit TwoRanks(int rank) : rank_(rank) {}
  int rank() const override { return rank_; }
  int ranks() const override { return 2; }
  std::unique_ptr<ItemDispenser> dispense(std::uint64_t items, ProgressBar*, ResultSink sink) override {
    return std::make_unique<Dispenser>(rank_, items, rank_ == 0 ? std::move(sink) : ResultSink{});
  }
  std::vector<std::string> gather(const std::string& local) override { return {local}; }
  std::string broadcast(const std::string& bytes) override {
    if (rank_ == 0) return bytes;
    std::vector<std::string> all;
    for (std::uint64_t i = 0; i < kItems; ++i) all.push_back(result_of(i));
    return nlohmann::json(all).dump();
  }
  [[noreturn]] void fail(const std::string& line, int) override { throw std::runtime_error(line); }

 private:
  class Dispenser : public ItemDispenser {
   public:
    Dispenser(int rank, std::uint64_t items, ResultSink sink) : next_(rank), items_(items), sink_(std::move(sink)) {}
    ~Dispenser() override {
      if (!sink_) return;
      for (std::uint64_t i = items_; i-- > 0;)
        if (i % 2 == 1) sink_(nlohmann::json(std::pair{i, result_of(i)}).dump());
    }
    std::uint64_t take(FinishedItem finished) override {
      if (!finished.result.empty() && sink_) sink_(finished.result);
      if (next_ >= items_) return items_;
      const std::uint64_t item = next_;
      next_ += 2;
      return item;
    }

   private:
    std::uint64_t next_, items_;
    ResultSink sink_;
  };
  int rank_;
};

}  // namespace

TEST_CASE("cluster: map_items computes this rank's items once, within the rank, and returns all in item order",
          "[cluster]") {
  std::vector<std::string> expected;
  for (std::uint64_t i = 0; i < kItems; ++i) expected.push_back(result_of(i));
  for (const int rank : {0, 1}) {
    INFO("rank " << rank);
    TwoRanks cluster(rank);
    set_active_cluster(&cluster);
    std::vector<std::uint64_t> computed;
    bool within_rank = true;
    const std::vector<std::string> results = map_items(kItems, [&](std::uint64_t i) {
      computed.push_back(i);
      within_rank = within_rank && active_cluster() == nullptr;
      return result_of(i);
    });
    set_active_cluster(nullptr);
    std::vector<std::uint64_t> own;
    for (std::uint64_t i = static_cast<std::uint64_t>(rank); i < kItems; i += 2) own.push_back(i);
    CHECK(computed == own);
    CHECK(within_rank);
    CHECK(results == expected);
  }
  // Alone: every item, in order.
  std::vector<std::uint64_t> computed;
  CHECK(map_items(kItems, [&](std::uint64_t i) {
          computed.push_back(i);
          return result_of(i);
        }) == expected);
  CHECK(computed.size() == kItems);
}
