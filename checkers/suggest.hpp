// "Did you mean": the known word closest to a misspelt one (an option, a claim id), for usage errors.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tverify {

// The candidate equal to `word` but for case, or else the one at the smallest edit distance (insertions, deletions,
// substitutions) when that distance is at most a third of the word's length (at least 1) and no other candidate is
// as close; nullopt otherwise.
std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& candidates);

// "; did you mean X?" for the closest candidate, or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace tverify
