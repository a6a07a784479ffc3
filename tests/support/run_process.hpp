#pragma once
// Test support: runs the real bench binary as a child process (no shell), captures stdout and
// stderr, and kills it if it outlives a deadline, so a hung run fails the test instead of CI.
#include <chrono>
#include <string>
#include <vector>

namespace bench::testing {

struct ProcessResult {
  int exit_code = -1;   // exit status, or 128 + signal number when killed by a signal
  bool timed_out = false;
  std::string out;      // everything written to stdout
  std::string err;      // everything written to stderr
  // The child's peak resident set, KiB (ru_maxrss from wait4). Linux counts it over the
  // child's whole life, so it includes the forked test process's pages before execve: an
  // upper bound on bench's own peak.
  long peak_rss_kib = 0;
};

struct ProcessOptions {
  std::chrono::milliseconds timeout{120'000};
  std::vector<std::string> env;  // extra NAME=value entries added to the environment
  // When > 0: send SIGINT once, this long after the start.
  std::chrono::milliseconds signal_after{0};
};

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const ProcessOptions& options = {});

/// Reads a whole file; empty string when it does not exist.
std::string read_file(const std::string& path);

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
