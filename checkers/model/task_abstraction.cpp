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

std::uint64_t combinations(const DataBox& box, const std::vector<std::size_t>& positions) {
  std::uint64_t count = 1;
  for (std::size_t p : positions) {
    count *= box[p].size();
    if (count > max_enumerated_combinations) return count;
  }
  return count;
}

}  // namespace

std::optional<TaskAbstraction> abstraction_of(const Task& task) {
  const std::string& name = task.name;
  if (name == "previous") return TaskAbstraction{[](std::size_t i, std::size_t) { return one(i == 0 ? 0 : i - 1); }};
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
