#pragma once
// Which faults one request meets. Every request draws its own plan from a seed the server takes
// in arrival order from --seed, so a run with the same seed and the same request order meets the
// same faults; each fault kind is an independent draw against its fraction, in a fixed order, so
// adding a kind or changing one fraction moves no other kind's choices.
//
// At most one response can be sent, so the HTTP faults take precedence (429, then 503, then 500)
// and only one way of ending a stream early applies (reset, then truncate, then stream error);
// the others (stall, malformed event, no usage, several tokens per chunk, CRLF, comments)
// combine freely. Stream faults apply to streamed responses only.
#include <cstdint>
#include <string>

#include "bench/sim/sim_options.hpp"

namespace bench::sim {

enum class StreamCut {
  none,
  reset,         // RST mid-stream: SO_LINGER 0, then close
  truncate,      // the body ends cleanly mid-stream: no finish_reason, no usage, no [DONE]
  stream_error,  // data: {"error": ...}, then [DONE]
};

struct FaultPlan {
  int http_status = 0;  // 429, 503 or 500: answered at once; 0 = served
  StreamCut cut = StreamCut::none;
  bool stall = false;  // pause mid-stream for stall_ns
  std::int64_t stall_ns = 0;
  bool malformed_json = false;        // one data event that is not JSON, mid-stream
  bool no_usage = false;              // no usage anywhere in the response
  std::int32_t tokens_per_chunk = 1;  // > 1: tokens are held back and sent in groups
  bool crlf = false;                  // SSE lines end with CRLF
  bool comments = false;              // ": keep-alive" before every event
  bool metrics_miscount = false;      // GET /metrics counts one generation token too many
  // --jitter-ms: how long the request waits before the model sees it (real ns, time-scaled).
  std::int64_t jitter_ns = 0;

  /// The injected kinds as a JSON array of names (["stall","crlf"]), for the truth log.
  std::string names_json() const;
  /// What a whole (non-streamed) body meets of this plan: its HTTP status, jitter and metrics
  /// miscount; the stream faults have no stream to strike.
  FaultPlan without_stream_faults() const;
};

/// The plan of the request whose own seed is `request_seed`.
FaultPlan draw_fault_plan(const SimOptions& options, std::uint64_t request_seed);

/// SplitMix64 (Steele, Lea, Flood 2014): the per-request generator; small, fast and good enough
/// for independent uniform draws.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // [0, 1)

 private:
  std::uint64_t state_;
};

}  // namespace bench::sim
