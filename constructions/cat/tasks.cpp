#include "constructions/cat/tasks.hpp"

namespace tverify::cat {

bool same_window(const Tokens& z, std::size_t a, std::size_t b, int n) {
  for (int j = 0; j < n; ++j)
    if (z[a - static_cast<std::size_t>(j)] != z[b - static_cast<std::size_t>(j)]) return false;
  return true;
}

namespace {

// Earlier occurrences of window(t): end indices i in [n-1, t-1]; stops counting at two.
std::optional<std::size_t> unique_earlier(const Tokens& z, std::size_t t, int n, bool& several) {
  std::optional<std::size_t> found;
  several = false;
  for (std::size_t i = static_cast<std::size_t>(n - 1); i < t; ++i) {
    if (!same_window(z, i, t, n)) continue;
    if (found) {
      several = true;
      return std::nullopt;
    }
    found = i;
  }
  return found;
}

}  // namespace

std::optional<std::size_t> nar_match(const Tokens& z, int n) {
  if (z.size() < static_cast<std::size_t>(n) + 1) return std::nullopt;
  bool several = false;
  return unique_earlier(z, z.size() - 1, n, several);
}

std::optional<std::vector<MultiQuery>> mqnar_queries(const Tokens& z, int n) {
  std::vector<MultiQuery> out;
  for (std::size_t t = static_cast<std::size_t>(n - 1); t < z.size(); ++t) {
    bool several = false;
    const auto match = unique_earlier(z, t, n, several);
    if (several) return std::nullopt;
    out.push_back({t, match});
  }
  return out;
}

}  // namespace tverify::cat
