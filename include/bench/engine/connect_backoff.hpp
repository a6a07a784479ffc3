#pragma once
// The wait of a closed loop's concurrency slot after its request could not connect
// (EngineOptions::connect_backoff_max_ms): exponential and capped, as gRPC's connection backoff
// (doc/connection-backoff.md: initial backoff, multiplier, max backoff) without its jitter, since
// each slot's streak already starts at its own request's end.
#include <cstdint>

#include "bench/metrics/error_class.hpp"

namespace bench::engine {

// The first wait of a slot after a connection failure.
inline constexpr std::int64_t kConnectBackoffFirstMs = 50;

/// Whether `error` says no connection to the server could be made (refused, timed out, the
/// host unknown): the server is unreachable, not misbehaving.
bool is_connection_failure(metrics::ErrorClass error);

/// How long a slot waits after its `failures`-th connection failure in a row (from 1): the
/// first wait doubled each time, at most `max_ms`; 0 when max_ms is 0 or failures is 0.
std::int64_t connect_backoff_ms(int failures, std::int64_t max_ms);

}  // namespace bench::engine
