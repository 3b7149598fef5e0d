// constructions/copy/gssm: the GSSM semantics of Sec. 2.1, the enumeration of all GSSMs, and the Lemma D.1 form.
#include "constructions/copy/gssm.hpp"

#include <catch2/catch.hpp>

using namespace tverify::copy;

TEST_CASE("the constant-string GSSM copies exactly the strings a^L with a < S", "[copy][gssm]") {
  const Gssm g = constant_string_gssm(3, 2);
  int copied = 0;
  for (std::uint64_t i = 0; i < 27; ++i) {
    const TokenString x = string_at(i, 3, 3);
    if (g.generate(x) == x) {
      ++copied;
      CHECK((x == TokenString{0, 0, 0} || x == TokenString{1, 1, 1}));
    }
  }
  CHECK(copied == 2);
}

TEST_CASE("there are S^(S(D+2)) (D+2)^S S GSSMs, and gssm_at decodes each index", "[copy][gssm]") {
  // D = 2, S = 2: 2^8 * 4^2 * 2 = 8192.
  CHECK(gssm_count(2, 2) == 8192);
  CHECK(gssm_count(2, 1) == 4);  // one state: only the readout (4 tokens) varies
  const Gssm last = gssm_at(8191, 2, 2);
  CHECK(last.initial == 1);
  CHECK(last.readout == std::vector<Token>{3, 3});
  CHECK(last.update == std::vector<int>(8, 1));
  CHECK(gssm_count(64, 8) == 0);  // beyond 2^63
}

TEST_CASE("a one-state GSSM outputs r(s) forever, so copies at most one string", "[copy][gssm]") {
  for (std::uint64_t index = 0; index < gssm_count(2, 1); ++index) {
    const Gssm g = gssm_at(index, 2, 1);
    int copied = 0;
    for (std::uint64_t i = 0; i < 8; ++i) copied += g.generate(string_at(i, 2, 3)) == string_at(i, 2, 3);
    CHECK(copied <= 1);
  }
}

TEST_CASE("the store-first-strings model of Lemma D.1's form copies exactly min(S, D^L) strings", "[copy][gssm]") {
  for (std::uint64_t states : {1u, 2u, 5u, 8u, 20u}) {
    const StoreFirstStringsModel model{2, 3, states};
    std::uint64_t copied = 0;
    for (std::uint64_t i = 0; i < 8; ++i) copied += model.generate(i) == string_at(i, 2, 3);
    CHECK(copied == std::min<std::uint64_t>(states, 8));
  }
}
