#pragma once
// Several servers (--base-url repeated): every run object (a run, each point of a sweep) also
// holds its figures per server, beside the run's own keys, which stay the whole run's:
//   "per_server": [ in --base-url order
//     {"url": the server's root with no userinfo and no query, "weight": its --server-weights
//      (1 each for round robin), "sent", "completed", "failed", "cancelled",
//      "errors": {class: count} of its failed and cancelled requests,
//      "total_input_tokens" (null when a request's was unknown), "total_output_tokens",
//      "request_throughput", "output_throughput", "input_throughput", "total_throughput"
//      (input and total null when the input is unknown),
//      "{mean,median,p99}_{ttft,tpot,itl,e2e_latency}_ms" (null when none of its requests
//      gave a value),
//      "shard_state": a shard's only, what `bench merge` adds up (results/shard_state.hpp)}]
// The throughputs divide by the run's duration, not each server's own first-send-to-last-end
// window, so the servers' figures add up to the run's. A run against one server has no
// "per_server".
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/accumulator_state.hpp"
#include "bench/metrics/run_summary.hpp"

namespace bench::results {

namespace key {
inline constexpr std::string_view per_server = "per_server";
inline constexpr std::string_view server_url = "url";
inline constexpr std::string_view server_weight = "weight";
}  // namespace key

/// The distributions each server reports, each as {mean,median,p99}_{name}_ms.
inline constexpr std::array<std::string_view, 4> kServerDistributions = {"ttft", "tpot", "itl",
                                                                         "e2e_latency"};
inline constexpr std::array<std::string_view, 3> kServerDistributionStats = {"mean", "median",
                                                                             "p99"};

/// What one server was sent and how it answered.
struct ServerFigures {
  std::string url;  // as shown: util::url_without_credentials
  std::int64_t weight = 1;
  metrics::RunSummary summary;                     // of the requests sent to it
  std::optional<metrics::AccumulatorState> state;  // a shard's: what the merge adds up
};

/// The "per_server" array; the run's `duration_s` is every throughput's denominator.
nlohmann::json per_server_to_json(const std::vector<ServerFigures>& servers, double duration_s);

}  // namespace bench::results
