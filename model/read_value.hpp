// A certified real of the readout (a logit, a margin) in the form a certificate prints it: exact where the rung is
// exact ("5/8"; a rational exp-log value too), otherwise an enclosure "[lo, hi]" rounded outward with enough digits
// to round-trip (an irrational exp-log value is enclosed at 256 bits or more, with its sign), or "inf" / "-inf"; with
// its lower end, exact, which orders margins.
#pragma once

#include "core/double_interval.hpp"
#include "core/exact.hpp"
#include "core/exp_log.hpp"
#include "core/interval.hpp"
#include "core/precision_ladder.hpp"
#include "core/scalar.hpp"
#include "model/extended.hpp"

#include <functional>
#include <optional>
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

// An exp-log value's enclosure at the lowest of 256, 1,024, 4,096 and 16,384 bits that makes one (a denominator's
// enclosure may contain 0 when its terms cancel) and, for a value whose sign is decided, has that sign; nullopt when
// none does.
inline std::optional<ReadValue> exp_log_value(const ExpLogNumber& x) {
  const Sign sign = x.sign();
  std::optional<ReadValue> out;
  climb(
      Rungs<256, 1024, 4096, 16384>{},
      [&]<unsigned B>() {
        try {
          const Interval<B> e = x.template enclosure<B>();
          const bool signed_right =
              (sign != Sign::Positive || e.lower() > 0) && (sign != Sign::Negative || e.upper() < 0);
          if (signed_right) out = ReadValue{[e] { return e.to_string(); }, e.lower(), 0};
        } catch (const std::exception&) {}  // an interval division by an enclosure of 0: more bits
        return out.has_value();
      },
      [](bool done) { return done; });
  return out;
}

// x as a certificate prints it; nullopt when an exp-log value's enclosure cannot be made (exp_log_value).
template <class T>
std::optional<ReadValue> read_value(const Extended<T>& x) {
  if (!x.finite()) return ReadValue::printed(x.inf > 0 ? "inf" : "-inf", Exact(0), x.inf);
  if constexpr (std::is_same_v<T, Exact>) {
    return ReadValue{[q = x.value] { return exact_to_string(q); }, x.value, 0};
  } else if constexpr (std::is_same_v<T, ExpLogNumber>) {
    if (const auto q = x.value.rational()) return ReadValue{[q = *q] { return exact_to_string(q); }, *q, 0};
    return exp_log_value(x.value);
  } else if constexpr (std::is_same_v<T, DoubleInterval>) {
    // Printed through MPFI, whose ends round outward (64 bits hold a double exactly).
    return ReadValue{[v = x.value] { return Interval<64>::hull(v.lower(), v.upper()).to_string(); }, x.value.lower(),
                     0};
  } else {
    static_assert(is_interval_v<T>, "a scalar of the ladder: exact, exp-log or an interval");
    return ReadValue{[v = x.value] { return v.to_string(); }, x.value.lower(), 0};
  }
}

}  // namespace tverify::model
