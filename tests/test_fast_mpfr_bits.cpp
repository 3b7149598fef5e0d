// fast (MPFR bits): MpfrBitsCopy must generate, at b bits, exactly what FinitePrecisionCopy generates at MPFR working
// precision b - the same first wrong step, or both copy - on seeded random strings (with and without repeated
// n-grams) of every variant and embedding, at 14 precisions from 1 to 25 bits, with a temperature so large that the
// softmax weights leave double's range, with the per-step MPFR path forced, and with threads. Any disagreement is a
// bug. The reference is the plain MPFR evaluator, which rounds every operation itself.
#include "checkers/copy/fast_sweeps/min_bits_sweep.hpp"
#include "constructions/copy/fast/mpfr_bits_copy.hpp"
#include "constructions/copy/fast/mpfr_layer1.hpp"
#include "constructions/copy/rounded_layer1.hpp"
#include "constructions/copy/strings.hpp"

#include "random_strings.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>

using namespace tverify;
using namespace tverify::copy;
using namespace tverify::copy::fast;
using tverify::testing::random_string;

namespace {

struct Outcomes {
  int copied = 0, failed_first_step = 0, failed_later = 0, mpfr_steps = 0;
};

// Both evaluators on `count` random strings of length 1..max_length at each of `bit_widths`.
Outcomes expect_same_generation(const CopyTransformerConfig& config, int max_length, int count,
                                const std::vector<int>& bit_widths, std::size_t max_levels, unsigned threads,
                                std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> length(1, max_length);
  const CopyTransformer transformer(config);
  const MpfrBitsCopy fast(transformer, max_levels);
  Outcomes seen;
  for (int k = 0; k < count; ++k) {
    const TokenString x = random_string(rng, config.alphabet, length(rng));
    for (int bits : bit_widths) {
      const auto expected = FinitePrecisionCopy(transformer, bits).first_wrong_step(x);
      const BitsRun run = fast.run(x, bits, threads);
      INFO("D=" << config.alphabet << " n=" << config.n << " string " << k << " (length " << x.size() << ") at " << bits
                << " bits");
      REQUIRE_FALSE(run.refusal);  // a refused run sets nothing else, so it must not pass as a copy
      REQUIRE(run.first_wrong_step == expected);
      seen.copied += !expected;
      seen.failed_first_step += expected && *expected == 0;
      seen.failed_later += expected && *expected > 0;
      seen.mpfr_steps += static_cast<int>(run.mpfr_steps);
    }
  }
  return seen;
}

const std::vector<int> kEveryWidth{1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 25};

}  // namespace

TEST_CASE("MPFR bits: the same generation as FinitePrecisionCopy at every width, variant and embedding",
          "[fast][precision][differential]") {
  struct Shape {
    int D, n, max_length;
  };
  Outcomes total;
  for (const auto embedding : {EmbeddingKind::OneHot, EmbeddingKind::C2})
    for (const auto variant : {TransformerVariant::Paper, TransformerVariant::Corrected})
      for (const Shape s : {Shape{2, 1, 6}, Shape{2, 2, 9}, Shape{3, 2, 10}, Shape{2, 3, 10}, Shape{4, 1, 8}}) {
        const Outcomes o = expect_same_generation({s.D, s.n, s.max_length, embedding, variant, {}}, s.max_length, 12,
                                                  kEveryWidth, MpfrBitsCopy::kMaxLevels, 1, 17 + s.D * 7 + s.n);
        total.copied += o.copied, total.failed_first_step += o.failed_first_step, total.failed_later += o.failed_later;
      }
  // The comparison must have seen every kind of outcome, or it proves little.
  CHECK(total.copied > 100);
  CHECK(total.failed_first_step > 20);
  CHECK(total.failed_later > 20);
}

// At 3 bits a product of two 3-bit values needs up to 6 bits, so a product left unrounded before its sum (a scratch
// value at another precision) changes the layer-1 values: D = 16, n = 4 shows it on its first windows. The C2
// embedding's surd weights are checked as well as the one-hot's rationals.
TEST_CASE("MPFR bits: the sparse layer 1 gives the rounded layer 1's values bit for bit, each product rounded",
          "[fast][precision][differential]") {
  struct Shape {
    int D, n;
  };
  for (const auto embedding : {EmbeddingKind::OneHot, EmbeddingKind::C2})
    for (const Shape s : {Shape{2, 2}, Shape{3, 2}, Shape{16, 4}})
      for (int bits : {1, 2, 3, 5, 8, 24}) {
        int length = 1;  // min(64, D^n): a repeat-free string is at most D^n long
        for (int k = 0; k < s.n && length < 64; ++k) length = std::min(64, length * s.D);
        const CopyTransformer transformer({s.D, s.n, length, embedding, TransformerVariant::Corrected, {}});
        const FinitePrecisionCopy finite(transformer, bits);
        SparseMpfrLayer1 sparse(finite);
        const TokenString x = repeat_free_string(s.D, s.n, static_cast<std::size_t>(length), 7);
        const TokenString sequence = transformer.copy_sequence(x, x.size());
        for (std::size_t p = 0; p < sequence.size(); ++p) {
          const std::size_t first = p >= static_cast<std::size_t>(s.n) ? p - static_cast<std::size_t>(s.n) : 0;
          const TokenString window(sequence.begin() + static_cast<long>(first),
                                   sequence.begin() + static_cast<long>(p) + 1);
          const SparseMpfrLayer1::Output got = sparse.compute(window);
          const RuntimeMpfr::Precision precision(bits);
          const auto& reference = finite.weights().layer1;
          const std::vector<RuntimeMpfr> block = reference.block(MpfrOps{}, window);
          INFO("D=" << s.D << " n=" << s.n << (embedding == EmbeddingKind::C2 ? " (C2)" : " (one-hot)") << " at "
                    << bits << " bits, position " << p);
          std::vector<double> expected(block.size(), 0.0), seen(block.size(), 0.0);
          for (std::size_t o = 0; o < block.size(); ++o) expected[o] = block[o].to_double();
          for (const auto& [o, v] : got.block) seen.at(o) = v.to_double();
          REQUIRE(seen == expected);
          std::vector<double> readout(reference.psi.size(), 0.0), seen_readout(reference.psi.size(), 0.0);
          for (std::size_t token = 0; token < readout.size(); ++token)
            readout[token] = reference.value_dot_psi(MpfrOps{}, std::span<const RuntimeMpfr>(block), token).to_double();
          for (const auto& [token, v] : got.readout) seen_readout.at(token) = v.to_double();
          REQUIRE(seen_readout == readout);
        }
      }
}

TEST_CASE("MPFR bits: softmax weights beyond double's range (tau = 2000: e^{-2000} < 2^-2885)",
          "[fast][precision][differential]") {
  const CopyTransformerConfig config{3, 2, 10, EmbeddingKind::OneHot, TransformerVariant::Corrected, Exact(2000)};
  const Outcomes o = expect_same_generation(config, 10, 40, kEveryWidth, MpfrBitsCopy::kMaxLevels, 1, 5);
  CHECK(o.copied > 0);
  CHECK(o.failed_first_step + o.failed_later > 0);
}

TEST_CASE("MPFR bits: steps forced through FinitePrecisionCopy::next_token, and threads, change nothing",
          "[fast][precision][differential]") {
  const CopyTransformerConfig config{3, 2, 10, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}};
  const Outcomes forced = expect_same_generation(config, 10, 30, {2, 3, 5, 12}, 1, 1, 9);  // one level: all but
  CHECK(forced.mpfr_steps > 100);                                                          // one-level steps in MPFR
  expect_same_generation(config, 10, 30, {2, 3, 5, 12}, 2, 3, 10);
  const Outcomes threaded = expect_same_generation(config, 10, 30, {2, 3, 5, 12}, MpfrBitsCopy::kMaxLevels, 4, 11);
  CHECK(threaded.mpfr_steps == 0);
}

TEST_CASE("MPFR bits: the precision is checked", "[fast][precision]") {
  const CopyTransformer transformer({2, 2, 4, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}});
  const MpfrBitsCopy fast(transformer);
  CHECK_THROWS_WITH(fast.run({0, 1, 1, 0}, 26, 1), Catch::Contains("bits must be in 1..25"));
  CHECK_THROWS_WITH(fast.run({0, 1, 1, 0}, 0, 1), Catch::Contains("bits must be in 1..25"));
}

TEST_CASE("min-bits sweep: each L's fewest bits are FinitePrecisionCopy's on the same sampled strings",
          "[fast][precision][sweep]") {
  const CopyTransformerConfig base{2, 4, 8, EmbeddingKind::OneHot, TransformerVariant::Corrected, {}};
  const LengthGrid grid{8, 16, 2, false};
  FastSweepOptions o;
  o.output.dir = (std::filesystem::temp_directory_path() / ("tverify-min-bits-" + std::to_string(::getpid()))).string();
  o.samples = 5;
  o.seed = 3;
  o.threads = 2;
  const Json summary = sweep_copy_min_bits(base, grid, o);
  const CopyTransformer exact(base);
  int probed_above_two = 0;
  for (const Json& row : summary["rows"]) {
    const long length = row["L"].get<long>();
    // The reference: the exact evaluator picks the strings, then MPFR itself scans the widths.
    std::vector<TokenString> copied;
    for (std::uint64_t i = 0; i < o.samples; ++i) {
      TokenString x = repeat_free_string(2, 4, static_cast<std::size_t>(length), sample_seed(o.seed, length, i));
      if (exact.copy_string(x).copied) copied.push_back(std::move(x));
    }
    std::optional<int> fewest;
    for (int bits = 2; bits <= MpfrBitsCopy::kMaxBits && !fewest; ++bits) {
      const FinitePrecisionCopy reference(exact, bits);
      if (std::all_of(copied.begin(), copied.end(), [&](const TokenString& x) { return reference.copies(x); }))
        fewest = bits;
    }
    INFO("L = " << length);
    CHECK(row["exact_copied"].get<std::size_t>() == copied.size());
    CHECK(row["min_bits"] == (fewest ? Json(*fewest) : Json(nullptr)));
    probed_above_two += fewest && *fewest > 2;
  }
  CHECK(probed_above_two > 0);  // some L needs more than the first width probed
  std::filesystem::remove_all(o.output.dir);
}
