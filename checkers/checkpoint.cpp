#include "checkers/checkpoint.hpp"

#include "checkers/certificate.hpp"
#include "checkers/cluster.hpp"
#include "io/errors.hpp"
#include "io/files.hpp"

#include <algorithm>
#include <filesystem>

namespace tverify {

Checkpoint::Checkpoint(const std::string& out_dir, const std::string& sweep, Json params, bool resume,
                       std::vector<Json> grid, RowCheck check, std::string key)
    : path_((std::filesystem::path(out_dir) / (sweep + ".checkpoint.json")).string()),
      key_(std::move(key)),
      params_(std::move(params)) {
  if (!resume) return;
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec))
    throw UsageError("--resume: no checkpoint at '" + path_ + "' (start without --resume)");
  const std::string what = "--resume: the checkpoint '" + path_ + "'";
  const Json j = read_json_file(path_, what);
  if (!j.is_object() || !j.contains("params") || j["params"] != params_)
    throw UsageError(what + " is for other parameters (" +
                     (j.is_object() && j.contains("params") ? j["params"].dump() : std::string("none")) +
                     "; this run: " + params_.dump() + ")");
  const FieldCheck field{what};
  if (!field.need(j, "rows", "rows").is_array()) field.fail("rows", "a list");
  for (std::size_t i = 0; i < j["rows"].size(); ++i) {
    const Json& row = j["rows"][i];
    const std::string at = "rows[" + std::to_string(i) + "]";
    if (!row.is_object()) field.fail(at, "an object");
    const Json& k = field.need(row, key_, at + "." + key_);
    // Compared as written: 4.0 is not the grid's 4.
    if (std::none_of(grid.begin(), grid.end(), [&](const Json& g) { return g.dump() == k.dump(); }))
      field.fail(at + "." + key_, "a point of this sweep's grid");
    if (find(k) != nullptr) field.fail(at + "." + key_, "a point not already in an earlier row (it is a duplicate)");
    check(row, field, at);
    field.no_other_fields(row, at);
    rows_.push_back(row);
  }
  share_rank0_rows();
}

void Checkpoint::share_rank0_rows() {
  // Under MPI every rank goes on from rank 0's rows: another rank may have read the file after rank 0 rewrote it.
  Cluster* const cluster = active_cluster();
  if (!cluster) return;
  const Json rows = Json::parse(cluster->broadcast(cluster->rank() == 0 ? Json(rows_).dump() : std::string()));
  rows_.assign(rows.begin(), rows.end());
}

const Json* Checkpoint::find(const Json& key) const {
  const auto it = std::find_if(rows_.begin(), rows_.end(), [&](const Json& r) { return r[key_] == key; });
  return it == rows_.end() ? nullptr : &*it;
}

void Checkpoint::add(Json row) {
  rows_.push_back(std::move(row));
  write_json_atomically(path_, Json{{"params", params_}, {"rows", rows_}});
}

void Checkpoint::fill(const std::vector<Json>& keys, const std::function<Json(const Json& key)>& row_of) {
  std::vector<Json> pending;
  for (const Json& key : keys)
    if (!has(key)) pending.push_back(key);
  // Under MPI an error writing the file is rank 0's alone, and ends the job (Cluster::fail).
  distribute_items(
      pending.size(), [&](std::uint64_t i) { return row_of(pending[i]).dump(); },
      [&](std::uint64_t, const std::string& row) { add(Json::parse(row)); });
  share_rank0_rows();
}

std::vector<Json> Checkpoint::sorted_rows() const {
  std::vector<Json> rows = rows_;
  std::sort(rows.begin(), rows.end(), [&](const Json& a, const Json& b) { return a[key_] < b[key_]; });
  return rows;
}

ParamSpec resume_option() { return flag_param("resume", "continue an interrupted sweep from the checkpoint in --out"); }

}  // namespace tverify
