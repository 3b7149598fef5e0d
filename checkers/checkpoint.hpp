// Checkpoints of the fast sweeps: after every finished point the rows so far are written atomically to
// DIR/<sweep>.checkpoint.json beside the sweep's parameters; --resume reads them back, so a sweep killed at any moment
// loses no finished point. A row is found by its key: the value of one named field (L for the copy sweeps and
// sweep cat --vary L, c for sweep cat --vary c). A checkpoint is input like any other: --resume refuses (UsageError)
// one of other parameters, a row whose key is not a point of the sweep's grid, a key twice, and a row the sweep's own
// RowCheck rejects (wrong types, counts out of range, more errors than samples).
#pragma once

#include "io/json_fields.hpp"
#include "checkers/params.hpp"
#include "checkers/verdict.hpp"

#include <functional>

#include <string>
#include <vector>

namespace tverify {

class Checkpoint {
 public:
  // Throws UsageError naming the field; `at` names the row ("rows[3]").
  using RowCheck = std::function<void(const Json& row, const FieldCheck& check, const std::string& at)>;
  // With resume, loads DIR/<sweep>.checkpoint.json (UsageError when missing, corrupt, for other parameters, or with a
  // row whose key is not in `grid` or that `check` rejects).
  Checkpoint(const std::string& out_dir, const std::string& sweep, Json params, bool resume, std::vector<Json> grid,
             RowCheck check, std::string key = "L");
  // The finished row whose key field equals `key`, or nullptr.
  const Json* find(const Json& key) const;
  bool has(const Json& key) const { return find(key) != nullptr; }
  void add(Json row);  // and writes the file
  // Adds row_of(key) for every key of `keys` not finished yet, each as it finishes: in order in one process; under MPI
  // (checkers/cluster.hpp) rank 0 hands the points out one at a time to every rank, each rank computes its points
  // alone, rank 0 writes the file as rows arrive, and at the end every rank holds every row.
  void fill(const std::vector<Json>& keys, const std::function<Json(const Json& key)>& row_of);
  // The rows so far, by increasing key (a number).
  std::vector<Json> sorted_rows() const;
  const Json& params() const { return params_; }

 private:
  void share_rank0_rows();

  std::string path_, key_;
  Json params_;
  std::vector<Json> rows_;
};

// The --resume flag of every checkpointed sweep.
ParamSpec resume_option();

}  // namespace tverify
