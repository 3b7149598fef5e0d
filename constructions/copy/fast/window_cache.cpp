#include "constructions/copy/fast/window_cache.hpp"

#include <algorithm>
#include <numeric>

namespace tverify::copy::fast {

using copy::Token;
using copy::TokenString;

QueryView compute_window_row(const IntegerLayer1& layer1, const TokenString& sequence, std::size_t p,
                             IntegerRow& scratch, std::int32_t* key, std::int64_t* values) {
  layer1.outputs(sequence, p, scratch);
  // each entry of a key or query fits 32 bits (IntegerLayer1::refusal)
  const std::size_t key_dim = layer1.key_dim();
  if (key)
    std::transform(layer1.key_in(scratch), layer1.key_in(scratch) + key_dim, key,
                   [](std::int64_t k) { return static_cast<std::int32_t>(k); });
  // the non-zero entries, gathered without a branch per coordinate
  const std::int64_t* q = layer1.query_in(scratch);
  std::vector<QueryEntry>& entries = scratch.query_entries;
  entries.resize(key_dim);
  std::size_t nonzero = 0;
  for (std::size_t c = 0; c < key_dim; ++c) {
    entries[nonzero] = {static_cast<std::uint32_t>(c), static_cast<std::int32_t>(q[c])};
    nonzero += q[c] != 0;
  }
  const std::size_t tokens = scratch.value_dot_psi.size();
  std::copy(scratch.value_dot_psi.begin(), scratch.value_dot_psi.end(), values);
  std::fill(values + tokens, values + row_stride(tokens), 0);
  return {entries.data(), nonzero};
}

WindowRow compute_window_row(const IntegerLayer1& layer1, const TokenString& sequence, std::size_t p,
                             IntegerRow& scratch) {
  WindowRow row;
  row.key.resize(layer1.key_dim());
  row.values.resize(row_stride(layer1.tokens()));
  const QueryView query = compute_window_row(layer1, sequence, p, scratch, row.key.data(), row.values.data());
  row.query.assign(query.begin(), query.end());
  return row;
}

std::optional<WindowCache> WindowCache::make(const IntegerLayer1& layer1, int n) {
  const std::size_t radix = layer1.tokens(), span = static_cast<std::size_t>(n) + 1;
  WindowCache cache;
  cache.layer1 = &layer1;
  cache.radix = radix;
  std::size_t total = 0, power = 1;
  cache.offset.push_back(0);
  for (std::size_t c = 1; c <= span; ++c) {
    power *= radix;
    cache.offset.push_back(total);
    total += power;
    if (total > (1u << 16)) return std::nullopt;
  }
  cache.oldest_place = power / radix;
  cache.rows.resize(total);
  if (total <= 2048) {
    cache.scores.resize(total * total);
    cache.levels.resize(total);
    cache.met.resize(total);
    cache.stride = row_stride(radix);
    cache.values.resize(total * cache.stride);
  }
  return cache;
}

const WindowRow& WindowCache::store(std::uint32_t window, WindowRow row) {
  if (!values.empty()) std::copy(row.values.begin(), row.values.end(), values.begin() + window * stride);
  return *(rows[window] = std::move(row));
}

// Layer 1 reads the last n + 1 tokens only, so a window of c tokens is layer 1 at the last position of those c tokens
// (a window shorter than n + 1 is the start of a sequence).
const WindowRow& WindowCache::row(std::uint32_t window, IntegerRow& scratch) {
  auto& slot = rows[window];
  if (slot) return *slot;
  std::size_t c = offset.size() - 1;
  while (offset[c] > window) --c;
  TokenString tokens(c);
  for (std::size_t code = window - offset[c], i = c; i-- > 0; code /= radix)
    tokens[i] = static_cast<Token>(code % radix);
  return store(window, compute_window_row(*layer1, tokens, c - 1, scratch));
}

namespace {
// z = T^key . T^query in integers: the query's non-zero entries against a key row.
std::int32_t score_of(QueryView query, const std::int32_t* key) {
  std::int32_t z = 0;
  for (const auto& [c, w] : query) z += w * key[c];
  return z;
}
}  // namespace

// The first call completes the query window's row of the score memo over every window of the domain and orders the
// windows by score; later calls refilter that order by the met windows when more have been met.
const WindowLevels& WindowCache::levels_of(std::uint32_t query_window, IntegerRow& scratch) {
  WindowLevels& of = levels[query_window];
  if (of.epoch == met_epoch) return of;
  const std::uint32_t windows = static_cast<std::uint32_t>(rows.size());
  std::int32_t* memo = scores.data() + query_window * windows;
  if (of.by_score.empty()) {
    const auto& query = row(query_window, scratch).query;
    for (std::uint32_t w = 0; w < windows; ++w) memo[w] = score_of(query, row(w, scratch).key.data());
    of.by_score.resize(windows);
    std::iota(of.by_score.begin(), of.by_score.end(), 0u);
    std::stable_sort(of.by_score.begin(), of.by_score.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return memo[a] > memo[b]; });
  }
  of.score.clear();
  of.end.clear();
  of.windows.clear();
  for (const std::uint32_t w : of.by_score) {
    if (!met[w]) continue;
    if (of.score.empty() || of.score.back() != memo[w]) {
      if (!of.score.empty()) of.end.push_back(static_cast<std::uint32_t>(of.windows.size()));
      of.score.push_back(memo[w]);
    }
    of.windows.push_back(w);
  }
  if (!of.score.empty()) of.end.push_back(static_cast<std::uint32_t>(of.windows.size()));
  of.epoch = met_epoch;
  return of;
}

}  // namespace tverify::copy::fast
