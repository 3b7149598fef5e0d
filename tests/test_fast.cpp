// fast: the integer fast path of the copy transformer must take the same decision at every step as the exact
// evaluator (CopyTransformer::copy_string) - same outputs, margins, ties, failure step and text - on thousands of
// seeded random strings per configuration, every variant, with and without threads. Any disagreement is a bug.
#include "constructions/copy/fast/copy_fast.hpp"
#include "constructions/copy/fast/simd_kernels.hpp"

#include "copy_runs.hpp"
#include "random_strings.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <set>

using namespace tverify;
using namespace tverify::copy;
using namespace tverify::copy::fast;
using tverify::testing::expect_same_run;
using tverify::testing::random_string;

TEST_CASE("fast path: the same decision at every step as the exact evaluator, random strings",
          "[fast][differential][heavy]") {
  struct Config {
    int D, n, L;
  };
  // D = 5, n = 3 has 2,800 windows of up to n + 1 tokens: rows are memoised but scores are not (past 2,048), so
  // its steps add key columns; the others read the score memo.
  const std::vector<Config> configs{{2, 1, 6}, {2, 2, 8}, {3, 2, 9}, {4, 2, 12}, {2, 3, 12}, {3, 3, 14}, {5, 3, 15}};
  for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected})
    for (const auto& c : configs) {
      const CopyTransformer exact(CopyTransformerConfig{c.D, c.n, c.L, EmbeddingKind::OneHot, variant, {}});
      const FastCopy fast(exact);
      std::mt19937_64 rng(1000 * c.D + 10 * c.n + c.L);
      std::uint64_t by_bound = 0, by_levels = 0, copied = 0;
      for (int s = 0; s < 1000; ++s) {
        const TokenString x = random_string(rng, c.D, c.L);
        INFO("variant " << (variant == TransformerVariant::Paper ? "paper" : "corrected") << " D=" << c.D
                        << " n=" << c.n << " x=" << format_tokens(x));
        const FastCopyRun f = fast.copy_string(x);
        expect_same_run(exact.copy_string(x), f.run);
        by_bound += f.stats.by_bound, by_levels += f.stats.by_levels, copied += f.run.copied;
        CHECK(f.stats.by_exact == 0);
      }
      CHECK(by_bound + by_levels > 0);
    }
}

TEST_CASE("fast path: exhaustive domains in index order (consecutive strings share long prefixes)",
          "[fast][differential]") {
  // The fast path keeps layer 1 of the common prefix with the previous string; string_at enumerates with the last
  // token fastest, so most of each string is carried over. Every string must still match the exact evaluator, also
  // when a longer or shorter string comes in between (the table starts over). The runs go into one reused result and
  // one reused string, as an exhaustive loop does: nothing of the previous run may remain.
  struct Config {
    int D, n, L;
  };
  for (const auto& c : std::vector<Config>{{2, 2, 8}, {3, 2, 6}, {2, 3, 10}}) {
    const CopyTransformer exact(
        CopyTransformerConfig{c.D, c.n, c.L, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
    const FastCopy fast(exact);
    std::uint64_t total = 1;
    for (int i = 0; i < c.L; ++i) total *= static_cast<std::uint64_t>(c.D);
    TokenString x;
    FastCopyRun reused;
    for (std::uint64_t i = 0; i < total; ++i) {
      string_at(i, c.D, c.L, x);
      INFO("D=" << c.D << " n=" << c.n << " x=" << format_tokens(x));
      fast.copy_string(x, reused);
      expect_same_run(exact.copy_string(x), reused.run);
      if (i % 97 == 0) {  // a string of another length in between
        const TokenString shorter(x.begin(), x.end() - 1);
        expect_same_run(exact.copy_string(shorter), fast.copy_string(shorter).run);
      }
    }
  }
}

TEST_CASE(
    "fast path: long strings of a small domain (hundreds of keys per step) decide from window counts, identically",
    "[fast][differential]") {
  // D = 2, n = 3 has 340 windows: every step reads the window counts, however many keys it has (255 at the first
  // step with L = 253, 301 with L = 300), where most windows hold many keys. Each step must match the exact evaluator.
  const CopyTransformer exact(
      CopyTransformerConfig{2, 3, 300, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  const FastCopy fast(exact);
  std::mt19937_64 rng(256);
  std::size_t crossed = 0;
  for (int s = 0; s < 12; ++s) {
    const TokenString x = random_string(rng, 2, s % 3 == 2 ? 300 : 253);
    INFO("L=" << x.size() << " x=" << format_tokens(x));
    const CopyRun f = fast.copy_string(x).run;
    expect_same_run(exact.copy_string(x), f);
    crossed += x.size() == 253 && f.steps.size() >= 2;
  }
  CHECK(crossed > 0);
}

TEST_CASE("fast path: a tau below the proof's makes steps fail, identically in both evaluators",
          "[fast][differential]") {
  for (const Exact& tau : {Exact(1, 2), Exact(2), Exact(5)}) {
    const CopyTransformer exact(
        CopyTransformerConfig{3, 2, 9, EmbeddingKind::OneHot, TransformerVariant::Corrected, tau});
    const FastCopy fast(exact);
    std::mt19937_64 rng(7);
    for (int s = 0; s < 500; ++s) {
      const TokenString x = random_string(rng, 3, 9);
      INFO("tau " << exact_to_string(tau) << " x=" << format_tokens(x));
      expect_same_run(exact.copy_string(x), fast.copy_string(x).run);
    }
  }
}

TEST_CASE("fast path: a tau far above the proof's is decided in both evaluators, by the lexicographic comparison",
          "[fast][differential]") {
  // At tau = 10^5 the levels below the top weigh e^{-10^5} or less: no interval sum at 16,384 bits separates two
  // tokens tied at the top level, the exact comparison of the level sums does. Every string of D = 2, L <= 6 and
  // random ones of D = 3: every step decided, and decided alike.
  for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected})
    for (const int n : {1, 2}) {
      const CopyTransformer exact(CopyTransformerConfig{2, n, 6, EmbeddingKind::OneHot, variant, Exact(100000)});
      const FastCopy fast(exact);
      for (std::uint64_t i = 0; i < 64; ++i) {
        TokenString x;
        for (int k = 5; k >= 0; --k) x.push_back(static_cast<Token>((i >> k) & 1));
        INFO("n=" << n << " x=" << format_tokens(x));
        const CopyRun e = exact.copy_string(x);
        CHECK(e.decided);
        expect_same_run(e, fast.copy_string(x).run);
      }
    }
  const CopyTransformer exact(
      CopyTransformerConfig{3, 1, 8, EmbeddingKind::OneHot, TransformerVariant::Paper, Exact(100000)});
  const FastCopy fast(exact);
  std::mt19937_64 rng(11);
  for (int s = 0; s < 200; ++s) {
    const TokenString x = random_string(rng, 3, 8);
    INFO("x=" << format_tokens(x));
    const CopyRun e = exact.copy_string(x);
    CHECK(e.decided);
    expect_same_run(e, fast.copy_string(x).run);
  }
  // D = 2, n = 1, printed weights, x = 00: undecided at 16,384 bits without the lexicographic comparison.
  const CopyTransformer printed(
      CopyTransformerConfig{2, 1, 2, EmbeddingKind::OneHot, TransformerVariant::Paper, Exact(100000)});
  const CopyRun run = printed.copy_string({0, 0});
  CHECK(run.decided);
  CHECK(run.copied);
}

TEST_CASE("fast path: a small domain's decisions and stage counts do not depend on the windows met before",
          "[fast][differential]") {
  // Small domains decide from the levels of the key windows the thread has met (a superset of the string's own).
  // A FastCopy that has met only the string's windows and one that first ran the whole domain must give the same run
  // and the same stage counts (stage 0 certifies only what stage 1 would, from the same top level), and match the
  // exact evaluator.
  const CopyTransformer exact(
      CopyTransformerConfig{2, 3, 10, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  const FastCopy warm(exact);
  for (std::uint64_t i = 0; i < 1024; ++i) warm.copy_string(string_at(i, 2, 10));
  std::mt19937_64 rng(1010);
  for (int s = 0; s < 60; ++s) {
    const TokenString x = random_string(rng, 2, 10);
    INFO("x=" << format_tokens(x));
    const FastCopy fresh(exact);
    const FastCopyRun first = fresh.copy_string(x), later = warm.copy_string(x);
    expect_same_run(exact.copy_string(x), first.run);
    expect_same_run(first.run, later.run);
    CHECK(first.stats.by_bound == later.stats.by_bound);
    CHECK(first.stats.by_levels == later.stats.by_levels);
  }
}

TEST_CASE("fast path: threads give the same run; long repeat-free strings are copied", "[fast]") {
  const CopyTransformer exact(
      CopyTransformerConfig{4, 3, 40, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  const FastCopy fast(exact, {.steps_per_thread = 1});
  std::mt19937_64 rng(3);
  for (int s = 0; s < 50; ++s) {
    const TokenString x = random_string(rng, 4, 40);
    const CopyRun one = fast.copy_string(x, 1).run;
    expect_same_run(one, fast.copy_string(x, 3).run);
    expect_same_run(exact.copy_string(x), one);
  }
}

TEST_CASE("fast path: threads decide a long string in blocks; a failure in a later block ends it there", "[fast]") {
  // Threads decide 64 steps each per block when steps scan their keys (128 on 2 threads, 192 on 3), 512 with the
  // index stage (1024, 1536). A repeat-free string of 2000 tokens spans several blocks and is copied (Theorem 2.3);
  // the same string with its first n-gram written again at positions 1700..1702 is n-gram-ambiguous after that copy,
  // so it cannot be copied past step 1703 and must not be copied; its failure then lies in a later block than the
  // first, and every thread count must report the 1-thread run.
  const CopyTransformer exact(
      CopyTransformerConfig{16, 3, 2000, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  const TokenString clean = repeat_free_string(16, 3, 2000, 5);
  TokenString repeated = clean;
  std::copy(clean.begin(), clean.begin() + 3, repeated.begin() + 1700);
  for (const bool key_index : {false, true}) {
    INFO("key index " << key_index);
    const FastCopy fast(exact, {.key_index = key_index, .steps_per_thread = 1});
    const CopyRun copied = fast.copy_string(clean, 1).run;
    CHECK(copied.copied);
    const CopyRun failed = fast.copy_string(repeated, 1).run;
    CHECK_FALSE(failed.copied);
    CHECK(failed.steps.size() > 1536);
    CHECK(failed.steps.size() <= 1704);
    for (unsigned threads : {2u, 3u}) {
      INFO("threads " << threads);
      expect_same_run(copied, fast.copy_string(clean, threads).run);
      expect_same_run(failed, fast.copy_string(repeated, threads).run);
      const CopyRun dropped = fast.copy_string(repeated, threads, false).run;  // keep_steps = false keeps the failure
      CHECK(dropped.failure() == failed.failure());
      CHECK_FALSE(dropped.copied);
    }
  }
}

TEST_CASE("fast path: a copy takes at most one thread per steps_per_thread steps", "[fast]") {
  // Which path ran shows in the stage counts of a run that fails: the threaded path also decides the steps after the
  // failure in its block and counts them, the sequential path stops at the failure. With the default 8192 steps per
  // thread, 2 threads run strings of 2000 and 12,000 steps sequentially (one thread per whole 8192 steps) and one of
  // 16,384 steps in parallel; without the key index (an eighth as many steps per thread), one of 1000 steps
  // sequentially and one of 4000 in parallel. With 1 step per thread all run in parallel. Each failure lies inside its
  // block, so the threaded path does decide steps after it.
  auto failing = [](int n, std::size_t length) {
    TokenString x = repeat_free_string(16, n, length, 7);
    std::copy(x.begin(), x.begin() + n, x.begin() + static_cast<long>(length) * 5 / 8);  // an n-gram written again
    return x;
  };
  struct Case {
    int n;
    std::size_t length;
    bool key_index, parallel_by_default;
  };
  for (const Case c : {Case{3, 2000, true, false}, Case{4, 12000, true, false}, Case{4, 16384, true, true},
                       Case{3, 1000, false, false}, Case{3, 4000, false, true}}) {
    INFO("n = " << c.n << ", L = " << c.length << ", key index " << c.key_index);
    const CopyTransformer exact(CopyTransformerConfig{
        16, c.n, static_cast<int>(c.length), EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
    const TokenString x = failing(c.n, c.length);
    const FastCopy by_default(exact, {.key_index = c.key_index}),
        every_step(exact, {.key_index = c.key_index, .steps_per_thread = 1});
    const FastCopyRun one = by_default.copy_string(x, 1, false);
    REQUIRE_FALSE(one.run.copied);
    CHECK(one.stats.steps == *one.run.failed_step + 1);
    const FastCopyRun two = by_default.copy_string(x, 2, false), forced = every_step.copy_string(x, 2, false);
    CHECK(two.run.failure() == one.run.failure());
    CHECK(forced.run.failure() == one.run.failure());
    CHECK(forced.stats.steps > one.stats.steps);
    CHECK((two.stats.steps > one.stats.steps) == c.parallel_by_default);
  }
}

TEST_CASE("fast path: the integer score bound holds for every score the exact evaluator computes", "[fast]") {
  // The 32-bit kernels rely on IntegerLayer1::score_bound (|key . query| in integers). Checked against the exact
  // evaluator's rational scores z_j (CopyTransformer::scores, never IntegerLayer1) times the integer scale: on copy
  // sequences, and on random sequences over every token, <BOS> and <COPY> anywhere (windows no copy run reaches).
  struct Config {
    int D, n, L;
  };
  for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected})
    for (const auto& c : std::vector<Config>{{2, 1, 6}, {2, 2, 8}, {3, 2, 9}, {2, 3, 12}, {4, 3, 12}}) {
      const CopyTransformer exact(CopyTransformerConfig{c.D, c.n, c.L, EmbeddingKind::OneHot, variant, {}});
      const IntegerLayer1 layer1(exact);
      const Exact bound(layer1.score_bound());
      INFO("variant " << (variant == TransformerVariant::Paper ? "paper" : "corrected") << " D=" << c.D
                      << " n=" << c.n);
      std::mt19937_64 rng(7 * c.D + c.n);
      Exact largest = 0;
      for (int s = 0; s < 40; ++s) {
        const TokenString sequence = s % 2 == 0 ? exact.copy_sequence(random_string(rng, c.D, c.L), c.L)
                                                : random_string(rng, c.D + 2, 2 * c.L + 2);
        const Layer1Blocks blocks = exact.layer1(sequence);
        for (std::size_t p = 0; p < sequence.size(); ++p)
          for (const Surd& z : CopyTransformer::scores(blocks, p)) {
            const Exact scaled = abs(z.rational_part() * layer1.score_scale());
            if (scaled > largest) largest = scaled;
          }
      }
      CHECK(largest > 0);
      CHECK(largest <= bound);
    }
}

TEST_CASE("fast path: the documented sweep configuration D = 16, n = 4, both variants, same decisions",
          "[fast][differential]") {
  // The printed weights give the larger integer scores here (IntegerLayer1::score_bound 377,049,600, against
  // 94,766,400 for the corrected ones, both under the 32-bit kernels' 2^31); random strings, and one whose first 4-gram
  // repeats at its end.
  for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected}) {
    const CopyTransformer exact(CopyTransformerConfig{16, 4, 48, EmbeddingKind::OneHot, variant, {}});
    const FastCopy fast(exact);
    std::mt19937_64 rng(16004);
    for (int s = 0; s < 20; ++s) {
      TokenString x = random_string(rng, 16, 48);
      if (s == 0) std::copy(x.begin(), x.begin() + 4, x.end() - 4);
      INFO("variant " << (variant == TransformerVariant::Paper ? "paper" : "corrected") << " x=" << format_tokens(x));
      expect_same_run(exact.copy_string(x), fast.copy_string(x).run);
    }
  }
}

TEST_CASE("fast path: integer layer 1 is the exact layer 1, scaled, at every window of small domains", "[fast]") {
  // IntegerLayer1::at against CopyTransformer::layer1 on every sequence of n + 1 tokens (alphabet, <BOS> and <COPY>
  // anywhere), at each of its positions (the short windows p < n and the full one): value . Psi(x) times value_scale,
  // and each key and query coordinate times Y = sqrt(score_scale) (checked as equal signs and equal squares).
  struct Config {
    int D, n;
    EmbeddingKind embedding;
    TransformerVariant variant;
  };
  const auto paper = TransformerVariant::Paper, corrected = TransformerVariant::Corrected;
  const auto one_hot = EmbeddingKind::OneHot, c2 = EmbeddingKind::C2;
  for (const auto& c : std::vector<Config>{{2, 2, one_hot, paper},
                                           {3, 2, one_hot, corrected},
                                           {2, 3, one_hot, corrected},
                                           {2, 2, c2, corrected},
                                           {4, 2, c2, paper}}) {
    INFO(to_string(c.variant) << " " << to_string(c.embedding) << " D=" << c.D << " n=" << c.n);
    const CopyTransformer exact(CopyTransformerConfig{c.D, c.n, 2 * c.n + 2, c.embedding, c.variant, {}});
    const IntegerLayer1 layer1(exact);
    const int radix = c.D + 2;
    std::uint64_t windows = 1;
    for (int i = 0; i <= c.n; ++i) windows *= static_cast<std::uint64_t>(radix);
    for (std::uint64_t w = 0; w < windows; ++w) {
      TokenString sequence;
      for (std::uint64_t rest = w; sequence.size() < static_cast<std::size_t>(c.n + 1); rest /= radix)
        sequence.push_back(static_cast<Token>(rest % static_cast<std::uint64_t>(radix)));
      const Layer1Blocks blocks = exact.layer1(sequence);
      for (std::size_t p = 0; p < sequence.size(); ++p) {
        INFO("sequence " << format_tokens(sequence) << ", position " << p);
        const IntegerRow row = layer1.at(sequence, p);
        for (std::size_t x = 0; x < row.value_dot_psi.size(); ++x)
          REQUIRE(Exact(row.value_dot_psi[x]) == blocks.entry(p).value_dot_psi[x].to_exact() * layer1.value_scale());
        const auto same_scaled = [&](const std::vector<std::int64_t>& integers, const Vector<Surd>& values) {
          for (std::size_t i = 0; i < integers.size(); ++i) {
            const Exact v = values[i].to_exact(), z(integers[i]);
            REQUIRE(z.sign() == v.sign());
            REQUIRE(z * z == v * v * layer1.score_scale());
          }
        };
        same_scaled(row.key, blocks[p].key);
        same_scaled(row.query, blocks[p].query);
      }
    }
  }
}

TEST_CASE("fast path: the Lemma C.2 embedding where its codes are rational, same decisions as the exact evaluator",
          "[fast][differential][heavy]") {
  // The codes are +-1/sqrt(r), rational where r is a square: r = ceil(log2 D) = 1 at D = 2 and 4 at D = 9..16
  // (corrected), r = ceil(log2 D) + 2 = 4 at D = 3, 4 (paper). Unlike one-hot entries they are negative and
  // fractional, and several are non-zero per token. Random strings (repeats included): copies and failures.
  struct Config {
    int D, n, L;
    TransformerVariant variant;
  };
  const auto paper = TransformerVariant::Paper, corrected = TransformerVariant::Corrected;
  const std::vector<Config> configs{{2, 2, 8, corrected},   {2, 3, 12, corrected}, {3, 2, 9, paper},
                                    {4, 2, 12, paper},      {4, 3, 12, paper},     {9, 2, 12, corrected},
                                    {16, 2, 16, corrected}, {16, 3, 20, corrected}};
  std::uint64_t copied = 0, failed = 0;
  for (const auto& c : configs) {
    const CopyTransformer exact(CopyTransformerConfig{c.D, c.n, c.L, EmbeddingKind::C2, c.variant, {}});
    REQUIRE_FALSE(FastCopy::refusal(exact));
    const FastCopy fast(exact);
    std::mt19937_64 rng(2000 * c.D + 10 * c.n + c.L);
    for (int s = 0; s < 300; ++s) {
      const TokenString x = random_string(rng, c.D, c.L);
      INFO("variant " << to_string(c.variant) << " D=" << c.D << " n=" << c.n << " x=" << format_tokens(x));
      const FastCopyRun f = fast.copy_string(x);
      expect_same_run(exact.copy_string(x), f.run);
      CHECK(f.stats.by_exact == 0);
      (f.run.copied ? copied : failed) += 1;
    }
  }
  CHECK(copied > 0);
  CHECK(failed > 0);
}

TEST_CASE("fast path: irrational Lemma C.2 codes are refused with the reason; kernels agree with plain loops",
          "[fast]") {
  for (const auto& [D, variant] :
       {std::pair{3, TransformerVariant::Corrected}, std::pair{16, TransformerVariant::Paper}}) {
    const CopyTransformer c2(CopyTransformerConfig{D, 2, 6, EmbeddingKind::C2, variant, {}});
    const auto why = IntegerLayer1::unsupported_reason(c2);
    REQUIRE(why.has_value());
    CHECK_THAT(*why, Catch::Contains(D == 3 ? "+-1/sqrt(2)" : "+-1/sqrt(6)"));
    CHECK(FastCopy::refusal(c2) == "fast path: " + *why);
  }
  std::vector<std::int32_t> scores{5, -2, 7, 7, 1};
  const std::vector<std::int32_t> column{1, 2, -3, 0, 4};
  add_scaled_column(scores.data(), column.data(), 3, scores.size());
  CHECK(scores == std::vector<std::int32_t>{8, 4, -2, 7, 13});
  CHECK(max_of(scores.data(), scores.size()) == 13);
  std::size_t count = 0;
  std::int32_t runner_up = 0;
  top_count_and_runner_up(scores.data(), scores.size(), 8, count, runner_up);
  CHECK(count == 1);
  CHECK(runner_up == 7);
  const TopLevel level = top_level(scores.data(), scores.size());  // {8, 4, -2, 7, 13}
  CHECK((level.top == 13 && level.count == 1 && level.first == 4 && level.runner_up == 8));
  const std::vector<std::int32_t> repeated{3, 9, 1, 9, 9};
  const TopLevel three = top_level(repeated.data(), repeated.size());
  CHECK((three.top == 9 && three.count == 3 && three.first == 1 && three.runner_up == 3));
  std::vector<std::int32_t> long_scores(100);  // j mod 7: the 6s sit at j = 6, 13, ..., 97 (14 of them)
  for (std::size_t j = 0; j < long_scores.size(); ++j) long_scores[j] = static_cast<std::int32_t>(j % 7);
  const TopLevel cyclic = top_level(long_scores.data(), long_scores.size());
  CHECK((cyclic.top == 6 && cyclic.count == 14 && cyclic.first == 6 && cyclic.runner_up == 5));
  const std::vector<std::int32_t> flat(5, -4);
  const TopLevel single_level = top_level(flat.data(), flat.size());
  CHECK((single_level.top == -4 && single_level.count == 5 && single_level.first == 0 &&
         single_level.runner_up == std::numeric_limits<std::int32_t>::min()));
}
