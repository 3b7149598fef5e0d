#include "constructions/cat/fast/cat_fast.hpp"

#include <algorithm>
#include <map>

namespace tverify::cat::fast {

using cat::ExactVector;
using cat::RunSequence;
using cat::Tokens;

std::optional<std::uint64_t> nar_match_runs(const RunSequence& z, int n) {
  const auto width = static_cast<std::uint64_t>(n);
  if (z.size() < width + 1) return std::nullopt;
  Tokens query;
  for (std::uint64_t j = 0; j < width; ++j) query.push_back(z.at(static_cast<std::int64_t>(z.size() - width + j)));
  std::uint64_t occurrences = 0, end = 0;
  // windows z_{i-n+1..i} for n-1 <= i <= L-2
  z.for_each_window_span(width - 1, 0, width - 1, z.size() - 2,
                         [&](std::uint64_t first, std::uint64_t count, const Tokens& window) {
                           if (window != query) return;
                           occurrences += count;
                           end = first;
                         });
  return occurrences == 1 ? std::optional<std::uint64_t>(end) : std::nullopt;
}

namespace {

// sum_i F_i e(token_i) over the tokens given newest first (-1: before the sequence, a zero row).
ExactVector convolved_row(const cat::CatConfig& config, const std::vector<int>& newest_first) {
  std::vector<const ExactVector*> rows(newest_first.size(), nullptr);
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (newest_first[i] >= 0) rows[i] = &config.embedding.vectors[static_cast<std::size_t>(newest_first[i])];
  return cat::filtered_row(config.filter, rows, config.embedding.dim());
}

}  // namespace

cat::Decoded decode_last_fast(const cat::CatConfig& config, const RunSequence& z) {
  const std::size_t w = config.filter.size();
  const std::uint64_t t = z.size() - 1;
  std::vector<int> newest_first(w);
  for (std::size_t i = 0; i < w; ++i)
    newest_first[i] = z.at(static_cast<std::int64_t>(t) - static_cast<std::int64_t>(i));
  const ExactVector query = convolved_row(config, newest_first);

  // Group the keys s = 0..t by their W + 1 tokens: window[W - 1 - i] is the key's token i (newest first) and
  // window[W] the value's token, for both delays (see the header).
  const bool key_delay = config.delay == cat::Delay::Key;
  std::map<Tokens, BigInt> groups;
  z.for_each_window_span(key_delay ? w : w - 1, key_delay ? 0 : 1, 0, t,
                         [&](std::uint64_t, std::uint64_t count, const Tokens& window) { groups[window] += count; });

  cat::AttentionLevels levels(cat::dot(query, query), config.embedding.dim());
  const ExactVector zero(config.embedding.dim(), Exact(0));
  for (const auto& [window, count] : groups) {
    for (std::size_t i = 0; i < w; ++i) newest_first[i] = window[w - 1 - i];
    // full windows (errata C1): keys whose window reaches before the first token are masked
    if (config.full_windows && std::find(newest_first.begin(), newest_first.end(), -1) != newest_first.end()) continue;
    const ExactVector key = convolved_row(config, newest_first);
    const int value = window[w];  // -1: past the last token (value delay), a zero value
    levels.add(cat::dot(query, key), cat::dot(key, key), count,
               value < 0 ? zero : config.embedding.vectors[static_cast<std::size_t>(value)]);
  }
  return cat::decide_levels(levels, config.embedding, config.c_squared);
}

}  // namespace tverify::cat::fast
