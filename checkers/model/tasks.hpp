// The reference tasks a model is checked against (docs/model.md has each token layout): the copy task of Repeat
// After Me, associative recall of the CAT paper (AR and NAR), and the classic RASP suite (Weiss, Goldberg, Yahav:
// Thinking Like Transformers, arXiv 2106.06981). Each task turns a sequence x_1..x_n over the data tokens 0..V-1 into
// the token sequence the model reads and the outputs it must produce, at which positions.
#pragma once

#include "core/exact.hpp"
#include "model/task_case.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tverify::model {

struct Task {
  std::string name;
  std::string layout;     // the token layout, as help and docs print it
  std::string reference;  // what the model must output
  long long min_V = 1, max_V = 64;
  int special_tokens = 1;  // BOS = V (and COPY = V + 1): the embedding needs V + special_tokens rows
  bool generative = false;
  std::function<std::int64_t(long long V, int max_length)> classes;  // output classes the targets need
  std::function<Tokens(const Tokens& x, long long V)> targets;
  // The task's instances among the sequences (empty: every sequence is one); the others are not checked.
  std::function<bool(const Tokens& x)> is_instance{};
  std::string instances{};  // which sequences are instances, for the domain's description
  bool reads_last = false;  // one output, at the last position (otherwise at positions 1, 2, ...)
  int recalled_gram = 0;    // ar and nar: the length of the n-gram recalled
  bool bos = true;          // the sequence starts with BOS = V (--bos no: x_1..x_n as they are)
};

// The n-gram length of task nar when none is given (Definition 3 of the CAT paper leaves N free).
inline constexpr int default_nar_n = 2;

// The parameters some tasks take.
struct TaskOptions {
  int nar_n = default_nar_n;  // nar: the length of the recalled n-gram
  // markov-next: the binary chain's switching probabilities p = P(1 | 0) and q = P(0 | 1), in (0, 1), neither 1/2
  Exact p{1, 3}, q{1, 3};
  bool bos = true;  // false: the sequences are x_1..x_n without BOS (a model such as the CAT export reads no BOS)
};

const std::vector<Task>& all_tasks();
// The named task with these options; throws UsageError naming the tasks.
Task find_task(const std::string& name, const TaskOptions& options = {});
std::vector<std::string> task_names();

// The model's input and targets for the data tokens x.
TaskCase case_of(const Task& task, const Tokens& x, long long V);
// The length of case_of's sequence for data tokens of length n, for any n (a sequence that is no instance of the
// task, which has no reference output, included).
std::size_t sequence_length(const Task& task, int n, long long V);

}  // namespace tverify::model
