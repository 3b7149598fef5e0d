#include "checkers/model/tasks.hpp"

#include "io/errors.hpp"
#include "constructions/cat/tasks.hpp"
#include "constructions/count3/references.hpp"

#include <algorithm>
#include <map>

namespace tverify::model {

namespace {

std::map<std::int64_t, std::int64_t> counts_of(const Tokens& x) {
  std::map<std::int64_t, std::int64_t> count;
  for (std::int64_t t : x) ++count[t];
  return count;
}

Tokens reversed(const Tokens& x, long long) { return Tokens(x.rbegin(), x.rend()); }

// What a previous-token head computes: y_1 = x_1 (the first position has no predecessor but BOS, which is no data
// token), y_i = x_{i-1}.
Tokens previous(const Tokens& x, long long) {
  Tokens y;
  for (std::size_t i = 0; i < x.size(); ++i) y.push_back(x[i == 0 ? 0 : i - 1]);
  return y;
}

Tokens sorted(const Tokens& x, long long) {
  Tokens y = x;
  std::sort(y.begin(), y.end());
  return y;
}

Tokens histogram(const Tokens& x, long long) {
  const auto count = counts_of(x);
  Tokens y;
  for (std::int64_t t : x) y.push_back(count.at(t));
  return y;
}

// For each x_i, the number of distinct tokens whose count equals x_i's count.
Tokens double_histogram(const Tokens& x, long long) {
  const auto count = counts_of(x);
  Tokens y;
  for (std::int64_t t : x)
    y.push_back(std::count_if(count.begin(), count.end(), [&](const auto& c) { return c.second == count.at(t); }));
  return y;
}

// The distinct tokens by decreasing count, ties in order of first occurrence.
Tokens most_frequent(const Tokens& x, long long) {
  const auto count = counts_of(x);
  Tokens distinct;
  for (std::int64_t t : x)
    if (std::find(distinct.begin(), distinct.end(), t) == distinct.end()) distinct.push_back(t);
  std::stable_sort(distinct.begin(), distinct.end(),
                   [&](std::int64_t a, std::int64_t b) { return count.at(a) > count.at(b); });
  return distinct;
}

// Prefix states of a bracket language: 0 balanced, 1 open (every bracket so far matched or still open), 2 failed
// (a closing bracket with no open one of its kind on top; failed stays failed). Token 2k opens kind k, 2k + 1 closes
// it.
Tokens dyck(const Tokens& x, long long) {
  Tokens y, stack;
  bool failed = false;
  for (std::int64_t t : x) {
    if (!failed) {
      if (t % 2 == 0)
        stack.push_back(t / 2);
      else if (!stack.empty() && stack.back() == t / 2)
        stack.pop_back();
      else
        failed = true;
    }
    y.push_back(failed ? 2 : stack.empty() ? 0 : 1);
  }
  return y;
}

Tokens parity(const Tokens& x, long long) {
  Tokens y;
  std::int64_t p = 0;
  for (std::int64_t t : x) y.push_back(p = (p + t) % 2);
  return y;
}

// The most frequent token of each prefix, the smallest among ties.
Tokens majority(const Tokens& x, long long V) {
  Tokens y, count(static_cast<std::size_t>(V), 0);
  for (std::int64_t t : x) {
    ++count[static_cast<std::size_t>(t)];
    y.push_back(std::max_element(count.begin(), count.end()) - count.begin());
  }
  return y;
}

// ENTP eq. (4) on every prefix: y_i = Count3(x_1..x_i), the next token of the Count3 experiment (Sec. 6.1).
Tokens count3_prefixes(const Tokens& x, long long) {
  Tokens y;
  count3::Sequence prefix;
  for (std::int64_t t : x) {
    prefix.push_back(t);
    y.push_back(count3::count3_eq4(prefix));
  }
  return y;
}

std::int64_t vocabulary(long long V, int) { return V; }
std::int64_t count_classes(long long, int max_length) { return max_length + 1; }

Tokens copied(const Tokens& x, long long) { return x; }

// Associative recall of the CAT paper (Definitions 2 and 3; the reconstruction in docs/cat.md): the end index of the
// unique earlier occurrence of x's last n-gram, when x is an instance.
std::optional<std::size_t> recall_match(const Tokens& x, int n) {
  return cat::nar_match(cat::Tokens(x.begin(), x.end()), n);
}

Task recall_task(const std::string& name, int n, const std::string& definition) {
  const std::string gram =
      n == 1 ? "x_n" : "the last " + std::to_string(n) + "-gram x_{n-" + std::to_string(n - 1) + "}..x_n";
  Task t{name,
         "[BOS, x_1, ..., x_n] with BOS = V; one output, at position n",
         "y = the token after the unique earlier occurrence of " + gram + " (" + definition + ")",
         1,
         64,
         1,
         false,
         vocabulary,
         [n](const Tokens& x, long long) { return Tokens{x.at(*recall_match(x, n) + 1)}; }};
  t.is_instance = [n](const Tokens& x) { return recall_match(x, n).has_value(); };
  t.instances = "the valid instances: " + gram + " occurs exactly once earlier";
  t.reads_last = true;
  t.recalled_gram = n;
  return t;
}

const std::string rasp_layout = "[BOS, x_1, ..., x_n] with BOS = V; outputs y_1..y_n at positions 1..n";

// Next-token prediction on the binary first-order Markov chain of the Markov paper (Section 2.2: the kernel
// P(p, q) = [1 - p, p; q, 1 - q]): after x_i the more likely next token, the argmax of the kernel's row x_i, which
// is what Theorem 1's global minimum predicts.
Task markov_next_task(const Exact& p, const Exact& q) {
  const Exact half(1, 2);
  const std::int64_t after_zero = p > half ? 1 : 0, after_one = q > half ? 0 : 1;
  return {"markov-next",
          rasp_layout + "; tokens 0, 1",
          "y_i = the more likely token after x_i on the chain with P(1 | 0) = --p, P(0 | 1) = --q (Markov paper, "
          "Section 2.2): 1 after 0 when p > 1/2, 0 after 1 when q > 1/2",
          2,
          2,
          1,
          false,
          [](long long, int) -> std::int64_t { return 2; },
          [after_zero, after_one](const Tokens& x, long long) {
            Tokens y;
            for (std::int64_t t : x) y.push_back(t == 0 ? after_zero : after_one);
            return y;
          }};
}

}  // namespace

const std::vector<Task>& all_tasks() {
  static const std::vector<Task> tasks{
      {"copy", "[BOS, x_1, ..., x_n, COPY] with BOS = V, COPY = V + 1; then n generated tokens",
       "y = x: the model generates x_1..x_n after COPY", 1, 64, 2, true, vocabulary, copied},
      {"reverse", rasp_layout, "y_i = x_{n+1-i}", 1, 64, 1, false, vocabulary, reversed},
      {"previous", rasp_layout, "y_1 = x_1, y_i = x_{i-1}: a previous-token head", 1, 64, 1, false, vocabulary,
       previous},
      {"sort", rasp_layout, "y = x sorted ascending", 1, 64, 1, false, vocabulary, sorted},
      {"histogram", rasp_layout, "y_i = the number of j with x_j = x_i", 1, 64, 1, false, count_classes, histogram},
      {"double-histogram", rasp_layout, "y_i = the number of distinct tokens whose count equals x_i's count", 1, 64, 1,
       false, count_classes, double_histogram},
      {"most-frequent",
       "[BOS, x_1, ..., x_n] with BOS = V; outputs y_1..y_k at positions 1..k, k the number of "
       "distinct tokens",
       "y = the distinct tokens by decreasing count, ties by first occurrence", 1, 64, 1, false, vocabulary,
       most_frequent},
      {"dyck1", rasp_layout + "; tokens 0 = '(', 1 = ')'",
       "y_i = the state of x_1..x_i: 0 balanced, 1 open, 2 failed (closed more than opened)", 2, 2, 1, false,
       [](long long, int) -> std::int64_t { return 3; }, dyck},
      {"dyck2", rasp_layout + "; tokens 0 = '(', 1 = ')', 2 = '[', 3 = ']'",
       "y_i = the state of x_1..x_i: 0 balanced, 1 open, 2 failed (a closing bracket that matches no open one)", 4, 4,
       1, false, [](long long, int) -> std::int64_t { return 3; }, dyck},
      {"parity", rasp_layout + "; tokens 0, 1", "y_i = (x_1 + ... + x_i) mod 2", 2, 2, 1, false,
       [](long long, int) -> std::int64_t { return 2; }, parity},
      {"majority", rasp_layout, "y_i = the most frequent token of x_1..x_i, the smallest among ties", 1, 64, 1, false,
       vocabulary, majority},
      {"count3", rasp_layout,
       "y_i = Count3(x_1..x_i) of ENTP eq. (4): the number of pairs (j, k) in [i]^2 with x_j + x_k + x_i = 0 (mod i), "
       "mod i",
       1, 64, 1, false, [](long long, int max_length) -> std::int64_t { return max_length; }, count3_prefixes},
      recall_task("ar", 1, "AR, Definition 2 of the CAT paper"),
      recall_task("nar", default_nar_n, "NAR, Definition 3 of the CAT paper; N is --N"),
      markov_next_task(TaskOptions{}.p, TaskOptions{}.q),
  };
  return tasks;
}

std::vector<std::string> task_names() {
  std::vector<std::string> names;
  for (const auto& t : all_tasks()) names.push_back(t.name);
  return names;
}

namespace {

// The task's sequences without BOS: x_1..x_n, each output one position earlier.
Task without_bos(Task t) {
  if (t.generative) throw UsageError("--bos no: task " + t.name + "'s layout needs BOS (" + t.layout + ")");
  t.bos = false;
  t.special_tokens -= 1;
  t.layout = "[x_1, ..., x_n], no BOS; " +
             std::string(t.reads_last ? "one output, at position n - 1" : "outputs y_1..y_n at positions 0..n-1");
  return t;
}

Task named_task(const std::string& name, const TaskOptions& options) {
  if (name == "nar")
    return recall_task("nar", options.nar_n,
                       "NAR, Definition 3 of the CAT paper, N = " + std::to_string(options.nar_n));
  if (name == "markov-next") return markov_next_task(options.p, options.q);
  for (const auto& t : all_tasks())
    if (t.name == name) return t;
  std::string known;
  for (const auto& n : task_names()) known += (known.empty() ? "" : ", ") + n;
  throw UsageError("--task must be one of " + known + " (got '" + name + "')");
}

}  // namespace

Task find_task(const std::string& name, const TaskOptions& options) {
  Task t = named_task(name, options);
  return options.bos ? t : without_bos(std::move(t));
}

TaskCase case_of(const Task& task, const Tokens& x, long long V) {
  TaskCase c;
  c.targets = task.targets(x, V);
  c.generative = task.generative;
  if (task.bos) c.sequence.push_back(V);
  c.sequence.insert(c.sequence.end(), x.begin(), x.end());
  if (task.generative) {
    c.sequence.push_back(V + 1);  // COPY
    c.read_from = c.sequence.size() - 1;
    c.sequence.insert(c.sequence.end(), c.targets.begin(), c.targets.end() - 1);
  } else {
    c.read_from = task.reads_last ? c.sequence.size() - 1 : task.bos ? 1 : 0;
  }
  return c;
}

std::size_t sequence_length(const Task& task, int n, long long V) {
  // Generation appends the reference's outputs, which every sequence has (no generative task restricts instances);
  // otherwise the sequence is BOS and x, or x alone.
  if (task.generative) return case_of(task, Tokens(static_cast<std::size_t>(n), 0), V).sequence.size();
  return static_cast<std::size_t>(n) + (task.bos ? 1 : 0);
}

}  // namespace tverify::model
