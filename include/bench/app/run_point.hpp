#pragma once
// One measured run (one point of a sweep), warm-up included: the requests are shared out over
// `client_threads` threads, each owning its engine (curl multi handle), its driver and its
// accumulator, with no locks on the hot path; their figures are merged after join (h2load's
// Worker pattern). Also measures what the client itself cost, for the self-check.
#include <atomic>
#include <cstdint>
#include <string>

#include "bench/app/live_counters.hpp"
#include "bench/app/record_log.hpp"
#include "bench/app/request_driver.hpp"
#include "bench/engine/engine.hpp"
#include "bench/metrics/run_summary.hpp"

namespace bench::app {

struct PointPlan {
  DriverPlan driver;             // epoch, first, stride and measured share are set per thread
  engine::EngineOptions engine;  // concurrency: the whole point's, shared out over the threads
  std::size_t measured_requests = 0;  // closed loop: measured requests in all (SIZE_MAX: by time)
  std::size_t client_threads = 1;
  metrics::SummaryOptions summary;  // origin_ns 0: records' times count from the point's epoch
  RecordLog* log = nullptr;         // --save-requests, or null
  LiveCounters* live = nullptr;     // for progress, or null
};

/// What the client itself used: enough CPU to bend the latencies it measures?
struct ClientLoad {
  double wall_s = 0;         // the point's wall time
  double cpu_s = 0;          // CPU time of the engine threads, added up
  std::size_t threads = 0;   // engine threads
  double busiest_thread_utilization = 0;  // CPU / wall of the busiest engine thread, 0..1
  std::int64_t loop_turns = 0;       // event-loop turns, all threads
  std::int64_t slow_loop_turns = 0;  // of which longer than 1 ms
  std::int64_t longest_loop_turn_ns = 0;
  // Request bodies the event loop had to build itself because the prompt producer was behind
  // (PromptFeed::built_by_caller): each may have delayed a send or a read.
  std::uint64_t bodies_built_on_loop = 0;
};

struct PointResult {
  metrics::RunSummary summary;
  bool interrupted = false;  // a stop signal ended it before its requests were all sent
  // Why the point stopped before its requests were all sent because none could succeed (see
  // EarlyStop: its first requests were all refused); empty when it did not.
  std::string stopped_early;
  ClientLoad client;
};

/// Runs the point; stops it early when its first min(kEarlyStopRequests, its requests) requests
/// to end were all refused for good (EarlyStop). Throws std::runtime_error only when an event
/// loop itself fails.
PointResult run_point(const PointPlan& plan, const std::atomic<bool>& stop);

}  // namespace bench::app
