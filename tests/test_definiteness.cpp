// core/definiteness: exact LDL^T verdicts with witnesses replayed here independently, and interval verdicts that say
// unknown when undecided.
#include "core/definiteness.hpp"

#include <catch2/catch.hpp>

using tverify::Definiteness;
using tverify::Exact;
using tverify::Matrix;
using tverify::Vector;
using I = tverify::Interval<128>;

namespace {

Matrix<Exact> exact_matrix(std::initializer_list<std::initializer_list<long>> rows) {
  Matrix<Exact> m(rows.size(), rows.begin()->size());
  std::size_t r = 0;
  for (const auto& row : rows) {
    std::size_t c = 0;
    for (long v : row) m(r, c++) = Exact(v);
    ++r;
  }
  return m;
}

Matrix<I> interval_matrix(const Matrix<Exact>& m) {
  Matrix<I> out(m.rows(), m.cols());
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c) out(r, c) = I(m(r, c));
  return out;
}

// v^T M v written out as a double sum, independent of core/linalg.
Exact form(const Matrix<Exact>& m, const Vector<Exact>& v) {
  Exact s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = 0; j < v.size(); ++j) s += v[i] * m(i, j) * v[j];
  return s;
}

}  // namespace

TEST_CASE("[[2,1],[1,2]] (eigenvalues 1 and 3) is positive definite, exactly and certified", "[definiteness]") {
  const auto m = exact_matrix({{2, 1}, {1, 2}});
  CHECK(tverify::classify_definiteness(m).verdict == Definiteness::PositiveDefinite);
  CHECK(tverify::classify_definiteness(interval_matrix(m)).verdict == Definiteness::PositiveDefinite);
}

TEST_CASE("[[1,1],[1,1]] is semidefinite and singular, with an exact kernel vector", "[definiteness]") {
  const auto m = exact_matrix({{1, 1}, {1, 1}});
  const auto r = tverify::classify_definiteness(m);
  REQUIRE(r.verdict == Definiteness::PositiveSemidefiniteSingular);
  REQUIRE(r.witness);
  const auto& v = *r.witness;
  CHECK((v[0] != 0 || v[1] != 0));
  CHECK(v[0] + v[1] == 0);  // M v = (v0 + v1) (1, 1)
}

TEST_CASE("indefinite matrices give a witness with v^T M v < 0", "[definiteness]") {
  for (const auto& m : {exact_matrix({{1, 2}, {2, 1}}),                      // eigenvalues 3, -1: negative second pivot
                        exact_matrix({{0, 1}, {1, 0}}),                      // zero pivot, nonzero off-diagonal
                        exact_matrix({{-1, 0}, {0, -2}}),                    // negative definite
                        exact_matrix({{4, 2, 0}, {2, 1, 3}, {0, 3, 5}})}) {  // zero Schur pivot after step 1
    const auto r = tverify::classify_definiteness(m);
    REQUIRE(r.verdict == Definiteness::NotPositiveSemidefinite);
    REQUIRE(r.witness);
    CHECK(form(m, *r.witness) < 0);
    const auto ri = tverify::classify_definiteness(interval_matrix(m));
    REQUIRE(ri.verdict == Definiteness::NotPositiveSemidefinite);
    CHECK(form(m, *ri.witness) < 0);
  }
}

TEST_CASE("a zero row in the middle is singular, not indefinite", "[definiteness]") {
  const auto m = exact_matrix({{1, 0, 0}, {0, 0, 0}, {0, 0, 1}});
  CHECK(tverify::classify_definiteness(m).verdict == Definiteness::PositiveSemidefiniteSingular);
}

TEST_CASE("an interval pivot that straddles zero gives unknown, never a guess", "[definiteness]") {
  Matrix<I> m(2, 2);
  m(0, 0) = I::hull(Exact(-1, 1000000), Exact(1, 1000000));
  m(1, 1) = I(1);
  const auto r = tverify::classify_definiteness(m);
  CHECK(r.verdict == Definiteness::Unknown);
  CHECK_FALSE(r.reason.empty());
}

TEST_CASE("a non-symmetric exact matrix is refused", "[definiteness]") {
  CHECK_THROWS_AS(tverify::classify_definiteness(exact_matrix({{1, 2}, {3, 4}})), std::invalid_argument);
}
