#include "mpi/mpi_cluster.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace tverify::mpi {
namespace {

constexpr int request_tag = 1, reply_tag = 2;
constexpr std::size_t max_bytes = static_cast<std::size_t>(std::numeric_limits<int>::max());  // an MPI count

int byte_count(const std::string& bytes) {
  if (bytes.size() > max_bytes) throw std::runtime_error("MPI: a rank's results exceed 2 GiB");
  return static_cast<int>(bytes.size());
}

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + call + " failed");
}

// A request: the inputs the taker visited (8 bytes) and its result's bytes.
std::string request_bytes(const FinishedItem& finished) {
  std::string bytes(sizeof finished.inputs, '\0');
  std::memcpy(bytes.data(), &finished.inputs, sizeof finished.inputs);
  return bytes + finished.result;
}

// Rank 0: its own threads take items from the counter; a server thread answers the other ranks' requests from the
// same counter until each of them has been told that none is left. It polls (MPI_Iprobe, then a short sleep) rather
// than blocking in MPI_Recv, which would spin and take a core from the workers.
class RootDispenser final : public ItemDispenser {
 public:
  RootDispenser(std::uint64_t items, int ranks, ProgressBar* progress, ResultSink sink)
      : items_(items), ranks_(ranks), progress_(progress), sink_(std::move(sink)), server_([this] { serve(); }) {}
  ~RootDispenser() override { server_.join(); }

  std::uint64_t take(FinishedItem finished) override {
    deliver(finished.result);
    return std::min(next_++, items_);
  }

 private:
  void deliver(const std::string& result) {
    if (!sink_ || result.empty()) return;
    const std::lock_guard<std::mutex> lock(sink_mutex_);
    sink_(result);
  }

  std::string receive_request(int& source) {
    MPI_Status status;
    for (int arrived = 0;;) {
      check(MPI_Iprobe(MPI_ANY_SOURCE, request_tag, MPI_COMM_WORLD, &arrived, &status), "Iprobe");
      if (arrived) break;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    int size = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &size), "Get_count");
    std::string bytes(static_cast<std::size_t>(size), '\0');
    source = status.MPI_SOURCE;
    check(MPI_Recv(bytes.data(), size, MPI_BYTE, source, request_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "Recv");
    if (bytes.size() < sizeof(std::uint64_t))
      throw std::runtime_error("MPI: a malformed request from rank " + std::to_string(source));
    return bytes;
  }

  void serve() {
    for (int told_none = 0; told_none < ranks_ - 1;) {
      int source = 0;
      const std::string bytes = receive_request(source);
      std::uint64_t inputs = 0;
      std::memcpy(&inputs, bytes.data(), sizeof inputs);
      if (progress_) progress_->advance(inputs);
      const std::uint64_t item = take({0, bytes.substr(sizeof inputs)});
      if (item == items_) ++told_none;
      check(MPI_Send(&item, 1, MPI_UINT64_T, source, reply_tag, MPI_COMM_WORLD), "Send");
    }
  }

  const std::uint64_t items_;
  const int ranks_;
  ProgressBar* progress_;
  ResultSink sink_;
  std::mutex sink_mutex_;
  std::atomic<std::uint64_t> next_{0};
  std::thread server_;
};

// Other ranks: one request at a time per rank; after the first "none", the rank asks no more, and a result its other
// threads report after that is not delivered (ItemDispenser::take).
class RemoteDispenser final : public ItemDispenser {
 public:
  explicit RemoteDispenser(std::uint64_t items) : items_(items) {}

  std::uint64_t take(FinishedItem finished) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (exhausted_) return items_;
    const std::string bytes = request_bytes(finished);
    std::uint64_t item = items_;
    check(MPI_Send(bytes.data(), byte_count(bytes), MPI_BYTE, 0, request_tag, MPI_COMM_WORLD), "Send");
    check(MPI_Recv(&item, 1, MPI_UINT64_T, 0, reply_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "Recv");
    exhausted_ = item >= items_;
    return std::min(item, items_);
  }

 private:
  const std::uint64_t items_;
  std::mutex mutex_;
  bool exhausted_ = false;
};

class MpiCluster final : public Cluster {
 public:
  MpiCluster(int& argc, char**& argv) {
    int provided = MPI_THREAD_SINGLE;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "Init_thread");
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      throw std::runtime_error("MPI: this MPI library does not allow calls from more than one thread");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  }
  ~MpiCluster() override {
    if (active_cluster() == this) set_active_cluster(nullptr);
    MPI_Finalize();
  }

  // Ranks other than 0 print nothing from here on; their errors go to the stderr they were started with (fail).
  void silence_unless_root() {
    if (rank_ == 0) return;
    original_stderr_ = ::dup(STDERR_FILENO);
    if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr))
      throw std::runtime_error("rank " + std::to_string(rank_) + " cannot silence its output");
  }

  [[noreturn]] void fail(const std::string& line, int code) override {
    if (rank_ == 0) {
      std::fputs((line + "\n").c_str(), stderr);
    } else {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      const std::string named = "rank " + std::to_string(rank_) + ": " + line + "\n";
      if (original_stderr_ >= 0) {
        const ssize_t written = ::write(original_stderr_, named.data(), named.size());
        static_cast<void>(written);  // a failed write to stderr leaves nothing else to tell
      }
    }
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
  }

  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }

  std::unique_ptr<ItemDispenser> dispense(std::uint64_t items, ProgressBar* progress, ResultSink sink) override {
    if (rank_ == 0) return std::make_unique<RootDispenser>(items, ranks_, progress, std::move(sink));
    return std::make_unique<RemoteDispenser>(items);
  }

  std::vector<std::string> gather(const std::string& local) override {
    const int size = byte_count(local);
    std::vector<int> sizes(static_cast<std::size_t>(ranks_)), offsets(static_cast<std::size_t>(ranks_));
    check(MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "Gather");
    std::size_t total = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      offsets[r] = static_cast<int>(total);
      total += static_cast<std::size_t>(sizes[r]);
      if (total > max_bytes) throw std::runtime_error("MPI: the ranks' results exceed 2 GiB");
    }
    std::string all(rank_ == 0 ? total : 0, '\0');
    check(MPI_Gatherv(local.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0,
                      MPI_COMM_WORLD),
          "Gatherv");
    std::vector<std::string> out;
    if (rank_ == 0)
      for (std::size_t r = 0; r < sizes.size(); ++r)
        out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
    return out;
  }

  std::string broadcast(const std::string& bytes) override {
    int size = byte_count(bytes);
    check(MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD), "Bcast");
    std::string out = rank_ == 0 ? bytes : std::string(static_cast<std::size_t>(size), '\0');
    check(MPI_Bcast(out.data(), size, MPI_BYTE, 0, MPI_COMM_WORLD), "Bcast");
    return out;
  }

 private:
  int rank_ = 0, ranks_ = 1;
  int original_stderr_ = -1;
};

// Open MPI's mpirun and Slurm's srun (PMI or PMIx) set one of these in every process they start.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

}  // namespace

std::unique_ptr<Cluster> join_launched_job(int& argc, char**& argv) {
  if (!launched_by_mpi()) return nullptr;
  auto cluster = std::make_unique<MpiCluster>(argc, argv);
  if (cluster->ranks() < 2) return cluster;  // the only rank: a single process
  set_active_cluster(cluster.get());
  cluster->silence_unless_root();
  return cluster;
}

}  // namespace tverify::mpi
