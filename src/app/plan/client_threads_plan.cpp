// --client-threads auto: a point's expected load, read from the run's plan, and the loops
// chosen for it (client_threads.hpp); and the start-up line that says so.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/app/plan/client_threads.hpp"
#include "bench/app/plan/run_plan.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/process_cpu.hpp"

namespace bench::app {

namespace {

// How the server paces a stream. The embedded server's fixed profile says it (tokens_per_chunk
// tokens every tpot, the first after ttft, both divided by --sim-time-scale); its firehose
// sends without pause; any other server (its batching profiles included, whose step grows with
// the batch) leaves the gap unknown (kAssumedChunkGapMs, said as assumed), a token a chunk.
void set_server_pace(const sim::SimOptions& sim, bool embedded, ClientThreadsInput& in,
                     double output_len) {
  double tokens_per_chunk = 1;
  if (embedded && sim.profile == "firehose") {
    in.chunk_gap_ms = 0;
    tokens_per_chunk = sim.tokens_per_chunk;
  } else if (embedded && sim.profile == "fixed") {
    const double scale = sim.time_scale > 0 ? sim.time_scale : 1;
    tokens_per_chunk = sim.tokens_per_chunk;
    in.chunk_gap_ms = sim.tpot_ms * tokens_per_chunk / scale;
    in.first_chunk_ms = sim.ttft_ms / scale;
  }
  in.chunks_per_request = std::ceil(output_len / std::max(1.0, tokens_per_chunk));
}

// Arrivals a second of an open loop at the point's rate (a ramp's highest rate); a replayed
// trace's mean over its rows; 0 for a closed loop.
double arrival_rate(const RunPlan& plan, const PreparedRun& prepared, const LoadPoint& point) {
  if (!open_loop(plan, point)) return 0;
  const auto offsets =
      prepared.prompts != nullptr ? prepared.prompts->arrival_offsets_ns() : nullptr;
  if (offsets != nullptr && offsets->size() > 1) {
    const auto [first, last] = std::minmax_element(offsets->begin(), offsets->end());
    const double span_s = ns_to_s(*last - *first);
    return span_s > 0 ? static_cast<double>(offsets->size() - 1) / span_s : 0;
  }
  if (plan.ramp.strategy != schedule::RampStrategy::none) {
    return std::max(plan.ramp.start_rps, plan.ramp.end_rps);
  }
  // A trace too short to have a rate (one row) has none to say.
  return std::isfinite(point.rate_per_s) ? point.rate_per_s : 0;
}

}  // namespace

ClientThreadsChoice client_threads_of(const RunPlan& plan, const PreparedRun& prepared,
                                      const LoadPoint& point) {
  const std::size_t shards = plan.shard.count;
  const std::int64_t concurrency = shard_share(point.concurrency, shards, plan.shard.index);
  if (plan.client_threads) {
    const auto streams = static_cast<std::size_t>(std::max<std::int64_t>(1, concurrency));
    ClientThreadsChoice given;
    given.loops = std::clamp<std::size_t>(*plan.client_threads, 1, streams);
    given.reason = explicit_client_threads_reason(*plan.client_threads, given.loops);
    return given;
  }
  ClientThreadsInput in;
  in.usable_cores = util::usable_cores();
  const bool embedded = prepared.target.embedded != nullptr;
  if (embedded) in.server_threads = sim::SimServer::kThreads;
  in.concurrency = concurrency;
  // A shard sends every shards-th arrival of the one schedule.
  in.rate_per_s = arrival_rate(plan, prepared, point) / static_cast<double>(shards);
  set_server_pace(plan.server.sim, embedded, in, static_cast<double>(plan.output_len));
  return choose_client_threads(in);
}

std::string describe_client_threads(const RunPlan& plan, const PreparedRun& prepared) {
  std::vector<ClientThreadsChoice> choices;
  for (const LoadPoint& point : plan.points) {
    choices.push_back(client_threads_of(plan, prepared, point));
  }
  const auto [fewest, most] = std::minmax_element(
      choices.begin(), choices.end(),
      [](const ClientThreadsChoice& a, const ClientThreadsChoice& b) { return a.loops < b.loops; });
  if (choices.size() == 1) return fmt::format("bench: client: {}\n", most->reason);
  // A sweep: each point has its own loops, said in its results; here the range and the
  // heaviest point's reason.
  const LoadPoint& heaviest = plan.points[static_cast<std::size_t>(most - choices.begin())];
  const std::string range = fewest->loops == most->loops
                                ? fmt::format("{} at every point", most->loops)
                                : fmt::format("{} to {} by point", fewest->loops, most->loops);
  return fmt::format("bench: client: event loops {}; at {}: {}\n", range,
                     point_label_text(plan, heaviest), most->reason);
}

}  // namespace bench::app
