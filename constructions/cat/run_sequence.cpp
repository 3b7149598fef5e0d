#include "constructions/cat/run_sequence.hpp"

#include <algorithm>

namespace tverify::cat {

RunSequence::RunSequence(const Tokens& z) { append(z); }

void RunSequence::append(int token, std::uint64_t length) {
  if (length == 0) return;
  if (!runs_.empty() && runs_.back().token == token) {
    runs_.back().length += length;
  } else {
    runs_.push_back({token, length});
    starts_.push_back(size_);
  }
  size_ += length;
}

void RunSequence::append(const Tokens& tokens) {
  for (int token : tokens) append(token, 1);
}

std::size_t RunSequence::run_index(std::uint64_t i) const {
  return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), i) - starts_.begin()) - 1;
}

int RunSequence::at(std::int64_t i) const {
  if (i < 0 || static_cast<std::uint64_t>(i) >= size_) return -1;
  return runs_[run_index(static_cast<std::uint64_t>(i))].token;
}

Tokens RunSequence::tokens() const {
  Tokens out;
  out.reserve(static_cast<std::size_t>(size_));
  for (const Run& r : runs_) out.insert(out.end(), static_cast<std::size_t>(r.length), r.token);
  return out;
}

Tokens RunSequence::window(std::int64_t first, std::size_t width) const {
  Tokens out(width);
  for (std::size_t j = 0; j < width; ++j) out[j] = at(first + static_cast<std::int64_t>(j));
  return out;
}

}  // namespace tverify::cat
