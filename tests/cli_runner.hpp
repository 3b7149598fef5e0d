// Runs the tverify binary with an argument vector (no shell, so hostile file names reach it verbatim) in a given
// folder, with CI unset and no standard input, and collects its exit code and output.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace tverify::testing {

struct CliResult {
  int exit_code = -1;  // -1: killed by a signal
  std::string out, err;
};

inline std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `capture` is a folder outside `cwd` for the two output files.
inline CliResult run_tverify(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                             const std::filesystem::path& capture) {
  const std::string out = (capture / "stdout").string(), err = (capture / "stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
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
  pid_t pid = 0;
  CliResult r;
  if (posix_spawn(&pid, TVERIFY_BINARY, &actions, nullptr, argv.data(), env.data()) == 0) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  posix_spawn_file_actions_destroy(&actions);
  r.out = read_all(out);
  r.err = read_all(err);
  return r;
}

}  // namespace tverify::testing
