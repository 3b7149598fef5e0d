// A box of token sequences, the unit of a bounds computation: one length, and at each position the set of tokens it
// may hold (one token, a subset, or the whole vocabulary). Its members are the sequences that pick one token of each
// position's set.
#pragma once

#include <cstdint>
#include <vector>

namespace tverify::model {

struct TokenBox {
  std::vector<std::vector<std::int64_t>> positions;  // each non-empty

  std::size_t length() const { return positions.size(); }
  // The box's first member: the first token of each position's set.
  std::vector<std::int64_t> first_member() const {
    std::vector<std::int64_t> out;
    for (const auto& set : positions) out.push_back(set.front());
    return out;
  }
};

}  // namespace tverify::model
