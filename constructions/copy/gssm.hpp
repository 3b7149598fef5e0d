// Generalized state space models (Repeat After Me, Sec. 2.1): a finite state set S, an update u : S x D -> S, an
// output r : S -> D and an initial state s_0, over the full token set D = alphabet + <BOS> + <COPY>. The model reads
// <BOS>, x_1..x_L, <COPY>; its outputs R_i = r(S_i) are then fed back: y_1 = r(S_{L+2}), S_{L+2+k} = u(S_{L+1+k}, y_k),
// y_{k+1} = r(S_{L+2+k}).
//
// Also the form Lemma D.1 reduces every GSSM to: a map from inputs to a final state s and a decoder G : S -> D^L. The
// proof of Theorem 2.7 bounds that form, so the best model of that form shows whether the proof's bound is tight.
#pragma once

#include "constructions/copy/strings.hpp"

#include <cstdint>
#include <vector>

namespace tverify::copy {

struct Gssm {
  int states = 1;
  int alphabet = 2;            // D; token D is <BOS>, token D + 1 is <COPY>
  std::vector<int> update;     // update[s * (D + 2) + token]
  std::vector<Token> readout;  // readout[s]
  int initial = 0;

  int tokens() const { return alphabet + 2; }
  Token bos() const { return alphabet; }
  Token copy_token() const { return alphabet + 1; }
  int step(int state, Token t) const { return update[static_cast<std::size_t>(state * tokens() + t)]; }

  // y_1..y_L generated after <BOS>, x, <COPY>.
  TokenString generate(const TokenString& x) const;
};

// A GSSM with S <= D states that copies exactly the S constant strings a^L, a < S: reading a token a < S moves to
// state a, any other alphabet token to state 0, <BOS> to state 0, <COPY> keeps the state; r(state a) = a.
Gssm constant_string_gssm(int alphabet, int states);

// The GSSM with the given mixed-radix index among all S^{S(D+2)} (D+2)^S S GSSMs with S states over D + 2 tokens.
Gssm gssm_at(std::uint64_t index, int alphabet, int states);

// The number of GSSMs with S states over D + 2 tokens, or 0 when it exceeds 2^63.
std::uint64_t gssm_count(int alphabet, int states);

// The best model of Lemma D.1's form with S states: the first S - 1 strings of [D]^L (lexicographic) get a state of
// their own, every other string the last state, which decodes to string S - 1. It copies exactly min(S, D^L) strings.
struct StoreFirstStringsModel {
  int alphabet = 2;
  int length = 1;
  std::uint64_t states = 1;

  std::uint64_t final_state(std::uint64_t string_index) const;
  TokenString decode(std::uint64_t state) const;
  TokenString generate(std::uint64_t string_index) const { return decode(final_state(string_index)); }
};

}  // namespace tverify::copy
