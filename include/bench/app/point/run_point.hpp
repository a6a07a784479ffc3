#pragma once
// One measured run (one point of a sweep), warm-up included: the requests are shared out over
// `client_threads` threads, each owning its engine (curl multi handle), its driver and its
// accumulator, with no locks on the hot path; their figures are merged after join (h2load's
// Worker pattern). Also measures what the client itself cost, for the self-check.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/app/point/live_counters.hpp"
#include "bench/app/point/point_driver.hpp"
#include "bench/app/point/record_log.hpp"
#include "bench/engine/engine.hpp"
#include "bench/metrics/accumulator_state.hpp"
#include "bench/metrics/client_load.hpp"
#include "bench/metrics/multi_turn_state.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::app {

struct PointPlan {
  DriverPlan driver;                  // epoch, first, stride and measured share are set per thread
  engine::EngineOptions engine;       // concurrency: the whole point's, shared out over the threads
  std::size_t measured_requests = 0;  // closed loop: measured requests in all (SIZE_MAX: by time)
  std::size_t first_request = 0;      // the index the point starts from (a later phase of it)
  // The epoch is set this long before the point starts, ns: an open-loop schedule's later phase
  // (first_request's offset), so that its first request is due at once rather than after an
  // idle stretch as long as the phases before it.
  std::int64_t epoch_lead_ns = 0;
  std::size_t client_threads = 1;
  // Why that many (ClientThreadsChoice::reason), and whether --client-threads auto chose it;
  // both go into the client's figures as they are.
  std::string client_threads_reason;
  bool client_threads_auto = false;
  // Connections opened (by GETs of preconnect_urls) before the point's epoch; 0 = none. With
  // several servers (one URL each, in driver.target.urls' order) they are shared out by the
  // spread's weights.
  std::int64_t preconnect = 0;
  std::vector<std::string> preconnect_urls;
  metrics::SummaryOptions summary;  // origin_ns 0: records' times count from the point's epoch
  RecordLog* log = nullptr;         // --save-requests, or null
  LiveCounters* live = nullptr;     // for progress, or null
  // Shards: this process sends only the requests k with k mod shard_count == shard_index
  // (engine.concurrency is then already the shard's share), and returns its accumulator's
  // state for `bench merge`.
  std::size_t shard_index = 0;
  std::size_t shard_count = 1;
  // --start-at: the point's clock starts when the wall clock reads this (ns since the Unix
  // epoch), after its connections are open; a stop signal ends the wait.
  std::optional<std::int64_t> start_at_unix_ns;
  // --unreachable-timeout: the point ends (stopped_early) once no connection to the server could
  // be made for this long; 0 = never.
  std::int64_t unreachable_timeout_ns = 0;
  // Takes the point's figures so far while it runs (point_checkpoints.hpp); empty: none taken.
  std::function<void(metrics::RunSummary)> checkpoint;
};

/// When a point's clock started, on both clocks, and its first send.
struct PointClock {
  std::int64_t epoch_steady_ns = 0;              // the steady clock at the epoch
  std::int64_t epoch_unix_ns = 0;                // the wall clock then (ns since the Unix epoch)
  std::optional<std::int64_t> first_send_ns;     // the first request's send, after the epoch
  std::optional<std::int64_t> start_at_unix_ns;  // --start-at, when the point waited for it
};

struct PointResult {
  metrics::RunSummary summary;
  bool interrupted = false;  // a stop signal ended it before its requests were all sent
  // Why the point stopped before its requests were all sent because none could succeed (see
  // EarlyStop: its first requests were all refused; UnreachableWatch: no connection to the
  // server for --unreachable-timeout); empty when it did not.
  std::string stopped_early;
  metrics::ClientLoad client;  // what the client itself used: enough CPU to bend the figures?
  PointClock clock;
  std::optional<metrics::AccumulatorState> state;  // shards only: what `bench merge` needs
  // Several servers (driver.target.urls): the figures of the requests each was sent, in
  // driver.urls' order, and for shards their accumulators' states; empty with one server.
  std::vector<metrics::RunSummary> per_server;
  std::vector<metrics::AccumulatorState> per_server_state;
  // --multi-turn shards only: the multi-turn accumulator's state, for `bench merge`.
  std::optional<metrics::MultiTurnState> multi_turn_state;
  // One past the highest request index any client thread sent (0 when none was): where a later
  // phase of the point starts.
  std::uint64_t next_request = 0;
};

/// Runs the point; stops it early when its first min(kEarlyStopRequests, its requests) requests
/// to end were all refused for good (EarlyStop), or when the server could not be reached for
/// plan.unreachable_timeout_ns (UnreachableWatch: those in flight are cancelled). Throws
/// std::runtime_error only when an event loop itself fails.
PointResult run_point(const PointPlan& plan, const StopFlag& stop);

}  // namespace bench::app
