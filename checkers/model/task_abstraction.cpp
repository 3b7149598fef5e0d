#include "checkers/model/task_abstraction.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace tverify::model {

namespace {

std::vector<std::size_t> one(std::size_t position) { return {position}; }

// Positions 0..i: a target of a prefix (parity, majority, the bracket states, Count3).
std::vector<std::size_t> prefix(std::size_t i, std::size_t) {
  std::vector<std::size_t> out(i + 1);
  std::iota(out.begin(), out.end(), 0);
  return out;
}

// Every position, i first: a target that counts or orders the whole sequence.
std::vector<std::size_t> own_first(std::size_t i, std::size_t n) {
  std::vector<std::size_t> out{i};
  for (std::size_t j = 0; j < n; ++j)
    if (j != i) out.push_back(j);
  return out;
}

std::vector<std::int64_t> classes_between(std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> out;
  for (std::int64_t k = lo; k <= hi; ++k) out.push_back(k);
  return out;
}

// The i-th order statistic is nondecreasing in every coordinate, so over the box it lies between the i-th smallest
// of the positions' least tokens and the i-th smallest of their greatest.
std::vector<std::int64_t> order_statistic_range(const DataBox& box, std::size_t i) {
  std::vector<std::int64_t> least, greatest;
  for (const auto& set : box) least.push_back(set.front()), greatest.push_back(set.back());
  std::nth_element(least.begin(), least.begin() + static_cast<long>(i), least.end());
  std::nth_element(greatest.begin(), greatest.begin() + static_cast<long>(i), greatest.end());
  return classes_between(least[i], greatest[i]);
}

// The count of x_i is 1 plus the other positions holding x_i's token t: at least those fixed to t, at most those
// that may hold it, for some t position i may hold.
std::vector<std::int64_t> count_range(const DataBox& box, std::size_t i) {
  std::int64_t lo = static_cast<std::int64_t>(box.size()), hi = 0;
  for (std::int64_t t : box[i]) {
    std::int64_t fixed = 1, possible = 1;
    for (std::size_t j = 0; j < box.size(); ++j) {
      if (j == i) continue;
      fixed += box[j].size() == 1 && box[j][0] == t;
      possible += std::binary_search(box[j].begin(), box[j].end(), t);
    }
    lo = std::min(lo, fixed), hi = std::max(hi, possible);
  }
  return classes_between(lo, hi);
}

// Associative recall of the last `gram` tokens (tasks ar and nar; cat::nar_match): the windows ending at
// e = gram - 1 .. n - 2 that certainly hold the last window's tokens, and those that may.
struct RecallWindows {
  std::vector<std::size_t> sure, possible;
  std::optional<std::size_t> open_last;  // a position of the last window that is not one token
};

RecallWindows recall_windows(const DataBox& box, int gram) {
  RecallWindows w;
  const std::size_t n = box.size(), g = static_cast<std::size_t>(gram);
  for (std::size_t k = 0; k < g && k < n; ++k)
    if (box[n - 1 - k].size() > 1) w.open_last = n - 1 - k;
  if (w.open_last || n < g + 1) return w;
  for (std::size_t e = g - 1; e + 1 < n; ++e) {
    bool sure = true, possible = true;
    for (std::size_t k = 0; k < g; ++k) {
      const std::int64_t t = box[n - 1 - k][0];
      const auto& set = box[e - k];
      possible = possible && std::binary_search(set.begin(), set.end(), t);
      sure = sure && set.size() == 1 && set[0] == t;
    }
    if (sure) w.sure.push_back(e);
    if (possible) w.possible.push_back(e);
  }
  return w;
}

Validity recall_validity(const DataBox& box, int gram) {
  if (box.size() < static_cast<std::size_t>(gram) + 1) return Validity::None;
  const RecallWindows w = recall_windows(box, gram);
  if (w.open_last) return Validity::Some;
  if (w.sure.size() >= 2 || w.possible.empty()) return Validity::None;
  return w.sure.size() == 1 && w.possible.size() == 1 ? Validity::All : Validity::Some;
}

// Splits the last window's positions into tokens first; then a position of a window that may but need not hold the
// last window's tokens into that token and the rest; then, on a box of instances, the answer's position; then the
// first open position.
std::vector<DataBox> recall_split(const DataBox& box, int gram) {
  const RecallWindows w = recall_windows(box, gram);
  if (w.open_last) return split_into_tokens(box, *w.open_last);
  const std::size_t n = box.size(), g = static_cast<std::size_t>(gram);
  for (std::size_t e : w.possible)
    for (std::size_t k = 0; k < g; ++k) {
      const std::int64_t t = box[n - 1 - k][0];
      const auto& set = box[e - k];
      if (set.size() == 1) continue;
      DataBox with = box, without = box;
      with[e - k] = {t};
      without[e - k].erase(std::find(without[e - k].begin(), without[e - k].end(), t));
      return {with, without};
    }
  if (w.sure.size() == 1 && box[w.sure[0] + 1].size() > 1) return split_into_tokens(box, w.sure[0] + 1);
  for (std::size_t p = 0; p < n; ++p)
    if (box[p].size() > 1) return split_into_tokens(box, p);
  return {};
}

// On a box of instances the answer is the token after the one window that holds the last window's tokens.
std::vector<std::int64_t> recalled_tokens(const DataBox& box, int gram) {
  const RecallWindows w = recall_windows(box, gram);
  if (w.sure.size() == 1 && w.possible.size() == 1) return box[w.sure[0] + 1];
  std::set<std::int64_t> any;
  for (const auto& set : box) any.insert(set.begin(), set.end());
  return {any.begin(), any.end()};
}

std::uint64_t combinations(const DataBox& box, const std::vector<std::size_t>& positions) {
  std::uint64_t count = 1;
  for (std::size_t p : positions) {
    count *= box[p].size();
    if (count > max_enumerated_combinations) return count;
  }
  return count;
}

}  // namespace

std::vector<DataBox> split_into_tokens(const DataBox& box, std::size_t p) {
  std::vector<DataBox> children;
  for (std::int64_t t : box[p]) {
    children.push_back(box);
    children.back()[p] = {t};
  }
  return children;
}

std::optional<TaskAbstraction> abstraction_of(const Task& task) {
  const std::string& name = task.name;
  if (name == "previous") return TaskAbstraction{[](std::size_t i, std::size_t) { return one(i == 0 ? 0 : i - 1); }};
  if (task.recalled_gram > 0) {
    const int gram = task.recalled_gram;
    return TaskAbstraction{[](std::size_t, std::size_t n) { return own_first(n - 1, n); },
                           [gram](const DataBox& box, std::size_t) { return recalled_tokens(box, gram); },
                           [gram](const DataBox& box) { return recall_validity(box, gram); },
                           [gram](const DataBox& box, std::size_t) { return recall_split(box, gram); }};
  }
  if (name == "copy") return TaskAbstraction{[](std::size_t i, std::size_t) { return one(i); }};
  if (name == "reverse") return TaskAbstraction{[](std::size_t i, std::size_t n) { return one(n - 1 - i); }};
  if (name == "markov-next") return TaskAbstraction{[](std::size_t i, std::size_t) { return one(i); }};
  if (name == "sort") return TaskAbstraction{own_first, order_statistic_range};
  if (name == "histogram") return TaskAbstraction{own_first, count_range};
  if (name == "double-histogram") return TaskAbstraction{own_first};
  if (name == "parity" || name == "majority" || name == "dyck1" || name == "dyck2" || name == "count3")
    return TaskAbstraction{prefix};
  return std::nullopt;
}

std::string tasks_with_abstraction() {
  std::string out;
  for (const Task& t : all_tasks())
    if (abstraction_of(t)) out += (out.empty() ? "" : ", ") + t.name;
  return out;
}

std::vector<std::int64_t> expected_classes(const Task& task, const TaskAbstraction& abstraction, const DataBox& box,
                                           std::size_t i, long long V, std::int64_t classes) {
  const std::vector<std::size_t> reads = abstraction.reads(i, box.size());
  if (combinations(box, reads) > max_enumerated_combinations)
    return abstraction.closed_form ? abstraction.closed_form(box, i) : classes_between(0, classes - 1);
  Tokens x;
  for (const auto& set : box) x.push_back(set.front());
  std::set<std::int64_t> expected;
  // Odometer over the tokens of reads(i), the last position fastest.
  std::vector<std::size_t> digit(reads.size(), 0);
  while (true) {
    for (std::size_t k = 0; k < reads.size(); ++k) x[reads[k]] = box[reads[k]][digit[k]];
    expected.insert(task.targets(x, V).at(i));
    std::size_t k = reads.size();
    while (k > 0 && ++digit[k - 1] == box[reads[k - 1]].size()) digit[--k] = 0;
    if (k == 0) break;
  }
  return {expected.begin(), expected.end()};
}

}  // namespace tverify::model
