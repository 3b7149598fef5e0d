#include "checkers/cluster.hpp"

#include "checkers/verdict.hpp"

#include <exception>
#include <utility>

namespace tverify {
namespace {
Cluster* current = nullptr;
int local_depth = 0;  // live RankLocal objects
}  // namespace

Cluster* active_cluster() { return local_depth > 0 ? nullptr : current; }

void set_active_cluster(Cluster* cluster) {
  current = cluster;
  set_writes_outputs(cluster == nullptr || cluster->rank() == 0);
}

RankLocal::RankLocal() { ++local_depth; }

RankLocal::~RankLocal() { --local_depth; }

void distribute_items(std::uint64_t items, const std::function<std::string(std::uint64_t)>& compute,
                      const std::function<void(std::uint64_t, std::string)>& on_result) {
  Cluster* const cluster = active_cluster();
  if (!cluster) {
    for (std::uint64_t i = 0; i < items; ++i) on_result(i, compute(i));
    return;
  }
  std::exception_ptr failed;  // on_result threw on rank 0: rethrown once no rank takes items any more
  {
    const auto dispenser = cluster->dispense(items, nullptr, [&](const std::string& message) {
      if (failed) return;
      try {
        auto [index, result] = Json::parse(message).get<std::pair<std::uint64_t, std::string>>();
        on_result(index, std::move(result));
      } catch (...) { failed = std::current_exception(); }
    });
    FinishedItem finished;
    for (std::uint64_t i = dispenser->take({}); i < items; i = dispenser->take(std::move(finished))) {
      const RankLocal alone;
      finished = {0, Json(std::pair{i, compute(i)}).dump()};
    }
  }
  if (failed) std::rethrow_exception(failed);
}

std::vector<std::string> map_items(std::uint64_t items, const std::function<std::string(std::uint64_t)>& compute) {
  std::vector<std::string> results(items);
  distribute_items(items, compute, [&](std::uint64_t i, std::string result) { results.at(i) = std::move(result); });
  Cluster* const cluster = active_cluster();
  if (!cluster) return results;
  const std::string all = cluster->broadcast(cluster->rank() == 0 ? Json(results).dump() : std::string());
  return Json::parse(all).get<std::vector<std::string>>();
}

}  // namespace tverify
