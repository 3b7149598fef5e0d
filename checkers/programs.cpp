#include "checkers/programs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <functional>

extern char** environ;

namespace tverify {
namespace fs = std::filesystem;

namespace {

// Both ends of a pipe, closed when it goes.
struct Pipe {
  int fds[2] = {-1, -1};
  bool open() { return ::pipe2(fds, O_CLOEXEC) == 0; }
  void close(int end) {
    if (fds[end] >= 0) ::close(fds[end]);
    fds[end] = -1;
  }
  ~Pipe() { close(0), close(1); }
};

// Writes the input and reads the output (when captured) as each is ready, so that neither side waits on a full pipe,
// until the output ends; false when the time limit passed, or the caller asked to stop, first. Both ends are
// non-blocking; it closes them (each -1 once closed).
bool exchange(int to_child, int from_child, const std::string& input, std::string* output,
              std::optional<std::chrono::steady_clock::time_point> deadline, const std::function<bool()>& stop_asked) {
  auto close_end = [](int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  };
  auto finish = [&](bool in_time) {
    close_end(to_child), close_end(from_child);
    return in_time;
  };
  std::size_t written = 0;
  if (input.empty()) close_end(to_child);
  char buffer[4096];
  while (to_child >= 0 || from_child >= 0) {
    if (stop_asked && stop_asked()) return finish(false);
    pollfd fds[2] = {{to_child, POLLOUT, 0}, {from_child, POLLIN, 0}};
    int wait_ms = stop_asked ? 100 : -1;  // a caller's stop is looked at every 100 ms
    if (deadline) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return finish(false);
      wait_ms = static_cast<int>(std::min<long long>(left.count(), wait_ms < 0 ? 1'000'000 : wait_ms));
    }
    if (::poll(fds, 2, wait_ms) < 0 && errno != EINTR) return finish(true);
    if (to_child >= 0 && (fds[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(to_child, input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EINTR && errno != EAGAIN) || written == input.size()) close_end(to_child);
    }
    if (from_child >= 0 && (fds[1].revents & (POLLIN | POLLERR | POLLHUP))) {
      const ssize_t n = ::read(from_child, buffer, sizeof buffer);
      if (n > 0 && output) output->append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) close_end(from_child);
    }
  }
  return true;
}

// Waits for the child to exit, until the deadline if there is one; false when it passed first.
bool exited_by(pid_t pid, std::optional<std::chrono::steady_clock::time_point> deadline, int& status) {
  while (true) {
    const pid_t done = ::waitpid(pid, &status, deadline ? WNOHANG : 0);
    if (done == pid) return true;
    if (done < 0 && errno != EINTR) return true;  // no such child: nothing to wait for
    if (deadline && std::chrono::steady_clock::now() >= *deadline) return false;
    if (deadline) ::usleep(10'000);
  }
}

}  // namespace

std::optional<std::string> find_program(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    std::error_code ec;
    const fs::path candidate = fs::absolute(fs::path(dirs.substr(start, end - start)) / program, ec);
    if (!ec && fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return std::nullopt;
}

ProgramRun run_program(const ProgramCall& call) {
  ProgramRun run;
  const std::optional<std::string> executable = find_program(call.program);  // resolved before the chdir below
  Pipe in, out;
  if (!executable || !in.open() || !out.open()) return run;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fds[0], STDIN_FILENO);
  if (call.capture_output)
    posix_spawn_file_actions_adddup2(&actions, out.fds[1], STDOUT_FILENO);
  else
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, call.cwd.c_str());
  std::vector<std::string> argv_text{call.program};
  argv_text.insert(argv_text.end(), call.args.begin(), call.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = ::posix_spawn(&pid, executable->c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  in.close(0), out.close(1);
  if (spawned != 0) return run;
  run.started = true;
  // A program that exits without reading all its input must not kill this one with SIGPIPE: block it on this thread
  // while writing (the signal is synchronous, so it stays pending here) and discard it afterwards.
  sigset_t pipe_set, previous;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &previous);
  const int to_child = in.fds[1], from_child = out.fds[0];
  in.fds[1] = out.fds[0] = -1;  // exchange closes them
  // This side's ends never block: a write takes what the pipe holds, so the deadline and the output are seen to.
  ::fcntl(to_child, F_SETFL, ::fcntl(to_child, F_GETFL) | O_NONBLOCK);
  ::fcntl(from_child, F_SETFL, ::fcntl(from_child, F_GETFL) | O_NONBLOCK);
  const bool in_time = exchange(to_child, call.capture_output ? from_child : -1, call.input, &run.output,
                                call.limit ? std::optional(start + *call.limit) : std::nullopt, call.stop);
  if (!call.capture_output) ::close(from_child);
  const timespec no_wait{0, 0};
  while (sigtimedwait(&pipe_set, nullptr, &no_wait) > 0) {}
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  int status = 0;
  run.timed_out = !in_time || !exited_by(pid, call.limit ? std::optional(start + *call.limit) : std::nullopt, status);
  if (run.timed_out) {
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  }
  run.exited = !run.timed_out && WIFEXITED(status);
  if (run.exited) run.exit_code = WEXITSTATUS(status);
  return run;
}

bool run_program(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
                 const std::string& input) {
  const ProgramRun run = run_program(ProgramCall{program, args, cwd, input});
  return run.exited && run.exit_code == 0;
}

}  // namespace tverify
