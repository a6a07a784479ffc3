#pragma once
// What a RunAccumulator holds, as plain data: enough to save a shard's figures and merge them
// with other shards' later, exactly as the accumulators of client threads merge after join
// (counts and sums exact, raw latency values while under budget, histograms beyond it). The
// results module writes and reads it (results/shard_state.hpp); this module knows no format.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "bench/metrics/accumulator_distributions.hpp"
#include "bench/metrics/histogram.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/metrics/run_sums.hpp"
#include "bench/metrics/timeline.hpp"

namespace bench::metrics {

/// A Histogram's contents: its exact statistics (HistogramStats, histogram.hpp, with their
/// visit_stats()) and its non-empty buckets.
struct HistogramState : HistogramStats {
  struct Bucket {
    bool negative = false;
    int octave = 0;                // biased IEEE-754 exponent, 1..2046
    std::uint32_t sub_bucket = 0;  // 0..Histogram::kSubBuckets - 1
    std::uint64_t count = 0;
  };
  std::vector<Bucket> buckets;
};

/// A LatencyDistribution's contents: its raw values while exact, else its histogram.
struct DistributionState {
  bool exact = true;
  std::vector<double> samples;  // while exact
  std::uint64_t rejected = 0;   // non-finite values left out while exact
  HistogramState histogram;     // once not exact
};

/// A Timeline's steps: step i covers [origin_ns + i x step_ns, origin_ns + (i + 1) x step_ns).
struct TimelineState {
  using Step = TimelineStep;
  std::int64_t origin_ns = 0;
  std::int64_t step_ns = 0;
  std::vector<Step> steps;
};

struct AccumulatorState {
  SummaryOptions options;
  // The counters and sums of RunSummary (sent ... good_requests, errors, input_split); its
  // distributions, throughputs and timeline are left empty: summarize() derives them.
  RunSummary counts;
  std::array<DistributionState, kAccumulatorDistributions.size()> distributions;
  // Times on the records' clock (ns from the point's epoch); first > last when nothing was sent.
  std::int64_t first_start_ns = 0, last_end_ns = 0;
  RunSums sums;
  TimelineState timeline;
};

}  // namespace bench::metrics
