// The accumulators' contents as plain data and back (accumulator_state.hpp): what a shard saves
// so that merging shards is the same operation as merging client threads after join.
#include "bench/metrics/accumulator_state.hpp"

#include <iterator>
#include <limits>
#include <utility>

#include "bench/metrics/histogram.hpp"
#include "bench/metrics/latency_distribution.hpp"
#include "bench/metrics/timeline.hpp"

namespace bench::metrics {

namespace {

constexpr int kLargestOctave = 2046;  // biased exponent of the largest finite doubles

void append_buckets(std::vector<HistogramState::Bucket>& out, bool negative, int first_octave,
                    const std::vector<std::uint64_t>& counts) {
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    out.push_back({negative, first_octave + static_cast<int>(i / Histogram::kSubBuckets),
                   static_cast<std::uint32_t>(i % Histogram::kSubBuckets), counts[i]});
  }
}

}  // namespace

HistogramState Histogram::state() const {
  HistogramState out;
  static_cast<HistogramStats&>(out) = stats_;
  append_buckets(out.buckets, true, negative_.first_octave, negative_.counts);
  append_buckets(out.buckets, false, positive_.first_octave, positive_.counts);
  return out;
}

std::optional<Histogram> Histogram::from_state(const HistogramState& state) {
  Histogram out;
  std::uint64_t bucketed = state.zeros;
  for (const HistogramState::Bucket& bucket : state.buckets) {
    if (bucket.octave < 1 || bucket.octave > kLargestOctave || bucket.sub_bucket >= kSubBuckets) {
      return std::nullopt;
    }
    (bucket.negative ? out.negative_ : out.positive_)
        .add(bucket.octave, bucket.sub_bucket, bucket.count);
    bucketed += bucket.count;
  }
  if (bucketed != state.count) return std::nullopt;
  out.stats_ = state;
  return out;
}

DistributionState LatencyDistribution::state() const {
  DistributionState out;
  out.exact = exact_;
  out.rejected = rejected_;
  if (exact_) {
    out.samples = samples_;
  } else {
    out.histogram = histogram_.state();
  }
  return out;
}

std::optional<LatencyDistribution> LatencyDistribution::from_state(const DistributionState& state) {
  LatencyDistribution out(std::numeric_limits<std::size_t>::max());
  out.rejected_ = state.rejected;
  if (state.exact) {
    out.samples_ = state.samples;
    out.sorted_ = false;
    return out;
  }
  std::optional<Histogram> histogram = Histogram::from_state(state.histogram);
  if (!histogram) return std::nullopt;
  out.exact_ = false;
  out.histogram_ = std::move(*histogram);
  return out;
}

TimelineState Timeline::state() const {
  TimelineState out;
  out.origin_ns = origin_ns_;
  out.step_ns = step_ns_;
  out.steps = steps_;
  return out;
}

std::optional<Timeline> Timeline::from_state(const TimelineState& state, std::int64_t shift_ns) {
  if (state.step_ns <= 0) return std::nullopt;
  Timeline out(state.origin_ns + shift_ns, state.step_ns);
  out.steps_ = state.steps;
  return out;
}

AccumulatorState RunAccumulator::state() const {
  AccumulatorState out;
  out.options = options_;
  out.counts = counts_;
  // distributions() is the one order, the names' and from_state's too.
  const std::array<const LatencyDistribution*, kAccumulatorDistributions.size()> held =
      distributions();
  for (std::size_t i = 0; i < held.size(); ++i) out.distributions[i] = held[i]->state();
  out.first_start_ns = first_start_ns_;
  out.last_end_ns = last_end_ns_;
  out.sums = sums_;
  out.timeline = timeline_.state();
  return out;
}

std::optional<RunAccumulator> RunAccumulator::from_state(const AccumulatorState& state,
                                                         std::int64_t shift_ns) {
  RunAccumulator out(state.options);
  out.counts_ = state.counts;
  const std::array<LatencyDistribution*, kAccumulatorDistributions.size()> held =
      out.distributions();
  for (std::size_t i = 0; i < held.size(); ++i) {
    std::optional<LatencyDistribution> restored =
        LatencyDistribution::from_state(state.distributions[i]);
    if (!restored) return std::nullopt;
    *held[i] = std::move(*restored);
  }
  std::optional<Timeline> timeline = Timeline::from_state(state.timeline, shift_ns);
  if (!timeline) return std::nullopt;
  out.timeline_ = std::move(*timeline);
  // Nothing sent: the bounds are the sentinels of an empty accumulator, not times to move.
  const bool sent = state.counts.sent > 0;
  out.first_start_ns_ = sent ? state.first_start_ns + shift_ns : out.first_start_ns_;
  out.last_end_ns_ = sent ? state.last_end_ns + shift_ns : out.last_end_ns_;
  out.sums_ = state.sums;
  // A shard's state keeps no request's times: the merged steady-state latencies are unknown.
  out.steady_times_kept_ = false;
  return out;
}

}  // namespace bench::metrics
