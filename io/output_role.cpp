#include "io/output_role.hpp"

#include <atomic>

namespace tverify {
namespace {
std::atomic<bool> writes{true};
}  // namespace

bool writes_outputs() { return writes.load(std::memory_order_relaxed); }

void set_writes_outputs(bool value) { writes.store(value, std::memory_order_relaxed); }

}  // namespace tverify
