#include "checkers/model/memory_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tverify::model {

namespace {

// glibc's heap chunk for a request of n bytes: n and an 8-byte header, rounded up to 16, at least 32.
constexpr std::uint64_t heap_chunk(std::uint64_t n) { return std::max<std::uint64_t>(32, (n + 8 + 15) / 16 * 16); }

// An exact element: the rational and, on the heap, numerator and denominator of up to four limbs each.
constexpr std::uint64_t exact_element_bytes = sizeof(Extended<Exact>) + 2 * heap_chunk(4 * 8);

// An interval element at Bits: two MPFR endpoints of Boost's precision for Bits (a few bits more), each with its
// limbs and the limb MPFR keeps before them.
template <unsigned Bits>
constexpr std::uint64_t interval_element_bytes() {
  constexpr std::uint64_t limbs = (Bits + 8 + 63) / 64 + 1;
  return sizeof(Extended<Interval<Bits>>) + 2 * heap_chunk(8 * limbs);
}

template <unsigned... Bits>
constexpr std::uint64_t top_rung_bytes(Rungs<Bits...>) {
  return std::max({interval_element_bytes<Bits>()...});
}

// Every rung of the ladder above the first, which load_model converted: an input may reach each.
template <unsigned First, unsigned... Higher>
std::uint64_t higher_rungs_bytes(const LoadedModel& model, std::uint64_t weights, Rungs<First, Higher...>) {
  return ((model.rung_converted<Higher>() ? 0 : weights * interval_element_bytes<Higher>()) + ... + 0);
}

// A run's bookkeeping besides the values: accumulators, counterexamples, the certificate's text, thread stacks.
constexpr std::uint64_t bookkeeping_bytes = std::uint64_t{32} << 20;

struct OverBudget {
  EvaluationSize counted;
};

template <class T>
std::uint64_t real_weights(const Weights<T>& weights) {
  std::uint64_t count = 0;
  for (const auto& [slot, tensor] : weights.by_slot)
    if (tensor.is_real()) count += static_cast<std::uint64_t>(tensor.size());
  return count;
}

// Runs the probe in T, stopping it (OverBudget) once `estimate_of` its running counts passes `budget`.
template <class T>
EvaluationSize probe(const LoadedModel& model, const Weights<T>& weights, std::size_t longest, std::uint64_t budget,
                     const std::function<std::uint64_t(const EvaluationSize&)>& estimate_of) {
  const std::vector<std::int64_t> tokens(longest, 0);
  return measure_evaluation<T>(model.graph, weights, tokens, [&](const EvaluationSize& size) {
    if (estimate_of(size) > budget) throw OverBudget{size};
  });
}

// The probe in double intervals when the weights fit them, else (or when double intervals leave a comparison
// undecided) at the first MPFI rung.
EvaluationSize probe_values(const LoadedModel& model, std::size_t longest, std::uint64_t budget,
                            const std::function<std::uint64_t(const EvaluationSize&)>& estimate_of) {
  std::optional<Weights<DoubleInterval>> doubles = model.doubles;
  if (!doubles) try {
      doubles = convert_weights<DoubleInterval>(model.graph);
    } catch (const DoubleRangeExceeded&) {}
  if (doubles) try {
      EvaluationSize size = probe(model, *doubles, longest, budget, estimate_of);
      if (size.stopped.empty()) return size;
    } catch (const DoubleRangeExceeded&) {  // a value past the double range
    }
  if (model.graph.rational)
    return probe(model, convert_weights<Interval<model_rungs.first>>(model.graph), longest, budget, estimate_of);
  return probe(model, model.rung_weights<model_rungs.first>(), longest, budget, estimate_of);
}

}  // namespace

MemoryEstimate model_memory_estimate(const LoadedModel& model, std::size_t longest, unsigned threads,
                                     std::uint64_t budget) {
  const std::uint64_t resident = resident_bytes();
  const std::uint64_t rungs =
      model.graph.rational
          ? 0
          : higher_rungs_bytes(model, real_weights(model.rung_weights<model_rungs.first>()), model_rungs);
  const std::uint64_t element = model.graph.rational ? exact_element_bytes : top_rung_bytes(model_rungs);
  // Every value, and the largest twice more: the copy of the output an evaluation returns, and an op's temporaries.
  const auto values_bytes = [&](const EvaluationSize& s) {
    return (s.real_elements + 2 * s.largest_real) * element + s.integer_elements * 8;
  };
  const auto total = [&](const EvaluationSize& s) {
    return resident + rungs + bookkeeping_bytes + std::uint64_t{threads} * values_bytes(s);
  };
  const auto parts = [&](const EvaluationSize& s, const std::string& note) {
    return fmt::format(
        "{} resident after loading, {} of weights at the higher interval rungs, {} thread(s) x {} of "
        "values per evaluation of {} tokens{}{}, {} of bookkeeping",
        memory_text(resident), memory_text(rungs), threads, memory_text(values_bytes(s)), longest,
        model.graph.rational ? " in exact rationals" : " at the top interval rung", note,
        memory_text(bookkeeping_bytes));
  };
  try {
    const EvaluationSize size = probe_values(model, longest, budget, total);
    const std::string stopped =
        size.stopped.empty() ? "" : " (the values before the probe stopped: " + size.stopped + ")";
    return {total(size), parts(size, stopped)};
  } catch (const OverBudget& over) {
    return {total(over.counted),
            parts(over.counted, " (at least: the probe stopped once the count passed the budget)")};
  }
}

}  // namespace tverify::model
