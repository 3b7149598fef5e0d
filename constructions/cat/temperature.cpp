#include "constructions/cat/temperature.hpp"

#include "core/scalar.hpp"

#include <algorithm>
#include <cmath>

namespace tverify::cat {

namespace {
using I = Interval<128>;

I capped(const I& gamma) {  // Gamma' = min(Gamma, 1): a zero key has cosine 0
  return gamma.lower() >= 1 ? I(1) : gamma;
}
}  // namespace

I required_c_squared(long others, const Exact& delta_squared, const I& gamma) {
  const I ratio = I(Exact(2 * others)) / sqrt(I(delta_squared));
  return log(ratio) / capped(gamma);
}

Exact choose_c(long others, const Exact& delta_squared, const I& gamma) {
  const Exact need = required_c_squared(others, delta_squared, gamma).upper();
  const double guess = std::sqrt(std::max(0.0, need.convert_to<double>()));
  BigInt k(static_cast<long>(std::ceil(guess * 64)));
  while (Exact(k, 64) * Exact(k, 64) <= need) ++k;
  return Exact(k, 64);
}

long sufficient_length(const Exact& c_squared, const Exact& delta_squared, const I& gamma, Delay delay) {
  // others < (Delta / 2) exp(c^2 Gamma'): the largest integer `others` certainly below it.
  const I bound = sqrt(I(delta_squared)) / I(2) * exp(I(c_squared) * capped(gamma));
  const Exact lower = bound.lower();
  if (lower > Exact(1'000'000'000)) return 1'000'000'000;
  BigInt others = numerator(lower) / denominator(lower);
  if (Exact(others) == lower) others -= 1;  // strict
  const long extra = delay == Delay::Key ? 1 : 2;
  return std::max(0L, static_cast<long>(others) + extra);
}

}  // namespace tverify::cat
