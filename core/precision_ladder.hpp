// The precision ladder: an interval decision that cannot decide is retried at higher precision, and only then
// reported as undecided (docs/conventions.md, arithmetic policy). climb runs a decision at each rung of a ladder and
// stops at the first decided answer, returning it with the precision that decided it, or the last answer with the
// ladder's ceiling:
//
//   auto r = climb(standard_rungs,
//                  []<unsigned B>() { using I = Interval<B>; return is_greater(exp(I(x)), I(1) + I(x)); },
//                  [](Tri t) { return t != Tri::Unknown; });
//
// The decision must rebuild everything it compares from exact inputs at the precision it is given.
#pragma once

#include "core/interval.hpp"
#include "core/tri.hpp"

namespace tverify {

template <unsigned... Bits>
struct Rungs {
  static constexpr unsigned ceiling = (Bits, ...);  // the last rung
  static constexpr unsigned first = [] {
    constexpr unsigned bits[] = {Bits...};
    return bits[0];
  }();
};

// The evaluators' ladder: far past double, up to where a tie of the top level broken many levels down still shows.
inline constexpr Rungs<64, 256, 1024, 4096, 16384> standard_rungs{};

template <class Result>
struct Climbed {
  Result result{};
  unsigned bits = 0;  // the precision that decided, or the ceiling when none did
};

template <unsigned First, unsigned... Rest, class Decide, class IsDecided>
auto climb(Rungs<First, Rest...>, Decide&& decide, IsDecided&& is_decided) {
  Climbed<decltype(decide.template operator()<First>())> out;
  bool done = false;
  auto rung = [&]<unsigned Bits>() {
    if (done) return;
    out.result = decide.template operator()<Bits>();
    out.bits = Bits;
    done = is_decided(out.result);
  };
  rung.template operator()<First>();
  (rung.template operator()<Rest>(), ...);
  return out;
}

}  // namespace tverify
