// checkers/copy: the claims copy.alg1, copy.lemma2_4, copy.thm2_7, copy.cor2_8, with expected values derived by hand
// in the comments.
#include "checkers/certificate.hpp"
#include "checkers/copy/copy_claims.hpp"

#include <catch2/catch.hpp>

using namespace tverify;
using namespace tverify::copy;

namespace {

RunOptions options(unsigned threads = 2) {
  RunOptions o;
  o.threads = threads;
  return o;
}

const ClaimResult& find(const std::vector<ClaimResult>& results, const std::string& id, const std::string& reading) {
  for (const auto& r : results)
    if (r.id == id && r.reading == reading) return r;
  FAIL("no result " << id << " " << reading);
  static const ClaimResult none;
  return none;
}

std::vector<ClaimResult> string_claims(int D, int n, int L, Alg1Variant variant, unsigned threads = 2) {
  const auto domain = make_string_domain(D, n, L, options(threads));
  return check_string_claims(domain, variant, {NgramReading::Text, NgramReading::Formula},
                             {.alg1 = true, .lemma2_4 = true}, options(threads));
}

}  // namespace

TEST_CASE("copy.alg1 D=2 n=2 L=4: the printed algorithm is refuted, the corrected one verified (text)",
          "[copy][claims]") {
  // The 8 strings of {0,1}^4 whose three 2-grams are distinct: 0010 0011 0100 0110 1001 1011 1100 1101.
  const auto paper = string_claims(2, 2, 4, Alg1Variant::Paper);
  const auto& p = find(paper, "copy.alg1", "text");
  CHECK(p.verdict == Verdict::Refuted);
  CHECK(p.checked == 8);
  CHECK(p.failed == 8);  // no key k_{n+1}: the first query never matches on a repeat-free string
  CHECK(p.counterexamples.front().input == Json({0, 0, 1, 0}));

  const auto corrected = string_claims(2, 2, 4, Alg1Variant::Corrected);
  const auto& c = find(corrected, "copy.alg1", "text");
  CHECK(c.verdict == Verdict::Verified);
  CHECK(c.passed == 8);
  // Sharpness: the smallest string with a repeated 2-gram that is not copied is 0 0 0 1 (see test_copy_algorithm1).
  CHECK(c.details["sharpness"]["smallest_failing_string_with_repeat"] == Json({0, 0, 0, 1}));
}

TEST_CASE("copy.alg1 under the formula reading (n+1 tokens) is refuted even when corrected", "[copy][claims]") {
  // 0 0 0 1 has no repeated 3-gram (000, 001) but is not copied (hand run in test_copy_algorithm1).
  const auto corrected = string_claims(2, 2, 4, Alg1Variant::Corrected);
  const auto& f = find(corrected, "copy.alg1", "formula");
  CHECK(f.verdict == Verdict::Refuted);
  CHECK(f.checked == 14);  // only 0000 and 1111 repeat a 3-gram (x1x2x3 = x2x3x4 forces a constant string)
  CHECK(f.counterexamples.front().input == Json({0, 0, 0, 1}));
}

TEST_CASE("copy.lemma2_4: exact p_n-gram for both readings against L^2 D^-n", "[copy][claims]") {
  const auto results = string_claims(2, 2, 4, Alg1Variant::Corrected);
  // Text: 8 of 16 strings repeat a 2-gram, p = 1/2 < 16/4 = 4. Formula: 2 of 16, p = 1/8.
  const auto& text = find(results, "copy.lemma2_4", "text");
  CHECK(text.verdict == Verdict::Verified);
  CHECK(text.details["p_ngram"] == "1/2");
  CHECK(text.details["bound_L2_D_minus_n"] == "4");
  CHECK(find(results, "copy.lemma2_4", "formula").details["p_ngram"] == "1/8");
  // D=2 n=1 L=2, text: 00 and 11 repeat a 1-gram, p = 1/2 < 4/2 = 2.
  CHECK(find(string_claims(2, 1, 2, Alg1Variant::Corrected), "copy.lemma2_4", "text").details["p_ngram"] == "1/2");
}

TEST_CASE("results do not depend on the thread count", "[copy][claims][enumerate]") {
  const auto one = string_claims(3, 2, 6, Alg1Variant::Paper, 1);
  const auto three = string_claims(3, 2, 6, Alg1Variant::Paper, 3);
  REQUIRE(one.size() == three.size());
  for (std::size_t i = 0; i < one.size(); ++i) CHECK(claim_to_json(one[i]) == claim_to_json(three[i]));
}

TEST_CASE("copy.thm2_7 as printed (strict) is refuted by a GSSM attaining 1 - |S|/D^L", "[copy][claims]") {
  // D=2, L=3, S=2: the constant-string GSSM copies 000 and 111, err = 6/8 = 3/4 = 1 - 2/8: not > 3/4.
  const auto domain = make_string_domain(2, 1, 3, options());
  const ClaimResult strict = check_thm2_7(domain, 2, true, options());
  CHECK(strict.verdict == Verdict::Refuted);
  CHECK(strict.counterexamples.front().got == "3/4");
}

TEST_CASE("copy.thm2_7 corrected (>=) is verified over all 8192 GSSMs with 2 states for D=2, L=3", "[copy][claims]") {
  const auto domain = make_string_domain(2, 1, 3, options());
  const ClaimResult ge = check_thm2_7(domain, 2, false, options());
  CHECK(ge.verdict == Verdict::Verified);
  CHECK(ge.checked == 8192);
  CHECK(ge.details["smallest_err_over_all_gssms"] == "3/4");  // the bound is attained, so it is tight
}

TEST_CASE("copy.thm2_7 is unknown when GSSMs cannot all be enumerated and none attaining the bound is built",
          "[copy][claims]") {
  const auto domain = make_string_domain(2, 1, 3, options());
  const ClaimResult r = check_thm2_7(domain, 3, true, options());  // S = 3 > D: 3^12 4^3 3 GSSMs
  CHECK(r.verdict == Verdict::Unknown);
  CHECK_FALSE(r.reason.empty());
}

TEST_CASE("copy.cor2_8: 2|S| < D^L gives a bound above 1/2, attained exactly", "[copy][claims]") {
  const auto domain = make_string_domain(2, 1, 3, options());
  // S = 3: 6 < 8, bound 1 - 3/8 = 5/8 > 1/2.
  const ClaimResult inside = check_cor2_8(domain, 3, options());
  CHECK(inside.verdict == Verdict::Verified);
  CHECK_FALSE(inside.outside_hypotheses);
  CHECK(inside.details["bound"] == "5/8");
  CHECK(inside.details["tightness"]["attains_bound"] == true);
  // S = 4: 8 < 8 fails, outside the hypothesis (the bound is exactly 1/2).
  const ClaimResult outside = check_cor2_8(domain, 4, options());
  CHECK(outside.outside_hypotheses);
  CHECK(outside.details["bound_above_half"] == false);
}

TEST_CASE("the budget refuses a domain above --max-inputs unless forced", "[copy][claims][enumerate]") {
  RunOptions small = options();
  small.max_inputs = 100;
  CHECK_THROWS_AS(make_string_domain(2, 2, 7, small), UsageError);  // 128 > 100
  small.force = true;
  CHECK(make_string_domain(2, 2, 7, small).size == 128);
}
