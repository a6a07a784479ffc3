#include "bench/record/recording_proxy.hpp"

#include <arpa/inet.h>

#include <exception>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "bench/record/record.hpp"
#include "bench/util/stop_flag.hpp"
#include "exchange_writer.hpp"
#include "relay.hpp"
#include "resolve.hpp"

namespace bench::record {

// Declared in this order so the relay's thread ends before the relay, and the relay before the
// writer it pushes to.
struct RecordingProxy::State {
  State(const sockaddr_in& at, const sockaddr_in& to, const std::string& dir)
      : writer(dir), relay(at, to, writer) {}
  ExchangeWriter writer;
  Relay relay;
  StopFlag stop;
  std::thread thread;
  std::uint64_t written = 0;
  bool finished = false;
};

std::variant<std::unique_ptr<RecordingProxy>, std::string> RecordingProxy::start(
    const std::string& upstream_url, const std::string& out_dir) {
  const auto upstream = parse_upstream(upstream_url);
  if (const auto* error = std::get_if<std::string>(&upstream)) return *error;
  const auto address = resolve(std::get<Upstream>(upstream).host);
  if (const auto* error = std::get_if<std::string>(&address)) return *error;
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error || !std::filesystem::is_directory(out_dir)) {
    return fmt::format("'{}': cannot create the directory: {}", out_dir, error.message());
  }
  sockaddr_in to{}, at{};
  to.sin_family = at.sin_family = AF_INET;
  to.sin_addr = std::get<in_addr>(address);
  to.sin_port = htons(std::get<Upstream>(upstream).port);
  at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  try {
    auto state = std::make_unique<State>(at, to, out_dir);
    State& running = *state;
    running.thread = std::thread([&running] {
      try {
        running.relay.run(running.stop);
      } catch (const std::exception& failure) {
        // Nothing throws out of a thread: the exchanges that reach the server are what says so.
        fmt::print(stderr, "bench: the recording proxy stopped: {}\n", failure.what());
      }
    });
    return std::unique_ptr<RecordingProxy>(new RecordingProxy(std::move(state)));
  } catch (const std::exception& failure) {
    return std::string(failure.what());
  }
}

RecordingProxy::RecordingProxy(std::unique_ptr<State> state) : state_(std::move(state)) {}

RecordingProxy::~RecordingProxy() { finish(); }

std::string RecordingProxy::url() const {
  return fmt::format("http://127.0.0.1:{}", state_->relay.port());
}

std::uint64_t RecordingProxy::finish() {
  if (state_->finished) return state_->written;
  state_->finished = true;
  state_->stop.request();
  if (state_->thread.joinable()) state_->thread.join();
  state_->writer.finish();
  state_->written = state_->writer.written();
  return state_->written;
}

}  // namespace bench::record
