// The precision ladder: an interval decision that cannot decide is retried at higher precision, and only then
// reported as undecided (docs/conventions.md, arithmetic policy). A ladder is an ordered list of rungs, each a type
// with its `bits` (the code an outcome records); climb runs a decision at each rung in turn and stops at the first
// decided answer, returning it with the rung that decided, or the last answer with the ladder's ceiling:
//
//   auto r = climb(standard_rungs,
//                  []<unsigned B>() { using I = Interval<B>; return is_greater(exp(I(x)), I(1) + I(x)); },
//                  [](Tri t) { return t != Tri::Unknown; });
//
// Rungs<Bits...> is the ladder of MPFI precisions, whose decision takes the bits; a Ladder<Rung...> of other rung
// types (the model checker's: exact, double intervals, exp-log, then MPFI) takes the rung type. The decision must
// rebuild everything it compares from exact inputs at the rung it is given.
#pragma once

#include "core/interval.hpp"
#include "core/tri.hpp"

namespace tverify {

// A ladder of rung types, each with a static `bits`, lowest first.
template <class... Rung>
struct Ladder {
  static constexpr unsigned ceiling = (Rung::bits, ...);  // the last rung
};

template <unsigned Bits>
struct MpfiBits {
  static constexpr unsigned bits = Bits;
};

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

template <class First, class... Rest, class Decide, class IsDecided>
auto climb(Ladder<First, Rest...>, Decide&& decide, IsDecided&& is_decided) {
  Climbed<decltype(decide.template operator()<First>())> out;
  bool done = false;
  auto rung = [&]<class Rung>() {
    if (done) return;
    out.result = decide.template operator()<Rung>();
    out.bits = Rung::bits;
    done = is_decided(out.result);
  };
  rung.template operator()<First>();
  (rung.template operator()<Rest>(), ...);
  return out;
}

template <unsigned... Bits, class Decide, class IsDecided>
auto climb(Rungs<Bits...>, Decide&& decide, IsDecided&& is_decided) {
  return climb(
      Ladder<MpfiBits<Bits>...>{}, [&]<class Rung>() { return decide.template operator()<Rung::bits>(); }, is_decided);
}

}  // namespace tverify
