#pragma once
// --server-metrics's cross-checks beyond the token counts, said as findings: the server's
// prefix-cache hits held against the cached tokens bench's responses disclosed, and the queueing
// the gauge polls saw held against bench's own requests in flight (queue_check.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/server_metrics/queue_check.hpp"
#include "bench/server_metrics/snapshot.hpp"

namespace bench::results {

/// bench's cached input tokens, known only when every counted request disclosed its split.
std::optional<double> bench_cached_tokens(const metrics::RunSummary& summary);

/// bench's cached share of its input tokens (0..1), known only as bench_cached_tokens is.
std::optional<double> bench_cached_share(const metrics::RunSummary& summary);

/// A server that gives its prefix cache only as a hit-rate gauge (SGLang): a warning when it
/// and bench's cached share are more than 10 points apart; nullopt otherwise, or when either
/// is unknown.
std::optional<std::string> hit_rate_finding(const server_metrics::Delta& delta,
                                            const metrics::RunSummary& summary);

/// The prefix-cache findings, one line each ("WARNING: ..." or "Note: ..."): the hit rate's
/// (hit_rate_finding), then the counters'; none when the server has neither. `sharing_intended`:
/// the workload shares prefixes on purpose (a shared-prefix dataset, --reuse-prompts), so a high
/// hit share draws no warning.
std::vector<std::string> prefix_cache_findings(const server_metrics::Delta& delta,
                                               const metrics::RunSummary& summary,
                                               bool sharing_intended);

/// The queueing findings of one server's polls; `who` names it ("server", "server 2").
std::vector<std::string> queue_findings(const server_metrics::QueueCounts& queue,
                                        std::string_view who);

/// {"polls", "bench_requests_waiting", "beyond_bench", "while_bench_idle"}: polls by what they saw.
nlohmann::json queue_json(const server_metrics::QueueCounts& queue);

}  // namespace bench::results
