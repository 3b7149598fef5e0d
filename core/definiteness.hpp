// Definiteness of a symmetric matrix by LDL^T (symmetric Gaussian elimination), exact over Exact and certified or
// Unknown over Interval.
//
// Invariant after eliminating k variables: M = L · diag(d_1..d_k, S) · L^T with L unit lower triangular and S the Schur
// complement. A direction w of S maps back to v = L^{-T} [0; w] with v^T M v = w^T S w, which gives the witnesses:
//   - a negative pivot d:                      w = e_k, v^T M v = d < 0;
//   - a zero pivot with S_kj != 0 for some j:   w = e_j + t e_k, t = -(S_jj + 1) / (2 S_kj), w^T S w = -1;
//   - a zero pivot with a zero row:            M v = 0 (a kernel vector; the matrix is singular).
// Every negative witness is replayed on the original M before it is reported (exactly, or in interval arithmetic on the
// exact rational witness), so a reported witness never rests on the elimination alone.
#pragma once

#include "core/linalg.hpp"
#include "core/scalar.hpp"

#include <optional>
#include <string>

namespace tverify {

enum class Definiteness { PositiveDefinite, PositiveSemidefiniteSingular, NotPositiveSemidefinite, Unknown };

constexpr const char* to_string(Definiteness d) {
  switch (d) {
    case Definiteness::PositiveDefinite: return "positive_definite";
    case Definiteness::PositiveSemidefiniteSingular: return "positive_semidefinite_singular";
    case Definiteness::NotPositiveSemidefinite: return "not_positive_semidefinite";
    default: return "unknown";
  }
}

struct DefinitenessResult {
  Definiteness verdict = Definiteness::Unknown;
  // NotPositiveSemidefinite: v with v^T M v < 0 (replayed). PositiveSemidefiniteSingular: v != 0 with M v = 0.
  std::optional<Vector<Exact>> witness;
  std::string reason;  // why Unknown, or which pivot decided
};

namespace detail {

template <class T>
Vector<T> solve_unit_upper_transposed(const Matrix<T>& lower, Vector<T> w) {
  const std::size_t n = w.size();
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = i + 1; j < n; ++j) w[i] -= lower(j, i) * w[j];
  return w;
}

template <class T>
Exact to_exact_point(const T& x) {
  if constexpr (std::is_same_v<T, Exact>) {
    return x;
  } else {
    return (x.lower() + x.upper()) / 2;
  }
}

template <class T>
Vector<Exact> to_exact_vector(const Vector<T>& v) {
  Vector<Exact> out;
  for (const auto& x : v) out.push_back(to_exact_point(x));
  return out;
}

template <class T>
bool replays_negative(const Matrix<T>& m, const Vector<Exact>& v) {
  Vector<T> vt;
  for (const auto& x : v) vt.push_back(from_exact<T>(x));
  return sign_of(quadratic_form(m, vt)) == Sign::Negative;
}

}  // namespace detail

// M must be square and symmetric (checked exactly over Exact). T must be rigorous (Exact or Interval<B>).
template <class T>
DefinitenessResult classify_definiteness(const Matrix<T>& m) {
  static_assert(is_rigorous_v<T>, "definiteness verdicts need a rigorous scalar type");
  const std::size_t n = m.rows();
  if (m.cols() != n) throw std::invalid_argument("definiteness of a non-square matrix");
  if constexpr (std::is_same_v<T, Exact>) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (m(i, j) != m(j, i)) throw std::invalid_argument("definiteness of a non-symmetric matrix");
  }
  Matrix<T> s = m;
  Matrix<T> lower = Matrix<T>::identity(n);
  DefinitenessResult out;
  bool singular = false;
  auto direction = [&](Vector<T> w) { return detail::to_exact_vector(detail::solve_unit_upper_transposed(lower, w)); };
  auto negative = [&](Vector<T> w, std::string why) {
    Vector<Exact> v = direction(std::move(w));
    if (!detail::replays_negative(m, v)) {
      out.verdict = Definiteness::Unknown;
      out.reason = why + ", but the witness did not replay as certainly negative";
      return out;
    }
    out.verdict = Definiteness::NotPositiveSemidefinite;
    out.witness = std::move(v);
    out.reason = std::move(why);
    return out;
  };

  for (std::size_t k = 0; k < n; ++k) {
    const Sign pivot = sign_of(s(k, k));
    if (pivot == Sign::Unknown) {
      out.reason = "pivot " + std::to_string(k + 1) + " is not decided";
      return out;
    }
    if (pivot == Sign::Negative) {
      Vector<T> w(n, T(0));
      w[k] = T(1);
      return negative(w, "pivot " + std::to_string(k + 1) + " is negative");
    }
    if (pivot == Sign::Zero) {
      for (std::size_t j = k + 1; j < n; ++j) {
        const Sign off = sign_of(s(k, j));
        if (off == Sign::Unknown) {
          out.reason = "pivot " + std::to_string(k + 1) + " is zero and its row is not decided";
          return out;
        }
        if (off != Sign::Zero) {
          Vector<T> w(n, T(0));
          w[j] = T(1);
          w[k] = -(s(j, j) + T(1)) / (T(2) * s(k, j));
          return negative(w, "pivot " + std::to_string(k + 1) + " is zero with a nonzero off-diagonal entry");
        }
      }
      singular = true;
      if constexpr (std::is_same_v<T, Exact>) {  // a kernel vector is exact only in exact arithmetic
        Vector<T> w(n, T(0));
        w[k] = T(1);
        out.witness = direction(w);
      }
      continue;
    }
    for (std::size_t i = k + 1; i < n; ++i) {
      T factor = s(i, k) / s(k, k);
      lower(i, k) = factor;
      for (std::size_t j = k + 1; j < n; ++j) s(i, j) -= factor * s(k, j);
    }
  }
  out.verdict = singular ? Definiteness::PositiveSemidefiniteSingular : Definiteness::PositiveDefinite;
  if (!singular) out.witness.reset();
  return out;
}

}  // namespace tverify
