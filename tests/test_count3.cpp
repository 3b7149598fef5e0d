// count3: ENTP's references, RASP programs and claims. Expected values are worked by hand from eq. (4), Match3'
// (Sec. 6.2) and the programs' comments; each claim is shown verified where it holds and refuted where it fails.
#include "checkers/count3/count3_claims.hpp"
#include "checkers/count3/entp_checks.hpp"
#include "constructions/count3/gadget.hpp"
#include "proofs/count3_proofs.hpp"

#include <catch2/catch.hpp>

using namespace tverify;
using namespace tverify::count3;

namespace {
InputSource all_sequences(int n, long long lo, long long hi) {
  return InputSource::exhaustive(make_sequence_domain(n, lo, hi, RunOptions{}));
}
}  // namespace

TEST_CASE("eq. (4) and Algorithms 2 and 3 on hand-counted sequences", "[count3]") {
  // [0, 0, 1, 2]: n = 4, x_n = 2; pairs with x_i + x_j = 2 (mod 4): (3, 3), (1, 4), (2, 4), (4, 1), (4, 2) -> 5 = 1.
  CHECK(count3_eq4({0, 0, 1, 2}) == 1);
  CHECK(count3_alg2({0, 0, 1, 2}) == 1);
  CHECK(count3_alg3({0, 0, 1, 2}) == 1);
  CHECK(count3_eq4({1, 1, 1}) == 0);  // all 9 pairs: 9 mod 3
  CHECK(count3_eq4({7}) == 0);        // mod 1
  CHECK(match3_prime({64, 0, 64}) == 1);
  CHECK(match3_prime({1, 2}) == 0);
  CHECK(floor_mod(-3, 5) == 2);
}

TEST_CASE("the sequence domain enumerates shorter first, then lexicographically", "[count3]") {
  const SequenceDomain d = make_sequence_domain(2, 3, 4, RunOptions{});
  CHECK(d.size == 2 + 4);
  CHECK(d.at(0) == Sequence{3});
  CHECK(d.at(1) == Sequence{4});
  CHECK(d.at(2) == Sequence{3, 3});
  CHECK(d.at(5) == Sequence{4, 4});
  const SequenceDomain exact_length = make_sequence_domain(2, 0, 1, RunOptions{}, 2);
  CHECK(exact_length.size == 4);
  CHECK(exact_length.at(0) == Sequence{0, 0});
}

TEST_CASE("the experiment sequences follow eq. (4) after their 16-integer seed", "[count3]") {
  const Sequence x = experiment_sequence(7, 3);
  REQUIRE(x.size() == 64);
  for (std::size_t m = 16; m < 64; ++m) CHECK(x[m] == count3_eq4(Sequence(x.begin(), x.begin() + m)));
  for (std::size_t m = 0; m < 16; ++m) CHECK((x[m] >= 0 && x[m] <= 63));
  CHECK(experiment_sequence(7, 3) == x);  // reproducible
}

TEST_CASE("count3.alg2_alg3 and count3.table5 are verified", "[count3]") {
  CHECK(check_alg2_alg3(all_sequences(4, 0, 5), RunOptions{}).verdict == Verdict::Verified);
  const ClaimResult t = check_table5();
  CHECK(t.verdict == Verdict::Verified);
  CHECK(t.checked == 48);
}

TEST_CASE("count3.alg4: refuted as printed once a value reaches the length / the floor-modulo fix holds", "[count3]") {
  RunOptions options;
  // Values below every length: g(a, b) only sees 0 <= a < 2b and the program is right.
  CHECK(check_alg4(all_sequences(1, 0, 0), {}, options).verdict == Verdict::Verified);
  const ClaimResult printed = check_alg4(all_sequences(3, 0, 2), {}, options);
  REQUIRE(printed.verdict == Verdict::Refuted);
  // Smallest: x = [1, 2]. Count3 = |{(1,1), (2,2)}| mod 2 = 0; g(2 + 2, 2) = 2 instead of 0, so z = [1, 2] and
  // y = [g(1, 2), g(0, 2)] = [1, 0]: one match, output 1.
  CHECK(printed.counterexamples.front().input == Json(Sequence{1, 2}));
  CHECK(printed.counterexamples.front().expected == Json(0));
  CHECK(printed.counterexamples.front().got == Json(1));
  CHECK(check_alg4(all_sequences(4, 0, 6), {rasp::MeanSemantics::Truncate, Alg4Variant::Corrected}, options).verdict ==
        Verdict::Verified);
  CHECK(check_alg4(all_sequences(3, 0, 6), {rasp::MeanSemantics::Exact, Alg4Variant::Corrected}, options).verdict ==
        Verdict::Verified);
}

TEST_CASE("Algorithm 4 is an encoder program: forced causal it no longer computes Count3", "[count3]") {
  // x = [0, 0, 1, 2] (Count3 = 1): under causal attention n = sel_width(select(true)) is the position + 1, not 4.
  rasp::Run run({.mean = rasp::MeanSemantics::Truncate, .force_causal = true});
  const rasp::Seq out = alg4_count_triplets(rasp::sequence({0, 0, 1, 2}), Alg4Variant::Corrected);
  CHECK(last_output(out) != 1);
}

TEST_CASE("match3.alg5 and count3.alg6 are verified, with the chain of thought as designed", "[count3]") {
  RunOptions options;
  CHECK(check_alg5(all_sequences(3, 60, 68), {}, options).verdict == Verdict::Verified);
  CHECK(check_alg6(all_sequences(3, 0, 4), {}, options).verdict == Verdict::Verified);
  // x = [1, 2]: y = [(-1 mod 2) + 1, (-2 mod 2) + 1] = [2, 1]; z = [(2 + 1 mod 2) + 1, (2 + 2 mod 2) + 1] = [2, 1],
  // each matching one y; Count3 = 0; EOS.
  CHECK(expected_alg6_chain({1, 2}) == Sequence{2, 1, 1, 1, 0, eos_token});
  rasp::Run run({});
  const ChainOfThought cot = generate_alg6({1, 2}, 20);
  CHECK(cot.terminated);
  CHECK(cot.generated == Sequence{2, 1, 1, 1, 0, eos_token});
}

TEST_CASE("count3.rasp_mlp: the products with n are not covered by Lemma A.6", "[count3]") {
  // Values below the length keep g inside its domain; the two products sel_width(...) * n and idxs * n remain.
  const ClaimResult r = check_rasp_mlp(all_sequences(3, 0, 0), {}, RunOptions{});
  CHECK(r.verdict == Verdict::Refuted);
  CHECK(r.failed == 2);
  CHECK(r.counterexamples.front().input == Json("sel_width(select(k=z, q=y, pred=equals)) * n"));
}

TEST_CASE("Lemma A.6: the gadget is exact at the printed constants / the limits are eps = 1 and M = n/eps",
          "[count3][gadget]") {
  for (long long n : {1, 2, 5, 17}) {
    CHECK(!gadget_counterexample(n, Exact(1, 2), Exact(4 * n)));
    CHECK(smallest_gadget_m(n, Exact(1, 2)) == Exact(2 * n));  // n / (1/2)
    // Just below n/eps the gadget fails at a = b = n: ReLU(n - M/2) > 0 is added to g = 0.
    const auto bad = gadget_counterexample(n, Exact(1, 2), Exact(2 * n) - Exact(1, 1000));
    REQUIRE(bad);
    CHECK(*bad == std::make_pair(n, n));
  }
  CHECK(gadget_counterexample(3, Exact(11, 10), Exact(60)));  // eps > 1: a = 1, b = 2 fails
  CHECK(check_lemma_a6(16).verdict == Verdict::Verified);
}

TEST_CASE("Lemma A.6 with Z3: proved for all n / a too small M is refuted by a replayed model",
          "[count3][gadget][z3]") {
  const proofs::QueryOptions options{60'000, {}};
  CHECK(proofs::prove_lemma_a6(proofs::GadgetConstants::printed(), options).status == proofs::QueryStatus::Proved);
  CHECK(proofs::prove_lemma_a6(proofs::GadgetConstants::tight(), options).status == proofs::QueryStatus::Proved);
  const proofs::ProofResult broken = proofs::prove_lemma_a6({true, Exact(1, 2)}, options);
  CHECK(broken.status == proofs::QueryStatus::CounterModel);
  CHECK(broken.replayed);
}

TEST_CASE("entp.a2 and entp.a3 are proved / an encoder posing as a decoder is refuted", "[count3][entp][z3]") {
  CHECK(check_a2(1, 60'000).verdict == Verdict::Verified);
  CHECK(check_a3(1, 60'000).verdict == Verdict::Verified);
  const ClaimResult not_causal = check_output_identities(
      count3_claim_specs().a2, decoder_prefix_identities(random_models(1, 2, false), 1), 60'000);
  CHECK(not_causal.verdict == Verdict::Refuted);
  // Two layers: encoder and decoder differ (that is Theorems 4.1 and 4.2).
  const ClaimResult two_layers = check_output_identities(
      count3_claim_specs().a3, encoder_decoder_identities(random_models(1, 2, false), 1), 60'000);
  CHECK(two_layers.verdict == Verdict::Refuted);
}

TEST_CASE("entp.thm4_1: the printed layer outputs / a decoder with W_V = 2I is caught", "[count3][entp]") {
  CHECK(check_thm4_1(1).verdict == Verdict::Verified);
  EntpModel broken = thm4_1_decoder(1);
  for (auto& layer : broken.layers) layer.value[0][0] = 2;
  CHECK(check_thm4_1_model(broken, 1).verdict == Verdict::Refuted);
}

TEST_CASE("entp.thm4_2: alpha, beta > 0, and alpha + beta = 4 when x1 = x2", "[count3][entp]") {
  CHECK(check_thm4_2(1).verdict == Verdict::Verified);
  // Identical tokens: every softmax is uniform, E~(v, v)_2 = E~(v)_1 = 4v, so alpha + beta = 4.
  const auto [alpha, beta] =
      thm4_2_coefficients<128>(thm4_2_encoder(2), {Exact(1, 2), Exact(-1)}, {Exact(1, 2), Exact(-1)});
  CHECK((alpha + beta).contains(Exact(4)));
  CHECK(alpha.sign() == Sign::Positive);
}
