// Every file tverify reads or writes goes through here, so that the guarantees hold in one place:
// - reads: regular files only, bounded in size, JSON bounded in nesting depth; any failure is a UsageError naming
//   the file (exit 2), never a crash;
// - writes: atomic. The text goes to a temporary file made with mkstemp beside the target, is fsynced and renamed
//   over the target, then the folder is fsynced. A target that exists and is not a regular file (a device, a FIFO,
//   a folder) is refused. On any failure the temporary file is removed, the previous file is kept, and the
//   UsageError names the file that could not be written;
// - a set of files (a sweep's csv, gp, png, json) is staged completely before any of them replaces its predecessor,
//   and the renames run with the termination signals blocked;
// - an output folder is locked (flock on the folder) for the whole run that writes into it, so a second run into the
//   same folder is refused instead of racing the first; the lock holder removes temporary files older than a minute
//   (left by a killed run).
#pragma once

#include "io/json.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tverify {

// The whole content of a regular file of at most max_bytes. `what` names the file in messages ("certificate 'a.json'").
std::string read_text_file(const std::string& path, const std::string& what, std::size_t max_bytes = 256u << 20);

// Parses JSON text whose arrays and objects nest at most max_depth deep; UsageError "<what> is not JSON / truncated
// / nested deeper than ...".
Json parse_json_text(const std::string& text, const std::string& what, int max_depth = 64);
Json read_json_file(const std::string& path, const std::string& what);

// Throws UsageError when `path` (given as `option`, e.g. "--json") cannot become a regular file: empty, a folder or
// another non-regular file, a missing or unwritable folder. Creates nothing.
void ensure_writable_file(const std::string& path, const std::string& option);

void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// Throws UsageError when the output `path` (given as `option`) is the same file, links resolved, as one of the run's
// inputs: the values of `given` (option name without dashes -> text) that name existing files.
void refuse_input_as_output(const std::string& path, const std::string& option,
                            const std::map<std::string, std::string>& given);

// Throws UsageError unless `dir` (given as `option`) is an existing writable folder or one that can be created in a
// writable folder (the first file written there creates it, so a run refused for another reason leaves nothing
// behind). Creates nothing.
void ensure_writable_dir(const std::string& dir, const std::string& option);

// Creates the folder `dir` (given as `option`) and its missing parents; UsageError naming it when that fails.
void create_output_folder(const std::string& dir, const std::string& option);

// Several files replaced together: each is written to its temporary file first; only when all are complete are they
// renamed into place, in order, with SIGINT, SIGTERM and SIGHUP held back until the last rename. Temporary files
// left by a failure are removed.
class StagedFiles {
 public:
  StagedFiles() = default;
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;
  ~StagedFiles();
  // Writes `text` to a fresh temporary file beside `target`; returns that file's name (in the target's folder).
  std::filesystem::path stage(const std::filesystem::path& target, const std::string& text);
  // A fresh empty temporary file beside `target`, for a program that writes it (gnuplot's PNG).
  std::filesystem::path reserve(const std::filesystem::path& target);
  void commit();

 private:
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> staged_;  // (temporary, target)
};

// A fresh folder under the system's temporary folder (mkdtemp, "<prefix>-XXXXXX"), removed with everything in it when
// the object goes. Throws UsageError naming `purpose` when it cannot be created.
class TemporaryFolder {
 public:
  TemporaryFolder(const std::string& prefix, const std::string& purpose);
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  ~TemporaryFolder();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Holds an exclusive advisory lock on an output folder (created if missing) for its lifetime. Throws UsageError when
// the folder cannot be created or written, or when another run holds the lock.
class OutputDirLock {
 public:
  OutputDirLock(const std::string& dir, const std::string& option);
  OutputDirLock(OutputDirLock&& other) noexcept;
  OutputDirLock(const OutputDirLock&) = delete;
  OutputDirLock& operator=(const OutputDirLock&) = delete;
  OutputDirLock& operator=(OutputDirLock&&) = delete;
  ~OutputDirLock();

 private:
  int fd_ = -1;
};

}  // namespace tverify
