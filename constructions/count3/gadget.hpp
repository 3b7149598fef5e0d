// ENTP Lemma 6.3 / Appendix A.6: the only nonlinear elementwise map of Algorithm 4,
//   g(a, b) = a if a < b, a - b if a >= b,   g : [2n - 1] x [n] -> [n - 1],
// built from ReLUs as  g(a, b) = ReLU(a - M ReLU(a - b + eps)) + ReLU(a - b)  with 0 < eps < 1 and M >= 2n / eps.
// The lemma's domain is read as the integers 0 <= a <= 2n - 1, 1 <= b <= n.
#pragma once

#include "core/exact.hpp"

#include <optional>
#include <utility>

namespace tverify::count3 {

Exact g_reference(const Exact& a, const Exact& b);
Exact g_relu(const Exact& a, const Exact& b, const Exact& eps, const Exact& M);

// The first (a, b) of the lemma's domain for n, in order of b then a, where the ReLU form differs from g.
std::optional<std::pair<long long, long long>> gadget_counterexample(long long n, const Exact& eps, const Exact& M);

// The smallest M for which the ReLU form equals g on the whole domain for n, at this eps in (0, 1]:
// max over a >= b of a / (a - b + eps), which is n / eps (attained at a = b = n).
Exact smallest_gadget_m(long long n, const Exact& eps);

}  // namespace tverify::count3
