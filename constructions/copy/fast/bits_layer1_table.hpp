// One string's layer 1 at every position, as the copy transformer computes it in MPFR at b bits (SparseMpfrLayer1,
// the same values as FinitePrecisionCopy's layer 1), kept as interned doubles in the compact rows and indexes
// MpfrBitsCopy's steps read: per position the non-zero block entries, keys, queries and readouts T^value . Psi(x);
// per token the positions whose value reaches it; per key coordinate the keys non-zero there.
#pragma once

#include "constructions/copy/transformer.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace tverify::copy::fast {

// Rows of (index, value id) entries, compressed: row i is entries[offsets[i] .. offsets[i + 1]).
struct SparseRows {
  struct Entry {
    std::uint32_t index;  // a coordinate, token or position
    std::uint16_t value;
  };
  std::vector<std::uint32_t> offsets{0};
  std::vector<Entry> entries;
  void close_row() { offsets.push_back(static_cast<std::uint32_t>(entries.size())); }
  std::span<const Entry> row(std::size_t i) const {
    return {entries.data() + offsets[i], entries.data() + offsets[i + 1]};
  }
};

// Interns non-zero doubles: the id of each distinct value.
class ValueTable {
 public:
  std::optional<std::uint16_t> id(double v) {
    if (auto it = ids_.find(v); it != ids_.end()) return it->second;
    if (values_.size() > std::numeric_limits<std::uint16_t>::max()) return std::nullopt;
    ids_.emplace(v, static_cast<std::uint16_t>(values_.size()));
    values_.push_back(v);
    return static_cast<std::uint16_t>(values_.size() - 1);
  }
  const std::vector<double>& values() const { return values_; }

 private:
  std::unordered_map<double, std::uint16_t> ids_;
  std::vector<double> values_;
};

// A string's layer 1 at every position, as FinitePrecisionCopy computes it, in the compact form the steps read.
struct Layer1Table {
  std::size_t dim = 0, key_width = 0, tokens = 0, positions = 0;
  ValueTable entries, readout_values;
  SparseRows blocks, keys, queries, readouts;  // per position: (coordinate or token, value id)
  SparseRows postings;     // per key coordinate c: (position j, value id) with T^key_j[c] != 0, by increasing j
  SparseRows occurrences;  // per token x: (position j, value id) with T^value_j . Psi(x) != 0, by increasing j
  bool emulable = true;    // false: some value leaves [2^-400, 2^400], or too many distinct values
};

// Layer 1 at positions 0..count-1 of `sequence` at `bits` bits, in parallel (one SparseMpfrLayer1 per thread).
Layer1Table layer1_table(const copy::CopyTransformer& transformer, const copy::TokenString& sequence, std::size_t count,
                         int bits, unsigned threads);

}  // namespace tverify::copy::fast
