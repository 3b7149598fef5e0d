// ONNX ops with irrational values (opsets 13-18): Exp, Log, Sqrt, Erf, Tanh, Sigmoid, Pow with a fractional
// exponent, Softmax, LogSoftmax, LayerNormalization. Over intervals (double or MPFI) each returns an enclosure of the
// exact real result (outward rounding); the limits at +-infinity are exact (exp(-inf) = 0, so a -inf attention mask
// gives weight exactly 0). Pow with integer exponents is rational and serves exact evaluation too. In exact
// exp-log arithmetic (ExpLogNumber, core/exp_log.hpp) Exp, Sigmoid, Softmax, Log, Sqrt and Pow are exact where their
// arguments are within it; the other ops, and other arguments, throw NotExpLog (the caller then encloses).
#pragma once

#include "model/ops_linear.hpp"

#include <cmath>
#include <optional>

namespace tverify::model::ops {

template <class T>
constexpr bool is_exp_log_v = std::is_same_v<T, ExpLogNumber>;

// x^e for an integer e, by repeated squaring; an even power is enclosed in [0, inf) (x * x of an interval that
// straddles 0 would reach below 0).
template <class T>
Extended<T> integer_power(const Extended<T>& x, std::int64_t e) {
  if (e < 0) return Extended<T>{T(1), 0} / integer_power(x, -e);
  if (e == 0) return {T(1), 0};
  if (!x.finite()) return Extended<T>::infinity(e % 2 == 0 ? 1 : x.inf);
  const Extended<T> half = integer_power(x, e / 2);
  Extended<T> square{half.value * half.value, 0};
  if constexpr (is_interval_v<T>) square.value = relu(square.value);
  return e % 2 == 0 ? square : Extended<T>{square.value * x.value, 0};
}

template <class T>
Extended<T> exp_of(const Extended<T>& x) {
  if (!x.finite()) return x.inf < 0 ? Extended<T>{T(0), 0} : x;
  return {exp(x.value), 0};
}

template <class T>
Extended<T> log_of(const Extended<T>& x) {
  const int s = decided_sign(x);
  if (s < 0) throw NotANumber("log of a negative number");
  if (s == 0) return Extended<T>::infinity(-1);
  if (!x.finite()) return x;
  return {log(x.value), 0};
}

template <class T>
Extended<T> sqrt_of(const Extended<T>& x) {
  const int s = decided_sign(x);
  if (s < 0) throw NotANumber("sqrt of a negative number");
  if (s == 0) return {T(0), 0};
  if (!x.finite()) return x;
  return {sqrt(x.value), 0};
}

template <class T>
Extended<T> erf_of(const Extended<T>& x) {
  if (!x.finite()) return {T(x.inf), 0};
  return {erf(x.value), 0};
}

template <class T>
Extended<T> tanh_of(const Extended<T>& x) {
  if (!x.finite()) return {T(x.inf), 0};
  return {tanh(x.value), 0};
}

template <class T>
Extended<T> sigmoid_of(const Extended<T>& x) {
  const Extended<T> one{T(1), 0};
  return one / (one + exp_of(-x));
}

// x^e: integer exponents by multiplication, others as exp(e log x) for x > 0 (0^e = 0 for e > 0).
template <class T>
Extended<T> power(const Extended<T>& x, const Extended<T>& e) {
  const Exact* integer = nullptr;
  Exact exponent;
  if (e.finite())
    if (const std::optional<Exact> point = exact_point(e)) {
      exponent = *point;
      integer = &exponent;
    }
  if (integer && denominator(*integer) == 1) {
    const BigInt k = numerator(*integer);
    if (abs(k) > 64) throw ModelError("Pow with an integer exponent above 64 in absolute value");
    return integer_power(x, k.convert_to<std::int64_t>());
  }
  if constexpr (!is_interval_v<T> && !is_exp_log_v<T>) {
    throw std::logic_error("Pow with a fractional exponent in exact evaluation");
  } else {
    if (decided_sign(x) == 0 && decided_sign(e) > 0) return {T(0), 0};
    return exp_of(e * log_of(x));
  }
}

template <class T>
Tensor<T> elementwise(const std::string& op, const Tensor<T>& a) {
  if (!a.is_real()) throw ModelError(op + " of an integer tensor");
  if constexpr (is_exp_log_v<T>) {
    if (op == "Erf" || op == "Tanh") throw NotExpLog(op);
    auto f = [&op](const Extended<T>& x) {
      if (op == "Exp") return exp_of(x);
      if (op == "Log") return log_of(x);
      if (op == "Sqrt") return sqrt_of(x);
      return sigmoid_of(x);
    };
    return unary(a, f, [](std::int64_t x) { return x; });
  } else if constexpr (!is_interval_v<T>) {
    throw std::logic_error(op + " in exact evaluation");
  } else {
    auto f = [&op](const Extended<T>& x) {
      if (op == "Exp") return exp_of(x);
      if (op == "Log") return log_of(x);
      if (op == "Sqrt") return sqrt_of(x);
      if (op == "Erf") return erf_of(x);
      if (op == "Tanh") return tanh_of(x);
      return sigmoid_of(x);
    };
    return unary(a, f, [](std::int64_t x) { return x; });
  }
}

// Calls f(offsets) for every slice of `shape` along `axis`, with the flat offsets of the slice's elements.
template <class F>
void for_each_slice(const Shape& shape, std::size_t axis, F f) {
  const std::int64_t dim = shape[axis];
  const std::int64_t inner = element_count(Shape(shape.begin() + static_cast<long>(axis) + 1, shape.end()));
  const std::int64_t outer = element_count(shape) / std::max<std::int64_t>(dim * inner, 1);
  std::vector<std::size_t> offsets(static_cast<std::size_t>(dim));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t in = 0; in < inner; ++in) {
      for (std::int64_t k = 0; k < dim; ++k)
        offsets[static_cast<std::size_t>(k)] = static_cast<std::size_t>((o * dim + k) * inner + in);
      f(offsets);
    }
}

// The width of a softmax reference above which it is replaced by a point (below it, the rounding of a single input's
// scores, the reference itself keeps e_r exactly 1).
inline constexpr double wide_reference = 1e-6;

// Softmax or LogSoftmax along `axis`, with e_j = exp(x_j - x_r) for a reference entry r: over intervals the finite
// entry with the highest upper end, so that no x_j - x_r exceeds the reference's own width and no e_j overflows
// (exactly, in exp-log arithmetic, the first finite entry). softmax_i = 1 / (1 + sum_{j != i} e_j / e_i) where e_i is
// certainly positive: no e_j appears twice in a difference, so the enclosure stays tight, and a single entry left by
// a -inf mask gets weight exactly 1. Where e_i's enclosure reaches 0 (a key under a finite mask such as -1e9, whose
// exponential underflows), softmax_i = e_i / sum_j e_j, whose denominator is at least e_r = 1. A -inf entry weighs
// exactly 0. log_softmax_i = x_i - x_r - log(sum_j e_j). A wide reference (the scores over a box of inputs) would
// widen every e_j by its width twice; it is replaced by a point, its exact upper end, which cancels exactly in
// the weights: e_i = exp(x_i - c), and softmax_i = 1 / (1 + sum_{j != i} e_j / e_i) is then the tight enclosure
// [e^{l_i} / (e^{l_i} + sum_{j != i} e^{u_j}), e^{u_i} / (e^{u_i} + sum_{j != i} e^{l_j})].
template <class T>
Tensor<T> softmax(const Tensor<T>& a, std::int64_t axis_in, bool logarithm) {
  if (!a.is_real()) throw ModelError("Softmax of an integer tensor");
  if (is_exp_log_v<T> && logarithm) throw NotExpLog("LogSoftmax");
  if constexpr (!is_interval_v<T> && !is_exp_log_v<T>) {
    throw std::logic_error("Softmax in exact evaluation");
  } else {
    using E = Extended<T>;
    Tensor<T> out = a;
    for_each_slice(a.shape, normalized_axis(axis_in, a.shape.size()), [&](const std::vector<std::size_t>& at) {
      const E* reference = nullptr;
      for (std::size_t i : at) {
        if (a.reals[i].inf > 0) throw NotANumber("softmax of +inf");
        if (!a.reals[i].finite()) continue;
        if constexpr (is_interval_v<T>) {
          if (!reference || a.reals[i].value.upper_double() > reference->value.upper_double()) reference = &a.reals[i];
        } else if (!reference) {
          reference = &a.reals[i];
        }
      }
      if (!reference) throw NotANumber("softmax of a slice that is -inf everywhere");
      // The shift of every exponent: the reference (e_r is then exp(0) = 1 exactly: an interval x_r - x_r would not
      // be the point 0), or for a wide reference a point, its exact upper end.
      std::optional<E> point_shift;
      if constexpr (is_interval_v<T>) {
        const T& r = reference->value;
        const double width = r.upper_double() + T(-r).upper_double();  // rounded up; +inf past the double range
        if (std::isfinite(width) && width > wide_reference) point_shift = E{T(r.upper()), 0};
      }
      const E& shift = point_shift ? *point_shift : *reference;
      std::vector<E> e;
      for (std::size_t i : at)
        e.push_back(!point_shift && &a.reals[i] == reference ? E{T(1), 0} : exp_of(a.reals[i] - shift));
      if constexpr (is_exp_log_v<T>) {
        // e_k / sum_j e_j: every weight of the slice over the same denominator, so that sums of weighted values add
        // numerators only
        E total{T(0), 0};
        for (const E& x : e) total = total + x;
        for (std::size_t k = 0; k < at.size(); ++k)
          out.reals[at[k]] = a.reals[at[k]].finite() ? e[k] / total : E{T(0), 0};
        return;
      }
      if constexpr (is_interval_v<T>) {
        if (logarithm) {
          E total{T(0), 0};
          for (const E& x : e) total = total + x;
          const E log_total = log_of(total);
          for (std::size_t k = 0; k < at.size(); ++k) out.reals[at[k]] = a.reals[at[k]] - shift - log_total;
          return;
        }
      }
      // sum_{j != k} e_j = (e_0 + .. + e_{k-1}) + (e_{k+1} + ..): prefix and suffix sums, each e_j once.
      std::vector<E> before(at.size() + 1, E{T(0), 0}), after(at.size() + 1, E{T(0), 0});
      for (std::size_t j = 0; j < at.size(); ++j) before[j + 1] = before[j] + e[j];
      for (std::size_t j = at.size(); j-- > 0;) after[j] = after[j + 1] + e[j];
      for (std::size_t k = 0; k < at.size(); ++k) {
        if (!a.reals[at[k]].finite()) {
          out.reals[at[k]] = {T(0), 0};
          continue;
        }
        const E others = before[k] + after[k + 1];
        out.reals[at[k]] =
            sign_of(e[k].value) == Sign::Positive ? E{T(1), 0} / (E{T(1), 0} + others / e[k]) : e[k] / (e[k] + others);
      }
    });
    return out;
  }
}

// LayerNormalization (opset 17): (x - mean) / sqrt(variance + epsilon) * scale + bias over the axes from `axis` on.
template <class T>
Tensor<T> layer_normalization(const Node& node, const Tensor<T>& x, const Tensor<T>& scale, const Tensor<T>* bias) {
  if (!x.is_real() || !scale.is_real() || (bias && !bias->is_real()))
    throw ModelError("LayerNormalization of integers");
  if constexpr (is_exp_log_v<T>) {
    throw NotExpLog("LayerNormalization");
  } else if constexpr (!is_interval_v<T>) {
    throw std::logic_error("LayerNormalization in exact evaluation");
  } else {
    using E = Extended<T>;
    const std::size_t axis = normalized_axis(node.int_attribute("axis", -1), x.shape.size());
    const Shape normalized(x.shape.begin() + static_cast<long>(axis), x.shape.end());
    const std::int64_t width = element_count(normalized), rows = x.size() / std::max<std::int64_t>(width, 1);
    const auto is = broadcast_index_map(scale.shape, normalized);
    const auto ib = bias ? broadcast_index_map(bias->shape, normalized) : std::vector<std::int64_t>{};
    const E epsilon{T(node.float_attribute("epsilon", Exact(static_cast<double>(1e-5f)))), 0},
        n{T(static_cast<long>(width)), 0};
    Tensor<T> out = x;
    for (std::int64_t r = 0; r < rows; ++r) {
      const auto row = [&](std::int64_t k) { return static_cast<std::size_t>(r * width + k); };
      E mean{T(0), 0}, variance{T(0), 0};
      for (std::int64_t k = 0; k < width; ++k) mean = mean + x.reals[row(k)];
      mean = mean / n;
      for (std::int64_t k = 0; k < width; ++k) variance = variance + integer_power(x.reals[row(k)] - mean, 2);
      const E deviation = sqrt_of(variance / n + epsilon);
      for (std::int64_t k = 0; k < width; ++k) {
        E y = (x.reals[row(k)] - mean) / deviation *
              scale.reals[static_cast<std::size_t>(is[static_cast<std::size_t>(k)])];
        if (bias) y = y + bias->reals[static_cast<std::size_t>(ib[static_cast<std::size_t>(k)])];
        out.reals[row(k)] = y;
      }
    }
    return out;
  }
}

}  // namespace tverify::model::ops
