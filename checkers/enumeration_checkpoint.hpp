// The checkpoint of a check (`check ... --checkpoint FILE`): the accumulator of every finished chunk of every
// enumeration the run has made (checkers/enumerate.hpp), written atomically to FILE as chunks finish (at most once
// per interval, and at the end of each enumeration). With --resume a run restores those chunks instead of visiting
// them. The chunk grid is a function of the domain's size alone and chunks merge in chunk order, so the resumed
// result, and its certificate, are those of an uninterrupted run, for any thread or rank count before or after.
//
// A run's enumerations come in a fixed order; the n-th one of a resumed run must have the n-th one's label, size and
// grid. The file names the run it belongs to (construction, variant, claims, counterexample limit, parameters, and
// the SHA-256 of every input file), the tverify build that wrote it and a SHA-256 of its content; --resume refuses
// another run's checkpoint, naming the first thing that differs, a file changed after it was written, and a file that
// is not such a checkpoint (exit 2). A resumed run trusts its checkpoint as it trusts its own memory: recheck never
// reads one, it re-runs the whole command.
//
// Under MPI (checkers/cluster.hpp) rank 0 reads the file and sends it to every rank; each rank reports the chunks it
// finishes to rank 0, which alone writes the file.
#pragma once

#include "checkers/verdict.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tverify {

class EnumerationCheckpoint {
 public:
  // `run` says which run this is (checkers/resumable_check.hpp). With `resume`, loads `path` (UsageError when it is
  // missing, corrupt, of another run, or of another build); without, `path` must not exist yet.
  EnumerationCheckpoint(std::string path, Json run, bool resume, std::chrono::seconds interval);

  // The index of the run's next enumeration, checked against the checkpoint's (UsageError when it differs); nullopt
  // for an enumeration started inside another one, which is not checkpointed.
  std::optional<std::size_t> begin(const std::string& label, std::uint64_t inputs, std::uint64_t chunks);
  // The accumulators restored for enumeration `e`, by chunk.
  const std::map<std::uint64_t, Json>& restored(std::size_t e) const { return enumerations_.at(e).finished; }
  // Chunk c of enumeration e finished with this accumulator: kept, and the file written when the interval has passed
  // since the last write. Thread-safe.
  void finished(std::size_t e, std::uint64_t c, Json accumulator);
  // The end of the running enumeration (whatever stopped it): the file written.
  void end();

  // The file, as messages name it.
  std::string what() const { return "--checkpoint '" + path_ + "'"; }

 private:
  struct Enumeration {
    std::string label;
    std::uint64_t inputs = 0, chunks = 0;
    std::map<std::uint64_t, Json> finished;
  };
  void load(const Json& file);
  void write_locked();

  std::string path_;
  Json run_;
  std::chrono::seconds interval_;
  std::vector<Enumeration> enumerations_;
  std::size_t started_ = 0;  // enumerations begun by this run
  bool inside_ = false;      // an enumeration is running
  std::chrono::steady_clock::time_point last_write_;
  std::mutex mutex_;
};

}  // namespace tverify
