// fast (CAT): the window-grouped fast path (constructions/cat/fast/cat_fast.hpp) must decide the last position exactly
// as the exact evaluator (CatLayer::decode_last) does - same token, same margin, ties included - on thousands of seeded
// random sequences per configuration, every variant and embedding; and its NAR matching must equal tasks.hpp's. At
// large L, where the exact evaluator is out of reach, the expected length limits are derived by hand below.
#include "checkers/cat/cat_construction.hpp"
#include "checkers/registry.hpp"
#include "constructions/cat/fast/cat_fast.hpp"
#include "constructions/cat/tasks.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace tverify;
using namespace tverify::cat;
using namespace tverify::cat::fast;

namespace {

CatSetup setup_for(const std::string& variant, std::map<std::string, std::string> raw) {
  return make_setup(ParamValues::parse(find_construction("cat").params(), raw), variant);
}

Tokens random_tokens(std::mt19937_64& rng, int vocabulary, int length) {
  std::uniform_int_distribution<int> token(0, vocabulary - 1);
  Tokens z;
  for (int i = 0; i < length; ++i) z.push_back(token(rng));
  return z;
}

// Fast and exact decisions at the last position of `count` random sequences of length 2..max_length.
void expect_same_decisions(const CatConfig& config, int vocabulary, int max_length, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const CatLayer layer(config);
  std::uniform_int_distribution<int> length(2, max_length);
  for (int k = 0; k < count; ++k) {
    const Tokens z = random_tokens(rng, vocabulary, length(rng));
    const Decoded exact = layer.decode_last(z);
    const Decoded fast = decode_last_fast(config, RunSequence(z));
    INFO("sequence " << k << " of length " << z.size());
    REQUIRE(exact.margin == fast.margin);
    REQUIRE(exact.token == fast.token);
  }
}

}  // namespace

TEST_CASE("runs: windows grouped into spans of equal content", "[fast][cat]") {
  // z = 0 0 0 1 1, windows (z_{s-1}, z_s): s = 0 reaches before the sequence; s = 1, 2 lie in the first run (one span
  // of two); s = 3 straddles the runs; s = 4 lies in the second run.
  const RunSequence z(Tokens{0, 0, 0, 1, 1});
  std::vector<std::tuple<std::uint64_t, std::uint64_t, Tokens>> spans;
  z.for_each_window_span(1, 0, 0, 4,
                         [&](std::uint64_t s, std::uint64_t n, const Tokens& w) { spans.emplace_back(s, n, w); });
  const std::vector<std::tuple<std::uint64_t, std::uint64_t, Tokens>> expected{
      {0, 1, {-1, 0}}, {1, 2, {0, 0}}, {3, 1, {0, 1}}, {4, 1, {1, 1}}};
  CHECK(spans == expected);
  CHECK(z.at(-1) == -1);
  CHECK(z.at(5) == -1);
  CHECK(z.tokens() == Tokens{0, 0, 0, 1, 1});

  // Against a position-by-position reading on random sequences: every position once, in order, with its window.
  std::mt19937_64 rng(11);
  for (int k = 0; k < 300; ++k) {
    const Tokens x = random_tokens(rng, 2, 1 + k % 15);
    const RunSequence r(x);
    for (std::uint64_t before : {0u, 1u, 3u})
      for (std::uint64_t after : {0u, 1u}) {
        std::uint64_t next = 0;
        r.for_each_window_span(before, after, 0, x.size() - 1, [&](std::uint64_t s, std::uint64_t n, const Tokens& w) {
          REQUIRE(s == next);
          for (std::uint64_t p = s; p < s + n; ++p)
            for (std::size_t j = 0; j < w.size(); ++j) {
              const auto i =
                  static_cast<std::int64_t>(p) - static_cast<std::int64_t>(before) + static_cast<std::int64_t>(j);
              REQUIRE(w[j] ==
                      (i < 0 || i >= static_cast<std::int64_t>(x.size()) ? -1 : x[static_cast<std::size_t>(i)]));
            }
          next = s + n;
        });
        REQUIRE(next == x.size());
      }
  }
}

TEST_CASE("runs: NAR matching equals tasks.hpp's on random sequences", "[fast][cat]") {
  std::mt19937_64 rng(5);
  for (int n = 1; n <= 3; ++n)
    for (int k = 0; k < 2000; ++k) {
      const Tokens z = random_tokens(rng, 1 + k % 3, 1 + k % 13);
      const auto exact = nar_match(z, n);
      const auto fast = nar_match_runs(RunSequence(z), n);
      REQUIRE(exact.has_value() == fast.has_value());
      if (exact) REQUIRE(*exact == *fast);
    }
}

TEST_CASE("fast CAT decisions equal the exact evaluator's: every variant, both embeddings", "[fast][cat]") {
  std::uint64_t seed = 100;
  for (const std::string variant : {"key_delay", "value_delay", "key_delay_full", "value_delay_full"})
    for (const std::string embedding : {"onehot", "stereo"})
      for (const std::string c : {"1/2", "2", "auto"}) {
        INFO(variant << ", " << embedding << ", c = " << c);
        const CatSetup s =
            setup_for(variant, {{"V", "3"}, {"N", "2"}, {"L", "10"}, {"embedding", embedding}, {"dim", "3"}, {"c", c}});
        expect_same_decisions(s.config, 3, 12, 400, ++seed);
      }
  // AR (N = 1), a constant filter (its N-gram signatures collide: ties), and a longer random rational filter.
  expect_same_decisions(setup_for("ar", {{"V", "4"}, {"N", "1"}, {"L", "8"}}).config, 4, 14, 600, ++seed);
  expect_same_decisions(
      setup_for("key_delay", {{"V", "2"}, {"N", "2"}, {"L", "8"}, {"filter", "1,1"}, {"c", "1"}}).config, 2, 12, 600,
      ++seed);
  expect_same_decisions(
      setup_for("value_delay_full", {{"V", "2"}, {"N", "3"}, {"L", "8"}, {"filter", "3/4,-2/5,7/3"}, {"c", "3/2"}})
          .config,
      2, 14, 600, ++seed);
}

TEST_CASE("fast CAT: the worst-case family fails first at the same length as with the exact evaluator", "[fast][cat]") {
  for (const std::string variant : {"key_delay_full", "value_delay_full", "key_delay"}) {
    const CatSetup s = setup_for(variant, {{"V", "3"}, {"N", "2"}, {"L", "8"}, {"c", "3/2"}});
    const CatLayer layer(s.config);
    for (int length = 5; length <= 40; length += 5) {
      INFO(variant << ", L = " << length);
      const auto exact = worst_case_failure(layer, 3, 2, length);
      const auto fast = worst_case_failure_fast(s.config, 3, 2, static_cast<std::uint64_t>(length));
      REQUIRE(exact.has_value() == fast.has_value());
      if (exact) CHECK(*exact == fast->tokens());
    }
  }
}

TEST_CASE("fast CAT at large L: AR's length limit is e^{c^2} + 3, derived by hand", "[fast][cat]") {
  // AR (key delay, N = 1, F = (1)), one-hot, V = 3. In b^p g t b^r g (b, g, t distinct) the key at s is e(z_{s-1})
  // normalised (zero at s = 0), so the query e(g) has cosine 1 with the key after the first g (value t) and 0 with
  // every other key, whose values are p + r = L - 3 copies of b and two of g. Hence <o, e(t)> : <o, e(b)> =
  // e^{c^2} : L - 3, and the layer decodes t exactly when L - 3 < e^{c^2} (t = b or an invalid instance decodes or
  // is skipped). c = 3: e^9 = 8103.08..., the last L solved is 8106; c = 7/2: e^12.25 = 208981.29..., 208984.
  for (const auto& [c, limit] : {std::pair<std::string, std::uint64_t>{"3", 8106}, {"7/2", 208984}}) {
    INFO("c = " << c);
    const CatSetup s = setup_for("ar", {{"V", "3"}, {"N", "1"}, {"L", "4"}, {"c", c}});
    CHECK(!worst_case_failure_fast(s.config, 3, 1, limit));
    const auto failure = worst_case_failure_fast(s.config, 3, 1, limit + 1);
    REQUIRE(failure);
    CHECK(failure->size() == limit + 1);
  }
  // At L = 2^20 with c = 4 (e^16 = 8886110.5...) every instance still decodes; c = 7/2 fails there.
  CHECK(!worst_case_failure_fast(setup_for("ar", {{"V", "3"}, {"N", "1"}, {"L", "4"}, {"c", "4"}}).config, 3, 1,
                                 1u << 20));
  CHECK(worst_case_failure_fast(setup_for("ar", {{"V", "3"}, {"N", "1"}, {"L", "4"}, {"c", "7/2"}}).config, 3, 1,
                                1u << 20));
  // And the exact evaluator agrees with the fast path on both sides of the c = 3 limit (8,106 keys, exact rationals).
  const CatSetup s = setup_for("ar", {{"V", "3"}, {"N", "1"}, {"L", "4"}, {"c", "3"}});
  RunSequence solved, failed;
  for (auto* z : {&solved, &failed}) {
    z->append(1, 1);  // g = 1 (p = 0)
    z->append(2, 1);  // t = 2
    z->append(0, z == &solved ? 8106 - 3 : 8107 - 3);
    z->append(1, 1);
  }
  const CatLayer layer(s.config);
  CHECK(layer.decode_last(solved.tokens()).token == std::optional<int>(2));
  CHECK(decode_last_fast(s.config, solved).token == std::optional<int>(2));
  CHECK(layer.decode_last(failed.tokens()).token == std::optional<int>(0));
  CHECK(decode_last_fast(s.config, failed).token == std::optional<int>(0));
}
