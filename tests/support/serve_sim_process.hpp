#pragma once
// A `bench serve-sim` of the test's own, on a port the kernel picks (--port 0, read from its
// announcement, so no other process can take the port first), stopped by SIGINT to its PID
// when the test is done with it: by stop(), or at the latest when the object goes out of scope.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "run_process.hpp"

namespace bench::testing {

class ServeSimProcess {
 public:
  /// Starts `binary serve-sim --port 0 args...`; its stderr goes to a file in `dir`.
  ServeSimProcess(const std::string& binary, const std::vector<std::string>& args,
                  const TempDir& dir);
  ~ServeSimProcess();
  ServeSimProcess(const ServeSimProcess&) = delete;
  ServeSimProcess& operator=(const ServeSimProcess&) = delete;

  /// Its base URL, or "" when it announced none within 30 s (it failed to start).
  const std::string& base_url() const { return base_url_; }

  /// Interrupts it, waits for it to exit, and returns what it did (exit code, stderr).
  const ProcessResult& stop();

 private:
  std::atomic<bool> done_{false};
  ProcessResult result_;
  std::thread serving_;
  std::string base_url_;
};

}  // namespace bench::testing
