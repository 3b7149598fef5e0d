// A certified real of the readout (a logit, a margin) in the form a certificate prints it: exact where the rung is
// exact ("5/8"; a rational exp-log value too), otherwise an enclosure "[lo, hi]" rounded outward with enough digits
// to round-trip (an irrational exp-log value is enclosed at 256 bits), or "inf" / "-inf"; with its lower end, exact,
// which orders margins.
#pragma once

#include "core/double_interval.hpp"
#include "core/exact.hpp"
#include "core/exp_log.hpp"
#include "core/interval.hpp"
#include "core/scalar.hpp"
#include "model/extended.hpp"

#include <functional>
#include <string>

namespace tverify::model {

struct ReadValue {
  std::function<std::string()> text;  // made when asked: most margins of a check are compared, never printed
  Exact lower;                        // the lower end, when finite
  int inf = 0;                        // +1 / -1: the value is that infinity

  static ReadValue printed(std::string text, Exact lower, int inf) {
    return {[text = std::move(text)] { return text; }, std::move(lower), inf};
  }

  // Whether this value's lower end is below `other`'s.
  bool lower_below(const ReadValue& other) const {
    if (inf != other.inf) return inf < other.inf;
    return inf == 0 && lower < other.lower;
  }
};

template <class T>
ReadValue read_value(const Extended<T>& x) {
  if (!x.finite()) return ReadValue::printed(x.inf > 0 ? "inf" : "-inf", Exact(0), x.inf);
  if constexpr (std::is_same_v<T, Exact>) {
    return {[q = x.value] { return exact_to_string(q); }, x.value, 0};
  } else if constexpr (std::is_same_v<T, ExpLogNumber>) {
    if (const auto q = x.value.rational()) return {[q = *q] { return exact_to_string(q); }, *q, 0};
    const auto e = x.value.template enclosure<256>();
    return {[e] { return e.to_string(); }, e.lower(), 0};
  } else if constexpr (std::is_same_v<T, DoubleInterval>) {
    // Printed through MPFI, whose ends round outward (64 bits hold a double exactly).
    return {[v = x.value] { return Interval<64>::hull(v.lower(), v.upper()).to_string(); }, x.value.lower(), 0};
  } else {
    static_assert(is_interval_v<T>, "a scalar of the ladder: exact, exp-log or an interval");
    return {[v = x.value] { return v.to_string(); }, x.value.lower(), 0};
  }
}

}  // namespace tverify::model
