// Tensors of an ONNX model's evaluation: a shape and row-major elements, either extended reals over T (every ONNX
// floating-point type: their stored values are dyadic rationals, entered exactly) or 64-bit integers (every ONNX
// integer type, and booleans as 0 / 1).
#pragma once

#include "model/extended.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tverify::model {

using Shape = std::vector<std::int64_t>;

// A shape or index error of the model itself (an index past a dimension, shapes that do not broadcast).
struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class ElementKind { Real, Integer, Boolean };

std::int64_t element_count(const Shape& shape);
// The most elements any one tensor of an evaluation may hold; check_size throws ModelError past it (or for a negative
// dimension), before anything of that size is allocated.
inline constexpr std::int64_t max_elements = std::int64_t{1} << 24;
void check_size(const Shape& shape);
// Row-major strides of `shape`.
Shape strides_of(const Shape& shape);
// The numpy broadcast of two shapes; ModelError when they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b);
// The flat index in a tensor of shape `from` (aligned to the right of `to`, size-1 axes repeated) of each element of
// shape `to`.
std::vector<std::int64_t> broadcast_index_map(const Shape& from, const Shape& to);
// An axis attribute in [-rank, rank) as an index in [0, rank); ModelError otherwise.
std::size_t normalized_axis(std::int64_t axis, std::size_t rank);
// Axes in [-rank, rank) as indices in [0, rank), each given once; ModelError naming `what` for an axis out of range or
// repeated (the specification leaves a repeated axis undefined).
std::vector<std::size_t> distinct_axes(const std::vector<std::int64_t>& axes, std::size_t rank,
                                       const std::string& what);
std::string shape_text(const Shape& shape);

template <class T>
struct Tensor {
  using Scalar = T;
  ElementKind kind = ElementKind::Real;
  Shape shape;
  std::vector<Extended<T>> reals;  // kind Real
  std::vector<std::int64_t> ints;  // kind Integer or Boolean

  bool is_real() const { return kind == ElementKind::Real; }
  std::int64_t size() const { return element_count(shape); }

  static Tensor real(Shape shape, std::vector<Extended<T>> values) {
    return {ElementKind::Real, std::move(shape), std::move(values), {}};
  }
  static Tensor integer(Shape shape, std::vector<std::int64_t> values, ElementKind kind = ElementKind::Integer) {
    return {kind, std::move(shape), {}, std::move(values)};
  }
};

// The tensor's integer elements (shapes, axes, indices); ModelError naming `what` for a real tensor.
template <class T>
const std::vector<std::int64_t>& integers_of(const Tensor<T>& t, const std::string& what) {
  if (t.is_real()) throw ModelError(what + " must be an integer tensor");
  return t.ints;
}

}  // namespace tverify::model
