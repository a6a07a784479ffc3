#pragma once
// `bench search`'s plan of probes: the largest load (concurrency, or request rate) whose run
// meets every SLO. From a start value the load doubles until a probe fails the SLOs or the cap
// is reached, then the gap between the last passing and the first failing load is bisected
// until it is within the resolution. It stops early when the server saturates (output tok/s no
// longer rising while latency climbs: more load only queues) and when the time budget is
// spent, with the best answer so far, said as such. A pure state machine: the caller measures
// each probe (a sweep point, through the run's one path) and records its outcome.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bench::app {

struct LoadSearchPlan {
  double start = 1;     // the first probe
  double cap = 1024;    // no probe above it
  bool integer = true;  // concurrency: whole numbers only (a rate may be fractional)
  // The bisection ends when first failing - last passing <= relative x last passing, or, with
  // `step` > 0, <= step (in the load's unit).
  double relative = 0.05;
  double step = 0;
};

/// What one probe measured, for the search's decisions.
struct ProbeOutcome {
  double load = 0;
  bool met = false;  // every SLO held
  // The first SLO that failed, as said to the user; or, when the probe could not hold its load
  // (load_held false), why, worded to follow "fails".
  std::string failed_slo;
  double output_throughput = 0;  // output tok/s, for the saturation check
  double latency_ms = 0;         // median E2E latency, for the saturation check
  // Whether the probe measured its load: a closed loop that sent at least its concurrency in
  // measured requests, with a steady-state window when the SLOs read one. A probe that did not
  // is no answer: it counts as failing, and says why.
  bool load_held = true;
};

enum class SearchEnd {
  none,          // still searching
  resolved,      // bracketed within the resolution
  cap_met,       // every probe up to the cap met the SLOs
  start_failed,  // even the start value failed
  saturated,     // throughput stopped rising while latency climbed
  time_budget,   // --max-time spent: the best answer so far
  interrupted,   // the user stopped it
};
std::string_view search_end_name(SearchEnd end);  // "resolved", "cap_met", ...

/// Output tok/s counts as no longer rising below this growth from one probe to the next (5%),
/// while median E2E latency grew by more than kSaturationLatencyGrowth (20%).
inline constexpr double kSaturationThroughputGrowth = 0.05;
inline constexpr double kSaturationLatencyGrowth = 0.20;

class LoadSearch {
 public:
  explicit LoadSearch(LoadSearchPlan plan);

  /// The next load to probe; nullopt once the search has ended.
  std::optional<double> next() const;
  /// Records the outcome of the probe of next().
  void record(const ProbeOutcome& outcome);
  /// Ends the search now (time budget, interruption), keeping the best answer so far.
  void stop(SearchEnd why);

  SearchEnd end() const { return end_; }
  /// The largest load that met the SLOs; nullopt when none did.
  std::optional<double> answer() const;
  const ProbeOutcome* last_passing() const;
  const ProbeOutcome* first_failing() const;  // the smallest failing load, when one failed
  const std::vector<ProbeOutcome>& probes() const { return probes_; }

 private:
  bool resolved(double passing, double failing) const;
  double midpoint(double passing, double failing) const;
  bool saturated(const ProbeOutcome& outcome) const;

  LoadSearchPlan plan_;
  std::vector<ProbeOutcome> probes_;
  std::optional<std::size_t> passing_;  // index into probes_ of the largest passing load
  std::optional<std::size_t> failing_;  // and of the smallest failing one
  std::optional<double> next_;
  SearchEnd end_ = SearchEnd::none;
};

}  // namespace bench::app
