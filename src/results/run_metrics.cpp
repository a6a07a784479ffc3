// The numeric keys of a run's results object, listed once for the writer's layout and the
// gates' names.
#include "bench/results/run_metrics.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/shape.hpp"

namespace bench::results {
namespace {

std::vector<std::string> make_run_metric_names() {
  std::vector<std::string> names = {
      "duration", "sent", "completed", "failed", "cancelled", "warmup_requests",
      "total_input_tokens", "total_output_tokens", "request_throughput", "input_throughput",
      "output_throughput", "total_throughput",
      // The input split: null when the server did not disclose cached tokens on every request
      // (the share and the count of disclosing requests need only some).
      std::string(key::total_computed_input_tokens), std::string(key::total_cached_input_tokens),
      std::string(key::computed_input_throughput), std::string(key::cached_input_throughput),
      std::string(key::cached_input_share), std::string(key::input_split_disclosing_requests),
      "concurrency", "max_concurrency",
  };
  for (std::string_view name : kDistributions) {
    for (std::string_view stat : kDistributionStats) {
      names.push_back(distribution_key(stat, name));
    }
  }
  names.insert(names.end(), {
      "connections_opened", "connection_retries", "mean_connect_ms", "p99_connect_ms", "max_connect_ms",
      "mean_schedule_lag_ms", "p99_schedule_lag_ms", "max_schedule_lag_ms",
      "mean_client_lag_ms", "p99_client_lag_ms", "max_client_lag_ms",
      "median_ttft_from_intended_ms", "p99_ttft_from_intended_ms",
      "median_e2e_latency_from_intended_ms", "p99_e2e_latency_from_intended_ms",
      "total_text_chunks", "requests_with_per_chunk_usage", "mean_requested_input_len",
      "mean_prompt_tokens", "mean_client_prompt_tokens", "mean_requested_output_len",
      "mean_completion_tokens",
      // "inf" for a closed loop; null without --goodput SLOs.
      "request_rate", "goodput", "good_requests",
  });
  // Reasoning models: null when no request reasoned.
  names.insert(names.end(), {
      std::string(key::requests_with_reasoning), std::string(key::total_reasoning_tokens),
      std::string(key::total_answer_tokens), std::string(key::reasoning_output_throughput),
      std::string(key::answer_output_throughput), std::string(key::mean_reasoning_tokens),
      std::string(key::mean_answer_tokens),
  });
  // Tool calls: null when no request called a tool.
  names.insert(names.end(), {
      std::string(key::requests_with_tool_calls), std::string(key::total_tool_calls),
      std::string(key::total_tool_call_tokens), std::string(key::tool_call_output_share),
      std::string(key::tool_call_output_throughput), std::string(key::mean_tool_call_tokens),
  });
  for (std::string_view stat : kDistributionStats) {
    names.push_back(distribution_key(stat, key::ttfa));
  }
  // Time to response headers: null when no response reported it.
  for (std::string_view stat : kDistributionStats) {
    names.push_back(distribution_key(stat, key::ttfb));
  }
  return names;
}

}  // namespace

std::string distribution_key(std::string_view stat, std::string_view name) {
  return fmt::format("{}_{}_ms", stat, name);
}

const std::vector<std::string>& run_metric_names() {
  static const std::vector<std::string> names = make_run_metric_names();
  return names;
}

std::vector<std::string> numeric_keys(const nlohmann::json& results) {
  const nlohmann::json* run = &results;
  if (is_sweep(results) && !results[key::points].empty()) run = &results[key::points][0];
  std::vector<std::string> keys;
  if (!run->is_object()) return keys;
  for (const auto& [name, value] : run->items()) {
    if (value.is_number()) keys.push_back(name);  // is_number() is false for booleans
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

bool input_tokens_known(const nlohmann::json& run) {
  if (!run.is_object()) return false;
  const auto sources = run.find(key::token_count_source);
  if (sources == run.end() || !sources->is_object()) return true;  // not recorded: trust it
  const auto input = sources->find("input");
  return input == sources->end() || (*input != "unknown" && *input != "mixed");
}

bool needs_input_tokens(std::string_view key) {
  return key == "input_throughput" || key == "total_throughput" ||
         key == "total_input_tokens" || key == "mean_prompt_tokens";
}

std::optional<double> known_metric(const nlohmann::json& run, std::string_view key) {
  if (!run.is_object()) return std::nullopt;
  const auto found = run.find(key);
  if (found == run.end() || !found->is_number()) return std::nullopt;
  if (needs_input_tokens(key) && !input_tokens_known(run)) return std::nullopt;
  return found->get<double>();
}

}  // namespace bench::results
