// Runs the tverify binary with an argument vector (no shell, so hostile file names reach it verbatim) in a given
// folder, with CI unset and no standard input, in its own process group so that a run past the timeout is killed with
// whatever it started (gnuplot); collects its exit code, signal, output and peak resident memory.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace tverify::testing {

struct CliResult {
  int exit_code = -1;  // -1: killed by a signal
  int signal = 0;
  bool timed_out = false;
  std::string out, err;
  double seconds = 0;
  long peak_resident_kib = 0;  // the child's largest resident set (getrusage's ru_maxrss)
};

inline std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// An empty folder `name` in this process's scratch folder for `suite` under the temporary folder, made afresh.
inline std::filesystem::path fresh_folder(const std::string& suite, const std::string& name) {
  const std::filesystem::path d =
      std::filesystem::temp_directory_path() / ("tverify-" + suite + "-" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// `capture` is a folder outside `cwd` for the two output files.
inline CliResult run_tverify(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                             const std::filesystem::path& capture, double timeout = 600) {
  const std::string out_path = (capture / "stdout").string(), err_path = (capture / "stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<std::string> words{TVERIFY_BINARY};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("CI=", 0) != 0) env_text.emplace_back(*e);
  std::vector<char*> env;
  for (auto& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);

  CliResult r;
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, TVERIFY_BINARY, &actions, &attributes, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    r.err = "posix_spawn failed";
    return r;
  }
  int status = 0;
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    struct rusage usage {};
    const pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) r.peak_resident_kib = usage.ru_maxrss;
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > timeout && !r.timed_out) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = read_all(out_path);
  r.err = read_all(err_path);
  return r;
}

}  // namespace tverify::testing
