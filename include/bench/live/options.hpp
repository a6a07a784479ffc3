#pragma once
// What the live feed is asked for (cli/live_flags.hpp's flags, as the plan settles them).
#include <optional>
#include <string>

namespace bench::live {

struct LiveOptions {
  std::optional<std::string> listen_host;  // --metrics-listen's host; none: no listener
  int listen_port = 0;                     // its port; 0: the kernel picks one
  std::string jsonl_path;                  // --live-jsonl; "" none
  double window_s = 30;                    // --metrics-window: the percentiles' window, s
  double linger_s = 0;                     // --metrics-linger: serve this long after the run, s
  std::string shard;                       // the shard's index, "" when not sharded
  std::string otlp_endpoint;               // --otlp-endpoint: spans posted there; "" none

  bool enabled() const {
    return listen_host.has_value() || !jsonl_path.empty() || !otlp_endpoint.empty();
  }
};

}  // namespace bench::live
