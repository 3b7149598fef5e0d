#include "model/box_decision.hpp"

#include "core/double_interval.hpp"

#include <algorithm>
#include <optional>

namespace tverify::model {

namespace {

// a > b for every value of both enclosures (infinities exact).
template <class T>
bool certainly_above(const Extended<T>& a, const Extended<T>& b) {
  if (!a.finite() || !b.finite()) return a.inf > b.inf || (a.inf > 0 && b.finite()) || (b.inf < 0 && a.finite());
  return is_greater(a.value, b.value) == Tri::True;
}

// A lower bound on a - b as a double, rounded down (-inf when either is infinite).
template <class T>
double margin_of(const Extended<T>& a, const Extended<T>& b) {
  if (!a.finite() || !b.finite()) return a.inf > 0 || b.inf < 0 ? HUGE_VAL : -HUGE_VAL;
  const Exact lower = T(a.value - b.value).lower();
  const double d = lower.convert_to<double>();
  return Exact(d) <= lower ? d : std::nextafter(d, -HUGE_VAL);
}

template <class T>
BoxReading reading_at(const Extended<T>* row, std::int64_t classes, const std::vector<std::int64_t>& expected) {
  const auto expects = [&](std::int64_t k) { return std::binary_search(expected.begin(), expected.end(), k); };
  for (std::int64_t k = 0; k < classes; ++k) {
    if (expects(k)) continue;
    if (std::all_of(expected.begin(), expected.end(),
                    [&](std::int64_t c) { return c >= classes || certainly_above(row[k], row[c]); }))
      return {BoxVerdict::Wrong, 0};
  }
  if (expected.size() != 1 || expected[0] >= classes) return {};
  const std::int64_t c = expected[0];
  double margin = HUGE_VAL;
  for (std::int64_t k = 0; k < classes; ++k) {
    if (k == c) continue;
    if (!certainly_above(row[c], row[k])) return {};
    margin = std::min(margin, margin_of(row[c], row[k]));
  }
  return {BoxVerdict::Right, margin};
}

// The readings from one enclosure of the logits; nullopt when the output is not [1, seq, classes] or [seq, classes]
// with enough classes (the members' own evaluation reports that).
template <class T>
std::optional<std::vector<BoxReading>> readings_of(const Tensor<T>& out, const TokenBox& box,
                                                   const std::vector<BoxRead>& reads, std::int64_t classes) {
  const auto n = static_cast<std::int64_t>(box.length());
  const Shape& s = out.shape;
  const bool fits = out.is_real() && ((s.size() == 3 && s[0] == 1 && s[1] == n) || (s.size() == 2 && s[0] == n));
  if (!fits || s.back() < std::max<std::int64_t>(classes, 1)) return std::nullopt;
  std::vector<BoxReading> readings;
  for (const BoxRead& r : reads)
    readings.push_back(reading_at(&out.reals[r.position * static_cast<std::size_t>(s.back())], s.back(), r.expected));
  return readings;
}

// The readings from the enclosure in T; nullopt when it cannot be made: a comparison the box leaves undecided (its
// members disagree on it far more often than the rounding blurs it), a plan's check that fails, an enclosure past
// the double range, a model error. `past_range` says which: only there may more precision help (a softmax of large
// scores), since the exact engine decides a box's members anyway.
template <class T>
std::optional<std::vector<BoxReading>> decided_with(const LoadedModel& model, const Weights<T>& weights,
                                                    const BoxQuestion& q, bool& past_range) {
  past_range = false;
  try {
    return readings_of(evaluate_box(model.graph, weights, q.box, q.plan), q.box, q.reads, q.classes);
  } catch (const Undecided&) {
  } catch (const PrefixBroken&) {
  } catch (const DoubleRangeExceeded&) { past_range = true; } catch (const ModelError&) {
  }
  return std::nullopt;
}

}  // namespace

std::variant<BoxAnswer, NoBoxEvaluation> decide_box(const LoadedModel& model, const BoxQuestion& q) {
  BoxAnswer answer;
  try {
    bool past_range = true;
    if (model.double_rung())
      if (auto r = decided_with(model, *model.doubles, q, past_range)) return BoxAnswer{*r, false};
    if (past_range && (q.may_climb || !model.double_rung())) {
      answer.climbed = model.double_rung();
      if (auto r = decided_with(model, model.rung_weights<model_rungs.first>(), q, past_range)) {
        answer.readings = *r;
        return answer;
      }
    }
  } catch (const BoxUnsupported& e) { return NoBoxEvaluation{e.what()}; }
  answer.readings.resize(q.reads.size());
  return answer;
}

}  // namespace tverify::model
