// The inputs of a model check: every sequence over V data tokens of each length in a range, laid out by a task
// (checkers/model/tasks.hpp), a seeded uniform sample of those, or the lines of an --expected file (JSON Lines,
// docs/model.md). Inputs are numbered in
// a fixed order (shorter first, then lexicographic; file order for a file), so the enumeration engine can cut them
// into chunks and the smallest counterexamples come first.
#pragma once

#include "checkers/enumerate.hpp"
#include "checkers/model/tasks.hpp"
#include "model/case_check.hpp"
#include "checkers/sequence_domain.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tverify::model {

struct ModelCase {
  TaskCase task_case;
  Json input;            // what a counterexample shows: the data tokens x, or the file's input
  int length = 0;        // x's length, or the file input's length
  bool instance = true;  // false: not an instance of the task (not checked, not counted)
};

class ModelCases {
 public:
  // Every sequence over 0..V-1 of lengths lo..hi, laid out by `task`.
  ModelCases(const Task& task, long long V, int lo, int hi, const RunOptions& options);
  // `samples` sequences drawn uniformly (with replacement) from that domain, sample i a function of (seed, i) alone.
  ModelCases(const Task& task, long long V, int lo, int hi, std::uint64_t samples, std::uint64_t seed,
             const RunOptions& options);
  // The lines of an --expected file, read with `decode` (every, last or generate).
  ModelCases(const std::string& expected_path, Decode decode, const RunOptions& options);

  std::uint64_t size() const;
  ModelCase at(std::uint64_t index) const;
  std::string describe() const;
  // The lengths of the token sequences the inputs make (teacher-forced), each once.
  std::vector<std::size_t> sequence_lengths() const;
  const Task* task() const { return task_ ? &*task_ : nullptr; }
  bool sampled() const { return samples_ > 0; }
  // The SHA-256 of the --expected file's bytes as read; empty for a task's domain.
  const std::string& file_sha256() const { return file_sha256_; }

 private:
  std::optional<Task> task_;
  long long V_ = 0;
  std::optional<SequenceDomain> domain_;
  std::uint64_t samples_ = 0, seed_ = 0;  // samples_ > 0: a sample of domain_
  std::vector<ModelCase> file_cases_;
  std::string file_sha256_;
};

}  // namespace tverify::model
