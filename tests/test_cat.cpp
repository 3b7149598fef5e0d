// cat: the one-layer CAT construction. Expected values are worked by hand from the definitions in docs/cat.md
// (one-hot embeddings make every inner product a count); each claim is shown verified and refuted.
#include "checkers/cat/cat_construction.hpp"
#include "checkers/registry.hpp"
#include "constructions/cat/tasks.hpp"
#include "constructions/cat/temperature.hpp"

#include <catch2/catch.hpp>

using namespace tverify;
using namespace tverify::cat;

namespace {
CatSetup setup_for(const std::string& variant, std::map<std::string, std::string> raw) {
  return make_setup(ParamValues::parse(find_construction("cat").params(), raw), variant);
}
}  // namespace

TEST_CASE("convolution is causal with zero padding, and a delay shifts it", "[cat]") {
  const TokenEmbedding e = one_hot_embedding(2);
  const std::vector<ExactVector> x{e.vectors[0], e.vectors[1]};
  const Filter f{Exact(1), Exact(1, 2)};
  const auto now = convolve(f, x, 0);
  CHECK(now[0] == ExactVector{1, 0});            // x_1 (x_0 = 0)
  CHECK(now[1] == ExactVector{Exact(1, 2), 1});  // x_2 + x_1 / 2
  const auto delayed = convolve(f, x, 1);
  CHECK(delayed[0] == ExactVector{0, 0});
  CHECK(delayed[1] == ExactVector{1, 0});
}

TEST_CASE("embeddings: unit vectors with rational coordinates, Delta^2 exact, bad ones refused", "[cat]") {
  CHECK(one_hot_embedding(3).min_distance_squared() == 2);
  const TokenEmbedding s = stereographic_embedding(5, 3);
  for (const auto& v : s.vectors) CHECK(dot(v, v) == 1);
  CHECK(s.min_distance_squared() > 0);
  CHECK(s.min_distance_squared() < 2);  // not orthogonal
  // sigma(0, 0) = (0, 0, -1): the first point.
  CHECK(s.vectors[0] == ExactVector{0, 0, -1});
  CHECK_THROWS_AS(custom_embedding({{Exact(3, 5), Exact(3, 5)}, {1, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(custom_embedding({{1, 0}, {1, 0}}), std::invalid_argument);
  CHECK_NOTHROW(custom_embedding({{1, 0}, {Exact(3, 5), Exact(4, 5)}}));
}

TEST_CASE("signatures: the closest pair of the geometric filter and the collisions of constant ones", "[cat]") {
  // F = (1, 1/2), one-hot V = 2: s(00) = 3/2 e0, s(10) = e0 + e1/2: <,> = 3/2, |.|^2 = 9/4 and 5/4, cos^2 = 4/5.
  const SignatureReport r = analyse_signatures({Exact(1), Exact(1, 2)}, one_hot_embedding(2), 2);
  CHECK(r.distinct());
  CHECK(r.max_cosine->square == Exact(4, 5));
  CHECK(r.gamma().contains(Exact(1056, 10000)) == false);
  CHECK(r.gamma().lower() > Exact(1055, 10000));  // 1 - 2/sqrt(5) = 0.10557...
  CHECK(r.gamma().upper() < Exact(1056, 10000));
  const SignatureReport constant = analyse_signatures({Exact(1), Exact(1)}, one_hot_embedding(2), 2);
  CHECK(!constant.distinct());
  CHECK(constant.collision == std::make_pair(Tokens{0, 1}, Tokens{1, 0}));
  const SignatureReport zero = analyse_signatures({Exact(1), Exact(-1)}, one_hot_embedding(2), 2);
  CHECK(zero.zero_signatures.front() == Tokens{0, 0});
  // The padded window (z_1) at the start has the direction of (z_1, z_1) for every filter with F_0 + F_1 != 0.
  CHECK(padded_collision({Exact(1), Exact(1, 2)}, one_hot_embedding(2), 2) == std::make_pair(Tokens{0, 0}, Tokens{0}));
}

TEST_CASE("tasks: unique earlier occurrence for NAR, at most one per query for MQNAR", "[cat]") {
  CHECK(nar_match({0, 0, 1, 0, 0}, 2) == std::size_t{1});
  CHECK(!nar_match({0, 0, 0, 0}, 2));  // (0, 0) ends at 1 and at 2: not unique
  CHECK(!nar_match({0, 1, 2}, 1));     // no earlier 2
  CHECK(nar_match({2, 1, 2}, 1) == std::size_t{0});
  const auto mq = mqnar_queries({0, 1, 0, 1}, 1);
  REQUIRE(mq);
  CHECK(mq->size() == 4);
  CHECK(!(*mq)[1].match);
  CHECK((*mq)[2].match == std::size_t{0});
  CHECK((*mq)[3].match == std::size_t{1});
  CHECK(!mqnar_queries({0, 0, 0}, 1));  // the third 0 has two earlier ones
}

TEST_CASE("the sufficient condition: the chosen c meets it and its L is the closed form", "[cat]") {
  const Interval<128> gamma(Exact(1, 2));
  const Exact c = choose_c(7, 2, gamma);  // one-hot, L = 8: c^2 > ln(14 / sqrt 2) / (1/2) = 4.585...
  CHECK(Exact(c * c) > required_c_squared(7, 2, gamma).upper());
  CHECK(Exact((c - Exact(1, 64)) * (c - Exact(1, 64))) <= required_c_squared(7, 2, gamma).upper());
  // L - 1 < (sqrt 2 / 2) e^{c^2 / 2} at c^2 = 4: 0.7071 * 7.389 = 5.22, so L - 1 <= 5, L = 6.
  CHECK(sufficient_length(4, 2, gamma, Delay::Key) == 6);
}

TEST_CASE("cat.thm1.key_delay: refuted by the padded window, verified with full windows", "[cat]") {
  RunOptions options;
  const CatSetup paper = setup_for("key_delay", {{"V", "2"}, {"N", "2"}, {"L", "6"}});
  const ClaimResult r = check_recall(cat_claim_specs().thm1_key_delay, paper, options);
  REQUIRE(r.verdict == Verdict::Refuted);
  // z = (0,0,1,0,0): the query (0,0) matches the window ending at 2 (key 3, value 1) and, with the same direction,
  // the zero-padded window (z_1) = (0) (key 2, value 0): the two values split the weight.
  CHECK(r.counterexamples.front().input == Json(Tokens{0, 0, 1, 0, 0}));
  CHECK(r.counterexamples.front().expected == Json(1));
  const CatSetup full = setup_for("key_delay_full", {{"V", "3"}, {"N", "2"}, {"L", "7"}});
  CHECK(check_recall(cat_claim_specs().thm1_key_delay, full, options).verdict == Verdict::Verified);
  CHECK(check_mqnar(full, options).verdict == Verdict::Verified);
  // A deliberately too small temperature is caught.
  const CatSetup cold = setup_for("key_delay_full", {{"V", "3"}, {"N", "2"}, {"L", "7"}, {"c", "1/4"}});
  CHECK(check_recall(cat_claim_specs().thm1_key_delay, cold, options).verdict == Verdict::Refuted);
}

TEST_CASE("cat.thm1.value_delay with full windows holds for NAR, but its MQNAR leaks the next token", "[cat]") {
  RunOptions options;
  const CatSetup full = setup_for("value_delay_full", {{"V", "3"}, {"N", "2"}, {"L", "7"}});
  CHECK(check_recall(cat_claim_specs().thm1_value_delay, full, options).verdict == Verdict::Verified);
  const ClaimResult mq = check_mqnar(full, options);
  CHECK(mq.verdict == Verdict::Refuted);
  CHECK(mq.counterexamples.front().input == Json(Tokens{0, 0, 0, 1}));  // the query's own value is x_4 = 1
}

TEST_CASE("cat.cor1 (AR) is verified, also with stereographic embeddings", "[cat]") {
  RunOptions options;
  CHECK(check_recall(cat_claim_specs().cor1, setup_for("ar", {{"V", "3"}, {"N", "1"}, {"L", "7"}}), options).verdict ==
        Verdict::Verified);
  const CatSetup stereo = setup_for("ar", {{"V", "4"}, {"N", "1"}, {"L", "6"}, {"embedding", "stereo"}});
  CHECK(check_recall(cat_claim_specs().cor1, stereo, options).verdict == Verdict::Verified);
}

TEST_CASE("cat.signatures and cat.filters", "[cat]") {
  CHECK(check_signatures(setup_for("key_delay", {{"N", "2"}})).verdict == Verdict::Verified);
  CHECK(check_signatures(setup_for("key_delay", {{"N", "2"}, {"filter", "1,1"}})).verdict == Verdict::Refuted);
  const ClaimResult f = check_filters(setup_for("key_delay", {{"N", "2"}}), 50, 1);
  CHECK(f.verdict == Verdict::Verified);
  CHECK(f.details["exceptional_filters"].size() == 3);
  CHECK(f.details["exceptional_filters"][0]["distinct"] == false);
}

TEST_CASE("exact ties are decided exactly: a tie is a Tie, and nothing stays undecided", "[cat]") {
  // value_delay_full on (0,0,0,1), query at position 3: the keys at 2 and 3 both see (0,0) (same logit), with values
  // z_3 = 0 and z_4 = 1, and no other key: o = (e_0 + e_1)/2 exactly, equidistant from both tokens.
  const CatSetup full = setup_for("value_delay_full", {{"V", "2"}, {"N", "2"}, {"L", "4"}});
  const CatLayer layer(full.config);
  const Decoded d = layer.decode({0, 0, 0, 1}, {2}).front();
  CHECK(d.margin == Margin::Tie);
  CHECK(!d.token);
  // As reconstructed, key delay has exact ties among its failures; every one is decided (no unknowns).
  const ClaimResult r =
      check_recall(cat_claim_specs().thm1_key_delay, setup_for("key_delay", {{"L", "8"}}), RunOptions{});
  CHECK(r.unknown == 0);
  CHECK(r.verdict == Verdict::Refuted);
}
