#include "announcing_process.hpp"

#include <chrono>

namespace bench::testing {

AnnouncingProcess::AnnouncingProcess(const std::string& binary,
                                     const std::vector<std::string>& args,
                                     const std::string& err_path) {
  ProcessOptions until_done;
  until_done.timeout = std::chrono::milliseconds(300'000);
  until_done.signal_when = [this] { return done_.load(); };
  until_done.err_path = err_path;
  running_ = std::thread(
      [this, binary, args, until_done] { result_ = run_process(binary, args, until_done); });
  base_url_ = wait_for_announced_url(err_path, std::chrono::milliseconds(30'000));
}

AnnouncingProcess::~AnnouncingProcess() { stop(); }

const ProcessResult& AnnouncingProcess::stop() {
  done_ = true;
  if (running_.joinable()) running_.join();
  return result_;
}

}  // namespace bench::testing
