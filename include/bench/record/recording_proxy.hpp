#pragma once
// `bench record`'s proxy inside another command (`bench conformance`): the same relay and
// writer as run_record, on a thread of its own, on a free loopback port, until finish().
#include <cstdint>
#include <memory>
#include <string>
#include <variant>

namespace bench::record {

class RecordingProxy {
 public:
  /// Starts recording `upstream_url` ("http://host:port") into `out_dir` (created if missing),
  /// listening on 127.0.0.1 at a free port; the reason in one line when it cannot.
  static std::variant<std::unique_ptr<RecordingProxy>, std::string> start(
      const std::string& upstream_url, const std::string& out_dir);
  /// Stops and writes what is complete, as finish() does.
  ~RecordingProxy();
  RecordingProxy(const RecordingProxy&) = delete;
  RecordingProxy& operator=(const RecordingProxy&) = delete;

  /// "http://127.0.0.1:PORT": where clients send what is to be recorded.
  std::string url() const;
  /// Stops the relay, writes every exchange whose response was complete and returns how many
  /// were written. Once; later calls return the same count.
  std::uint64_t finish();

 private:
  struct State;
  explicit RecordingProxy(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace bench::record
