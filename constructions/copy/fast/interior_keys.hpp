// The keys of interior windows as a sum of per-offset terms, and from it a bound on the score of every key whose
// n-gram is not the one a query scores highest, without looking at those keys (docs/fast.md, "Steps without a scan").
//
// An interior window is a full window (p >= n) of n + 1 alphabet tokens (no <BOS>, no <COPY>). There, hidden unit h
// of layer 1 has the pre-activation b_h + sum_{i=0..n} O_i(x_{p-i})[h] (IntegerLayer1::offset_column). When O_i(a)[h]
// is the same for every alphabet token a at all offsets but at most one, t(h), the unit is a function of x_{p-t(h)}
// alone: relu(b_h + sum_{i != t(h)} O_i(0)[h] + O_{t(h)}(a)[h]). Every key coordinate, a weighted sum of units, is
// then kappa_c + sum_i k_{c,i}(x_{p-i}), exactly, and a key's score against a query (entries (c, w)) is
//   z(x) = C + sum_{i=0..n} f_i(x_{p-i}),  C = sum w kappa_c,  f_i(a) = sum w k_{c,i}(a).
// The windows of the alphabet are a product, so the largest score over interior keys is C + sum_i max_a f_i(a), and
// over interior keys whose n-gram (offsets 1..n) is not g* = (argmax f_1, ..., argmax f_n):
//   B = C + sum_i max f_i - min_{i=1..n} (max f_i - max_{a != g*_i} f_i(a)).
// Only the construction's weights enter; the derivation holds for any weights that pass the check of make().
#pragma once

#include "constructions/copy/fast/integer_layer1.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace tverify::copy::fast {

// One query's terms f_i(a) and constant C (reused from step to step).
struct QueryTerms {
  std::int64_t constant = 0;
  std::vector<std::int64_t> terms;  // (n + 1) x D, offset-major
};

// The n-gram a query scores highest among interior keys and the bound B on every other interior key's score.
struct NgramBound {
  std::uint64_t ngram = 0;  // g*, coded as sum_{i=1..n} g*_i D^(i-1) (interior_ngram's code)
  std::int64_t bound = 0;   // B
};

// The largest n at which the index stage runs: the test suite proves the bound B with Z3 for every n up to it
// (index_proofs.hpp).
inline constexpr int max_index_n = 8;

// g* and B from a query's terms over an alphabet of D tokens at n (`slack` is subtracted from B: 0 but in the tests
// that show a wrong bound is caught). g*_i is the first token of largest f_i.
NgramBound ngram_bound(const QueryTerms& q, int alphabet, int n, std::int64_t slack = 0);
// The score C + sum_i f_i(x_{p-i}) of the interior window ending at p, from a query's terms.
std::int64_t interior_score(const QueryTerms& q, int alphabet, int n, const copy::TokenString& sequence, std::size_t p);

class InteriorKeys {
 public:
  // One term of a key coordinate: its weighted units' sum at one offset, by token.
  struct Term {
    std::uint32_t offset;
    std::vector<std::int64_t> by_token;  // k_{c,i}(a), a < D
  };
  // A key coordinate over interior windows: kappa_c + sum over its terms of k_{c,i}(x_{p-i}).
  struct Coordinate {
    std::int64_t constant = 0;  // kappa_c
    std::vector<Term> terms;    // the offsets it reads
  };

  // The decomposition of layer 1's keys over interior windows, or nullopt when some hidden unit reads two offsets,
  // the terms could pass 2^62, or n > max_index_n (the steps then scan every key).
  static std::optional<InteriorKeys> make(const IntegerLayer1& layer1, int alphabet);

  // The terms of a query (its non-zero entries) into `out`.
  void terms(std::span<const QueryEntry> query, QueryTerms& out) const;
  // g* and B from the terms (ngram_bound).
  NgramBound highest_ngram(const QueryTerms& q, std::int64_t slack = 0) const {
    return ngram_bound(q, alphabet_, n_, slack);
  }
  // The score z(x) of the interior window ending at p, from the terms.
  std::int64_t score(const QueryTerms& q, const copy::TokenString& sequence, std::size_t p) const {
    return interior_score(q, alphabet_, n_, sequence, p);
  }
  // Key coordinate c of the interior window ending at p: kappa_c + sum over its terms of k_{c,i}(x_{p-i}).
  std::int64_t key(std::size_t c, const copy::TokenString& sequence, std::size_t p) const;

  int alphabet() const { return alphabet_; }
  int n() const { return n_; }
  std::uint64_t ngrams() const { return ngrams_; }                             // D^n, the number of n-gram codes
  const std::vector<Coordinate>& coordinates() const { return coordinates_; }  // by key coordinate

 private:
  int alphabet_ = 0, n_ = 0;
  std::uint64_t ngrams_ = 0;
  std::vector<Coordinate> coordinates_;  // by key coordinate
};

// Whether the window ending at p is interior (full, alphabet tokens only), and its n-gram's code (offsets 1..n).
bool interior_window(const copy::TokenString& sequence, std::size_t p, int n, int alphabet);
std::uint64_t interior_ngram(const copy::TokenString& sequence, std::size_t p, int n, int alphabet);

}  // namespace tverify::copy::fast
