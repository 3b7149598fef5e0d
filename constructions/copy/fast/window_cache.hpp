// The fast copy path's per-thread memo of layer 1 by window. Layer 1 of the copy transformer reads the last
// n + 1 tokens only (integer_layer1.hpp), so its outputs at a position depend on that window alone: in small domains
// (at most 2^16 windows of up to n + 1 tokens, the exhaustive ones) each window's row is computed once, exactly, from
// the literal weights. With at most 2048 windows the scores are memoised too, by (query window, key window), and each
// query window's key windows are grouped into score levels, which the fast path reads against its per-window key
// counts instead of scoring every key (copy_fast.hpp, stage 0).
#pragma once

#include "constructions/copy/fast/integer_layer1.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <span>
#include <vector>

namespace tverify::copy::fast {

// Value rows (one entry per token) are padded with zeros to a multiple of 4 entries, so that the loops over a row have
// a fixed-width body the compiler unrolls and vectorises (a row has only D + 2 or so entries).
constexpr std::size_t row_stride(std::size_t tokens) { return (tokens + 3) / 4 * 4; }

// A query's non-zero entries.
using QueryView = std::span<const QueryEntry>;

// Layer 1 at one position, as the fast path stores it: the key row, the query's non-zero entries, value . Psi (padded).
struct WindowRow {
  std::vector<std::int32_t> key;
  std::vector<QueryEntry> query;
  std::vector<std::int64_t> values;
};
WindowRow compute_window_row(const IntegerLayer1& layer1, const copy::TokenString& sequence, std::size_t p,
                             IntegerRow& scratch);
// The same into caller's storage: `key` (key_dim entries; nullptr: not stored) and `values` (a padded row); returns
// the query's non-zero entries, in `scratch` (valid until its next use).
QueryView compute_window_row(const IntegerLayer1& layer1, const copy::TokenString& sequence, std::size_t p,
                             IntegerRow& scratch, std::int32_t* key, std::int64_t* values);

// Against one query window, the key windows the thread has met (WindowCache::met) in decreasing order of score, grouped
// by score: level l holds windows[end[l - 1]] .. windows[end[l] - 1] (end[-1] = 0), all scoring score[l]. Every key of
// a table is a met window, so these levels bound the table's. `by_score` holds every window of the domain in that
// order (computed once); the levels are refiltered from it when windows were met since (epoch).
struct WindowLevels {
  std::vector<std::uint32_t> by_score;
  std::size_t epoch = 0;  // WindowCache::met_epoch when the levels were filtered; 0: never
  std::vector<std::int32_t> score;
  std::vector<std::uint32_t> end;
  std::vector<std::uint32_t> windows;

  std::size_t begin(std::size_t l) const { return l == 0 ? 0 : end[l - 1]; }  // level l's first index in windows
};

// Windows are indexed by length, then as base-`radix` numbers (oldest token most significant).
struct WindowCache {
  // nullopt past 2^16 windows; scores, levels and contiguous values only up to 2048 windows.
  static std::optional<WindowCache> make(const IntegerLayer1& layer1, int n);

  const IntegerLayer1* layer1 = nullptr;
  std::vector<std::optional<WindowRow>> rows;
  std::vector<std::size_t> offset;  // first index of the windows with c tokens
  std::size_t radix = 0;
  std::size_t oldest_place = 1;      // radix^n: the place value of a full window's oldest token
  std::vector<std::int32_t> scores;  // windows x windows (query-major), a row filled by levels_of; empty past 2048
  std::vector<WindowLevels> levels;  // by query window, with the scores; computed on first use (levels_of)
  std::vector<char> met;             // with the scores: whether a table of this thread has had the window
  std::size_t met_epoch = 1;         // the number of windows met, plus 1
  std::vector<std::int64_t> values;  // with the scores: windows x stride, each stored row's values (read by stage 0)
  std::size_t stride = 0;

  // Whether the scores (and so the levels and the key counts that read them) are kept.
  bool counts_keys() const { return !levels.empty(); }
  const WindowRow& store(std::uint32_t window, WindowRow row);
  // Records that a table of this thread has had the window (the levels are refiltered on their next use).
  void meet(std::uint32_t window) {
    if (!met[window]) met[window] = true, ++met_epoch;
  }
  // The row of a window, computed from the window's own tokens when no sequence has met it yet.
  const WindowRow& row(std::uint32_t window, IntegerRow& scratch);
  // The levels of the met windows against a query window (WindowLevels).
  const WindowLevels& levels_of(std::uint32_t query_window, IntegerRow& scratch);
};

}  // namespace tverify::copy::fast
