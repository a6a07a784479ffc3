#pragma once
// A bench server of the test's own (`serve-sim --port 0 ...`, `record --listen 0 ...`): started
// with the given arguments, its base URL read from its "listening on URL" line on stderr, and
// stopped by SIGINT to its PID when the test is done with it (stop(), or at destruction).
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "run_process.hpp"

namespace bench::testing {

class AnnouncingProcess {
 public:
  /// Starts `binary args...`; its stderr goes to `err_path`.
  AnnouncingProcess(const std::string& binary, const std::vector<std::string>& args,
                    const std::string& err_path);
  ~AnnouncingProcess();
  AnnouncingProcess(const AnnouncingProcess&) = delete;
  AnnouncingProcess& operator=(const AnnouncingProcess&) = delete;

  /// Its base URL, or "" when it announced none within 30 s (it failed to start).
  const std::string& base_url() const { return base_url_; }
  /// Interrupts it, waits for it to exit, and returns what it did.
  const ProcessResult& stop();

 private:
  std::atomic<bool> done_{false};
  ProcessResult result_;
  std::thread running_;
  std::string base_url_;
};

}  // namespace bench::testing
