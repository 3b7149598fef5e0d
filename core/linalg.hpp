// Small dense vectors and matrices over any scalar type. Row-major, bounds-checked in debug builds only through at().
#pragma once

#include "core/scalar.hpp"

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <vector>

namespace tverify {

template <class T>
using Vector = std::vector<T>;

template <class T>
class Matrix {
 public:
  Matrix() = default;
  Matrix(std::size_t rows, std::size_t cols) : rows_(rows), cols_(cols), data_(rows * cols, T(0)) {}
  Matrix(std::initializer_list<std::initializer_list<T>> rows) : rows_(rows.size()) {
    cols_ = rows_ ? rows.begin()->size() : 0;
    for (const auto& r : rows) {
      if (r.size() != cols_) throw std::invalid_argument("matrix rows of different lengths");
      data_.insert(data_.end(), r.begin(), r.end());
    }
  }
  static Matrix identity(std::size_t n) {
    Matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i) m(i, i) = T(1);
    return m;
  }

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  T& operator()(std::size_t r, std::size_t c) { return data_[r * cols_ + c]; }
  const T& operator()(std::size_t r, std::size_t c) const { return data_[r * cols_ + c]; }

 private:
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<T> data_;
};

template <class T>
bool is_zero_matrix(const Matrix<T>& m) {
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c)
      if (!is_zero(m(r, c))) return false;
  return true;
}

template <class T>
T dot(const Vector<T>& a, const Vector<T>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("dot product of vectors of different lengths");
  T s(0);
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!is_zero(a[i]) && !is_zero(b[i])) s += a[i] * b[i];
  return s;
}

template <class T>
Vector<T> operator*(const Matrix<T>& m, const Vector<T>& v) {
  if (m.cols() != v.size()) throw std::invalid_argument("matrix-vector product with mismatched sizes");
  Vector<T> out(m.rows(), T(0));
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c)
      if (!is_zero(m(r, c)) && !is_zero(v[c])) out[r] += m(r, c) * v[c];  // weights and activations: mostly zero
  return out;
}

template <class T>
Matrix<T> operator*(const Matrix<T>& a, const Matrix<T>& b) {
  if (a.cols() != b.rows()) throw std::invalid_argument("matrix product with mismatched sizes");
  Matrix<T> out(a.rows(), b.cols());
  for (std::size_t r = 0; r < a.rows(); ++r)
    for (std::size_t k = 0; k < a.cols(); ++k)
      for (std::size_t c = 0; c < b.cols(); ++c) out(r, c) += a(r, k) * b(k, c);
  return out;
}

template <class T>
Vector<T> operator+(Vector<T> a, const Vector<T>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("vector sum of different lengths");
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

template <class T>
Vector<T> scaled(Vector<T> v, const T& s) {
  for (auto& x : v) x *= s;
  return v;
}

// v^T M v.
template <class T>
T quadratic_form(const Matrix<T>& m, const Vector<T>& v) {
  return dot(v, m * v);
}

}  // namespace tverify
