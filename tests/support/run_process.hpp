#pragma once
// Test support: runs the real bench binary as a child process (no shell), captures stdout and
// stderr, and kills it if it outlives a deadline, so a hung run fails the test instead of CI.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace bench::testing {

struct ProcessResult {
  int exit_code = -1;  // exit status, or 128 + signal number when killed by a signal
  bool timed_out = false;
  std::string out;  // everything written to stdout
  std::string err;  // everything written to stderr
  // The child's peak resident set, KiB (ru_maxrss from wait4). Linux counts it over the
  // child's whole life, so it includes the forked test process's pages before execve: an
  // upper bound on bench's own peak.
  long peak_rss_kib = 0;
};

struct ProcessOptions {
  std::chrono::milliseconds timeout{120'000};
  std::vector<std::string> env;  // NAME=value entries added to the environment (or replacing)
  // When set: send SIGINT once this returns true (polled every 5 ms from the waiting thread),
  // e.g. "my client run is done" or "the server has served 128 requests", so a test waits on
  // a condition instead of guessing a time.
  std::function<bool()> signal_when{};
  // When set: called with the child's pid and the time since it started at every poll (5 ms)
  // while it runs, e.g. to pause it with SIGSTOP and resume it with SIGCONT.
  std::function<void(int pid, std::chrono::milliseconds elapsed)> while_running{};
  // When set: stderr goes to this file (kept), so the test can read it while the process runs.
  std::string err_path{};
};

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const ProcessOptions& options = {});

/// Reads a whole file; empty string when it does not exist.
std::string read_file(const std::string& path);

/// The base URL a `serve-sim` child announced on stderr ("listening on http://...") in the
/// file `err_path`, waiting for it up to `timeout`; empty when it never came. With
/// `serve-sim --port 0` the kernel picks the port, so no other process can take it first.
std::string wait_for_announced_url(const std::string& err_path, std::chrono::milliseconds timeout);

/// A fresh empty directory under /tmp, removed (with its files) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace bench::testing
