// Checkpoints of the fast copy sweeps (issue 7, part 3): after every finished L the rows so far are written atomically
// to DIR/<sweep>.checkpoint.json beside the sweep's parameters; --resume reads them back (refusing a checkpoint of
// other parameters), so a sweep killed at any moment loses no finished point.
#pragma once

#include "checkers/fast/copy_length_sweep.hpp"

#include <string>
#include <vector>

namespace tverify::fast {

// The parameters a checkpoint must match: D, n, variant, embedding, tau, grid, samples, seed, and `sweep`.
Json fast_sweep_params(const copy::CopyTransformerConfig& base, const LengthGrid& grid, const FastSweepOptions& o,
                       const std::string& sweep);

class Checkpoint {
 public:
  // With resume, loads DIR/<sweep>.checkpoint.json (UsageError when missing, corrupt or for other parameters).
  Checkpoint(const std::string& out_dir, const std::string& sweep, Json params, bool resume);
  bool has(long length) const;
  void add(Json row);  // and writes the file
  // The rows so far, by increasing L.
  std::vector<Json> sorted_rows() const;
  const Json& params() const { return params_; }

 private:
  std::string path_;
  Json params_;
  std::vector<Json> rows_;
};

}  // namespace tverify::fast
