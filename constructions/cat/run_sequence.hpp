// A token sequence stored as runs of equal tokens (b^p g t b^r g is five runs however long it is), with the windows
// of every position grouped into spans of equal content: a window lying inside one run is the same at every
// position of that run, so a sequence of R runs has O(R * window) distinct windows to look at, not O(L).
#pragma once

#include "constructions/cat/tasks.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tverify::cat {

struct Run {
  int token = 0;
  std::uint64_t length = 0;
};

class RunSequence {
 public:
  RunSequence() = default;
  explicit RunSequence(const Tokens& z);
  // Appends `length` copies of `token` (merged with the last run when equal; nothing when length is 0).
  void append(int token, std::uint64_t length);
  void append(const Tokens& tokens);

  std::uint64_t size() const { return size_; }
  // z_i, or -1 when i is outside [0, size).
  int at(std::int64_t i) const;
  Tokens tokens() const;

  // The positions s in [from, to] in order, grouped into spans of consecutive positions whose windows
  // (z_{s - before}, ..., z_{s + after}; -1 outside the sequence) are equal: visit(first, count, window).
  template <class Visit>
  void for_each_window_span(std::uint64_t before, std::uint64_t after, std::uint64_t from, std::uint64_t to,
                            Visit visit) const;

 private:
  std::size_t run_index(std::uint64_t i) const;  // the run holding position i < size
  Tokens window(std::int64_t first, std::size_t width) const;

  std::vector<Run> runs_;
  std::vector<std::uint64_t> starts_;
  std::uint64_t size_ = 0;
};

template <class Visit>
void RunSequence::for_each_window_span(std::uint64_t before, std::uint64_t after, std::uint64_t from, std::uint64_t to,
                                       Visit visit) const {
  const std::size_t width = static_cast<std::size_t>(before + after + 1);
  for (std::uint64_t s = from; s <= to && s < size_;) {
    const auto first = static_cast<std::int64_t>(s) - static_cast<std::int64_t>(before);
    std::uint64_t count = 1;
    if (first >= 0 && s + after < size_) {
      const std::size_t r = run_index(static_cast<std::uint64_t>(first));
      if (r == run_index(s + after)) {  // the whole window inside run r: equal up to the run's end
        const std::uint64_t last = std::min(to, starts_[r] + runs_[r].length - 1 - after);
        count = last - s + 1;
      }
    }
    visit(s, count, window(first, width));
    s += count;
  }
}

}  // namespace tverify::cat
