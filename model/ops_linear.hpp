// ONNX ops that sum products or build tensors from numbers (opsets 13-18): MatMul, Gemm, the reductions, CumSum,
// Range, ConstantOfShape. All are rational: exact over Exact, enclosures over intervals.
#pragma once

#include "model/ops_shape.hpp"

#include <optional>

namespace tverify::model::ops {

template <class T>
Extended<T> real_zero() {
  return {T(0), 0};
}

// sum_r a[r * a_step] * b[r * b_step], r < k. Finite operands accumulate in place (no temporaries: this is the
// evaluator's hot loop); an infinite one goes through the extended reals.
template <class T>
Extended<T> dot(const Extended<T>* a, std::int64_t a_step, const Extended<T>* b, std::int64_t b_step, std::int64_t k) {
  bool finite = true;
  for (std::int64_t r = 0; r < k && finite; ++r) finite = a[r * a_step].finite() && b[r * b_step].finite();
  Extended<T> sum = real_zero<T>();
  if (!finite) {
    for (std::int64_t r = 0; r < k; ++r) sum = sum + a[r * a_step] * b[r * b_step];
    return sum;
  }
  for (std::int64_t r = 0; r < k; ++r) {
    if constexpr (is_interval_v<T>)
      sum.value.add_product(a[r * a_step].value, b[r * b_step].value);
    else if (!is_zero(a[r * a_step].value) && !is_zero(b[r * b_step].value))
      sum.value += a[r * a_step].value * b[r * b_step].value;
  }
  return sum;
}

// numpy matmul: 1-D operands are promoted (a row vector on the left, a column on the right) and the promoted axis
// dropped from the result; leading axes broadcast.
// The most multiply-adds one MatMul or Gemm may take.
inline constexpr std::int64_t max_products = std::int64_t{1} << 32;

template <class T>
Tensor<T> matmul(const Tensor<T>& a_in, const Tensor<T>& b_in) {
  if (!a_in.is_real() || !b_in.is_real()) throw ModelError("MatMul of integer tensors");
  if (a_in.shape.empty() || b_in.shape.empty()) throw ModelError("MatMul of a scalar");
  Shape sa = a_in.shape, sb = b_in.shape;  // the operands' elements are read in place, under the promoted shapes
  const bool row = sa.size() == 1, column = sb.size() == 1;
  if (row) sa.insert(sa.begin(), 1);
  if (column) sb.push_back(1);
  const std::int64_t n = sa[sa.size() - 2], k = sa.back(), m = sb.back();
  if (sb[sb.size() - 2] != k)
    throw ModelError("MatMul of shapes " + shape_text(a_in.shape) + " and " + shape_text(b_in.shape));
  const Shape batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
  const Shape batch = broadcast_shapes(batch_a, batch_b);
  const auto ia = broadcast_index_map(batch_a, batch), ib = broadcast_index_map(batch_b, batch);
  Shape shape = batch;
  if (!row) shape.push_back(n);
  if (!column) shape.push_back(m);
  check_size(shape);
  // Each output element is a dot product of k terms: in exact arithmetic a 4096 x 4096 product took minutes.
  if (const std::int64_t products = element_count(shape) * std::max<std::int64_t>(k, 1); products > max_products)
    throw ModelError("a MatMul of " + std::to_string(products) + " multiply-adds, above the 2^32 an op may take");
  Tensor<T> out = Tensor<T>::real(shape, {});
  out.reals.reserve(ia.size() * static_cast<std::size_t>(n * m));
  for (std::size_t t = 0; t < ia.size(); ++t) {
    const Extended<T>* pa = a_in.reals.data() + ia[t] * n * k;
    const Extended<T>* pb = b_in.reals.data() + ib[t] * k * m;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < m; ++j) out.reals.push_back(dot(pa + i * k, 1, pb + j, m, k));
  }
  return out;
}

// Gemm: alpha * A' B' + beta * C, A' and B' optionally transposed 2-D matrices, C broadcast to the result.
template <class T>
Tensor<T> gemm(const Node& node, const Tensor<T>& a, const Tensor<T>& b, const Tensor<T>* c) {
  if (a.shape.size() != 2 || b.shape.size() != 2) throw ModelError("Gemm of operands that are not matrices");
  const Tensor<T> a2 = node.int_attribute("transA", 0) ? transpose(a, {1, 0}) : a;
  const Tensor<T> b2 = node.int_attribute("transB", 0) ? transpose(b, {1, 0}) : b;
  Tensor<T> out = matmul(a2, b2);
  const Extended<T> alpha{T(node.float_attribute("alpha", Exact(1))), 0};
  const Extended<T> beta{T(node.float_attribute("beta", Exact(1))), 0};
  for (auto& x : out.reals) x = alpha * x;
  if (!c) return out;
  if (!c->is_real()) throw ModelError("Gemm's C must be real");
  const auto ic = broadcast_index_map(c->shape, out.shape);
  if (broadcast_shapes(c->shape, out.shape) != out.shape) throw ModelError("Gemm's C does not broadcast to A B");
  for (std::size_t i = 0; i < out.reals.size(); ++i) out.reals[i] = out.reals[i] + beta * c->reals[ic[i]];
  return out;
}

// The axes a reduction runs over: all of them when none are given (unless noop_with_empty_axes).
inline std::vector<bool> reduced_axes(std::size_t rank, const std::vector<std::int64_t>* axes, bool noop_when_empty) {
  std::vector<bool> reduced(rank, axes == nullptr || axes->empty() ? !noop_when_empty : false);
  if (axes)
    for (std::size_t axis : distinct_axes(*axes, rank, "the reduction's axes")) reduced[axis] = true;
  return reduced;
}

// The axes a reduction node reduces: its `axes` attribute (ReduceMean, ReduceMax, ReduceMin and ReduceProd before
// opset 18), or its axes input with noop_with_empty_axes (ReduceSum from opset 13, the others from 18). The reader
// refuses the form a model's opset does not have.
inline std::vector<bool> reduction_axes(const Node& node, std::size_t rank,
                                        const std::vector<std::int64_t>* input_axes) {
  if (const Attribute* attribute = node.attribute("axes")) {
    if (node.op == "ReduceSum")
      throw ModelError("ReduceSum takes its axes as an input from opset 13 on, not as an attribute");
    return reduced_axes(rank, &attribute->ints, false);
  }
  return reduced_axes(rank, input_axes, node.int_attribute("noop_with_empty_axes", 0) != 0);
}

// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd over `axes`, keeping the reduced axes as size 1 when
// keepdims. Over an empty axis a sum is 0 and a product 1; a mean or an extremum has no value.
template <class T>
Tensor<T> reduce(const std::string& op, const Tensor<T>& a, const std::vector<bool>& reduced, bool keepdims) {
  Shape kept, out_shape;
  for (std::size_t i = 0; i < a.shape.size(); ++i) {
    kept.push_back(reduced[i] ? 1 : a.shape[i]);
    if (!reduced[i] || keepdims) out_shape.push_back(reduced[i] ? 1 : a.shape[i]);
  }
  const Shape kept_strides = strides_of(kept);
  const std::int64_t groups = element_count(kept), count = a.size() / std::max<std::int64_t>(groups, 1);
  const bool product = op == "ReduceProd";
  if (count == 0 && op != "ReduceSum" && !product) throw ModelError(op + " over an empty axis");
  std::vector<std::int64_t> group_of(static_cast<std::size_t>(a.size()));
  for_each_index(a.shape, [&](const Shape& index, std::int64_t flat) {
    std::int64_t g = 0;
    for (std::size_t i = 0; i < index.size(); ++i) g += (reduced[i] ? 0 : index[i]) * kept_strides[i];
    group_of[static_cast<std::size_t>(flat)] = g;
  });
  const bool extremum = op == "ReduceMax" || op == "ReduceMin";
  if (!a.is_real()) {
    std::vector<std::int64_t> acc(static_cast<std::size_t>(groups), product ? 1 : 0);
    std::vector<bool> seen(acc.size(), false);
    for (std::size_t i = 0; i < group_of.size(); ++i) {
      auto& x = acc[static_cast<std::size_t>(group_of[i])];
      const std::int64_t v = a.ints[i];
      const bool first = !seen[static_cast<std::size_t>(group_of[i])];
      seen[static_cast<std::size_t>(group_of[i])] = true;
      if (op == "ReduceMax")
        x = first ? v : std::max(x, v);
      else if (op == "ReduceMin")
        x = first ? v : std::min(x, v);
      else if (product ? __builtin_mul_overflow(x, v, &x) : __builtin_add_overflow(x, v, &x))
        throw ModelError("int64 overflow in " + op);
    }
    if (op == "ReduceMean")
      for (auto& x : acc) x /= count;
    return Tensor<T>::integer(out_shape, std::move(acc));
  }
  std::vector<Extended<T>> acc(static_cast<std::size_t>(groups), product ? Extended<T>{T(1L), 0} : real_zero<T>());
  std::vector<bool> seen(acc.size(), false);
  for (std::size_t i = 0; i < group_of.size(); ++i) {
    const auto g = static_cast<std::size_t>(group_of[i]);
    const Extended<T>& v = a.reals[i];
    if (extremum && seen[g])
      acc[g] = op == "ReduceMax" ? maximum(acc[g], v) : minimum(acc[g], v);
    else
      acc[g] = extremum ? v : product ? acc[g] * v : acc[g] + v;
    seen[g] = true;
  }
  if (op == "ReduceMean")
    for (auto& x : acc) x = x / Extended<T>{T(static_cast<long>(count)), 0};
  return Tensor<T>::real(out_shape, std::move(acc));
}

// ScatterND's combination of an element x with its update u under `reduction` ("none": u replaces x).
template <class T>
Extended<T> scatter_combined(const std::string& reduction, const Extended<T>& x, const Extended<T>& u) {
  if (reduction == "add") return x + u;
  if (reduction == "mul") return x * u;
  if (reduction == "max") return maximum(x, u);
  if (reduction == "min") return minimum(x, u);
  return u;
}
inline std::int64_t scatter_combined(const std::string& reduction, std::int64_t x, std::int64_t u) {
  std::int64_t out = u;
  if ((reduction == "add" && __builtin_add_overflow(x, u, &out)) ||
      (reduction == "mul" && __builtin_mul_overflow(x, u, &out)))
    throw ModelError("int64 overflow in ScatterND");
  if (reduction == "max") out = std::max(x, u);
  if (reduction == "min") out = std::min(x, u);
  return out;
}

// ScatterND (opsets 13-18): a copy of `data` in which each k-tuple of `indices` (its last axis has k entries) names a
// slice over data's last r - k axes, replaced by the matching slice of `updates` (reduction "none") or combined with
// it ("add", "mul", "max", "min"). A negative index counts from the end; one outside its axis is an error, and so is a
// slice written twice without a reduction, which the specification leaves undefined.
template <class T>
Tensor<T> scatter_nd(const Tensor<T>& data, const Tensor<T>& indices, const Tensor<T>& updates,
                     const std::string& reduction) {
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" && reduction != "min")
    throw ModelError("ScatterND's reduction '" + reduction + "' is none of none, add, mul, max, min");
  const auto& idx = integers_of(indices, "ScatterND's indices");
  if (data.shape.empty() || indices.shape.empty())
    throw ModelError("ScatterND needs data and indices of rank at least 1");
  const auto k = static_cast<std::size_t>(indices.shape.back());
  if (k > data.shape.size())
    throw ModelError("ScatterND's index tuples have " + std::to_string(k) + " entries for data of rank " +
                     std::to_string(data.shape.size()));
  Shape expected(indices.shape.begin(), indices.shape.end() - 1);
  expected.insert(expected.end(), data.shape.begin() + static_cast<long>(k), data.shape.end());
  if (updates.shape != expected)
    throw ModelError("ScatterND's updates have shape " + shape_text(updates.shape) + "; data " +
                     shape_text(data.shape) + " and indices " + shape_text(indices.shape) + " need " +
                     shape_text(expected));
  if (data.is_real() != updates.is_real()) throw ModelError("ScatterND's data and updates differ in element type");
  const std::int64_t slice = element_count(Shape(data.shape.begin() + static_cast<long>(k), data.shape.end()));
  const std::int64_t tuples = element_count(Shape(indices.shape.begin(), indices.shape.end() - 1));
  Tensor<T> out = data;
  // One flag per slice data's first k axes name (element_count of the rest would be 0 for an empty slice).
  std::vector<bool> written(
      static_cast<std::size_t>(element_count(Shape(data.shape.begin(), data.shape.begin() + static_cast<long>(k)))));
  for (std::int64_t t = 0; t < tuples; ++t) {
    std::int64_t offset = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t dim = data.shape[j], v = idx[static_cast<std::size_t>(t) * k + j];
      if (v < -dim || v >= dim)
        throw ModelError("ScatterND's index " + std::to_string(v) + " is outside axis " + std::to_string(j) +
                         " of extent " + std::to_string(dim));
      offset = offset * dim + (v < 0 ? v + dim : v);
    }
    if (reduction == "none") {
      if (written[static_cast<std::size_t>(offset)])
        throw ModelError(
            "ScatterND without a reduction writes one slice twice, which the specification leaves undefined");
      written[static_cast<std::size_t>(offset)] = true;
    }
    for (std::int64_t e = 0; e < slice; ++e) {
      const auto to = static_cast<std::size_t>(offset * slice + e), from = static_cast<std::size_t>(t * slice + e);
      if (out.is_real())
        out.reals[to] = scatter_combined(reduction, out.reals[to], updates.reals[from]);
      else
        out.ints[to] = scatter_combined(reduction, out.ints[to], updates.ints[from]);
    }
  }
  return out;
}

// CumSum along `axis`, inclusive or exclusive, forward or reverse.
template <class T>
Tensor<T> cumsum(const Tensor<T>& a, std::int64_t axis_in, bool exclusive, bool reverse) {
  const std::size_t axis = normalized_axis(axis_in, a.shape.size());
  const std::int64_t dim = a.shape[axis];
  const std::int64_t inner = element_count(Shape(a.shape.begin() + static_cast<long>(axis) + 1, a.shape.end()));
  const std::int64_t outer = a.size() / std::max<std::int64_t>(dim * inner, 1);
  Tensor<T> out = a;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t in = 0; in < inner; ++in) {
      Extended<T> real_sum = real_zero<T>();
      std::int64_t int_sum = 0;
      for (std::int64_t step = 0; step < dim; ++step) {
        const std::int64_t k = reverse ? dim - 1 - step : step;
        const auto i = static_cast<std::size_t>((o * dim + k) * inner + in);
        if (a.is_real()) {
          if (!exclusive) real_sum = real_sum + a.reals[i];
          out.reals[i] = real_sum;
          if (exclusive) real_sum = real_sum + a.reals[i];
        } else {
          const std::int64_t before = int_sum;
          if (__builtin_add_overflow(before, a.ints[i], &int_sum)) throw ModelError("int64 overflow in CumSum");
          out.ints[i] = exclusive ? before : int_sum;
        }
      }
    }
  return out;
}

// The single element of a scalar (or one-element) tensor.
template <class T>
const Tensor<T>& scalar_input(const Tensor<T>& t, const std::string& what) {
  if (t.size() != 1) throw ModelError(what + " must be a scalar");
  return t;
}

// The exact value of a finite number known exactly (an interval of width 0); nullopt for any other finite number.
template <class T>
std::optional<Exact> exact_point(const Extended<T>& x) {
  if constexpr (std::is_same_v<T, Exact>) {
    return x.value;
  } else if constexpr (std::is_same_v<T, ExpLogNumber>) {
    return x.value.rational();
  } else {
    if (x.value.lower() != x.value.upper()) return std::nullopt;
    return x.value.lower();
  }
}

// exact_point of a finite number; ModelError for an infinite one or one not known exactly.
template <class T>
Exact point_value(const Extended<T>& x) {
  if (!x.finite()) throw ModelError("an infinite value where a finite one is needed");
  const std::optional<Exact> point = exact_point(x);
  if (!point) throw ModelError("a computed real where an exact number is needed");
  return *point;
}

// Range(start, limit, delta): integers, or reals whose count is ceil((limit - start) / delta), decided exactly.
template <class T>
Tensor<T> range(const Tensor<T>& start, const Tensor<T>& limit, const Tensor<T>& delta) {
  scalar_input(start, "Range's start"), scalar_input(limit, "Range's limit"), scalar_input(delta, "Range's delta");
  if (!start.is_real() && !limit.is_real() && !delta.is_real()) {
    const std::int64_t s = start.ints[0], l = limit.ints[0], d = delta.ints[0];
    if (d == 0) throw ModelError("Range with delta 0");
    // ceil((l - s) / d) in 128 bits (l - s alone can pass 2^63); the values s + i d lie between s and l.
    const __int128 span = static_cast<__int128>(l) - s, count = (span + d + (d > 0 ? -1 : 1)) / d;
    if (count > (__int128{1} << 40)) throw ModelError("Range of more than 2^40 elements");
    const std::int64_t n = std::max<std::int64_t>(0, static_cast<std::int64_t>(count));
    check_size({n});
    std::vector<std::int64_t> values;
    for (std::int64_t i = 0; i < n; ++i) values.push_back(s + i * d);
    return Tensor<T>::integer({n}, std::move(values));
  }
  if (!start.is_real() || !limit.is_real() || !delta.is_real()) throw ModelError("Range of mixed element types");
  const Exact s = point_value(start.reals[0]), l = point_value(limit.reals[0]), d = point_value(delta.reals[0]);
  if (d == 0) throw ModelError("Range with delta 0");
  const Exact q = (l - s) / d;
  BigInt n = numerator(q) / denominator(q);
  if (Exact(n) < q) n += 1;
  const std::int64_t count = std::max<std::int64_t>(0, n.convert_to<std::int64_t>());
  check_size({count});
  std::vector<Extended<T>> values;
  for (std::int64_t i = 0; i < count; ++i) values.push_back({T(s + Exact(i) * d), 0});
  return Tensor<T>::real({count}, std::move(values));
}

// A tensor of shape `dims` filled with the one element of `value`.
template <class T>
Tensor<T> filled(const std::vector<std::int64_t>& dims, const Tensor<T>& value) {
  const Shape shape(dims.begin(), dims.end());
  check_size(shape);
  const auto n = static_cast<std::size_t>(element_count(shape));
  Tensor<T> out;
  out.kind = value.kind;
  out.shape = shape;
  if (value.is_real())
    out.reals.assign(n, value.reals.at(0));
  else
    out.ints.assign(n, value.ints.at(0));
  return out;
}

}  // namespace tverify::model::ops
