#pragma once
// The client's own error, measured against the truth: each request as the client saw it (when it
// handed the request to the transport, when each chunk arrived, when the stream ended) joined by
// response id to the same request as the server logged it (arrival, each chunk handed to the
// socket, last byte), and each latency figure's difference, client minus server, per request.
// What is left is what the client (its loop, its kernel path, its parsing) added to the figure:
// the ground for the client-error certificate (docs/metrics.md "The client's error bound").
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bench::metrics {

/// One streamed request's times on one side of the wire. Times are nanoseconds on any clock the
/// side keeps to itself: only differences within one side are used, so the client's run-relative
/// times and the server's CLOCK_MONOTONIC ones join without a common epoch.
struct StreamTimes {
  std::string id;                      // the response id the server sent (the join key)
  std::int64_t start_ns = 0;           // client: handed to the transport; server: request arrived
  std::vector<std::int64_t> chunk_ns;  // each token-carrying chunk: received / handed to socket
  std::int64_t end_ns = 0;  // client: stream ended; server: last byte handed to the socket
  std::int64_t tokens = 0;  // completion tokens (the server's count is used for both sides)
};

/// How large one figure's error is over the joined requests: the magnitude |client - server| in
/// milliseconds at the median, the 99th percentile and the worst, over `count` values; and the
/// p99 of the figure itself as the client saw it over the same values, the scale of the bound.
struct ErrorStats {
  std::int64_t count = 0;
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  double figure_p99_ms = 0;
};

/// The error of each figure (nullopt: no joined request gave a value), and the join's counts.
struct ClientError {
  std::optional<ErrorStats> ttft, itl, tpot, e2e;
  std::int64_t joined = 0;          // requests found on both sides, each with a chunk
  std::int64_t client_only = 0;     // client requests the truth has no record of
  std::int64_t chunk_mismatch = 0;  // joined requests whose chunk counts differ: no ITL from them
};

/// Joins `client` to `truth` by id and measures each figure's error: TTFT (first chunk - start),
/// each ITL gap (chunk i - chunk i-1, paired by position when both sides saw as many chunks),
/// E2E (end - start) and TPOT ((E2E - TTFT) / (tokens - 1), the server's token count on both
/// sides, so only time differs).
ClientError client_error(std::span<const StreamTimes> client, std::span<const StreamTimes> truth);

/// Whether a bound of `bound_ms` is more than `share` (0.05: 5%) of the figure it bounds.
/// A figure of 0 or less is exceeded by any positive bound.
bool bound_exceeds_share(double bound_ms, double figure_ms, double share);

}  // namespace bench::metrics
