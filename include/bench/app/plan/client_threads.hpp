#pragma once
// How many event loops (client threads) a point runs when --client-threads is auto: as many as
// its expected load needs and the host's cores allow. Chosen from the plan before the point
// starts (the chunks and starts per second it should bring, times what each costs a loop on
// this kind of host), never from the self-check after it: a choice made from what a run
// measured would change between runs of the same command.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace bench::app {

// What one chunk and one request cost an event loop, microseconds of CPU, measured on the
// 2-vCPU Debian 12 VM of docs/performance.md with libcurl 7.88 (its section "How many loops
// auto chooses" has the commands): a paced chunk (one read and one wake per chunk, as a server
// decoding in steps sends them) 13-21 us (perf/run's "paced chunk" row); a request, its start,
// its few framing chunks and its end, 53-56 us (8,000 one-token requests at concurrency 32:
// the loop's CPU over the requests). Constants rather than a micro-benchmark at start-up: a
// start-up measure on a shared host is noisier than the choice needs, and would make the same
// command choose differently from one run to the next.
inline constexpr double kChunkCostUs = 20;
inline constexpr double kRequestStartCostUs = 50;
// A loop is planned at most half busy: requests of equal length end together, and a wave's
// restarts and reads bunch into the same milliseconds, so a loop half busy on average is
// already late in its waves (docs/performance.md, "the demo's lag warning").
inline constexpr double kLoopShareOfCore = 0.5;
// A server's time between two chunks of one stream when the plan cannot know it (any server
// but the embedded one's fixed profile and firehose), milliseconds. An assumption, not a
// measurement, and said as one in the choice's reason. Why it is a fair one: the choice only
// matters where a loop fills, and at 20 us a chunk a loop half busy takes 25,000 chunks a
// second, so at this gap auto adds a second loop from about 500 streams (N streams bring
// N / 20 ms chunks a second). A server that sends 500 streams' chunks faster than this makes
// over 25,000 output tokens a second on one endpoint, more than one server decodes for most
// models (a decode step over a batch of hundreds takes tens of ms); and below about 25 streams
// one loop is enough even at a chunk a millisecond. A faster endpoint (a tiny
// model, a balancer before many replicas) brings more chunks than planned: the self-check then
// says client_saturated, and --client-threads N says how many loops. Not measured before the
// run instead: the server's pace at one stream (the answer check's) is not its pace under the
// load, and a measure would make one command choose differently from run to run.
inline constexpr double kAssumedChunkGapMs = 20;

/// What the choice is made from, for one point (a shard's share of it with --shard).
struct ClientThreadsInput {
  std::size_t usable_cores = 1;    // CPUs this process may run on (its affinity mask)
  std::size_t server_threads = 0;  // the embedded server's threads, on the same cores; 0: none
  std::int64_t concurrency = 1;    // requests in flight at most
  // An open loop's arrivals a second (client_threads_of asks open_loop()); 0: a closed loop,
  // or an open one whose rate is not known (a trace of one row).
  double rate_per_s = 0;
  double chunks_per_request = 1;  // expected chunks of a response (output tokens / per chunk)
  // Time between two chunks of one stream, ms; 0 = the server sends without pause (the
  // embedded firehose): the load is then whatever the client can take, all the cores allowed.
  // nullopt: the plan cannot know it (any other server): kAssumedChunkGapMs, said in the reason.
  std::optional<double> chunk_gap_ms;
  double first_chunk_ms = 0;  // time to the first chunk, ms (0 when not known)
  double chunk_cost_us = kChunkCostUs;
  double start_cost_us = kRequestStartCostUs;
};

struct ClientThreadsChoice {
  std::size_t loops = 1;
  double cores_needed = 0;  // the expected load in cores of loop CPU (infinity: unbounded)
  // One line: "auto: 1 event loop, the expected load needs 0.06 of a core", with ", at an
  // assumed 20 ms between a stream's chunks" when the server's pace was not known.
  std::string reason;
};

/// The loops for `input`: enough that each is at most kLoopShareOfCore busy, at least 1, at
/// most one a stream, and at most the usable cores left once the embedded server has its own
/// (one loop when none is left).
ClientThreadsChoice choose_client_threads(const ClientThreadsInput& input);

/// The reason given for an explicit --client-threads `given`, which runs `loops` (at most one a
/// stream).
std::string explicit_client_threads_reason(std::size_t given, std::size_t loops);

}  // namespace bench::app
