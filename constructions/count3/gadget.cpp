#include "constructions/count3/gadget.hpp"

#include "core/scalar.hpp"

namespace tverify::count3 {

Exact g_reference(const Exact& a, const Exact& b) { return a < b ? a : Exact(a - b); }

Exact g_relu(const Exact& a, const Exact& b, const Exact& eps, const Exact& M) {
  return relu(Exact(a - M * relu(Exact(a - b + eps)))) + relu(Exact(a - b));
}

std::optional<std::pair<long long, long long>> gadget_counterexample(long long n, const Exact& eps, const Exact& M) {
  for (long long b = 1; b <= n; ++b)
    for (long long a = 0; a <= 2 * n - 1; ++a)
      if (g_relu(a, b, eps, M) != g_reference(a, b)) return std::make_pair(a, b);
  return std::nullopt;
}

Exact smallest_gadget_m(long long n, const Exact& eps) {
  Exact best = 0;
  for (long long b = 1; b <= n; ++b)
    for (long long a = b; a <= 2 * n - 1; ++a) {
      const Exact needed = Exact(a) / (Exact(a - b) + eps);
      if (needed > best) best = needed;
    }
  return best;
}

}  // namespace tverify::count3
