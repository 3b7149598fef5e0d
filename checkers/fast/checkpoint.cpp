#include "checkers/fast/checkpoint.hpp"

#include "checkers/certificate.hpp"
#include "checkers/errors.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace tverify::fast {

Checkpoint::Checkpoint(const std::string& out_dir, const std::string& sweep, Json params, bool resume, std::string key)
    : path_((std::filesystem::path(out_dir) / (sweep + ".checkpoint.json")).string()),
      key_(std::move(key)),
      params_(std::move(params)) {
  if (!resume) return;
  std::ifstream in(path_);
  if (!in) throw UsageError("--resume: no checkpoint at '" + path_ + "' (start without --resume)");
  Json j;
  try {
    j = Json::parse(in);
  } catch (const Json::parse_error&) {
    throw UsageError("--resume: the checkpoint '" + path_ + "' is not valid JSON");
  }
  if (!j.contains("params") || j["params"] != params_ || !j.contains("rows") || !j["rows"].is_array())
    throw UsageError("--resume: the checkpoint '" + path_ + "' is for other parameters (" +
                     (j.contains("params") ? j["params"].dump() : std::string("none")) + ")");
  rows_ = j["rows"].get<std::vector<Json>>();
  for (const Json& r : rows_)
    if (!r.is_object() || !r.contains(key_))
      throw UsageError("--resume: the checkpoint '" + path_ + "' has a row without " + key_ + " (corrupt)");
}

const Json* Checkpoint::find(const Json& key) const {
  const auto it = std::find_if(rows_.begin(), rows_.end(), [&](const Json& r) { return r[key_] == key; });
  return it == rows_.end() ? nullptr : &*it;
}

void Checkpoint::add(Json row) {
  rows_.push_back(std::move(row));
  write_json_atomically(path_, Json{{"params", params_}, {"rows", rows_}});
}

std::vector<Json> Checkpoint::sorted_rows() const {
  std::vector<Json> rows = rows_;
  std::sort(rows.begin(), rows.end(), [&](const Json& a, const Json& b) { return a[key_] < b[key_]; });
  return rows;
}

}  // namespace tverify::fast
