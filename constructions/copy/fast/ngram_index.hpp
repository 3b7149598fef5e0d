// The positions of a copy sequence's interior keys by n-gram (interior_keys.hpp's code), so that a step finds the keys
// of its query's n-gram in O(1) expected time. Positions are added in increasing order and dropped from the last.
#pragma once

#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace tverify::copy::fast {

class NgramIndex {
 public:
  static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

  // Empties the index for n-gram codes below `ngrams` (a flat table up to 2^22 codes, a hash map beyond).
  void reset(std::uint64_t ngrams) {
    flat_ = ngrams <= (std::uint64_t{1} << 22);
    if (flat_) {
      latest_flat_.assign(ngrams, none);
    } else {
      latest_map_.clear();
    }
    previous_.clear();
  }
  void push(std::uint32_t position, std::uint64_t code) {
    if (previous_.size() <= position) previous_.resize(std::size_t{position} + 1, none);
    std::uint32_t& latest = slot(code);
    previous_[position] = latest;
    latest = position;
  }
  // Drops `position`, which must be the latest pushed with its code.
  void pop(std::uint32_t position, std::uint64_t code) { slot(code) = previous_[position]; }
  // Calls visit(position) for the positions with this code, latest first, while visit returns true.
  template <class Visit>
  void for_each(std::uint64_t code, Visit visit) const {
    std::uint32_t at = latest(code);
    while (at != none && visit(at)) at = previous_[at];
  }

 private:
  std::uint32_t& slot(std::uint64_t code) {
    return flat_ ? latest_flat_[code] : latest_map_.try_emplace(code, none).first->second;
  }
  std::uint32_t latest(std::uint64_t code) const {
    if (flat_) return latest_flat_[code];
    const auto found = latest_map_.find(code);
    return found == latest_map_.end() ? none : found->second;
  }

  bool flat_ = true;
  std::vector<std::uint32_t> latest_flat_;
  std::unordered_map<std::uint64_t, std::uint32_t> latest_map_;
  std::vector<std::uint32_t> previous_;  // by position: the previous position with the same code
};

}  // namespace tverify::copy::fast
