#include "constructions/copy/gssm.hpp"

#include <algorithm>
#include <stdexcept>

namespace tverify::copy {

TokenString Gssm::generate(const TokenString& x) const {
  int state = step(initial, bos());
  for (Token t : x) state = step(state, t);
  state = step(state, copy_token());
  TokenString y;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const Token out = readout[static_cast<std::size_t>(state)];
    y.push_back(out);
    state = step(state, out);
  }
  return y;
}

Gssm constant_string_gssm(int alphabet, int states) {
  if (states < 1 || states > alphabet) throw std::invalid_argument("constant_string_gssm needs 1 <= S <= D");
  Gssm g;
  g.states = states;
  g.alphabet = alphabet;
  g.update.resize(static_cast<std::size_t>(states * g.tokens()));
  for (int s = 0; s < states; ++s) {
    for (Token a = 0; a < alphabet; ++a) g.update[static_cast<std::size_t>(s * g.tokens() + a)] = a < states ? a : 0;
    g.update[static_cast<std::size_t>(s * g.tokens() + g.bos())] = 0;
    g.update[static_cast<std::size_t>(s * g.tokens() + g.copy_token())] = s;
    g.readout.push_back(s);
  }
  return g;
}

std::uint64_t gssm_count(int alphabet, int states) {
  const auto tokens = static_cast<std::uint64_t>(alphabet + 2);
  const auto s = static_cast<std::uint64_t>(states);
  const std::uint64_t limit = std::uint64_t{1} << 63;
  std::uint64_t count = s;  // initial state
  auto times = [&](std::uint64_t factor, std::uint64_t repeat) {
    for (std::uint64_t k = 0; k < repeat; ++k) {
      if (count > limit / factor) return false;
      count *= factor;
    }
    return true;
  };
  if (!times(s, s * tokens) || !times(tokens, s)) return 0;
  return count;
}

Gssm gssm_at(std::uint64_t index, int alphabet, int states) {
  Gssm g;
  g.states = states;
  g.alphabet = alphabet;
  const auto s = static_cast<std::uint64_t>(states);
  const auto tokens = static_cast<std::uint64_t>(g.tokens());
  g.initial = static_cast<int>(index % s);
  index /= s;
  for (std::uint64_t k = 0; k < s; ++k) {
    g.readout.push_back(static_cast<Token>(index % tokens));
    index /= tokens;
  }
  for (std::uint64_t k = 0; k < s * tokens; ++k) {
    g.update.push_back(static_cast<int>(index % s));
    index /= s;
  }
  return g;
}

std::uint64_t StoreFirstStringsModel::final_state(std::uint64_t string_index) const {
  return std::min(string_index, states - 1);
}

TokenString StoreFirstStringsModel::decode(std::uint64_t state) const { return string_at(state, alphabet, length); }

}  // namespace tverify::copy
