// A task's outputs over a box of data sequences (docs/model.md, "Tasks over boxes"): for each target, the data
// positions it reads, and the classes it may be over a box. The bounds search (checkers/model/bounds_search.hpp)
// decides a target for a whole box when this is one class and the model's bounds put that class's logit above every
// other's.
#pragma once

#include "checkers/model/tasks.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace tverify::model {

// A box of data sequences x_1..x_n: at each position the tokens it may hold (sorted, distinct, non-empty).
using DataBox = std::vector<std::vector<std::int64_t>>;

// Whether a box's members are instances of the task (checkers/model/tasks.hpp, is_instance): all, none or some.
enum class Validity { All, None, Some };

struct TaskAbstraction {
  // The data positions (0-based) target i of a sequence of length n reads: its expected output is a function of the
  // tokens there alone. The search splits them first, in this order.
  std::function<std::vector<std::size_t>(std::size_t i, std::size_t n)> reads;
  // The classes target i may be over a box whose members are too many to enumerate over reads(i): a superset of
  // them, sorted and distinct. Absent: every class.
  std::function<std::vector<std::int64_t>(const DataBox& box, std::size_t i)> closed_form{};
  // For a task whose instances are some of the sequences: whether the box's members are. The search skips a box of
  // none and splits a box of some without evaluating the model. Such a task reads one target.
  std::function<Validity(const DataBox& box)> validity{};
  // The box's children when target i is undecided on it (or its validity is); absent: one child per token of the
  // first position that target i reads and the box leaves open, else of the first open position.
  std::function<std::vector<DataBox>(const DataBox& box, std::size_t i)> split{};
};

// The box's children that fix position p to each of its tokens, in token order.
std::vector<DataBox> split_into_tokens(const DataBox& box, std::size_t p);

// The task's abstraction; nullopt for a task with none (a generated output, a variable number of targets, a
// validity predicate over instances): such a task is checked by enumeration.
std::optional<TaskAbstraction> abstraction_of(const Task& task);

// The names of the tasks that have an abstraction, comma-separated (for a refusal).
std::string tasks_with_abstraction();

// The member combinations over reads(i) that expected_classes enumerates at most before it uses the closed form.
inline constexpr std::uint64_t max_enumerated_combinations = 4096;

// The classes target i may be over `box` (sorted, distinct): the targets of every combination of tokens at reads(i)
// (the other positions at their first token, which target i does not read) when there are at most
// max_enumerated_combinations of them; otherwise the closed form, or every class 0..classes-1.
std::vector<std::int64_t> expected_classes(const Task& task, const TaskAbstraction& abstraction, const DataBox& box,
                                           std::size_t i, long long V, std::int64_t classes);

}  // namespace tverify::model
