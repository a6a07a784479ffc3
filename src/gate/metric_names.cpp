#include "bench/gate/metric_names.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include <fmt/format.h>

namespace bench::gate {
namespace {

// {mean,median,std,p90,p95,p99,max}_<name>_ms, the distribution layout of json_report.cpp.
void add_distribution(std::vector<std::string>& names, std::string_view name) {
  for (std::string_view stat : {"mean", "median", "std", "p90", "p95", "p99", "max"}) {
    names.push_back(fmt::format("{}_{}_ms", stat, name));
  }
}

std::vector<std::string> make_run_metric_names() {
  std::vector<std::string> names = {
      "duration", "sent", "completed", "failed", "cancelled", "warmup_requests",
      "total_input_tokens", "total_output_tokens", "request_throughput", "input_throughput",
      "output_throughput", "total_throughput", "concurrency", "max_concurrency",
  };
  for (std::string_view name : {"ttft", "itl", "icl", "tpot", "e2e_latency"}) {
    add_distribution(names, name);
  }
  names.insert(names.end(), {
      "connections_opened", "mean_connect_ms", "p99_connect_ms", "max_connect_ms",
      "mean_schedule_lag_ms", "p99_schedule_lag_ms", "max_schedule_lag_ms",
      "mean_client_lag_ms", "p99_client_lag_ms", "max_client_lag_ms",
      "median_ttft_from_intended_ms", "p99_ttft_from_intended_ms",
      "median_e2e_latency_from_intended_ms", "p99_e2e_latency_from_intended_ms",
      "total_text_chunks", "requests_with_per_chunk_usage", "mean_requested_input_len",
      "mean_prompt_tokens", "mean_requested_output_len", "mean_completion_tokens",
      // "inf" for a closed loop; null without --goodput SLOs.
      "request_rate", "goodput", "good_requests",
  });
  return names;
}

// Optimal string alignment distance: Levenshtein plus adjacent transpositions, the two slips
// a hand typing a key makes ("p99_ttfft_ms", "ouptut_throughput").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// vLLM's result keys for figures bench also reports under SGLang's names
// (vllm/benchmarks/serve.py: total_token_throughput, request_goodput, {stat}_e2el_ms).
std::string vllm_alias(std::string_view metric) {
  if (metric == "total_token_throughput") return "total_throughput";
  if (metric == "request_goodput") return "goodput";
  if (metric.ends_with("_e2el_ms")) {
    return fmt::format("{}_e2e_latency_ms", metric.substr(0, metric.size() - 8));
  }
  return "";
}

// The known name a user most likely meant, or "" when none is close: at most 2 edits, or a
// fifth of the name's length for long names, so an unrelated word gets no suggestion.
std::string nearest(std::string_view metric, const std::vector<std::string>& known) {
  const std::string alias = vllm_alias(metric);
  if (!alias.empty() && std::find(known.begin(), known.end(), alias) != known.end()) {
    return alias;
  }
  const std::size_t allowed = std::max<std::size_t>(2, metric.size() / 5);
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& name : known) {
    const std::size_t distance = edit_distance(metric, name);
    if (distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace

const std::vector<std::string>& run_metric_names() {
  static const std::vector<std::string> names = make_run_metric_names();
  return names;
}

std::vector<std::string> numeric_keys(const nlohmann::json& results) {
  const nlohmann::json* run = &results;
  if (results.is_object() && results.contains("points") && results["points"].is_array() &&
      !results["points"].empty()) {
    run = &results["points"][0];
  }
  std::vector<std::string> keys;
  if (!run->is_object()) return keys;
  for (const auto& [key, value] : run->items()) {
    if (value.is_number()) keys.push_back(key);  // is_number() is false for booleans
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::optional<std::string> check_metric(std::string_view flag, std::string_view metric,
                                        const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), metric) != known.end()) return std::nullopt;
  const std::string suggestion = nearest(metric, known);
  if (!suggestion.empty()) {
    return fmt::format("{}: '{}' is not a metric of bench's results (did you mean {}?)", flag,
                       metric, suggestion);
  }
  return fmt::format(
      "{}: '{}' is not a metric of bench's results (numeric keys such as output_throughput, "
      "p99_ttft_ms; README \"JSON results\" lists them)",
      flag, metric);
}

}  // namespace bench::gate
