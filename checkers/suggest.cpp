#include "checkers/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace tverify {

namespace {

std::string lowered(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Levenshtein distance by the two-row dynamic programme.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(previous, current);
  }
  return previous[b.size()];
}

}  // namespace

std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& candidates) {
  for (const auto& c : candidates)
    if (c != word && lowered(c) == lowered(word)) return c;
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  bool tied = false;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(lowered(word), lowered(c));
    if (d < best_distance)
      best = c, best_distance = d, tied = false;
    else if (d == best_distance && best && c != *best)
      tied = true;
  }
  if (tied || best_distance == 0) return std::nullopt;
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const auto best = closest_word(word, candidates);
  return best ? "; did you mean " + *best + "?" : "";
}

}  // namespace tverify
