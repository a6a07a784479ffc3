#include "bench/results/server_section.hpp"

#include <cmath>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "bench/results/server_findings.hpp"
#include "bench/results/server_latency.hpp"
#include "server_gauges.hpp"

namespace bench::results {
namespace {

using nlohmann::json;

// null when the server says nothing of speculative decoding.
json spec_decode_json(const server_metrics::Delta& delta) {
  const auto rate = server_metrics::spec_acceptance_rate(delta);
  if (!delta.spec_draft_tokens && !delta.spec_accepted_tokens && !delta.spec_accept_length &&
      !rate) {
    return nullptr;
  }
  return {{"draft_tokens", number_or_null(delta.spec_draft_tokens)},
          {"accepted_tokens", number_or_null(delta.spec_accepted_tokens)},
          {"acceptance_rate", number_or_null(rate)},
          {"accept_length", number_or_null(delta.spec_accept_length)}};
}

// What one server's window says of itself, without bench's figures beside it.
json own_figures_json(const ServerMetricsWindow& window) {
  json out = json::object();
  out["url"] = window.url;
  out["error"] = window.delta ? json(nullptr) : json(window.failure);
  const server_metrics::Delta delta = window.delta.value_or(server_metrics::Delta{});
  out["family"] = window.delta ? json(server_metrics::to_string(delta.family)) : json(nullptr);
  out["prompt_tokens"] = number_or_null(delta.prompt_tokens);
  out["generation_tokens"] = number_or_null(delta.generation_tokens);
  out["requests_succeeded"] = number_or_null(delta.requests_succeeded);
  out["prefix_cache_hit_tokens"] = number_or_null(delta.prefix_cache_hit_tokens);
  out["prefix_cache_query_tokens"] = number_or_null(delta.prefix_cache_query_tokens);
  out["prefix_cache_hit_rate"] = number_or_null(delta.prefix_cache_hit_ratio);
  out["preemptions"] = number_or_null(delta.preemptions);
  out["mean_queue_time_s"] = number_or_null(mean_queue_time_s(delta));
  out["spec_decode"] = spec_decode_json(delta);
  out["gauges"] = window.polls ? gauges_json(*window.polls) : json(nullptr);
  out["notes"] = delta.notes;
  return out;
}

// The cross-checks' findings beyond the token counts (server_findings.hpp), for the HTML report.
json findings_json(const ServerMetricsWindow& window, const metrics::RunSummary& summary,
                   bool sharing_intended) {
  json findings = json::array();
  if (window.delta) {
    for (const std::string& finding :
         prefix_cache_findings(*window.delta, summary, sharing_intended)) {
      findings.push_back(finding);
    }
  }
  if (window.polls) {
    for (const std::string& finding : queue_findings(window.polls->queue, "server")) {
      findings.push_back(finding);
    }
  }
  for (std::size_t i = 0; i < window.servers.size(); ++i) {
    if (!window.servers[i].polls) continue;
    for (const std::string& finding :
         queue_findings(window.servers[i].polls->queue, fmt::format("server {}", i + 1))) {
      findings.push_back(finding);
    }
  }
  return findings;
}

}  // namespace

json server_metrics_json(const ServerMetricsWindow& window, const metrics::RunSummary& summary,
                         bool sharing_intended) {
  json out = own_figures_json(window);
  const server_metrics::Delta delta = window.delta.value_or(server_metrics::Delta{});
  const std::optional<double> bench_input = bench_input_tokens(summary);
  const std::optional<double> bench_output = static_cast<double>(summary.total_output_tokens);
  out["bench_input_tokens"] = number_or_null(bench_input);
  out["bench_output_tokens"] = number_or_null(bench_output);
  out["prompt_tokens_difference"] =
      number_or_null(count_difference(delta.prompt_tokens, bench_input));
  out["generation_tokens_difference"] =
      number_or_null(count_difference(delta.generation_tokens, bench_output));
  const std::optional<double> bench_cached = bench_cached_tokens(summary);
  out["bench_cached_input_tokens"] = number_or_null(bench_cached);
  out["prefix_cache_hit_difference"] =
      number_or_null(count_difference(delta.prefix_cache_hit_tokens, bench_cached));
  const std::optional<double> bench_share = bench_cached_share(summary);
  out["bench_cached_input_share"] = number_or_null(bench_share);
  out["prefix_cache_hit_rate_difference"] =
      number_or_null(count_difference(delta.prefix_cache_hit_ratio, bench_share));
  out["findings"] = findings_json(window, summary, sharing_intended);
  out["warmup_requests_in_window"] = window.warmup_requests;
  out["warmup_drained"] = window.warmup_drained;
  out["latency_ranges"] = latency_ranges_json(latency_ranges(delta, summary));
  if (!window.servers.empty()) {
    out["servers"] = json::array();
    for (const ServerMetricsWindow& server : window.servers) {
      out["servers"].push_back(own_figures_json(server));
    }
  }
  return out;
}

std::optional<double> bench_input_tokens(const metrics::RunSummary& summary) {
  if (!summary.input_tokens_known()) return std::nullopt;
  return static_cast<double>(summary.total_input_tokens);
}

std::optional<double> count_difference(const std::optional<double>& server,
                                       const std::optional<double>& bench) {
  if (!server || !bench || !std::isfinite(*server)) return std::nullopt;
  return *server - *bench;
}

json number_or_null(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? json(*value) : json(nullptr);
}

bool counts_disagree(const std::optional<double>& difference, const std::optional<double>& bench) {
  constexpr double kTokenMismatchShare = 0.01;
  return difference && bench && *bench > 0 && std::abs(*difference) > kTokenMismatchShare * *bench;
}

}  // namespace bench::results
