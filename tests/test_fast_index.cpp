// The index stage of the fast copy path (constructions/copy/fast/interior_keys.hpp): the decomposition of interior keys
// must give every interior key's score exactly and its bound B must be the largest score of an interior key with
// another n-gram, over every pair of windows of small domains; steps certified without a scan must take the exact
// evaluator's decision; and a bound made too small must be caught by these comparisons.
#include "constructions/copy/fast/copy_fast.hpp"
#include "proofs/copy_index_proofs.hpp"
#include "constructions/copy/fast/interior_keys.hpp"
#include "constructions/copy/fast/ngram_index.hpp"

#include "copy_runs.hpp"
#include "random_strings.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <tuple>
#include <utility>

using namespace tverify;
using namespace tverify::copy;
using namespace tverify::copy::fast;
using namespace tverify::proofs;
using tverify::testing::expect_same_run;
using tverify::testing::random_string;
using tverify::testing::same_run;

namespace {

const char* variant_name(TransformerVariant v) { return v == TransformerVariant::Paper ? "paper" : "corrected"; }

// The window of `span` tokens with base-`radix` index i (oldest token most significant).
TokenString window_at(std::uint64_t i, int radix, int span) {
  TokenString w(static_cast<std::size_t>(span));
  for (int k = span - 1; k >= 0; --k, i /= static_cast<std::uint64_t>(radix))
    w[static_cast<std::size_t>(k)] = static_cast<Token>(i % static_cast<std::uint64_t>(radix));
  return w;
}

// check(variant, n, layer1, keys) at the configurations the fast copy benchmarks run: D = 16, n = 4 and 5, both
// variants, one-hot embedding.
template <class Check>
void for_each_benchmarked_layer1(Check check) {
  for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected})
    for (const int n : {4, 5}) {
      INFO("variant " << variant_name(variant) << " n=" << n);
      const CopyTransformer transformer(CopyTransformerConfig{16, n, 64, EmbeddingKind::OneHot, variant, {}});
      const IntegerLayer1 layer1(transformer);
      const auto keys = InteriorKeys::make(layer1, 16);
      REQUIRE(keys);
      check(variant, n, layer1, *keys);
    }
}

std::uint64_t power(int base, int exponent) {
  std::uint64_t p = 1;
  for (int i = 0; i < exponent; ++i) p *= static_cast<std::uint64_t>(base);
  return p;
}

}  // namespace

TEST_CASE("fast path index: interior key scores and the bound B, against layer 1 on every pair of windows",
          "[fast][index]") {
  // For every query window of n + 1 tokens (alphabet, <BOS> and <COPY> anywhere) and every interior key window
  // (alphabet tokens only): the decomposition's score equals key . query from IntegerLayer1 (the integers the steps
  // compare), and B is exactly the largest such score over the key windows whose n-gram is not g*.
  // One-hot in both variants, and the Lemma C.2 codes where they are rational (r a square: D = 2 corrected, D = 3, 4
  // paper), whose entries are negative and several per token.
  struct Config {
    int D, n;
    EmbeddingKind embedding;
    TransformerVariant variant;
  };
  std::vector<Config> configs;
  for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected})
    for (const auto& [D, n] : std::vector<std::pair<int, int>>{{2, 1}, {2, 2}, {3, 2}, {4, 2}, {2, 3}, {3, 3}})
      configs.push_back({D, n, EmbeddingKind::OneHot, variant});
  for (const auto& [D, n, variant] :
       std::vector<std::tuple<int, int, TransformerVariant>>{{2, 2, TransformerVariant::Corrected},
                                                             {2, 3, TransformerVariant::Corrected},
                                                             {3, 2, TransformerVariant::Paper},
                                                             {4, 2, TransformerVariant::Paper}})
    configs.push_back({D, n, EmbeddingKind::C2, variant});
  for (const auto& c : configs) {
    INFO("variant " << variant_name(c.variant) << " " << to_string(c.embedding) << " D=" << c.D << " n=" << c.n);
    const CopyTransformer transformer(CopyTransformerConfig{c.D, c.n, 2 * c.n + 2, c.embedding, c.variant, {}});
    const IntegerLayer1 layer1(transformer);
    const auto keys = InteriorKeys::make(layer1, c.D);
    REQUIRE(keys);
    const std::size_t p = static_cast<std::size_t>(c.n);
    std::vector<IntegerRow> key_rows;
    std::vector<TokenString> key_windows;
    for (std::uint64_t k = 0; k < power(c.D, c.n + 1); ++k) {
      key_windows.push_back(window_at(k, c.D, c.n + 1));
      key_rows.push_back(layer1.at(key_windows.back(), p));
      for (std::size_t coordinate = 0; coordinate < layer1.key_dim(); ++coordinate)
        REQUIRE(keys->key(coordinate, key_windows.back(), p) == key_rows.back().key[coordinate]);
    }
    QueryTerms terms;
    std::size_t pairs = 0;
    for (std::uint64_t q = 0; q < power(c.D + 2, c.n + 1); ++q) {
      const IntegerRow query = layer1.at(window_at(q, c.D + 2, c.n + 1), p);
      std::vector<QueryEntry> entries;
      for (std::size_t e = 0; e < query.query.size(); ++e)
        if (query.query[e] != 0)
          entries.emplace_back(static_cast<std::uint32_t>(e), static_cast<std::int32_t>(query.query[e]));
      keys->terms(entries, terms);
      const NgramBound highest = keys->highest_ngram(terms);
      std::int64_t largest_other = std::numeric_limits<std::int64_t>::min();
      for (std::size_t k = 0; k < key_rows.size(); ++k) {
        std::int64_t z = 0;
        for (std::size_t e = 0; e < query.query.size(); ++e) z += key_rows[k].key[e] * query.query[e];
        INFO("query window " << q << ", key window " << format_tokens(key_windows[k]));
        REQUIRE(keys->score(terms, key_windows[k], p) == z);
        if (interior_ngram(key_windows[k], p, c.n, c.D) != highest.ngram) largest_other = std::max(largest_other, z);
        ++pairs;
      }
      CHECK(highest.bound == largest_other);
    }
    CHECK(pairs == power(c.D + 2, c.n + 1) * power(c.D, c.n + 1));
  }
}

TEST_CASE("fast path index: the decomposition at the benchmarked configurations, on sampled windows", "[fast][index]") {
  // D = 16, n = 4 and 5 (too many windows to enumerate): 200 query windows (any tokens) against 200 interior key
  // windows, seeded; the decomposition's score must equal key . query from layer 1 on every pair.
  for_each_benchmarked_layer1(
      [](TransformerVariant variant, int n, const IntegerLayer1& layer1, const InteriorKeys& keys) {
        std::mt19937_64 rng(16 * n + (variant == TransformerVariant::Paper ? 0 : 1));
        const std::size_t p = static_cast<std::size_t>(n);
        std::vector<TokenString> key_windows;
        std::vector<IntegerRow> key_rows;
        for (int k = 0; k < 200; ++k) {
          key_windows.push_back(random_string(rng, 16, n + 1));
          key_rows.push_back(layer1.at(key_windows.back(), p));
        }
        QueryTerms terms;
        for (int q = 0; q < 200; ++q) {
          const IntegerRow query = layer1.at(random_string(rng, 18, n + 1), p);
          std::vector<QueryEntry> entries;
          for (std::size_t e = 0; e < query.query.size(); ++e)
            if (query.query[e] != 0)
              entries.emplace_back(static_cast<std::uint32_t>(e), static_cast<std::int32_t>(query.query[e]));
          keys.terms(entries, terms);
          for (std::size_t k = 0; k < key_rows.size(); ++k) {
            std::int64_t z = 0;
            for (std::size_t e = 0; e < query.query.size(); ++e) z += key_rows[k].key[e] * query.query[e];
            REQUIRE(keys.score(terms, key_windows[k], p) == z);
          }
        }
      });
}

TEST_CASE("fast path index: the n-gram index in its flat and hashed forms", "[fast][index]") {
  // Positions pushed in order and dropped from the last, as a table does; each code's positions come latest first.
  for (const std::uint64_t codes : {std::uint64_t{64}, std::uint64_t{1} << 30}) {
    INFO("codes " << codes);
    NgramIndex index;
    index.reset(codes);
    const std::vector<std::uint64_t> code_at{5, 9, 5, 63, 5, 9};
    for (std::uint32_t p = 0; p < code_at.size(); ++p) index.push(p, code_at[p]);
    auto positions = [&](std::uint64_t code) {
      std::vector<std::uint32_t> out;
      index.for_each(code, [&](std::uint32_t j) {
        out.push_back(j);
        return true;
      });
      return out;
    };
    CHECK(positions(5) == std::vector<std::uint32_t>{4, 2, 0});
    CHECK(positions(9) == std::vector<std::uint32_t>{5, 1});
    CHECK(positions(7).empty());
    index.pop(5, 9);
    index.pop(4, 5);
    CHECK(positions(5) == std::vector<std::uint32_t>{2, 0});
    CHECK(positions(9) == std::vector<std::uint32_t>{1});
    index.push(4, 7);
    CHECK(positions(7) == std::vector<std::uint32_t>{4});
  }
}

TEST_CASE("fast path index: steps decided with and without the index are the exact evaluator's",
          "[fast][index][differential][heavy]") {
  // Domains past 2,048 windows (no score memo), where every step without a counted cache tries the index stage first:
  // random strings (repeated n-grams included), both variants, the proof's tau and a smaller one. The runs with the
  // index, without it and of the exact evaluator must agree step for step, with the same stage counts (the index stage
  // certifies only what the scan's bound stage would); some steps must be certified by the index and some scanned.
  struct Config {
    int D, n, L;
  };
  std::uint64_t by_index = 0, scanned = 0;
  for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected})
    for (const std::optional<Exact>& tau : {std::optional<Exact>{}, std::optional<Exact>{Exact(3)}})
      for (const auto& c : std::vector<Config>{{5, 3, 14}, {11, 2, 16}, {3, 4, 14}, {2, 5, 14}, {16, 2, 24}}) {
        const CopyTransformer exact(CopyTransformerConfig{c.D, c.n, c.L, EmbeddingKind::OneHot, variant, tau});
        const FastCopy indexed(exact), scanning(exact, {.key_index = false});
        std::mt19937_64 rng(100 * c.D + 10 * c.n + (tau ? 1 : 0));
        for (int s = 0; s < 150; ++s) {
          const TokenString x = random_string(rng, c.D, c.L);
          INFO("variant " << variant_name(variant) << " D=" << c.D << " n=" << c.n << " tau "
                          << (tau ? exact_to_string(*tau) : "proof") << " x=" << format_tokens(x));
          const FastCopyRun with = indexed.copy_string(x), without = scanning.copy_string(x);
          expect_same_run(exact.copy_string(x), with.run);
          expect_same_run(without.run, with.run);
          CHECK(with.stats.by_bound == without.stats.by_bound);
          CHECK(with.stats.by_levels == without.stats.by_levels);
          CHECK(without.stats.by_index == 0);
          by_index += with.stats.by_index, scanned += with.stats.steps - with.stats.by_index;
        }
      }
  CHECK(by_index > 1000);
  CHECK(scanned > 100);
}

TEST_CASE("fast path index: the Lemma C.2 embedding at D = 16 (codes +-1/2), with and without the index",
          "[fast][index][differential]") {
  // The corrected codes are +-1/sqrt(4) at D = 16: interior keys decompose as with one-hot (InteriorKeys::make checks
  // it on these weights). Random strings (repeated bigrams, so scanned steps too) and repeat-free ones, at n = 2 past
  // the score memo: the runs with the index, without it and of the exact evaluator agree step for step.
  const CopyTransformer exact(CopyTransformerConfig{16, 2, 40, EmbeddingKind::C2, TransformerVariant::Corrected, {}});
  const FastCopy indexed(exact, {.steps_per_thread = 1}), scanning(exact, {.key_index = false, .steps_per_thread = 1});
  std::mt19937_64 rng(1602);
  std::uint64_t by_index = 0, scanned = 0, copied = 0;
  for (int s = 0; s < 60; ++s) {
    const TokenString x =
        s % 3 == 0 ? repeat_free_string(16, 2, 40, static_cast<std::uint64_t>(s)) : random_string(rng, 16, 40);
    INFO("x=" << format_tokens(x));
    // the same threads in both (steps decided past a failure, in its block, are counted too)
    const unsigned threads = 1 + s % 2;
    const FastCopyRun with = indexed.copy_string(x, threads), without = scanning.copy_string(x, threads);
    expect_same_run(exact.copy_string(x), with.run);
    expect_same_run(without.run, with.run);
    CHECK(with.stats.by_bound == without.stats.by_bound);
    by_index += with.stats.by_index, scanned += with.stats.steps - with.stats.by_index, copied += with.run.copied;
  }
  CHECK(by_index > 500);
  CHECK(scanned > 0);
  CHECK(copied >= 20);
}

TEST_CASE("fast path index: without a window memo interior keys are not stored; scans fill columns from the terms",
          "[fast][index][differential]") {
  // D = 16, n = 4 has too many windows for a memo, so the table computes layer 1 itself and keeps the keys of the
  // windows next to <BOS> and <COPY> only. The printed weights send most steps to the scan (their halved positional
  // entries), a repeated 4-gram some corrected ones; on 1 thread the scan fills the columns it reads, on 2 every
  // column at once (from a table the two threads built, then on 1 thread from that table, then from a table 1 thread
  // built). Runs with the index, without it (every key stored) and of the exact evaluator must agree. The corrected
  // C.2 codes (+-1/2 at D = 16) take the same path.
  std::uint64_t by_index = 0, scanned = 0;
  for (const auto& [embedding, variant] : {std::pair{EmbeddingKind::OneHot, TransformerVariant::Paper},
                                           std::pair{EmbeddingKind::OneHot, TransformerVariant::Corrected},
                                           std::pair{EmbeddingKind::C2, TransformerVariant::Corrected}}) {
    const CopyTransformer exact(CopyTransformerConfig{16, 4, 40, embedding, variant, {}});
    const FastCopy indexed(exact, {.steps_per_thread = 1}),
        scanning(exact, {.key_index = false, .steps_per_thread = 1});
    std::mt19937_64 rng(1604);
    for (int s = 0; s < 12; ++s) {
      TokenString x = random_string(rng, 16, 40);
      if (s % 2 == 0) std::copy(x.begin() + 3, x.begin() + 7, x.begin() + 20);  // a 4-gram repeated
      INFO("variant " << variant_name(variant) << " " << to_string(embedding) << " x=" << format_tokens(x));
      const CopyRun e = exact.copy_string(x);
      auto check = [&](const FastCopy& with_index, const FastCopy& without_index, unsigned threads) {
        const FastCopyRun with = with_index.copy_string(x, threads), without = without_index.copy_string(x, threads);
        expect_same_run(e, with.run);
        expect_same_run(without.run, with.run);
        CHECK(with.stats.by_bound == without.stats.by_bound);
        CHECK(with.stats.by_levels == without.stats.by_levels);
        by_index += with.stats.by_index, scanned += with.stats.steps - with.stats.by_index;
      };
      for (const unsigned threads : {2u, 1u}) check(indexed, scanning, threads);  // 2 threads build the table
      check(FastCopy(exact), FastCopy(exact, {.key_index = false}), 1);           // 1 thread builds it
    }
  }
  CHECK(by_index > 100);
  CHECK(scanned > 100);
}

TEST_CASE("fast path index: without a window memo, strings that share a long prefix keep it and agree with exact",
          "[fast][index][differential]") {
  // D = 16, n = 3 (no window memo): consecutive strings differ in their last one to three tokens, so the table keeps
  // the positions of the common prefix (its query entries, keys and values) and rebuilds the rest, among them the
  // positions after <COPY> that share the rows of earlier windows. With the index and without it, against the exact
  // evaluator.
  const CopyTransformer exact(
      CopyTransformerConfig{16, 3, 24, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  for (const bool key_index : {true, false}) {
    INFO("key index " << key_index);
    const FastCopy fast(exact, {.key_index = key_index});
    std::mt19937_64 rng(1603);
    const TokenString base = random_string(rng, 16, 24);
    std::uint64_t copied = 0;
    for (int s = 0; s < 40; ++s) {
      TokenString x = base;
      for (int i = 0; i <= s % 3; ++i) x[x.size() - 1 - static_cast<std::size_t>(i)] = static_cast<Token>(rng() % 16);
      INFO("x=" << format_tokens(x));
      const FastCopyRun f = fast.copy_string(x);
      expect_same_run(exact.copy_string(x), f.run);
      copied += f.run.copied;
    }
    CHECK(copied > 0);
  }
}

TEST_CASE("fast path index: long strings on threads, repeat-free and with repeats", "[fast][index][differential]") {
  // D = 16, n = 2 at L = 96: repeat-free strings are copied with every step certified by the index; random strings
  // repeat bigrams, so steps fall back to the scan, on a shared table whose key columns the first such step fills.
  for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected}) {
    const CopyTransformer exact(CopyTransformerConfig{16, 2, 96, EmbeddingKind::OneHot, variant, {}});
    const FastCopy fast(exact, {.steps_per_thread = 1});
    std::mt19937_64 rng(96);
    for (int s = 0; s < 8; ++s) {
      const TokenString x =
          s % 2 == 0 ? repeat_free_string(16, 2, 96, static_cast<std::uint64_t>(s)) : random_string(rng, 16, 96);
      INFO("variant " << variant_name(variant) << " x=" << format_tokens(x));
      const CopyRun e = exact.copy_string(x);
      for (const unsigned threads : {1u, 2u}) {
        const FastCopyRun f = fast.copy_string(x, threads);
        expect_same_run(e, f.run);
        if (s % 2 == 0 && variant == TransformerVariant::Corrected) CHECK(f.stats.by_index == f.stats.steps);
      }
    }
  }
}

TEST_CASE("fast path index: an n-gram with more than 64 keys sends the step to the scan, whatever the threads",
          "[fast][index][differential]") {
  // D = 5, n = 3 (past the score memo), x = 1 2 3 4 and 146 zeros: the steps that copy the first tokens find one key
  // of g* each (index), but once the copy is in the zeros g* = 000 has more than 64 keys up to the query and the step
  // is scanned (and still decided: all those keys carry the token 0). The same run and the same counts on 1 and 2
  // threads (a shared table also holds the keys after each query, which the walk skips), and the exact evaluator's
  // decisions.
  const CopyTransformer exact(
      CopyTransformerConfig{5, 3, 150, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  const FastCopy fast(exact, {.steps_per_thread = 1});
  TokenString x{1, 2, 3, 4};
  x.resize(150, Token{0});
  const FastCopyRun one = fast.copy_string(x, 1), two = fast.copy_string(x, 2);
  CHECK(one.run.copied);
  expect_same_run(exact.copy_string(x), one.run);
  expect_same_run(one.run, two.run);
  CHECK(one.stats.by_index == two.stats.by_index);
  CHECK(one.stats.by_bound == two.stats.by_bound);
  CHECK(one.stats.by_index > 0);
  CHECK(one.stats.steps > one.stats.by_index);
}

TEST_CASE("fast path index: a bound made too small is caught by the comparison with the exact evaluator",
          "[fast][index][differential]") {
  // B lowered by 10^9 integer units (more than any score gap) claims that every interior key outside g* lies far
  // below the top. At tau = 1 those keys do move the readout: the sound bound certifies no step of these strings by
  // the index, the lowered one certifies hundreds, and on some strings a decision the exact evaluator takes otherwise.
  // The differential comparison must see it.
  const CopyTransformer exact(
      CopyTransformerConfig{5, 3, 14, EmbeddingKind::OneHot, TransformerVariant::Corrected, Exact(1)});
  const FastCopy sound(exact), weakened(exact, {.bound_slack = 1'000'000'000});
  std::mt19937_64 rng(77);
  int caught = 0;
  for (int s = 0; s < 200; ++s) {
    const TokenString x = random_string(rng, 5, 14);
    const CopyRun e = exact.copy_string(x);
    CHECK(same_run(e, sound.copy_string(x).run));
    caught += !same_run(e, weakened.copy_string(x).run);
  }
  CHECK(caught > 0);
}

TEST_CASE("fast path index: Z3 proves the bound B for every alphabet and every query's terms", "[fast][index][z3]") {
  // The tables f_i and the window are symbolic, and so is D: the statement covers every configuration at n, where
  // the enumeration above stops at D = 4; InteriorKeys::make refuses n > max_index_n. B lowered by one is beaten by
  // a window one loss below the top (the smallest loss taken at its offset): that model also shows that the
  // hypotheses have models, so the proof at the same n is not vacuous.
  for (int n = 1; n <= max_index_n; ++n) {
    INFO("n=" << n);
    const auto options = proofs::QueryOptions{}.named("fast.ngram_bound");
    const proofs::ProofResult r = prove_ngram_bound(n, options);
    INFO(r.reason << r.counterexample);
    CHECK(r.status == proofs::QueryStatus::Proved);
    const proofs::ProofResult lowered = prove_ngram_bound(n, options, 1);
    INFO(lowered.counterexample);
    CHECK(lowered.status == proofs::QueryStatus::CounterModel);
    CHECK(lowered.replayed);
  }
}

TEST_CASE("fast path index: Z3 proves the decomposition of the keys over every window at D = 16, n = 4 and 5",
          "[fast][index][z3]") {
  // 16^5 and 16^6 windows, past the enumeration above: the tokens are symbolic. A decomposition with one term
  // changed is refuted with a window that IntegerLayer1::at confirms (the hypotheses have models: not vacuous).
  for_each_benchmarked_layer1([](TransformerVariant, int, const IntegerLayer1& layer1, const InteriorKeys& keys) {
    const auto options = proofs::QueryOptions{}.named("fast.key_decomposition");
    const proofs::ProofResult r = prove_key_decomposition(layer1, 16, keys.coordinates(), options);
    INFO(r.reason << r.counterexample);
    CHECK(r.status == proofs::QueryStatus::Proved);
    auto altered = keys.coordinates();
    auto term = std::find_if(altered.begin(), altered.end(), [](const auto& c) { return !c.terms.empty(); });
    REQUIRE(term != altered.end());
    term->terms.front().by_token[7] += 1;
    const proofs::ProofResult wrong = prove_key_decomposition(layer1, 16, altered, options);
    INFO(wrong.counterexample);
    CHECK(wrong.status == proofs::QueryStatus::CounterModel);
    CHECK(wrong.replayed);
  });
}
