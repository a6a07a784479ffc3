#include "serve_sim_process.hpp"

#include <chrono>

namespace bench::testing {

ServeSimProcess::ServeSimProcess(const std::string& binary, const std::vector<std::string>& args,
                                 const TempDir& dir) {
  ProcessOptions until_done;
  until_done.timeout = std::chrono::milliseconds(120'000);
  until_done.signal_when = [this] { return done_.load(); };
  until_done.err_path = dir.file("serve-sim.err");
  std::vector<std::string> command = {"serve-sim", "--port", "0"};
  command.insert(command.end(), args.begin(), args.end());
  serving_ = std::thread(
      [this, binary, command, until_done] { result_ = run_process(binary, command, until_done); });
  base_url_ = wait_for_announced_url(until_done.err_path, std::chrono::milliseconds(30'000));
}

ServeSimProcess::~ServeSimProcess() { stop(); }

const ProcessResult& ServeSimProcess::stop() {
  done_ = true;
  if (serving_.joinable()) serving_.join();
  return result_;
}

}  // namespace bench::testing
