// GUIDE.md §2: an interval comparison that cannot decide is retried at higher precision, and only then reported as
// Unknown. decide_with_rising_precision runs a decision at 64, 128, 256, 512 and 1024 bits and stops at the first
// decided answer.
//
//   auto r = decide_with_rising_precision([]<unsigned B>() {
//     using I = Interval<B>;
//     return is_greater(exp(I(x)), I(1) + I(x));
//   });
//
// The decision must rebuild everything it compares from exact inputs at the precision it is given.
#pragma once

#include "core/interval.hpp"
#include "core/tri.hpp"

namespace tverify {

struct PrecisionDecision {
  Tri answer = Tri::Unknown;
  unsigned bits = 0;  // the precision that decided, or the last one tried
};

template <class Decide>
PrecisionDecision decide_with_rising_precision(Decide&& decide) {
  PrecisionDecision out;
  auto attempt = [&]<unsigned Bits>() {
    if (out.answer != Tri::Unknown) return;
    out.answer = decide.template operator()<Bits>();
    out.bits = Bits;
  };
  attempt.template operator()<64>();
  attempt.template operator()<128>();
  attempt.template operator()<256>();
  attempt.template operator()<512>();
  attempt.template operator()<1024>();
  return out;
}

}  // namespace tverify
