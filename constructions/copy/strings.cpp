#include "constructions/copy/strings.hpp"

#include <algorithm>

namespace tverify::copy {

TokenString string_at(std::uint64_t index, int alphabet, int length) {
  TokenString x(static_cast<std::size_t>(length));
  for (int pos = length - 1; pos >= 0; --pos) {
    x[static_cast<std::size_t>(pos)] = static_cast<Token>(index % static_cast<std::uint64_t>(alphabet));
    index /= static_cast<std::uint64_t>(alphabet);
  }
  return x;
}

std::string describe(NgramReading r) {
  return r == NgramReading::Text ? "text reading: n-grams are n tokens"
                                 : "formula reading: x_i..x_{i+n}, n+1 tokens";
}

int window_length(NgramReading reading, int n) { return reading == NgramReading::Text ? n : n + 1; }

bool has_repeated_window(const TokenString& x, int w) {
  const int length = static_cast<int>(x.size());
  for (int i = 0; i + w <= length; ++i)
    for (int j = i + 1; j + w <= length; ++j)
      if (std::equal(x.begin() + i, x.begin() + i + w, x.begin() + j)) return true;
  return false;
}

std::string format_tokens(const TokenString& x) {
  std::string out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i) out += ' ';
    out += std::to_string(x[i]);
  }
  return out;
}

}  // namespace tverify::copy
