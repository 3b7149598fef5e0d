#include "model/tensor.hpp"

#include <algorithm>

namespace tverify::model {

std::int64_t element_count(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) throw ModelError("a negative dimension in the shape " + shape_text(shape));
    if (__builtin_mul_overflow(n, d, &n))
      throw ModelError("the shape " + shape_text(shape) + " has more than 2^63 elements");
  }
  return n;
}

Shape strides_of(const Shape& shape) {
  Shape s(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

std::string shape_text(const Shape& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

void check_size(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) throw ModelError("negative dimension in shape " + shape_text(shape));
    if (d > 0 && n > max_elements / d) throw ModelError("a tensor larger than 2^24 elements");
    n *= d;
  }
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      throw ModelError("shapes " + shape_text(a) + " and " + shape_text(b) + " do not broadcast");
    out[i] = da == 1 ? db : da;
  }
  check_size(out);
  return out;
}

std::vector<std::int64_t> broadcast_index_map(const Shape& from, const Shape& to) {
  if (from.size() > to.size() || broadcast_shapes(from, to) != to)
    throw ModelError("the shape " + shape_text(from) + " does not broadcast to " + shape_text(to));
  const std::int64_t n = element_count(to);
  std::vector<std::int64_t> map(static_cast<std::size_t>(n));
  if (from == to) {
    for (std::int64_t flat = 0; flat < n; ++flat) map[static_cast<std::size_t>(flat)] = flat;
    return map;
  }
  // The source's stride along each axis of `to` (0 where `from` is repeated); the source index follows the odometer.
  const std::size_t offset = to.size() - from.size();
  const Shape from_strides = strides_of(from);
  Shape stride(to.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1) stride[offset + i] = from_strides[i];
  Shape index(to.size(), 0);
  std::int64_t source = 0;
  for (std::int64_t flat = 0; flat < n; ++flat) {
    map[static_cast<std::size_t>(flat)] = source;
    for (std::size_t i = to.size(); i-- > 0;) {
      source += stride[i];
      if (++index[i] < to[i]) break;
      source -= stride[i] * to[i];
      index[i] = 0;
    }
  }
  return map;
}

std::size_t normalized_axis(std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r)
    throw ModelError("axis " + std::to_string(axis) + " is outside [" + std::to_string(-r) + ", " +
                     std::to_string(r - 1) + "]");
  return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

std::vector<std::size_t> distinct_axes(const std::vector<std::int64_t>& axes, std::size_t rank,
                                       const std::string& what) {
  std::vector<std::size_t> out;
  std::vector<bool> seen(rank, false);
  for (std::int64_t axis : axes) {
    const std::size_t k = normalized_axis(axis, rank);
    if (seen[k]) throw ModelError(what + " gives axis " + std::to_string(axis) + " twice");
    seen[k] = true;
    out.push_back(k);
  }
  return out;
}

}  // namespace tverify::model
