#pragma once
// The flags of bench's own live figures (docs/live-metrics.md):
//   --metrics-listen [HOST:]PORT   serve /metrics (Prometheus) and /api/live (JSON) there while
//                                  the run goes on; HOST defaults to 127.0.0.1 (loopback only),
//                                  an IPv6 address goes in brackets ([::1]:9464); PORT 0: the
//                                  kernel picks one (bench says which on stderr)
//   --metrics-window SECONDS       the window of the live percentile gauges (default 30)
//   --metrics-linger SECONDS       keep serving this long after the run ends (default 0)
//   --live-jsonl FILE              one JSON line per snapshot (every 250 ms) to FILE
//   --no-traceparent               no W3C traceparent header on the requests (sent by default)
//   --otlp-endpoint URL            one OTLP/HTTP JSON span per request, posted to URL
#include <string>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

/// --metrics-listen's text: "9464", "0.0.0.0:9464", "localhost:0", "[::1]:9464". Throws
/// UsageError naming the flag and the value for another.
ListenAddress parse_listen_address(const std::string& text);

void setup_live_flags(CLI::App& app, RunOptions& run);

/// After parsing: the --live-jsonl path checked; the linger refused without a listener, and the
/// span export without the traceparent.
void finish_live_flags(const CLI::App& app, RunOptions& run);

}  // namespace bench::cli
