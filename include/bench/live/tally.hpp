#pragma once
// The figures behind the snapshots, kept by the publisher thread alone: counters and histograms
// since the run began, and the sliding window of the current point's latencies, from which
// exact percentiles are taken at each publish.
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>

#include "bench/live/sample.hpp"
#include "bench/live/snapshot.hpp"

namespace bench::live {

/// Most values one latency's window keeps: past it, the oldest leave first (the percentiles are
/// then of the latest kWindowCap values, and the snapshot says so). It bounds the publisher's
/// sort to a few ms.
inline constexpr std::size_t kWindowCap = 200'000;

class Tally {
 public:
  explicit Tally(double window_s);

  void add(const Sample& sample);
  /// A new point begins at steady-clock `now_ns`: its window starts empty.
  void begin_point(std::int64_t now_ns);
  /// The figures into `snapshot` at steady-clock `now_ns` (drops what left the window). The
  /// window's percentiles are taken anew only when `percentiles` (they cost a pass over its
  /// values); otherwise those of the last fill that took them (or of an empty window, after
  /// begin_point).
  void fill(Snapshot& snapshot, std::int64_t now_ns, bool percentiles = true);

 private:
  struct Timed {
    std::int64_t ended_ns;
    double value;
  };
  struct TimedTokens {
    std::int64_t ended_ns;
    std::int64_t input, output;
  };
  void add_latency(Latency latency, std::int64_t ended_ns, double value_ms, std::uint64_t times);
  void trim(std::int64_t now_ns);
  void window_percentiles();  // into window_figures_

  double window_s_;
  std::int64_t point_start_ns_ = 0;
  RequestCounts measured_, warmup_;
  TokenCounts tokens_;
  std::array<Buckets, 4> latency_seconds_;
  std::array<Buckets, 2> tokens_per_request_;
  std::array<std::deque<Timed>, 4> window_;
  std::deque<TimedTokens> window_tokens_;
  std::array<WindowFigures, 4> window_figures_;  // by kLatencies, as last taken
};

}  // namespace bench::live
