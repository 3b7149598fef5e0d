#include "checkers/cluster.hpp"

namespace tverify {
namespace {
Cluster* current = nullptr;
int local_depth = 0;  // live RankLocal objects
}  // namespace

Cluster* active_cluster() { return local_depth > 0 ? nullptr : current; }

void set_active_cluster(Cluster* cluster) { current = cluster; }

bool writes_outputs() { return current == nullptr || current->rank() == 0; }

RankLocal::RankLocal() { ++local_depth; }

RankLocal::~RankLocal() { --local_depth; }

}  // namespace tverify
