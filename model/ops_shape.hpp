// ONNX ops that move elements without computing on them (opsets 13-18): each builds the list of source indices of
// its output and picks them, so one function serves reals and integers alike.
#pragma once

#include "model/ops_elementwise.hpp"

#include <algorithm>
#include <numeric>

namespace tverify::model::ops {

// The tensor of shape `shape` whose element i is a's element source[i].
template <class T>
Tensor<T> picked(const Tensor<T>& a, Shape shape, const std::vector<std::int64_t>& source) {
  Tensor<T> out;
  out.kind = a.kind;
  out.shape = std::move(shape);
  if (a.is_real()) {
    out.reals.reserve(source.size());
    for (std::int64_t i : source) out.reals.push_back(a.reals[static_cast<std::size_t>(i)]);
  } else {
    out.ints.reserve(source.size());
    for (std::int64_t i : source) out.ints.push_back(a.ints[static_cast<std::size_t>(i)]);
  }
  return out;
}

// Calls f(index, flat) for every multi-index of `shape` in row-major order.
template <class F>
void for_each_index(const Shape& shape, F f) {
  const std::int64_t n = element_count(shape);
  Shape index(shape.size(), 0);
  for (std::int64_t flat = 0; flat < n; ++flat) {
    f(index, flat);
    for (std::size_t i = shape.size(); i-- > 0;) {
      if (++index[i] < shape[i]) break;
      index[i] = 0;
    }
  }
}

template <class T>
Tensor<T> reshape(const Tensor<T>& a, const std::vector<std::int64_t>& requested, bool allow_zero) {
  Shape shape(requested.begin(), requested.end());
  int infer = -1;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allow_zero) {
      if (i >= a.shape.size()) throw ModelError("a 0 in the new shape past the input's rank");
      shape[i] = a.shape[i];
    }
    if (shape[i] == -1) {
      if (infer >= 0) throw ModelError("two -1 in the new shape");
      infer = static_cast<int>(i);
    } else if (shape[i] < 0) {
      throw ModelError("negative dimension in the new shape");
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      throw ModelError("a new shape with more than 2^63 elements");
    }
  }
  if (infer >= 0) {
    if (known == 0 || a.size() % known != 0) throw ModelError("cannot infer the -1 of the new shape");
    shape[static_cast<std::size_t>(infer)] = a.size() / known;
  }
  if (element_count(shape) != a.size())
    throw ModelError("cannot reshape " + shape_text(a.shape) + " to " + shape_text(shape));
  Tensor<T> out = a;
  out.shape = std::move(shape);
  return out;
}

template <class T>
Tensor<T> transpose(const Tensor<T>& a, std::vector<std::int64_t> perm) {
  const std::size_t rank = a.shape.size();
  if (perm.empty()) {
    perm.resize(rank);
    std::iota(perm.rbegin(), perm.rend(), 0);
  }
  // A permutation of 0..rank-1: rank entries, none negative (the specification has no negative perm), none repeated.
  if (perm.size() != rank || std::any_of(perm.begin(), perm.end(), [](std::int64_t p) { return p < 0; }))
    throw ModelError("perm " + shape_text(perm) + " is no permutation of the " + std::to_string(rank) +
                     " axes of its input");
  const std::vector<std::size_t> axes = distinct_axes(perm, rank, "perm " + shape_text(perm));
  Shape shape(rank);
  for (std::size_t i = 0; i < rank; ++i) shape[i] = a.shape[axes[i]];
  const Shape strides = strides_of(a.shape);
  std::vector<std::int64_t> source(static_cast<std::size_t>(element_count(shape)));
  for_each_index(shape, [&](const Shape& index, std::int64_t flat) {
    std::int64_t s = 0;
    for (std::size_t i = 0; i < rank; ++i) s += index[i] * strides[axes[i]];
    source[static_cast<std::size_t>(flat)] = s;
  });
  return picked(a, shape, source);
}

template <class T>
Tensor<T> unsqueeze(const Tensor<T>& a, const std::vector<std::int64_t>& axes) {
  const std::size_t rank = a.shape.size() + axes.size();
  std::vector<bool> inserted(rank, false);
  for (std::int64_t axis : axes) {
    const std::size_t k = normalized_axis(axis, rank);
    if (inserted[k]) throw ModelError("an axis given twice");
    inserted[k] = true;
  }
  Shape shape;
  std::size_t next = 0;
  for (std::size_t i = 0; i < rank; ++i) shape.push_back(inserted[i] ? 1 : a.shape[next++]);
  Tensor<T> out = a;
  out.shape = shape;
  return out;
}

template <class T>
Tensor<T> squeeze(const Tensor<T>& a, const std::vector<std::int64_t>* axes) {
  std::vector<bool> drop(a.shape.size(), false);
  if (axes) {
    for (std::size_t k : distinct_axes(*axes, a.shape.size(), "Squeeze's axes")) {
      if (a.shape[k] != 1) throw ModelError("squeeze of an axis whose size is not 1");
      drop[k] = true;
    }
  } else {
    for (std::size_t i = 0; i < a.shape.size(); ++i) drop[i] = a.shape[i] == 1;
  }
  Tensor<T> out = a;
  out.shape.clear();
  for (std::size_t i = 0; i < a.shape.size(); ++i)
    if (!drop[i]) out.shape.push_back(a.shape[i]);
  return out;
}

template <class T>
Tensor<T> concat(const Inputs<T>& in, std::int64_t axis_attr) {
  if (in.empty()) throw ModelError("Concat has no input (it takes one or more)");
  for (const auto* t : in)
    if (!t) throw ModelError("Concat of a missing input");
  const Tensor<T>& first = *in.at(0);
  const std::size_t axis = normalized_axis(axis_attr, first.shape.size());
  Shape shape = first.shape;
  shape[axis] = 0;
  for (const auto* t : in) {
    if (t->shape.size() != first.shape.size() || t->is_real() != first.is_real())
      throw ModelError("inputs of different ranks or element types");
    for (std::size_t i = 0; i < shape.size(); ++i)
      if (i != axis && t->shape[i] != first.shape[i]) throw ModelError("inputs whose shapes differ off the axis");
    shape[axis] += t->shape[axis];
  }
  check_size(shape);
  Tensor<T> out;
  out.kind = first.kind;
  out.shape = shape;
  const std::int64_t outer = element_count(Shape(shape.begin(), shape.begin() + static_cast<long>(axis)));
  for (std::int64_t o = 0; o < outer; ++o)
    for (const auto* t : in) {
      const std::int64_t block = element_count(Shape(t->shape.begin() + static_cast<long>(axis), t->shape.end()));
      for (std::int64_t k = 0; k < block; ++k) {
        const auto i = static_cast<std::size_t>(o * block + k);
        if (t->is_real())
          out.reals.push_back(t->reals[i]);
        else
          out.ints.push_back(t->ints[i]);
      }
    }
  return out;
}

// Slice (opset 13): starts, ends, axes, steps as integer tensors, clamped as the specification says.
template <class T>
Tensor<T> slice(const Tensor<T>& a, const std::vector<std::int64_t>& starts, const std::vector<std::int64_t>& ends,
                const std::vector<std::int64_t>* axes_in, const std::vector<std::int64_t>* steps_in) {
  const std::size_t rank = a.shape.size();
  if (starts.size() != ends.size() || (axes_in && axes_in->size() != starts.size()) ||
      (steps_in && steps_in->size() != starts.size()))
    throw ModelError("starts, ends, axes and steps of different lengths");
  std::vector<std::int64_t> default_axes(starts.size());
  std::iota(default_axes.begin(), default_axes.end(), 0);
  const std::vector<std::size_t> axes = distinct_axes(axes_in ? *axes_in : default_axes, rank, "Slice's axes");
  std::vector<std::int64_t> first(rank, 0), step(rank, 1);
  Shape shape = a.shape;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t axis = axes[k];
    const std::int64_t s = steps_in ? (*steps_in)[k] : 1, dim = a.shape[axis];
    if (s == 0 || s == INT64_MIN) throw ModelError("a slice step of " + std::to_string(s));
    std::int64_t b = starts[k], e = ends[k];
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    if (s > 0) {
      b = std::clamp<std::int64_t>(b, 0, dim);
      e = std::clamp<std::int64_t>(e, 0, dim);
      shape[axis] = e > b ? 1 + (e - b - 1) / s : 0;
    } else if (dim == 0) {  // nothing to take, and no index to clamp a start to
      b = 0;
      shape[axis] = 0;
    } else {
      b = std::clamp<std::int64_t>(b, 0, dim - 1);
      e = std::clamp<std::int64_t>(e, -1, dim - 1);
      shape[axis] = b > e ? 1 + (b - e - 1) / (-s) : 0;
    }
    first[axis] = b, step[axis] = s;
  }
  const Shape strides = strides_of(a.shape);
  std::vector<std::int64_t> source(static_cast<std::size_t>(element_count(shape)));
  for_each_index(shape, [&](const Shape& index, std::int64_t flat) {
    std::int64_t src = 0;
    for (std::size_t i = 0; i < rank; ++i) src += (first[i] + index[i] * step[i]) * strides[i];
    source[static_cast<std::size_t>(flat)] = src;
  });
  return picked(a, shape, source);
}

template <class T>
Tensor<T> expand(const Tensor<T>& a, const std::vector<std::int64_t>& requested) {
  const Shape shape = broadcast_shapes(a.shape, Shape(requested.begin(), requested.end()));
  check_size(shape);
  return picked(a, shape, broadcast_index_map(a.shape, shape));
}

// The row Gather reads for index i of an axis of `rows` rows: i counted from the end when negative; a ModelError
// outside [-rows, rows - 1].
inline std::int64_t gathered_row(std::int64_t i, std::int64_t rows) {
  if (i < -rows || i >= rows)
    throw ModelError("index " + std::to_string(i) + " is outside the " + std::to_string(rows) + " rows of its data");
  return i < 0 ? i + rows : i;
}

template <class T>
Tensor<T> gather(const Tensor<T>& data, const Tensor<T>& indices, std::int64_t axis_attr) {
  const std::size_t axis = normalized_axis(axis_attr, data.shape.size());
  const auto& idx = integers_of(indices, "Gather's indices");
  const std::int64_t dim = data.shape[axis];
  Shape shape(data.shape.begin(), data.shape.begin() + static_cast<long>(axis));
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), data.shape.begin() + static_cast<long>(axis) + 1, data.shape.end());
  check_size(shape);
  const std::int64_t outer = element_count(Shape(data.shape.begin(), data.shape.begin() + static_cast<long>(axis)));
  const std::int64_t inner = element_count(Shape(data.shape.begin() + static_cast<long>(axis) + 1, data.shape.end()));
  std::vector<std::int64_t> source;
  source.reserve(static_cast<std::size_t>(outer) * idx.size() * static_cast<std::size_t>(inner));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i : idx) {
      const std::int64_t row = gathered_row(i, dim);
      for (std::int64_t k = 0; k < inner; ++k) source.push_back((o * dim + row) * inner + k);
    }
  return picked(data, shape, source);
}

// OneHot (opset 11): `values` = [off, on] along a new axis `axis` of extent `depth`: on where the position is the
// index (a negative index counts from the end, -1 the last), off elsewhere; an index outside [-depth, depth - 1]
// gives only off, as the specification says. Real indices or depth are cast to int64 first (truncated), as it says.
template <class T>
Tensor<T> one_hot(const Tensor<T>& indices, const Tensor<T>& depth, const Tensor<T>& values, std::int64_t axis_attr) {
  const auto as_int64 = [](const Tensor<T>& t, const std::string& what) {
    return t.is_real() ? cast(t, onnx_int64).ints : integers_of(t, what);
  };
  const std::vector<std::int64_t> extent = as_int64(depth, "OneHot's depth");
  if (extent.size() != 1)
    throw ModelError("OneHot's depth must hold one number (it holds " + std::to_string(extent.size()) + ")");
  const std::int64_t d = extent.front();
  if (d < 0) throw ModelError("OneHot's depth is negative (" + std::to_string(d) + ")");
  if (values.size() != 2)
    throw ModelError("OneHot's values must hold two elements, off and on (it holds " + std::to_string(values.size()) +
                     ")");
  const std::vector<std::int64_t> idx = as_int64(indices, "OneHot's indices");
  const std::size_t axis = normalized_axis(axis_attr, indices.shape.size() + 1);
  Shape shape = indices.shape;
  shape.insert(shape.begin() + static_cast<long>(axis), d);
  check_size(shape);
  const std::int64_t outer =
      element_count(Shape(indices.shape.begin(), indices.shape.begin() + static_cast<long>(axis)));
  const std::int64_t inner = element_count(Shape(indices.shape.begin() + static_cast<long>(axis), indices.shape.end()));
  std::vector<std::int64_t> source;
  source.reserve(static_cast<std::size_t>(element_count(shape)));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t k = 0; k < d; ++k)
      for (std::int64_t i = 0; i < inner; ++i) {
        const std::int64_t index = idx[static_cast<std::size_t>(o * inner + i)];
        source.push_back((index < 0 ? index + d : index) == k ? 1 : 0);
      }
  return picked(values, shape, source);
}

// Split's sizes for num_outputs (opset 18): parts of ceil(dim / n), the last smaller (dim - (n - 1) ceil(dim / n),
// which may be 0: 9 into 4 is 3, 3, 3, 0); ModelError when n < 1 or the last part would be negative.
inline std::vector<std::int64_t> chunk_sizes(std::int64_t dim, std::int64_t n) {
  if (n < 1) throw ModelError("Split's num_outputs must be at least 1 (it is " + std::to_string(n) + ")");
  const std::int64_t chunk = dim / n + (dim % n != 0 ? 1 : 0);
  std::vector<std::int64_t> parts(static_cast<std::size_t>(n), chunk);
  parts.back() = dim - chunk * (n - 1);
  if (parts.back() < 0)
    throw ModelError("Split's num_outputs " + std::to_string(n) + " does not cut an axis of " + std::to_string(dim) +
                     " into parts of " + std::to_string(chunk) + ": the last part would be negative");
  return parts;
}

// Split (opset 13): sizes from the `split` input, or equal parts, one per output.
template <class T>
std::vector<Tensor<T>> split(const Tensor<T>& a, std::int64_t axis_attr, const std::vector<std::int64_t>* sizes,
                             std::size_t outputs) {
  const std::size_t axis = normalized_axis(axis_attr, a.shape.size());
  std::vector<std::int64_t> parts;
  if (sizes) {
    parts = *sizes;
  } else {
    if (a.shape[axis] % static_cast<std::int64_t>(outputs) != 0) throw ModelError("an axis that does not split evenly");
    parts.assign(outputs, a.shape[axis] / static_cast<std::int64_t>(outputs));
  }
  if (parts.size() != outputs) throw ModelError("split sizes do not match the outputs");
  for (std::int64_t p : parts)
    if (p < 0) throw ModelError("a negative split size");
  std::vector<Tensor<T>> out;
  std::int64_t start = 0;
  for (std::int64_t p : parts) {
    std::vector<std::int64_t> starts{start}, ends{start + p}, axes{static_cast<std::int64_t>(axis)};
    out.push_back(slice(a, starts, ends, &axes, nullptr));
    start += p;
  }
  if (start != a.shape[axis]) throw ModelError("split sizes do not add up to the axis");
  return out;
}

// Trilu: keeps the upper (j - i >= k) or lower (j - i <= k) triangle of the last two axes, zero elsewhere.
template <class T>
Tensor<T> trilu(const Tensor<T>& a, std::int64_t k, bool upper) {
  if (a.shape.size() < 2) throw ModelError("Trilu of a tensor of rank below 2");
  Tensor<T> out = a;
  const std::int64_t rows = a.shape[a.shape.size() - 2], cols = a.shape.back();
  for (std::int64_t flat = 0; flat < a.size(); ++flat) {
    const std::int64_t j = flat % cols, i = (flat / cols) % rows;
    const bool keep = upper ? j - i >= k : j - i <= k;
    if (keep) continue;
    if (out.is_real())
      out.reals[static_cast<std::size_t>(flat)] = {T(0), 0};
    else
      out.ints[static_cast<std::size_t>(flat)] = 0;
  }
  return out;
}

template <class T>
Tensor<T> shape_of(const Tensor<T>& a, std::int64_t start, std::optional<std::int64_t> end) {
  const auto rank = static_cast<std::int64_t>(a.shape.size());
  auto clamp_axis = [rank](std::int64_t x) { return std::clamp<std::int64_t>(x < 0 ? x + rank : x, 0, rank); };
  const std::int64_t b = clamp_axis(start), e = clamp_axis(end.value_or(rank));
  std::vector<std::int64_t> dims;
  for (std::int64_t i = b; i < e; ++i) dims.push_back(a.shape[static_cast<std::size_t>(i)]);
  const auto n = static_cast<std::int64_t>(dims.size());
  return Tensor<T>::integer({n}, std::move(dims));
}

}  // namespace tverify::model::ops
