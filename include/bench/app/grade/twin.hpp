#pragma once
// A run's loopback twin (bench certify): the run's load (its endpoint, concurrency cap or rate,
// mean lengths, event loops, up to `window` requests) replayed by bench against the embedded
// server answering as the run's server did (its median TTFT and time per token), with its truth
// log on and the replay's request log saved, so the client's error at that load can be measured
// request by request. An estimate of a different run: the twin's server shares this host's cores,
// with no network, no TLS and no remote NIC.
#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

namespace bench::app {

struct TwinReplay {
  std::string requests_path;  // the replay's request log (--save-requests)
  std::string truth_path;     // the twin's truth log
  std::string words;          // what the twin was, in one sentence
  double server_cpu_s = 0;    // CPU the twin's server took (it runs in this process)
  double wall_s = 0;
  std::shared_ptr<const void> files;  // the directory holding both; removed with the last copy
};

/// The replay of `run` (a results object of bench's own, streamed) on its twin; a message when
/// the run cannot be replayed (no streamed answer timed) or the replay fails.
std::variant<TwinReplay, std::string> replay_on_twin(const nlohmann::json& run, std::int64_t window,
                                                     double timeout_s);

}  // namespace bench::app
