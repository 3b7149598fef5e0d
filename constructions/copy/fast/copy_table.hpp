// The fast copy path's table (private to constructions/copy/fast): layer 1 of one copy sequence in integers, built
// incrementally and shared read-only by the workers of a parallel copy; and each thread's state for a FastCopy.
#pragma once

#include "constructions/copy/fast/copy_fast.hpp"
#include "constructions/copy/fast/ngram_index.hpp"
#include "constructions/copy/fast/simd_kernels.hpp"
#include "core/large_buffer.hpp"
#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

namespace tverify::copy::fast {

using copy::Token;
using copy::TokenString;

// sum += times x row, over padded rows.
inline void add_row(std::int64_t* sum, const std::int64_t* row, std::size_t stride, std::int64_t times = 1) {
  for (std::size_t c = 0; c < stride; c += 4)
    for (std::size_t i = 0; i < 4; ++i) sum[c + i] += times * row[c + i];
}

struct FastCopy::ThreadState {
  std::optional<WindowCache> rows;
  Scratch scratch;
  std::unique_ptr<Table> table;  // reused string after string (built on first use)
};

// Layer 1 of one copy sequence: key columns (column-major, int32), sparse queries, value . Psi rows, and the range of
// each token's value over the sequence. A key column is filled only when some query uses it (fill_columns): the
// queries touch few of the key coordinates.
struct FastCopy::Table {
  TokenString sequence;
  std::size_t length = 0, tokens = 0, stride = 0, key_dim = 0, built = 0;
  // key_dim x length, column c at c * length; not zeroed: a column is written (fill_columns) before it is read, and
  // the pages of columns no query reads are never touched
  LargeBuffer<std::int32_t> keys;
  std::size_t keys_size = 0;
  std::vector<std::size_t> filled;  // column c holds positions 0..filled[c] - 1
  // layer 1's key at each built position (into the cache or owned_keys); nullptr at an interior window when the
  // table holds layer 1 itself and keys decompose (InteriorKeys): key_at() computes its coordinates instead
  std::vector<const std::int32_t*> key_rows;
  std::vector<QueryView> queries;  // by position: into the cache's rows or query_store
  // Without a cache, the table holds layer 1 itself: the keys of the windows that are not interior when keys
  // decompose, else all (length x key_dim, row-major; a row is written before it is read; untouched pages stay
  // unmapped), and the queries' entries packed in query_store: the positions computed in order by one thread follow
  // each other, from key_dim x (the first of them) on, which a position's at most key_dim entries keep apart from the
  // next run. The value rows go straight into `values`. A position whose window repeats an earlier one's n + 1 tokens
  // (the copy after <COPY> repeats x) shares that position's key and query and copies its values: layer 1 at a full
  // window reads those tokens only.
  LargeBuffer<std::int32_t> owned_keys;
  std::size_t owned_keys_size = 0;
  LargeBuffer<QueryEntry> query_store;
  std::size_t query_store_size = 0;
  // length x stride: value . Psi per position (padded rows), written by record() before it is read
  LargeBuffer<std::int64_t> values;
  std::size_t values_size = 0;
  // token x's value range over the built positions, and an undo log of its changes (position, coordinate, the range
  // before): reset() rolls it back to the kept prefix
  std::vector<std::int64_t> range_min, range_max;
  struct RangeChange {
    std::uint32_t position, coordinate;
    std::int64_t min, max;
  };
  std::vector<RangeChange> range_changes;
  std::vector<std::uint32_t> windows;  // with a cache: each position's window (its index in the cache)
  // with a score memo: how many of the positions built so far have each window (stage 0)
  std::vector<std::uint32_t> window_count;
  // with an interior decomposition (the index stage): the built interior keys by n-gram, and the other built positions
  // (windows with <BOS> or <COPY>, or short), in increasing order. A table that counts windows (whose steps read the
  // counts) builds them only when it is shared; `indexed` says whether they hold every built position.
  NgramIndex interior;
  std::vector<std::uint32_t> special;
  bool indexed = false;

  Table(const FastCopy& fast, WindowCache* cache)
      : fast_(fast), cache_(cache), span_(static_cast<std::size_t>(fast.transformer_.config().n) + 1) {
    tokens = fast.layer1_.tokens();
    stride = row_stride(tokens);
    key_dim = fast.layer1_.key_dim();
    if (cache_ && cache_->counts_keys()) window_count.assign(cache_->rows.size(), 0);
    if (const auto& keys = fast.interior_) interior.reset(keys->ngrams());
    always_indexed_ = fast.interior_ && window_count.empty();
    indexed = always_indexed_;
  }

  // Moves to the copy sequence of x, keeping the buffers (a thread evaluates many strings with one table; every entry
  // read at query p is written by extend_to(p) first). Layer 1 is causal, so the positions of the longest common
  // prefix with the previous sequence (of the same length) are kept: consecutive strings of an exhaustive domain
  // share most of their prefix.
  void reset(const TokenString& x) {
    fast_.transformer_.copy_sequence(x, x.size(), next_);
    std::size_t common = 0;
    if (next_.size() == length)
      while (common < built && next_[common] == sequence[common]) ++common;
    if (!window_count.empty())
      for (std::size_t j = common; j < built; ++j) --window_count[windows[j]];
    if (indexed)
      for (std::size_t j = built; j-- > (always_indexed_ ? common : 0);) unindex(j);
    indexed = always_indexed_;
    for (; !range_changes.empty() && range_changes.back().position >= common; range_changes.pop_back()) {
      const RangeChange& undo = range_changes.back();
      range_min[undo.coordinate] = undo.min;
      range_max[undo.coordinate] = undo.max;
    }
    sequence.swap(next_);
    length = sequence.size();
    repeat_offset_ = x.size() + 1;
    built = common;
    shared_ = false;
    columns_complete_ = false;
    if (common == 0) {
      if (key_dim * length > keys_size) {
        keys = large_buffer<std::int32_t>(key_dim * length);
        keys_size = key_dim * length;
      }
      filled.assign(key_dim, 0);
      key_rows.resize(length);
      queries.resize(length);
      if (length * stride > values_size) {
        values = large_buffer<std::int64_t>(length * stride);
        values_size = length * stride;
      }
      range_min.resize(stride);
      range_max.resize(stride);
      if (cache_) windows.resize(length);
    }
    for (auto& f : filled) f = std::min(f, common);
    // queries point into query_store: it grows only when the table starts over (common = 0)
    if (!cache_ && key_dim * length > query_store_size) {
      query_store = large_buffer<QueryEntry>(key_dim * length);
      query_store_size = key_dim * length;
    }
    if (!cache_) query_cursor_ = query_store.get() + common * key_dim;  // past the kept positions' entries
    if (!cache_ && key_dim * length > owned_keys_size) {
      owned_keys = large_buffer<std::int32_t>(key_dim * length, !fast_.interior_);
      owned_keys_size = key_dim * length;
    }
  }
  // Builds layer 1 at every position for `threads` threads that read the table concurrently, with the window counts
  // (which would count every position, not a step's keys) switched off. Without a window cache the rows of the new
  // positions before the first that can repeat a window (same_window) are computed in parallel (each reads its own
  // window only), then recorded in order; the rest are added in order. The key columns are filled by the first step
  // that scans its keys (prepare_scan).
  void share(unsigned threads) {
    const std::size_t first = built, end = std::min(length, std::max(first, repeat_offset_ + span_));
    if (!cache_ && threads > 1 && first < end) {
      run_workers(threads, [&](unsigned w) {
        IntegerRow scratch;
        const std::size_t begin = first + (end - first) * w / threads;
        QueryEntry* cursor = query_store.get() + begin * key_dim;
        for (std::size_t p = begin; p < first + (end - first) * (w + 1) / threads; ++p)
          compute_owned(p, scratch, cursor);
      });
      for (; built < end; ++built) record_owned(built);
      query_cursor_ = query_store.get() + end * key_dim;
    }
    extend_to(length - 1);
    if (fast_.interior_ && !indexed) {
      for (std::size_t p = 0; p < built; ++p) index(p);
      indexed = true;
    }
    shared_ = true;
  }
  // Fills what a step that scores every key reads: the columns query p uses up to p, or, once the table is shared,
  // every column (by the first worker that needs them; the others wait).
  void prepare_scan(std::size_t p) {
    if (!shared_) return fill_columns(p);
    if (columns_complete_.load(std::memory_order_acquire)) return;
    const std::lock_guard lock(columns_mutex_);
    if (columns_complete_.load(std::memory_order_relaxed)) return;
    fill_columns(length - 1, true);
    columns_complete_.store(true, std::memory_order_release);
  }
  // Token x's smallest and largest value over the positions built so far.
  std::int64_t value_min(std::size_t x) const { return range_min[x]; }
  std::int64_t value_max(std::size_t x) const { return range_max[x]; }
  const std::int64_t* value_row(std::size_t j) const { return values.get() + j * stride; }

  // Layer 1 at every position up to p (positions are built once, in order; a step at query p needs keys 0..p).
  void extend_to(std::size_t p) {
    for (; built <= p && built < length; ++built) add(built);
  }
  const std::int32_t* key_column(std::size_t c) const { return keys.get() + c * length; }
  // The cache whose window levels stages 0 and 1 read against window_count, when window_count holds exactly the keys
  // of query p (positions 0..p built, the table not shared); else nullptr (the step adds key columns).
  WindowCache* counted_cache(std::size_t p) const {
    return !window_count.empty() && !shared_ && built == p + 1 ? cache_ : nullptr;
  }
  // The number of built positions whose window is in level l of `levels`.
  std::size_t keys_at(const WindowLevels& levels, std::size_t l) const {
    std::size_t keys = 0;
    for (std::size_t i = levels.begin(l); i < levels.end[l]; ++i) keys += window_count[levels.windows[i]];
    return keys;
  }
  // sum += the value rows of those positions (padded rows): count x each window's values.
  void add_values_at(const WindowLevels& levels, std::size_t l, std::int64_t* sum) const {
    for (std::size_t i = levels.begin(l); i < levels.end[l]; ++i)
      if (const std::int64_t keys = window_count[levels.windows[i]])
        add_row(sum, cache_->values.data() + levels.windows[i] * stride, stride, keys);
  }
  // Key coordinate c at built position j (32 bits: IntegerLayer1::refusal bounds every key).
  std::int32_t key_at(std::size_t j, std::size_t c) const {
    if (key_rows[j]) return key_rows[j][c];
    return static_cast<std::int32_t>(fast_.interior_->key(c, sequence, j));
  }
  // Fills the key columns query p uses up to position p (built), or with every = true all columns up to `built`
  // (before threads read the table concurrently).
  void fill_columns(std::size_t p, bool every = false) {
    auto fill = [&](std::size_t c) {
      std::int32_t* column = keys.get() + c * length;
      for (std::size_t j = filled[c]; j < built; ++j) column[j] = key_at(j, c);
      filled[c] = built;
    };
    if (every)
      for (std::size_t c = 0; c < key_dim; ++c) fill(c);
    else
      for (const QueryEntry& entry : queries[p]) fill(entry.coordinate);
  }

 private:
  void add(std::size_t p) {
    if (cache_) {
      const std::size_t count = std::min(span_, p + 1);
      std::size_t code = 0;
      if (p >= span_) {  // both full windows: drop the oldest token of the previous window, append the new one
        code = (windows[p - 1] - cache_->offset[span_]) % cache_->oldest_place * cache_->radix +
               static_cast<std::size_t>(sequence[p]);
      } else {
        for (std::size_t j = p + 1 - count; j <= p; ++j)
          code = code * cache_->radix + static_cast<std::size_t>(sequence[j]);
      }
      windows[p] = static_cast<std::uint32_t>(cache_->offset[count] + code);
      if (!window_count.empty() && window_count[windows[p]]++ == 0) cache_->meet(windows[p]);
      const auto& slot = cache_->rows[windows[p]];
      const WindowRow& row =
          slot ? *slot : cache_->store(windows[p], compute_window_row(fast_.layer1_, sequence, p, scratch_));
      record(p, row.key.data(), row.query, row.values.data());
    } else if (const auto j = same_window(p)) {
      std::copy_n(value_row(*j), stride, values.get() + p * stride);
      record(p, key_rows[*j], queries[*j], values.get() + p * stride);
    } else {
      compute_owned(p, scratch_, query_cursor_);
      record_owned(p);
    }
  }
  // The earlier position whose window holds the same n + 1 tokens as position p's, or nullopt. Both windows are full
  // (p - repeat_offset_ > n: the earlier window starts after <BOS>, the later after <COPY>), so layer 1 is the same
  // at both.
  std::optional<std::size_t> same_window(std::size_t p) const {
    if (p < repeat_offset_ + span_) return std::nullopt;
    const std::size_t j = p - repeat_offset_;
    for (std::size_t i = 0; i < span_; ++i)
      if (sequence[p - i] != sequence[j - i]) return std::nullopt;
    return j;
  }
  // Layer 1 at position p into the table's own storage, its query's entries at `cursor`, which moves past them
  // (workers may fill positions at once: each its own slots, and each its own run of query_store).
  void compute_owned(std::size_t p, IntegerRow& scratch, QueryEntry*& cursor) {
    const QueryView query =
        compute_window_row(fast_.layer1_, sequence, p, scratch, owned_key(p), values.get() + p * stride);
    QueryEntry* at = cursor;
    cursor = std::copy(query.begin(), query.end(), at);
    queries[p] = {at, static_cast<std::size_t>(cursor - at)};
  }
  void record_owned(std::size_t p) { record(p, owned_key(p), queries[p], values.get() + p * stride); }
  // Where the table keeps position p's key, or nullptr when it does not (an interior window whose key decomposes).
  std::int32_t* owned_key(std::size_t p) {
    const auto& keys = fast_.interior_;
    if (keys && interior_window(sequence, p, keys->n(), keys->alphabet())) return nullptr;
    return owned_keys.get() + p * key_dim;
  }
  // Records position p's layer-1 row: its key, query and values (`v`, perhaps already in place in `values`), the
  // running value ranges and the index.
  void record(std::size_t p, const std::int32_t* key, QueryView query, const std::int64_t* v) {
    key_rows[p] = key;
    queries[p] = query;
    if (indexed) index(p);
    std::int64_t* at = values.get() + p * stride;
    if (at != v) std::copy_n(v, stride, at);
    if (p == 0) {
      std::copy_n(v, stride, range_min.data());
      std::copy_n(v, stride, range_max.data());
      return;
    }
    for (std::size_t c = 0; c < stride; ++c)
      if (v[c] < range_min[c] || v[c] > range_max[c]) {
        range_changes.push_back(
            {static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(c), range_min[c], range_max[c]});
        range_min[c] = std::min(range_min[c], v[c]);
        range_max[c] = std::max(range_max[c], v[c]);
      }
  }

  // The n-gram code of position p's key when its window is interior, else nullopt (a special position).
  std::optional<std::uint64_t> interior_code(std::size_t p) const {
    const auto& keys = *fast_.interior_;
    if (!interior_window(sequence, p, keys.n(), keys.alphabet())) return std::nullopt;
    return interior_ngram(sequence, p, keys.n(), keys.alphabet());
  }
  // Adds position p (the next in order) to the index.
  void index(std::size_t p) {
    if (const auto code = interior_code(p))
      interior.push(static_cast<std::uint32_t>(p), *code);
    else
      special.push_back(static_cast<std::uint32_t>(p));
  }
  // Drops position j (the last indexed) from the index (before the sequence moves on).
  void unindex(std::size_t j) {
    if (const auto code = interior_code(j))
      interior.pop(static_cast<std::uint32_t>(j), *code);
    else
      special.pop_back();
  }

  const FastCopy& fast_;
  WindowCache* cache_;
  std::size_t span_;
  std::size_t repeat_offset_ = 0;       // x.size() + 1: the copy's position p repeats the window of p - repeat_offset_
  QueryEntry* query_cursor_ = nullptr;  // where the next query computed in order goes in query_store
  bool shared_ = false;
  bool always_indexed_ = false;                // the index follows every position built (no window counts)
  std::atomic<bool> columns_complete_{false};  // shared: every key column filled
  std::mutex columns_mutex_;
  IntegerRow scratch_;
  TokenString next_;  // the next copy sequence, built in a reused buffer
};

}  // namespace tverify::copy::fast
