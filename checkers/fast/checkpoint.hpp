// Checkpoints of the fast sweeps (issue 7, part 3): after every finished point the rows so far are written
// atomically to DIR/<sweep>.checkpoint.json beside the sweep's parameters; --resume reads them back (refusing a
// checkpoint of other parameters), so a sweep killed at any moment loses no finished point. A row is found by its
// key: the value of one named field (L for the copy sweeps and sweep cat --vary L, c for sweep cat --vary c).
#pragma once

#include "checkers/verdict.hpp"

#include <string>
#include <vector>

namespace tverify::fast {

class Checkpoint {
 public:
  // With resume, loads DIR/<sweep>.checkpoint.json (UsageError when missing, corrupt or for other parameters).
  Checkpoint(const std::string& out_dir, const std::string& sweep, Json params, bool resume, std::string key = "L");
  // The finished row whose key field equals `key`, or nullptr.
  const Json* find(const Json& key) const;
  bool has(const Json& key) const { return find(key) != nullptr; }
  void add(Json row);  // and writes the file
  // The rows so far, by increasing key (a number).
  std::vector<Json> sorted_rows() const;
  const Json& params() const { return params_; }

 private:
  std::string path_, key_;
  Json params_;
  std::vector<Json> rows_;
};

}  // namespace tverify::fast
