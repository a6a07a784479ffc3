#include "run_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>

extern char** environ;

namespace bench::testing {

namespace {

std::string slurp_and_remove(const std::string& path) {
  std::string content = read_file(path);
  std::filesystem::remove(path);
  return content;
}

}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const ProcessOptions& options) {
  TempDir capture;
  const std::string out_path = capture.file("stdout");
  const std::string err_path = options.err_path.empty() ? capture.file("stderr") : options.err_path;

  std::vector<std::string> env_storage;
  for (char** entry = environ; *entry != nullptr; ++entry) env_storage.emplace_back(*entry);
  // An extra entry replaces one of the same name (getenv would find the inherited one first).
  for (const std::string& extra : options.env) {
    const std::string name = extra.substr(0, extra.find('=') + 1);
    const auto same =
        std::find_if(env_storage.begin(), env_storage.end(),
                     [&](const std::string& entry) { return entry.starts_with(name); });
    if (same != env_storage.end()) {
      *same = extra;
    } else {
      env_storage.push_back(extra);
    }
  }
  std::vector<char*> envp;
  for (std::string& entry : env_storage) envp.push_back(entry.data());
  envp.push_back(nullptr);

  std::vector<std::string> argv_storage{program};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (out_fd < 0 || err_fd < 0 || null_fd < 0) _exit(126);
    dup2(null_fd, STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    execve(program.c_str(), argv.data(), envp.data());
    _exit(127);
  }

  ProcessResult result;
  const auto start = std::chrono::steady_clock::now();
  bool signalled = false;
  int status = 0;
  rusage usage{};
  while (true) {
    const pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (options.while_running) {
      options.while_running(pid, std::chrono::duration_cast<std::chrono::milliseconds>(elapsed));
    }
    if (!signalled && options.signal_when && options.signal_when()) {
      kill(pid, SIGINT);
      signalled = true;
    }
    if (elapsed >= options.timeout) {
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  result.peak_rss_kib = usage.ru_maxrss;
  result.out = slurp_and_remove(out_path);
  result.err = options.err_path.empty() ? slurp_and_remove(err_path) : read_file(err_path);
  return result;
}

std::string wait_for_announced_url(const std::string& err_path, std::chrono::milliseconds timeout) {
  constexpr std::string_view kAnnouncement = "listening on ";
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string err = read_file(err_path);
    const std::size_t at = err.find(kAnnouncement);
    if (at != std::string::npos) {
      const std::size_t from = at + kAnnouncement.size();
      const std::size_t to = err.find_first_of(" \n", from);
      if (to != std::string::npos) return err.substr(from, to - from);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return "";
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "bench-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace bench::testing
