#pragma once
// How the reports name the server's latencies (results/server_latency.hpp) and why bench's figure
// may lie outside the server's range: the text report's findings and the HTML report's rows read
// this one table. Private to the report module.
#include <array>
#include <string_view>

namespace bench::report {

struct LatencyWords {
  std::string_view key;    // results' LatencyMetric::key: "ttft", "e2e", "itl", "tpot", ...
  std::string_view label;  // "TTFT", ..., "queue time"
  // Why bench's figure may lie above, or below, the server's range: the finding's second half.
  std::string_view above_because;
  std::string_view below_because;
};

// Reasons a bench figure may lie outside the server's range. Time from the request's send (TTFT,
// E2E) includes what the server does not see; time between tokens (ITL, TPOT) is stretched by a
// stream that slows on its way, or compressed where chunks held up on the way arrive bunched.
inline constexpr std::string_view kOutsideTheServer =
    "time spent outside the server's own measurement (network, proxies, the client's queue)";
inline constexpr std::string_view kDifferentRequests =
    "the two measure different requests (others share the server) or measure differently";
inline constexpr std::string_view kSlowedOnTheWay =
    "the stream slowed on its way from the server (network, proxies, a client that reads late)";
inline constexpr std::string_view kBunchedOnTheWay =
    "the two measure different requests (others share the server) or measure differently "
    "(chunks held up on the way arrive bunched; TGI's time per token includes the prefill)";

/// In the reports' order, which is results' (latency_ranges).
inline constexpr std::array<LatencyWords, 5> kLatencyWords = {{
    {"ttft", "TTFT", kOutsideTheServer, kDifferentRequests},
    {"e2e", "E2E", kOutsideTheServer, kDifferentRequests},
    {"itl", "ITL", kSlowedOnTheWay, kBunchedOnTheWay},
    {"tpot", "TPOT", kSlowedOnTheWay, kBunchedOnTheWay},
    {"queue_time", "queue time", {}, {}},
}};

/// The words of the latency under `key`; a key not in the table gets the key as its label.
inline LatencyWords latency_words(std::string_view key) {
  for (const LatencyWords& words : kLatencyWords) {
    if (words.key == key) return words;
  }
  return {key, key, {}, {}};
}

}  // namespace bench::report
