#include "checkers/enumeration_checkpoint.hpp"

#include "checkers/build_info.hpp"
#include "checkers/certificate.hpp"
#include "checkers/cluster.hpp"
#include "io/errors.hpp"
#include "io/files.hpp"
#include "io/json_fields.hpp"
#include "io/sha256.hpp"

#include <filesystem>

namespace tverify {
namespace {

constexpr const char* kind = "tverify check checkpoint";
constexpr std::uint64_t format_version = 1;

Json build_of_this_tool() { return Json{{"version", tool_version()}, {"commit", tool_commit()}}; }

// The file as rank 0 sees it, on every rank: [exists], and with `read` [exists, text] or [exists, null, the reason it
// could not be read]. Every rank then meets the same verdict; another rank need not see the file at all.
Json file_of_rank0(const std::string& path, const std::string& what, bool read) {
  Json seen;
  if (writes_outputs()) {
    std::error_code ec;
    seen = Json::array({std::filesystem::exists(path, ec)});
    if (read && seen[0].get<bool>()) {
      try {
        seen.push_back(read_text_file(path, what));
      } catch (const UsageError& e) { seen.insert(seen.end(), {nullptr, e.what()}); }
    }
  }
  if (Cluster* const cluster = active_cluster())
    seen = Json::parse(cluster->broadcast(cluster->rank() == 0 ? seen.dump() : std::string()));
  return seen;
}

// The digest a checkpoint carries of its run and enumerations: a file changed by hand or by a fault is refused.
std::string digest_of(const Json& run, const Json& enumerations) {
  return sha256_hex(Json::array({run, enumerations}).dump());
}

// How a message names a field of a run: the option that sets it.
std::string option_of(const std::string& key) {
  if (key == "construction") return "the construction";
  if (key == "claims") return "--claim";
  if (key == "max_counterexamples") return "--max-counterexamples";
  return "--" + key;
}

// "--V is 3 in the checkpoint and 4 in this run": the first field of `run` that differs from the checkpoint's.
std::string first_difference(const Json& stored, const Json& run) {
  const auto text = [](const Json& j, const std::string& key) {
    return j.is_object() && j.contains(key) ? j[key].dump() : std::string("absent");
  };
  for (const char* key : {"construction", "variant", "claims", "max_counterexamples"})
    if (text(stored, key) != text(run, key))
      return option_of(key) + " is " + text(stored, key) + " in the checkpoint and " + text(run, key) + " in this run";
  for (const char* group : {"params", "file_sha256"}) {
    const Json none = Json::object();
    const Json& a = stored.is_object() && stored.contains(group) && stored[group].is_object() ? stored[group] : none;
    const Json& b = run[group];
    Json keys = Json::object();
    for (const auto& [k, v] : a.items()) keys[k] = true;
    for (const auto& [k, v] : b.items()) keys[k] = true;
    for (const auto& [k, v] : keys.items())
      if (text(a, k) != text(b, k))
        return std::string(group == std::string("params") ? "--" + k : "the file of --" + k + " (SHA-256)") + " is " +
               text(a, k) + " in the checkpoint and " + text(b, k) + " in this run";
  }
  return "its run differs from this one";
}

}  // namespace

EnumerationCheckpoint::EnumerationCheckpoint(std::string path, Json run, bool resume, std::chrono::seconds interval)
    : path_(std::move(path)), run_(std::move(run)), interval_(interval), last_write_(std::chrono::steady_clock::now()) {
  const Json seen = file_of_rank0(path_, what(), resume);
  if (!resume) {
    if (seen.at(0).get<bool>())
      throw UsageError(what() + " exists: add --resume to continue its run, or remove the file to start again");
    return;
  }
  if (!seen.at(0).get<bool>()) throw UsageError("--resume: " + what() + " does not exist (start without --resume)");
  if (seen.at(1).is_null()) throw UsageError(seen.at(2).get<std::string>());
  load(parse_json_text(seen.at(1).get<std::string>(), what()));
}

void EnumerationCheckpoint::load(const Json& file) {
  const FieldCheck field{what()};
  if (!file.is_object() || !file.contains("checkpoint_of") || file["checkpoint_of"] != kind)
    throw UsageError(what() + " is not a checkpoint of `tverify check` (its field \"checkpoint_of\" must be \"" + kind +
                     "\")");
  field.need(file, "checkpoint_of", "checkpoint_of");
  field.count(file, "format_version", "format_version", format_version, true, format_version);
  if (field.need(file, "tool", "tool") != build_of_this_tool())
    throw UsageError(what() + " was written by another build of tverify (" + file["tool"].dump() + "; this is " +
                     build_of_this_tool().dump() + "): remove it to start again");
  if (field.need(file, "run", "run") != run_)
    throw UsageError("--resume: " + what() + " is of another run: " + first_difference(file["run"], run_));
  const Json& list = field.need(file, "enumerations", "enumerations");
  if (!list.is_array()) field.fail("enumerations", "a list");
  field.nonempty_string(file, "sha256", "sha256");
  if (file["sha256"] != digest_of(file["run"], list))
    throw UsageError(what() + " does not match its own SHA-256: it was changed after tverify wrote it");
  for (std::size_t e = 0; e < list.size(); ++e) {
    const std::string at = "enumerations[" + std::to_string(e) + "]";
    const Json& entry = list[e];
    if (!entry.is_object()) field.fail(at, "an object");
    Enumeration read;
    field.nonempty_string(entry, "label", at + ".label");
    read.label = entry["label"].get<std::string>();
    read.inputs = field.count(entry, "inputs", at + ".inputs", UINT64_MAX);
    read.chunks = field.count(entry, "chunks", at + ".chunks", 65536, true, 1);
    const Json& done = field.need(entry, "finished", at + ".finished");
    if (!done.is_array()) field.fail(at + ".finished", "a list of [chunk, accumulator] pairs");
    for (std::size_t i = 0; i < done.size(); ++i) {
      const std::string item = at + ".finished[" + std::to_string(i) + "]";
      const Json& pair = done[i];
      if (!pair.is_array() || pair.size() != 2) field.fail(item, "a [chunk, accumulator] pair");
      const Json& c = pair[0];
      if (!c.is_number_unsigned() || c.get<std::uint64_t>() >= read.chunks ||
          (!read.finished.empty() && c.get<std::uint64_t>() <= read.finished.rbegin()->first))
        field.fail(item + "[0]", "a chunk below " + std::to_string(read.chunks) + ", above the one before");
      read.finished.emplace(c.get<std::uint64_t>(), pair[1]);
    }
    field.no_other_fields(entry, at);
    enumerations_.push_back(std::move(read));
  }
  for (const auto& [key, value] : file.items())
    if (!field.read.count(key)) field.fail(key, "absent (it is no field of a checkpoint)");
}

std::optional<std::size_t> EnumerationCheckpoint::begin(const std::string& label, std::uint64_t inputs,
                                                        std::uint64_t chunks) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (inside_) return std::nullopt;
  inside_ = true;
  const std::size_t e = started_++;
  if (e == enumerations_.size()) {
    enumerations_.push_back({label, inputs, chunks, {}});
    return e;
  }
  const Enumeration& stored = enumerations_[e];
  if (stored.label != label || stored.inputs != inputs || stored.chunks != chunks)
    throw UsageError("--resume: " + what() + " is of another run: its enumeration " + std::to_string(e + 1) + " has " +
                     std::to_string(stored.inputs) + " " + stored.label + " in " + std::to_string(stored.chunks) +
                     " chunks, this run's " + std::to_string(inputs) + " " + label + " in " + std::to_string(chunks));
  return e;
}

void EnumerationCheckpoint::finished(std::size_t e, std::uint64_t c, Json accumulator) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const bool added = enumerations_.at(e).finished.emplace(c, std::move(accumulator)).second;
  if (added && std::chrono::steady_clock::now() - last_write_ >= interval_) write_locked();
}

void EnumerationCheckpoint::end() {
  const std::lock_guard<std::mutex> lock(mutex_);
  inside_ = false;
  write_locked();
}

void EnumerationCheckpoint::write_locked() {
  last_write_ = std::chrono::steady_clock::now();
  if (!writes_outputs()) return;
  Json list = Json::array();
  for (const Enumeration& e : enumerations_) {
    Json done = Json::array();
    for (const auto& [c, accumulator] : e.finished) done.push_back(Json::array({c, accumulator}));
    list.push_back({{"label", e.label}, {"inputs", e.inputs}, {"chunks", e.chunks}, {"finished", std::move(done)}});
  }
  const std::string digest = digest_of(run_, list);
  write_json_atomically(path_, Json{{"checkpoint_of", kind},
                                    {"format_version", format_version},
                                    {"tool", build_of_this_tool()},
                                    {"run", run_},
                                    {"enumerations", std::move(list)},
                                    {"sha256", digest}});
}

}  // namespace tverify
