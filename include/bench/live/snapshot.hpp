#pragma once
// What the live feed shows at one moment: built whole by the publisher (publisher.hpp) at a fixed
// rate and never changed after, so the HTTP threads and the JSON line writer read it with no
// lock but the one that hands out the pointer (SnapshotBoard).
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bench::live {

/// Requests that ended, by phase and outcome: counters since the run began.
struct RequestCounts {
  std::int64_t completed = 0, failed = 0, cancelled = 0;
  std::int64_t ended() const { return completed + failed + cancelled; }
};

/// Tokens of the measured requests that completed, as the report counts them (its
/// total_input_tokens and total_output_tokens): unknown counts are in none of the sums.
struct TokenCounts {
  std::int64_t input = 0;
  std::int64_t output = 0;
  std::int64_t input_cached = 0;             // of input, served by the server's prefix cache
  std::int64_t input_computed = 0;           // of input, prefilled
  std::int64_t input_split_unknown = 0;      // of input, from requests whose split was not said
  std::int64_t output_reasoning = 0;         // of output
  std::int64_t output_tool_call = 0;         // of output
  std::int64_t requests_input_unknown = 0;   // completed requests whose input count is unknown
  std::int64_t requests_output_unknown = 0;  // likewise for output
};

/// A Prometheus histogram's state: cumulative bucket counts at upper bounds (+Inf last), the sum
/// and the count, in the unit of its bounds.
struct Buckets {
  std::vector<double> upper_bounds;         // ascending; +Inf implied after the last
  std::vector<std::uint64_t> counts = {0};  // per bucket (not cumulative): bounds + 1
  double sum = 0;
  std::uint64_t count = 0;

  Buckets() = default;  // the +Inf bucket alone
  explicit Buckets(std::vector<double> bounds);
  void add(double value, std::uint64_t times = 1);
};

/// The latencies the feed follows, in this order everywhere.
enum class Latency { ttft, itl, tpot, e2e };
inline constexpr std::array<Latency, 4> kLatencies = {Latency::ttft, Latency::itl, Latency::tpot,
                                                      Latency::e2e};
std::string_view latency_name(Latency latency);  // "ttft", "itl", "tpot", "e2e"

/// The percentiles the window reports, numpy's definition (metrics/percentile.hpp).
inline constexpr std::array<double, 3> kWindowPercentiles = {50, 90, 99};

/// Exact percentiles of one latency over the sliding window, ms; none when it held no value.
struct WindowFigures {
  std::uint64_t values = 0;                          // values in the window
  std::array<std::optional<double>, 3> percentiles;  // at kWindowPercentiles
  bool capped = false;  // the window held more than kWindowCap values: the latest are used
};

struct Snapshot {
  std::int64_t sequence = 0;      // 0, 1, 2, ... one per publish
  double elapsed_s = 0;           // since the feed started
  std::int64_t unix_ms = 0;       // the wall clock when it was made
  bool final = false;             // the run has ended: nothing will change any more
  std::string shard;              // this process's shard index, "" when not sharded
  std::string point;              // the sweep point or search probe running ("c=64"), or ""
  std::int64_t point_index = -1;  // 0-based count of points begun; -1 before the first
  std::int64_t in_flight = 0;     // requests sent and not yet ended
  double publisher_cpu_s = 0;     // CPU the publisher thread has used so far: the feed's own cost
  RequestCounts measured, warmup;
  TokenCounts tokens;
  std::array<Buckets, 4> latency_seconds;     // by kLatencies, seconds
  std::array<Buckets, 2> tokens_per_request;  // input, output (OpenTelemetry's token.usage)
  // The sliding window: the last window_s seconds of the current point (it starts empty at each
  // point), or since the point began when that is shorter (window_span_s).
  double window_s = 0;
  double window_span_s = 0;
  std::array<WindowFigures, 4> window;   // by kLatencies, ms
  std::int64_t window_input_tokens = 0;  // of completed measured requests that ended in it
  std::int64_t window_output_tokens = 0;
};

/// Where the latest snapshot is kept for its readers: publish() replaces it, latest() hands out
/// a reference to it (null before the first). Only the pointer is guarded.
class SnapshotBoard {
 public:
  void publish(std::shared_ptr<const Snapshot> snapshot);
  std::shared_ptr<const Snapshot> latest() const;

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Snapshot> latest_;
};

}  // namespace bench::live
