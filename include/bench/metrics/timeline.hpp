#pragma once
// What happened when during the measured phase: requests started and finished, tokens
// received, errors, per time step. From it come the per-second timeline of the results
// (ramp-up and drain made visible) and the steady-state window, where the load was what was
// asked for, with its own throughput figures beside the whole-run ones.
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/metrics/request_record.hpp"

namespace bench::metrics {

struct TimelineState;  // accumulator_state.hpp

struct TimelineBucket {
  double t_s = 0;  // bucket start, seconds from the first measured request's start
  // The bucket's real width: the asked-for width, except for the last bucket, which ends with
  // the step holding the run's last event. Rates divide by it, so a partial last bucket of a
  // flat run shows the same rate as the full ones.
  double width_s = 0;
  std::int64_t started = 0;    // requests sent in the bucket
  std::int64_t finished = 0;   // requests that ended in it (completed, failed or cancelled)
  std::int64_t in_flight = 0;  // requests in flight at the bucket's end
  // Requests in flight on average over the bucket: the mean of in flight at each step's end,
  // the samples the steady-state window is judged on, so the two agree (in flight at the end of
  // the last bucket is 0 however busy it was).
  double mean_in_flight = 0;
  std::int64_t output_tokens = 0;  // tokens of text chunks that arrived in it
  std::int64_t input_tokens = 0;   // prompt tokens of requests whose first token arrived in it
  std::int64_t errors = 0;         // failed requests that ended in it

  double output_throughput() const { return per_second(output_tokens); }  // output tok/s
  double input_throughput() const { return per_second(input_tokens); }    // input tok/s
  double per_second(std::int64_t count) const {
    return width_s > 0 ? static_cast<double>(count) / width_s : 0;
  }
};

struct SteadyState {
  bool found = false;
  double start_s = 0, end_s = 0;      // seconds from the first measured request's start
  std::int64_t target_in_flight = 0;  // what "steady" was measured against
  double output_throughput = 0;       // output tok/s within the window
  double input_throughput = 0;        // input tok/s within the window
  double total_throughput = 0;        // input + output within the window
  double request_throughput = 0;      // completed requests/s within the window
  // The window on the records' clock, [from_ns, to_ns): what steady_latency.hpp filters by.
  std::int64_t from_ns = 0, to_ns = 0;
};

/// One step of a Timeline (and of its saved state): what started, finished and was counted in it.
/// visit() is the one list of its fields: adding them up, a shard's saved steps and their
/// reading (results/shard_state.cpp) go through it.
struct TimelineStep {
  std::int64_t started = 0, finished = 0, completed = 0, errors = 0;
  std::int64_t output_tokens = 0, input_tokens = 0;

  /// visit(name, a.field, b.field, ...) for each field of the steps given, in one order (the
  /// order of a saved step's array).
  template <typename Visit, typename... Steps>
  static void visit(Visit&& field, Steps&... steps) {
    field("started", steps.started...);
    field("finished", steps.finished...);
    field("completed", steps.completed...);
    field("errors", steps.errors...);
    field("output_tokens", steps.output_tokens...);
    field("input_tokens", steps.input_tokens...);
  }

  TimelineStep& operator+=(const TimelineStep& other) {
    visit([](const char*, std::int64_t& to, std::int64_t from) { to += from; }, *this, other);
    return *this;
  }
};

class Timeline {
 public:
  /// `origin_ns`: where steps are counted from, on the records' clock (the run's start); the
  /// output starts at the step of the first measured request, whatever warm-up came before.
  /// `step_ns`: the resolution counts are kept at; the window is found at this resolution. Past
  /// 65,536 steps (about 11 minutes at 10 ms) the step doubles, as often as the run needs, so
  /// the timeline holds at most 65,536 steps (3 MiB) whatever the run's length.
  explicit Timeline(std::int64_t origin_ns = 0, std::int64_t step_ns = 10'000'000);

  /// Adds one measured request. Successful requests add their tokens; every request adds its
  /// start and end; failed ones (not cancelled) add an error.
  void add(const RequestRecord& record);

  /// Adds another timeline with the same origin and step (one per client thread).
  void merge(const Timeline& other);

  /// At most this many buckets: a longer run gets wider ones (bucket_width_ns).
  static constexpr std::size_t kMaxBuckets = 3600;

  /// The width buckets(bucket_ns) uses: `bucket_ns` in whole steps (at least one), doubled as
  /// often as needed for the run to fit kMaxBuckets.
  std::int64_t bucket_width_ns(std::int64_t bucket_ns) const;

  /// Buckets of bucket_width_ns(bucket_ns), from the first start to the last event.
  std::vector<TimelineBucket> buckets(std::int64_t bucket_ns) const;

  /// The longest stretch of steps in which in-flight was at or above 90% of `target_in_flight`
  /// (the configured concurrency of a closed loop; 0 = the peak in flight, for open-loop runs)
  /// at the step's start or at its end. So the window runs from the step in which in-flight
  /// rose to the threshold through the step in which it fell below it: requests that end at
  /// either edge are inside it, as are their tokens (a lockstep wave that ends the run ends
  /// inside the window, not 5 ms after it). Like SGLang's steady-state window, it leaves out
  /// ramp-up and drain. Not found when the run never got there or the stretch is shorter than
  /// 2 steps.
  SteadyState steady_state(std::int64_t target_in_flight) const;

  std::int64_t step_ns() const { return step_ns_; }

  /// Where buckets() starts (its first bucket's t_s = 0) on the records' clock: the start of
  /// the step holding the first measured request's start.
  std::int64_t start_ns() const {
    return origin_ns_ + static_cast<std::int64_t>(first_step()) * step_ns_;
  }

  /// Its steps as plain data, to be saved and merged elsewhere (a shard's results).
  TimelineState state() const;
  /// The timeline `state` describes, its origin moved `shift_ns` later (onto another clock);
  /// nullopt for a step that is not positive or more steps than a timeline keeps.
  static std::optional<Timeline> from_state(const TimelineState& state, std::int64_t shift_ns);

 private:
  using Step = TimelineStep;
  Step& at(std::int64_t time_ns);
  void coarsen();  // merges steps in pairs: the step doubles

  std::size_t first_step() const;  // the step holding the earliest start; 0 when empty

  std::int64_t origin_ns_;
  std::int64_t step_ns_;
  std::vector<Step> steps_;
};

}  // namespace bench::metrics
