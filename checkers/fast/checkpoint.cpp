#include "checkers/fast/checkpoint.hpp"

#include "checkers/certificate.hpp"
#include "checkers/errors.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace tverify::fast {

Json fast_sweep_params(const copy::CopyTransformerConfig& base, const LengthGrid& grid, const FastSweepOptions& o,
                       const std::string& sweep) {
  return {{"sweep", sweep},
          {"D", base.alphabet},
          {"n", base.n},
          {"variant", copy::to_string(base.variant)},
          {"embedding", copy::to_string(base.embedding)},
          {"tau", base.tau ? exact_to_string(*base.tau) : "proof"},
          {"grid", grid.text()},
          {"samples", o.samples},
          {"seed", o.seed}};
}

Checkpoint::Checkpoint(const std::string& out_dir, const std::string& sweep, Json params, bool resume)
    : path_((std::filesystem::path(out_dir) / (sweep + ".checkpoint.json")).string()), params_(std::move(params)) {
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
}

bool Checkpoint::has(long length) const {
  return std::any_of(rows_.begin(), rows_.end(), [&](const Json& r) { return r["L"].get<long>() == length; });
}

void Checkpoint::add(Json row) {
  rows_.push_back(std::move(row));
  write_json_atomically(path_, Json{{"params", params_}, {"rows", rows_}});
}

std::vector<Json> Checkpoint::sorted_rows() const {
  std::vector<Json> rows = rows_;
  std::sort(rows.begin(), rows.end(), [](const Json& a, const Json& b) { return a["L"].get<long>() < b["L"].get<long>(); });
  return rows;
}

}  // namespace tverify::fast
