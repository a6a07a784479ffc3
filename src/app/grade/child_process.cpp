#include "child_process.hpp"

#include "bench/util/unique_fd.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

namespace bench::app {

namespace {

using Clock = std::chrono::steady_clock;

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void exec_child(std::vector<char*>& args, std::vector<char*>& envp, int stdout_fd,
                             int error_pipe) {
  dup2(stdout_fd, STDOUT_FILENO);
  execvpe(args[0], args.data(), envp.data());
  const int error = errno;
  (void)!write(error_pipe, &error, sizeof error);
  _exit(127);
}

// This process's environment with `overrides` set, for the child alone (ours is left as it is).
std::vector<std::string> child_environment(
    const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    const bool overridden = std::any_of(overrides.begin(), overrides.end(),
                                        [name](const auto& o) { return o.first == name; });
    if (!overridden) entries.emplace_back(text);
  }
  for (const auto& [name, value] : overrides) entries.push_back(name + "=" + value);
  return entries;
}

int status_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// Waits for `pid` until `deadline`; true with its status when it ended.
bool wait_until(pid_t pid, Clock::time_point deadline, int& status) {
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return true;
    if (done < 0 && errno != EINTR) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

ChildEnd run_child(const std::vector<std::string>& argv,
                   const std::vector<std::pair<std::string, std::string>>& environment,
                   double timeout_s, bool discard_stdout) {
  ChildEnd end;
  // The client's stdout: our stderr, or nothing at all.
  const UniqueFd null_out(discard_stdout ? open("/dev/null", O_WRONLY | O_CLOEXEC) : -1);
  if (discard_stdout && null_out.get() < 0) {
    end.error = std::string("/dev/null: ") + std::strerror(errno);
    return end;
  }
  const int stdout_fd = discard_stdout ? null_out.get() : STDERR_FILENO;
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_entries = child_environment(environment);
  std::vector<char*> envp;
  for (std::string& entry : env_entries) envp.push_back(entry.data());
  envp.push_back(nullptr);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    end.error = std::string("pipe: ") + std::strerror(errno);
    return end;
  }
  const pid_t pid = fork();
  if (pid == 0) exec_child(args, envp, stdout_fd, pipe_fds[1]);
  close(pipe_fds[1]);
  if (pid < 0) {
    close(pipe_fds[0]);
    end.error = std::string("fork: ") + std::strerror(errno);
    return end;
  }
  int exec_error = 0;
  if (read(pipe_fds[0], &exec_error, sizeof exec_error) == sizeof exec_error) {
    close(pipe_fds[0]);
    waitpid(pid, nullptr, 0);
    end.error = argv[0] + ": " + std::strerror(exec_error);
    return end;
  }
  close(pipe_fds[0]);
  end.started = true;
  int status = 0;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s));
  if (!wait_until(pid, deadline, status)) {
    end.timed_out = true;
    kill(pid, SIGTERM);
    if (!wait_until(pid, Clock::now() + std::chrono::seconds(5), status)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
    }
  }
  end.exit_code = status_code(status);
  return end;
}

}  // namespace bench::app
