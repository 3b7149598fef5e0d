// ONNX element-wise ops with numpy broadcasting, over extended reals (exact or enclosed) and 64-bit integers. Each
// follows the ONNX operator specification (opsets 13-18); floating-point types are evaluated as the reals their
// stored values are, so no op rounds.
#pragma once

#include "core/binary_formats.hpp"
#include "model/graph.hpp"
#include "model/integer_types.hpp"

#include <algorithm>
#include <functional>

namespace tverify::model::ops {

template <class T>
using Inputs = std::vector<const Tensor<T>*>;

// The scalar type of a node's inputs, for an evaluation written once for every scalar type (a generic lambda's
// `const auto& in`).
template <class In>
using ScalarOf = typename std::remove_pointer_t<typename std::decay_t<In>::value_type>::Scalar;

template <class T>
const Tensor<T>& input(const Inputs<T>& in, std::size_t i, const Node& node) {
  if (i >= in.size() || !in[i]) throw ModelError("input " + std::to_string(i + 1) + " is missing");
  (void)node;
  return *in[i];
}

template <class T>
bool has_input(const Inputs<T>& in, std::size_t i) {
  return i < in.size() && in[i];
}

// An exact tensor (a weight, a Constant's value) in scalar type T.
template <class T>
Tensor<T> converted(const ExactTensor& t) {
  if (!t.is_real()) return Tensor<T>::integer(t.shape, t.ints, t.kind);
  std::vector<Extended<T>> reals;
  reals.reserve(t.reals.size());
  for (const auto& x : t.reals)
    reals.push_back(x.finite() ? Extended<T>{from_exact<T>(x.value), 0} : Extended<T>::infinity(x.inf));
  return Tensor<T>::real(t.shape, std::move(reals));
}

// out[i] = op(a[i'], b[i'']) over the broadcast shape; both real or both integer.
template <class T, class RealOp, class IntOp>
Tensor<T> binary(const Tensor<T>& a, const Tensor<T>& b, RealOp real_op, IntOp int_op,
                 ElementKind int_result = ElementKind::Integer) {
  const Shape shape = broadcast_shapes(a.shape, b.shape);
  const auto ia = broadcast_index_map(a.shape, shape), ib = broadcast_index_map(b.shape, shape);
  if (a.is_real() != b.is_real()) throw ModelError("operands of different element types (real and integer)");
  Tensor<T> out;
  out.shape = shape;
  if (a.is_real()) {
    out.reals.reserve(ia.size());
    for (std::size_t i = 0; i < ia.size(); ++i) out.reals.push_back(real_op(a.reals[ia[i]], b.reals[ib[i]]));
  } else {
    out.kind = int_result;
    out.ints.reserve(ia.size());
    for (std::size_t i = 0; i < ia.size(); ++i) out.ints.push_back(int_op(a.ints[ia[i]], b.ints[ib[i]]));
  }
  return out;
}

// A comparison: a boolean tensor, decided for every pair (Undecided otherwise).
template <class T, class RealCompare, class IntCompare>
Tensor<T> compare(const Tensor<T>& a, const Tensor<T>& b, RealCompare real_cmp, IntCompare int_cmp) {
  const Shape shape = broadcast_shapes(a.shape, b.shape);
  const auto ia = broadcast_index_map(a.shape, shape), ib = broadcast_index_map(b.shape, shape);
  if (a.is_real() != b.is_real()) throw ModelError("operands of different element types (real and integer)");
  Tensor<T> out = Tensor<T>::integer(shape, std::vector<std::int64_t>(ia.size()), ElementKind::Boolean);
  for (std::size_t i = 0; i < ia.size(); ++i)
    out.ints[i] = a.is_real() ? real_cmp(a.reals[ia[i]], b.reals[ib[i]]) : int_cmp(a.ints[ia[i]], b.ints[ib[i]]);
  return out;
}

template <class T, class RealOp, class IntOp>
Tensor<T> unary(const Tensor<T>& a, RealOp real_op, IntOp int_op) {
  Tensor<T> out;
  out.kind = a.kind;
  out.shape = a.shape;
  if (a.is_real()) {
    out.reals.reserve(a.reals.size());
    for (const auto& x : a.reals) out.reals.push_back(real_op(x));
  } else {
    for (std::int64_t x : a.ints) out.ints.push_back(int_op(x));
  }
  return out;
}

// An int64 result, or ModelError when the operation overflowed (ONNX Runtime would wrap around).
inline std::int64_t no_overflow(bool overflowed, std::int64_t result, const char* op) {
  if (overflowed) throw ModelError(std::string("int64 overflow in ") + op);
  return result;
}

// An int64 operation from a GCC overflow builtin (bool f(x, y, int64_t* result)) that refuses an overflow.
template <class Builtin>
auto checked_integer_op(Builtin f, const char* op) {
  return [f, op](std::int64_t x, std::int64_t y) {
    std::int64_t r = 0;
    const bool overflowed = f(x, y, &r);
    return no_overflow(overflowed, r, op);
  };
}

template <class T>
Tensor<T> arithmetic(const std::string& op, const Tensor<T>& a, const Tensor<T>& b) {
  using E = Extended<T>;
  using I = std::int64_t;
  if (op == "Add")
    return binary(
        a, b, [](const E& x, const E& y) { return x + y; },
        checked_integer_op([](I x, I y, I* r) { return __builtin_add_overflow(x, y, r); }, "Add"));
  if (op == "Sub")
    return binary(
        a, b, [](const E& x, const E& y) { return x - y; },
        checked_integer_op([](I x, I y, I* r) { return __builtin_sub_overflow(x, y, r); }, "Sub"));
  if (op == "Mul")
    return binary(
        a, b, [](const E& x, const E& y) { return x * y; },
        checked_integer_op([](I x, I y, I* r) { return __builtin_mul_overflow(x, y, r); }, "Mul"));
  if (op == "Div")
    return binary(
        a, b, [](const E& x, const E& y) { return x / y; },
        [](I x, I y) {
          if (y == 0) throw ModelError("integer division by zero");
          return no_overflow(x == INT64_MIN && y == -1, x, "Div") / y;  // truncation, as ONNX runtimes divide integers
        });
  throw std::logic_error("not an arithmetic op: " + op);
}

template <class T>
Tensor<T> comparison(const std::string& op, const Tensor<T>& a, const Tensor<T>& b) {
  using E = Extended<T>;
  using I = std::int64_t;
  if (op == "Equal")
    return compare(
        a, b, [](const E& x, const E& y) { return equal(x, y); }, std::equal_to<I>{});
  if (op == "Less")
    return compare(
        a, b, [](const E& x, const E& y) { return greater(y, x); }, std::less<I>{});
  if (op == "Greater")
    return compare(
        a, b, [](const E& x, const E& y) { return greater(x, y); }, std::greater<I>{});
  if (op == "LessOrEqual")
    return compare(
        a, b, [](const E& x, const E& y) { return !greater(x, y); }, std::less_equal<I>{});
  if (op == "GreaterOrEqual")
    return compare(
        a, b, [](const E& x, const E& y) { return !greater(y, x); }, std::greater_equal<I>{});
  throw std::logic_error("not a comparison op: " + op);
}

template <class T>
Tensor<T> logical(const std::string& op, const Tensor<T>& a, const Tensor<T>& b) {
  auto never = [](const Extended<T>&, const Extended<T>&) -> Extended<T> {
    throw ModelError("logical op on real operands");
  };
  if (op == "And")
    return binary(
        a, b, never, [](std::int64_t x, std::int64_t y) -> std::int64_t { return x && y; }, ElementKind::Boolean);
  return binary(
      a, b, never, [](std::int64_t x, std::int64_t y) -> std::int64_t { return x || y; }, ElementKind::Boolean);
}

// Max or Min of any number of inputs, broadcast.
template <class T>
Tensor<T> extremum(const Inputs<T>& in, bool is_max) {
  if (in.empty() || std::find(in.begin(), in.end(), nullptr) != in.end())
    throw ModelError("Max and Min take one or more inputs, none of them missing");
  Tensor<T> out = *in.front();
  for (std::size_t i = 1; i < in.size(); ++i)
    out = binary(
        out, *in[i],
        [is_max](const Extended<T>& x, const Extended<T>& y) { return is_max ? maximum(x, y) : minimum(x, y); },
        [is_max](std::int64_t x, std::int64_t y) { return is_max ? std::max(x, y) : std::min(x, y); });
  return out;
}

// Where(cond, X, Y), all three broadcast.
template <class T>
Tensor<T> where(const Tensor<T>& cond, const Tensor<T>& x, const Tensor<T>& y) {
  if (cond.is_real()) throw ModelError("the condition must be boolean");
  if (x.is_real() != y.is_real()) throw ModelError("X and Y of different element types");
  const Shape shape = broadcast_shapes(cond.shape, broadcast_shapes(x.shape, y.shape));
  const auto ic = broadcast_index_map(cond.shape, shape), ix = broadcast_index_map(x.shape, shape),
             iy = broadcast_index_map(y.shape, shape);
  Tensor<T> out;
  out.kind = x.kind;
  out.shape = shape;
  for (std::size_t i = 0; i < ic.size(); ++i) {
    const bool take_x = cond.ints[ic[i]] != 0;
    if (x.is_real())
      out.reals.push_back(take_x ? x.reals[ix[i]] : y.reals[iy[i]]);
    else
      out.ints.push_back(take_x ? x.ints[ix[i]] : y.ints[iy[i]]);
  }
  return out;
}

// The integer part of x, truncated toward zero (Cast from a real to an integer type); Undecided when an enclosure
// straddles an integer.
template <class T>
std::int64_t truncated(const Extended<T>& x) {
  if (!x.finite()) throw ModelError("Cast of an infinite value to an integer");
  if constexpr (std::is_same_v<T, Exact>) {
    const BigInt q = numerator(x.value) / denominator(x.value);
    if (abs(q) > BigInt(INT64_MAX)) throw ModelError("Cast of a value past 2^63 to an integer");
    return q.convert_to<std::int64_t>();
  } else if constexpr (std::is_same_v<T, ExpLogNumber>) {
    const std::optional<Exact> q = x.value.rational();
    if (!q) throw Undecided{};  // an irrational value's integer part is left to the intervals
    return truncated(Extended<Exact>{*q, 0});
  } else {
    const Exact lo = x.value.lower(), hi = x.value.upper();
    const BigInt a = numerator(lo) / denominator(lo), b = numerator(hi) / denominator(hi);
    if (a != b) throw Undecided{};  // truncation is monotone: equal at both ends, equal everywhere between
    if (abs(a) > BigInt(INT64_MAX)) throw ModelError("Cast of a value past 2^63 to an integer");
    return a.template convert_to<std::int64_t>();
  }
}

// A value cast to an integer type that cannot hold it is refused: ONNX Runtime wraps it around (or leaves a real
// out of range undefined), which tverify does not imitate.
inline std::int64_t fitted(std::int64_t v, std::int64_t to) {
  const auto [lo, hi] = integer_range(to);
  if (v < lo || v > hi)
    throw ModelError("Cast of " + std::to_string(v) + " to an integer type of range [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "]");
  return v;
}

// The IEEE format of an ONNX real type.
inline const BinaryFormat& format_of(std::int64_t to) {
  return to == onnx_float16 ? binary16 : to == onnx_bfloat16 ? bfloat16 : to == onnx_float ? binary32 : binary64;
}

// q rounded into an IEEE format, exactly: the rounded value as a point of T, or an infinity.
template <class T>
Extended<T> rounded_exactly(const Exact& q, const BinaryFormat& format) {
  const RoundedToFormat r = round_to_format(q, format);
  return r.infinite ? Extended<T>::infinity(r.infinite) : Extended<T>{from_exact<T>(r.value), 0};
}

// A real rounded into an IEEE format as a Cast rounds it (core/binary_formats.hpp). Rounding is monotone, so an
// enclosure's ends, rounded, enclose the rounded value, and a point rounds to a point; an enclosure whose ends round
// to a finite value and to an infinity is undecided.
template <class T>
Extended<T> rounded(const Extended<T>& x, const BinaryFormat& format) {
  if (!x.finite()) return x;
  if constexpr (std::is_same_v<T, Exact>) {
    return rounded_exactly<T>(x.value, format);
  } else if constexpr (std::is_same_v<T, ExpLogNumber>) {
    const std::optional<Exact> q = x.value.rational();
    if (!q) throw NotExpLog("a Cast rounds an irrational value");  // left to the intervals
    return rounded_exactly<T>(*q, format);
  } else {
    const RoundedToFormat lo = round_to_format(x.value.lower(), format), hi = round_to_format(x.value.upper(), format);
    if (lo.infinite || hi.infinite) {
      if (lo.infinite != hi.infinite) throw Undecided{};
      return Extended<T>::infinity(lo.infinite);
    }
    return {T::hull(lo.value, hi.value), 0};
  }
}

// Cast(to), to a numeric type or bool (the reader refuses the others). To a real type, reals and integers round to
// nearest, ties to even, as an IEEE conversion does (a float32 weight cast to float32 is unchanged; an activation, a
// real here, is rounded where the graph casts it explicitly; the implicit float32 rounding of activations stays
// outside tverify's contract, docs/model.md). Reals to integers truncate; anything to bool is != 0; an integer the
// target integer type cannot hold is refused.
template <class T>
Tensor<T> cast(const Tensor<T>& a, std::int64_t to) {
  const bool to_real = to == onnx_float || to == onnx_float16 || to == onnx_double || to == onnx_bfloat16;
  const bool to_bool = to == onnx_bool;
  if (a.is_real()) {
    if (to_real) {
      Tensor<T> out = a;
      for (auto& x : out.reals) x = rounded(x, format_of(to));
      return out;
    }
    Tensor<T> out = Tensor<T>::integer(a.shape, {}, to_bool ? ElementKind::Boolean : ElementKind::Integer);
    for (const auto& x : a.reals) out.ints.push_back(to_bool ? decided_sign(x) != 0 : fitted(truncated(x), to));
    return out;
  }
  if (to_real) {
    Tensor<T> out = Tensor<T>::real(a.shape, {});
    for (std::int64_t x : a.ints) out.reals.push_back(rounded_exactly<T>(Exact(static_cast<long>(x)), format_of(to)));
    return out;
  }
  Tensor<T> out = a;
  out.kind = to_bool ? ElementKind::Boolean : ElementKind::Integer;
  for (auto& x : out.ints) x = to_bool ? x != 0 : fitted(x, to);
  return out;
}

}  // namespace tverify::model::ops
