#include "constructions/copy/strings.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <unordered_map>

namespace tverify::copy {

void string_at(std::uint64_t index, int alphabet, int length, TokenString& into) {
  into.resize(static_cast<std::size_t>(length));
  for (int pos = length - 1; pos >= 0; --pos) {
    into[static_cast<std::size_t>(pos)] = static_cast<Token>(index % static_cast<std::uint64_t>(alphabet));
    index /= static_cast<std::uint64_t>(alphabet);
  }
}

TokenString string_at(std::uint64_t index, int alphabet, int length) {
  TokenString x;
  string_at(index, alphabet, length, x);
  return x;
}

std::string describe(NgramReading r) {
  return r == NgramReading::Text ? "text reading: n-grams are n tokens" : "formula reading: x_i..x_{i+n}, n+1 tokens";
}

int window_length(NgramReading reading, int n) { return reading == NgramReading::Text ? n : n + 1; }

// Hashes every window and compares windows with equal hashes token by token: O(L) expected, exact.
bool has_repeated_window(const TokenString& x, int w) {
  if (w == 0) return !x.empty();  // the empty window repeats in any non-empty string
  if (static_cast<long>(x.size()) < w) return false;
  std::unordered_multimap<std::uint64_t, std::size_t> seen;
  seen.reserve(x.size());
  for (std::size_t i = 0; i + static_cast<std::size_t>(w) <= x.size(); ++i) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the window's tokens
    for (int k = 0; k < w; ++k)
      h = (h ^ static_cast<std::uint64_t>(x[i + static_cast<std::size_t>(k)])) * 1099511628211ull;
    const auto [first, last] = seen.equal_range(h);
    for (auto it = first; it != last; ++it)
      if (std::equal(x.begin() + static_cast<long>(it->second), x.begin() + static_cast<long>(it->second) + w,
                     x.begin() + static_cast<long>(i)))
        return true;
    seen.emplace(h, i);
  }
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

TokenString de_bruijn(int k, int n) {
  TokenString sequence, a(static_cast<std::size_t>(k * n + 1), 0);
  auto db = [&](auto&& self, int t, int p) -> void {
    if (t > n) {
      if (n % p == 0) sequence.insert(sequence.end(), a.begin() + 1, a.begin() + p + 1);
      return;
    }
    a[static_cast<std::size_t>(t)] = a[static_cast<std::size_t>(t - p)];
    self(self, t + 1, p);
    for (int j = a[static_cast<std::size_t>(t - p)] + 1; j < k; ++j) {
      a[static_cast<std::size_t>(t)] = j;
      self(self, t + 1, t);
    }
  };
  db(db, 1, 1);
  return sequence;
}

TokenString repeat_free_string(int alphabet, int n, std::size_t length, std::uint64_t seed) {
  const TokenString cycle = de_bruijn(alphabet, n);
  if (length > cycle.size()) throw std::invalid_argument("repeat_free_string: length above D^n");
  std::mt19937_64 rng(seed);
  std::vector<int> relabel(static_cast<std::size_t>(alphabet));
  std::iota(relabel.begin(), relabel.end(), 0);
  std::shuffle(relabel.begin(), relabel.end(), rng);
  const std::size_t start = std::uniform_int_distribution<std::size_t>(0, cycle.size() - 1)(rng);
  TokenString x;
  for (std::size_t i = 0; i < length; ++i)
    x.push_back(relabel[static_cast<std::size_t>(cycle[(start + i) % cycle.size()])]);
  return x;
}

}  // namespace tverify::copy
