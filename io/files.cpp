#include "io/files.hpp"

#include "io/errors.hpp"
#include "io/output_role.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>

namespace tverify {
namespace fs = std::filesystem;
namespace {

// Temporary files start with this prefix; an output folder's lock holder removes any it finds (left by a killed run).
constexpr const char* temp_prefix = ".tverify-tmp.";

std::string error_text(int err) { return std::strerror(err); }

UsageError cannot_write(const fs::path& path, int err) {
  return UsageError("cannot write '" + path.string() + "': " + error_text(err) +
                    " (the previous file, if any, is kept)");
}

mode_t file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

fs::path folder_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

void fsync_folder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A link at a target is replaced (the rename never follows it) only when it leads to a regular file in the target's
// own folder, as a link a user keeps beside their outputs does; a link elsewhere (/dev/stdout, a system file), to
// nothing or to something that is no regular file is refused, naming where it leads.
void refuse_foreign_link(const fs::path& path, const std::string& prefix) {
  std::error_code ec;
  const fs::path leads_to = fs::canonical(path, ec);
  const std::string why = ec ? "leads nowhere (" + ec.message() + ")"
                          : !fs::is_regular_file(leads_to, ec)
                              ? "leads to '" + leads_to.string() + "', which is no regular file"
                          : fs::canonical(folder_of(path), ec) != leads_to.parent_path()
                              ? "leads to '" + leads_to.string() + "', outside its folder"
                              : "";
  if (!why.empty())
    throw UsageError(prefix + "'" + path.string() + "' is a link that " + why +
                     "; tverify replaces only a link to a regular file in the same folder");
}

// A target that exists must be a regular file, or a link that refuse_foreign_link accepts.
void refuse_non_regular(const fs::path& path, const std::string& option) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  const std::string prefix = option.empty() ? "" : option + " ";
  if (fs::is_symlink(status)) return refuse_foreign_link(path, prefix);
  if (ec || !fs::exists(status) || fs::is_regular_file(status)) return;
  if (fs::is_directory(status)) throw UsageError(prefix + "'" + path.string() + "' is a directory; give a file path");
  throw UsageError(prefix + "'" + path.string() +
                   "' is not a regular file (a device, FIFO or socket); give a file path");
}

// mkstemp beside `target`; returns the open descriptor and fills `temp`.
int make_temp(const fs::path& target, fs::path& temp) {
  std::string pattern = (folder_of(target) / (temp_prefix + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw cannot_write(target, errno);
  temp = pattern;
  return fd;
}

void write_all(int fd, const std::string& text, const fs::path& target, const fs::path& temp) {
  const char* p = text.data();
  std::size_t left = text.size();
  int err = 0;
  while (left > 0 && err == 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      err = n < 0 ? errno : EIO;
    else
      p += n, left -= static_cast<std::size_t>(n);
  }
  if (err == 0 && ::fchmod(fd, file_mode()) != 0) err = errno;
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(temp.c_str());
    throw cannot_write(target, err);
  }
}

fs::path write_temp(const fs::path& target, const std::string& text) {
  fs::path temp;
  const int fd = make_temp(target, temp);
  write_all(fd, text, target, temp);
  return temp;
}

// While alive, SIGINT, SIGTERM and SIGHUP are recorded instead of acted on; the destructor restores the previous
// handlers and raises the first recorded signal, so a run asked to stop stops after the renames, not between them.
volatile std::sig_atomic_t held_signal = 0;
extern "C" void hold_signal(int sig) {
  if (held_signal == 0) held_signal = sig;
}

class HeldSignals {
 public:
  HeldSignals() {
    held_signal = 0;
    struct sigaction hold {};
    hold.sa_handler = hold_signal;
    sigemptyset(&hold.sa_mask);
    for (std::size_t i = 0; i < signals_.size(); ++i) ::sigaction(signals_[i], &hold, &previous_[i]);
  }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;
  ~HeldSignals() {
    for (std::size_t i = 0; i < signals_.size(); ++i) ::sigaction(signals_[i], &previous_[i], nullptr);
    if (held_signal != 0) ::raise(held_signal);
  }

 private:
  std::array<int, 3> signals_{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
};

// Temporary files more than a minute old: left by a killed run (a live writer renames its file within seconds; one
// that is not a sweep, such as check --json into the same folder, holds no lock).
void remove_stale_temporaries(const fs::path& dir) {
  std::error_code ec;
  const auto cutoff = fs::file_time_type::clock::now() - std::chrono::minutes(1);
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().filename().string().rfind(temp_prefix, 0) == 0 && entry.is_regular_file(ec) &&
        entry.last_write_time(ec) < cutoff)
      fs::remove(entry.path(), ec);
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
  if (path.empty()) throw UsageError(what + ": the file name is empty");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw UsageError(what + " cannot be read: " + error_text(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(what + " is not a regular file");
  }
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    ::close(fd);
    throw UsageError(what + " is larger than " + std::to_string(max_bytes >> 20) + " MiB");
  }
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw UsageError(what + " cannot be read: " + error_text(err));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {
      ::close(fd);
      throw UsageError(what + " is larger than " + std::to_string(max_bytes >> 20) + " MiB");
    }
  }
  ::close(fd);
  return text;
}

Json parse_json_text(const std::string& text, const std::string& what, int max_depth) {
  struct TooDeep {};
  struct RepeatedKey {
    std::string key;
  };
  // The keys met so far in each object being parsed, innermost last: a key given twice in one object is refused, as
  // nlohmann's parser would otherwise keep the last and a reader could see another value than a writer meant.
  std::vector<std::set<std::string>> keys_of_open_objects;
  try {
    return Json::parse(text, [&](int depth, Json::parse_event_t event, Json& parsed) {
      if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
          depth >= max_depth)
        throw TooDeep{};
      if (event == Json::parse_event_t::object_start) keys_of_open_objects.emplace_back();
      if (event == Json::parse_event_t::object_end) keys_of_open_objects.pop_back();
      if (event == Json::parse_event_t::key && !keys_of_open_objects.back().insert(parsed.get<std::string>()).second)
        throw RepeatedKey{parsed.get<std::string>()};
      return true;
    });
  } catch (const TooDeep&) {
    throw UsageError(what + " nests arrays or objects deeper than " + std::to_string(max_depth) + " levels");
  } catch (const RepeatedKey& repeated) {
    throw UsageError(what + " gives the key '" + repeated.key.substr(0, 80) +
                     "' twice in one object (every key must be unique)");
  } catch (const Json::parse_error& e) {
    // Input that ends early (also inside a string) is truncated; text after a complete value is not JSON.
    const std::string message = e.what();
    const bool truncated = message.find("unexpected end of input") != std::string::npos ||
                           (e.byte >= text.size() && message.find("expected end of input") == std::string::npos);
    throw UsageError(what + " is " + (truncated ? "truncated (incomplete JSON)" : "not JSON"));
  } catch (const Json::exception&) {  // out_of_range: a number past the double range (1e400)
    throw UsageError(what + " holds a number outside the range of a double");
  }
}

Json read_json_file(const std::string& path, const std::string& what) {
  return parse_json_text(read_text_file(path, what), what);
}

// Checks of outputs are made where the outputs are written: alone, or on rank 0 (output_role.hpp).
void ensure_writable_file(const std::string& path, const std::string& option) {
  if (!writes_outputs()) return;
  if (path.empty()) throw UsageError(option + " needs a file name (got an empty string)");
  const fs::path p(path);
  refuse_non_regular(p, option);
  const fs::path dir = folder_of(p);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw UsageError(option + " '" + path + "': directory '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw UsageError(option + " '" + path + "': directory '" + dir.string() + "' is not writable");
}

void refuse_input_as_output(const std::string& path, const std::string& option,
                            const std::map<std::string, std::string>& given) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec)) return;
  for (const auto& [name, value] : given)
    if (!value.empty() && fs::exists(value, ec) && fs::equivalent(path, value, ec))
      throw UsageError(option + " '" + path + "' is the same file as --" + name + " '" + value +
                       "', which this run reads; give another path");
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  if (!writes_outputs()) return;
  refuse_non_regular(path, "");
  remove_stale_temporaries(folder_of(path));
  const fs::path temp = write_temp(path, text);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    throw cannot_write(path, err);
  }
  fsync_folder(folder_of(path));
}

StagedFiles::~StagedFiles() {
  for (const auto& [temp, target] : staged_) ::unlink(temp.c_str());
}

TemporaryFolder::TemporaryFolder(const std::string& prefix, const std::string& purpose) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw UsageError("cannot create a temporary folder in " + fs::temp_directory_path().string() + " " + purpose +
                     " (a full disk?)");
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path StagedFiles::stage(const fs::path& target, const std::string& text) {
  refuse_non_regular(target, "");
  staged_.emplace_back(write_temp(target, text), target);
  return staged_.back().first;
}

fs::path StagedFiles::reserve(const fs::path& target) {
  refuse_non_regular(target, "");
  fs::path temp;
  const int fd = make_temp(target, temp);
  staged_.emplace_back(temp, target);
  const int err = ::fchmod(fd, file_mode()) == 0 ? 0 : errno;
  ::close(fd);
  if (err != 0) throw cannot_write(target, err);
  return temp;
}

void StagedFiles::commit() {
  for (const auto& [temp, target] : staged_) {  // what another program wrote reaches the disk before the renames
    const int fd = ::open(temp.c_str(), O_RDONLY | O_CLOEXEC);
    const int err = fd < 0 ? errno : (::fsync(fd) == 0 ? 0 : errno);
    if (fd >= 0) ::close(fd);
    if (err != 0) throw cannot_write(target, err);
  }
  HeldSignals held;
  for (std::size_t i = 0; i < staged_.size(); ++i) {
    const auto& [temp, target] = staged_[i];
    if (::rename(temp.c_str(), target.c_str()) != 0) {  // a rename within one folder: only a vanished folder fails
      const int err = errno;
      staged_.erase(staged_.begin(), staged_.begin() + static_cast<std::ptrdiff_t>(i));
      throw UsageError("cannot write '" + target.string() + "': " + error_text(err) + " (the " + std::to_string(i) +
                       " files before it in the set were already replaced)");
    }
  }
  if (!staged_.empty()) fsync_folder(folder_of(staged_.front().second));
  staged_.clear();
}

OutputDirLock::OutputDirLock(const std::string& dir, const std::string& option) {
  if (dir.empty()) throw UsageError(option + " needs a directory name (got an empty string)");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir) || ::access(dir.c_str(), W_OK) != 0)
    throw UsageError(option + " '" + dir + "' is not a writable directory");
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw UsageError(option + " '" + dir + "' cannot be opened: " + error_text(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw UsageError(option + " '" + dir +
                     "' is in use by another tverify run (it holds the folder's lock); wait for "
                     "it to finish or choose another folder");
  }
  remove_stale_temporaries(dir);
}

OutputDirLock::OutputDirLock(OutputDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

OutputDirLock::~OutputDirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the lock
}

void create_output_folder(const std::string& dir, const std::string& option) {
  if (!writes_outputs()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec))
    throw UsageError(option + " '" + dir + "' cannot be created as a folder: " +
                     (ec ? ec.message() : std::string("it exists and is not a folder")));
}

void ensure_writable_dir(const std::string& dir, const std::string& option) {
  if (!writes_outputs()) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(dir, ec).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // "queries/" names the folder queries
  const fs::path existing = fs::exists(p, ec) ? p : p.parent_path();
  if (dir.empty() || !fs::is_directory(existing, ec) || access(existing.c_str(), W_OK) != 0)
    throw UsageError(option + " '" + dir +
                     "' is not a writable directory (nor one that can be created in a writable one)");
}

}  // namespace tverify
