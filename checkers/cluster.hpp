// The processes of one run launched by MPI (mpirun, srun), as the enumeration engine and the sweeps see them: which
// rank this process is, a dispenser of a loop's items (an enumeration's chunks, a sweep's points) shared by every rank,
// and exchanges of encoded results. A single process has no cluster (active_cluster() is null). Every
// rank runs the same command, so every rank reaches the same loops in the same order; rank 0 alone writes files and
// prints. The MPI implementation is mpi/mpi_cluster.cpp, built when Debian's libopenmpi-dev is present.
#pragma once

#include "io/output_role.hpp"
#include "io/progress.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tverify {

// What a taker reports on the item it finished since its last call: the inputs it visited (for rank 0's progress
// line) and, where the caller collects results on rank 0, the encoded result.
struct FinishedItem {
  std::uint64_t inputs = 0;
  std::string result;
};

// Hands out the item indices of one distributed loop (an enumeration's chunks, a sweep's points), each once over all
// ranks and threads; returns `items` when none is left.
class ItemDispenser {
 public:
  virtual ~ItemDispenser() = default;
  // Thread-safe. On a rank other than 0, a result reported after the rank was told that none is left (by another of
  // its threads) is not delivered: a loop with one taker per rank (distribute_items) never does that, and an
  // enumeration's accumulators all reach rank 0 at its end anyway (checkers/rank_merge.hpp).
  virtual std::uint64_t take(FinishedItem finished) = 0;
};

// Called on rank 0, one call at a time, with each result a taker reported.
using ResultSink = std::function<void(const std::string& result)>;

class Cluster {
 public:
  virtual ~Cluster() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  // Called by every rank at the start of the same loop; destroying the result waits for every rank to finish taking
  // items. On rank 0, `progress` (if any) counts every rank's inputs and `sink` (if any) receives every result.
  virtual std::unique_ptr<ItemDispenser> dispense(std::uint64_t items, ProgressBar* progress, ResultSink sink) = 0;
  // Called by every rank: on rank 0, every rank's `local` bytes in rank order; elsewhere nothing.
  virtual std::vector<std::string> gather(const std::string& local) = 0;
  // Called by every rank: rank 0's `bytes`, on every rank.
  virtual std::string broadcast(const std::string& bytes) = 0;
  // Ends every rank with exit code `code` after this rank's error `line`: printed at once by rank 0; by another rank
  // after a pause, naming the rank, unless rank 0 (which meets the same error when it is not the rank's own) has
  // ended the job first. A rank that fails alone never leaves the others waiting.
  [[noreturn]] virtual void fail(const std::string& line, int code) = 0;
};

// The cluster this process belongs to for the loops it starts: null when it runs alone (or as the only rank), and
// while a RankLocal is alive.
Cluster* active_cluster();
void set_active_cluster(Cluster* cluster);

// While alive, loops run within this rank: for work that one rank does alone, such as one point of a distributed
// sweep. Outputs stay rank 0's.
class RankLocal {
 public:
  RankLocal();
  ~RankLocal();
  RankLocal(const RankLocal&) = delete;
  RankLocal& operator=(const RankLocal&) = delete;
};

// Runs compute(i) once for every item i < items: in order when the process runs alone; under MPI the items go out
// one at a time to whichever rank asks next, each computed within its rank (RankLocal). on_result(i, result) is called
// with every result: alone, after each item; under MPI on rank 0 only, as results arrive (in any order), and an
// exception it throws is rethrown there once every rank has stopped taking items.
void distribute_items(std::uint64_t items, const std::function<std::string(std::uint64_t)>& compute,
                      const std::function<void(std::uint64_t, std::string)>& on_result);

// compute(i) for every item i < items, in item order, on every rank: distribute_items, and under MPI rank 0's
// results sent to every rank (one broadcast: all results together, as a JSON array of strings, under 2 GiB). For a
// loop of independent points, such as a sweep's grid, whose results every rank needs.
std::vector<std::string> map_items(std::uint64_t items, const std::function<std::string(std::uint64_t)>& compute);

}  // namespace tverify
