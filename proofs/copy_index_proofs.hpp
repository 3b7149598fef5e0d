// Z3 proofs of the two facts the index stage rests on (interior_keys.hpp; docs/fast.md, "Steps without a scan"), for
// the tokens no enumeration reaches:
//   ngram bound     for every alphabet size D >= 2, every query's terms (C and tables f_0..f_n, symbolic: any query
//                   whatsoever) and every interior window x whose n-gram (offsets 1..n) is not g*,
//                   C + sum_i f_i(x_{p-i}) <= B, with g*_i the first maximiser of f_i and B the formula that
//                   ngram_bound computes;
//   decomposition   for every interior window of symbolic tokens, each key coordinate of layer 1 (the ReLUs of the
//                   hidden units weighted by the outer weights, in IntegerLayer1's integers) equals
//                   kappa_c + sum_i k_{c,i}(x_{p-i}) of InteriorKeys.
// A key's score is linear in the key, so the two together say that every interior key whose n-gram is not g* scores at
// most B against every query, whatever the string, given the two links that tests check rather than prove: terms()
// forms C and f_i from the query's entries, and ngram_bound computes the formula (the enumerations of
// tests/test_fast_index.cpp). Both are statements over unbounded integers; make() refuses any
// decomposition whose terms could leave 64 bits, so the steps' arithmetic is the statements'. A sat model counts as a
// counterexample only once replayed through ngram_bound, or through IntegerLayer1::at.
#pragma once

#include <cstdint>
#include <vector>

#include "constructions/copy/fast/integer_layer1.hpp"
#include "constructions/copy/fast/interior_keys.hpp"
#include "proofs/z3_query.hpp"

namespace tverify::proofs {

// The ngram bound at n, every D >= 2 (`slack` lowers B, as ngram_bound's does: 0 but in the tests of a wrong bound).
ProofResult prove_ngram_bound(int n, const QueryOptions& options, std::int64_t slack = 0);

// The decomposition of layer 1's keys over interior windows of `alphabet` tokens, as `coordinates` state it
// (InteriorKeys::coordinates(), or a table altered by a test): one per key coordinate, each term a table of
// `alphabet` entries at an offset 0..n (std::invalid_argument otherwise).
ProofResult prove_key_decomposition(const copy::fast::IntegerLayer1& layer1, int alphabet,
                                    const std::vector<copy::fast::InteriorKeys::Coordinate>& coordinates,
                                    const QueryOptions& options);

}  // namespace tverify::proofs
