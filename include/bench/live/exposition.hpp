#pragma once
// A snapshot as Prometheus text exposition format 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format), what
// GET /metrics answers. The names, units and labels are docs/live-metrics.md's; with shards,
// every sample carries shard="I" so a Prometheus query sums them.
#include <string>

#include "bench/live/snapshot.hpp"

namespace bench::live {

/// The content type of prometheus_text(), for the HTTP response.
inline constexpr const char* kExpositionContentType = "text/plain; version=0.0.4; charset=utf-8";

std::string prometheus_text(const Snapshot& snapshot);

}  // namespace bench::live
