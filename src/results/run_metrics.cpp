// The numeric keys of a run's results object: the gates' names are the keys of the writer's
// table (run_figures.hpp).
#include "bench/results/run_metrics.hpp"

#include <algorithm>

#include "bench/results/format.hpp"
#include "bench/results/shape.hpp"
#include "run_figures.hpp"

namespace bench::results {

const std::vector<std::string>& run_metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> keys;
    for (const RunFigure& figure : run_figures()) keys.push_back(figure.key);
    return keys;
  }();
  return names;
}

std::optional<metrics::Figure> figure_of_key(std::string_view key) {
  for (const RunFigure& figure : run_figures()) {
    if (figure.key == key) return figure.figure;
  }
  return std::nullopt;
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
  return key == "input_throughput" || key == "total_throughput" || key == "total_input_tokens" ||
         key == "mean_prompt_tokens" || key == key::input_throughput_per_gpu ||
         key == key::total_throughput_per_gpu || key == key::usd_per_million_input_tokens ||
         key == key::usd_per_million_total_tokens || key == key::joules_per_total_token;
}

bool needs_stream(std::string_view key) {
  if (key == "median_ttft_from_intended_ms" || key == "p99_ttft_from_intended_ms" ||
      key == key::median_output_throughput_per_user || key == key::p10_output_throughput_per_user) {
    return true;
  }
  // {stat}_{row}_ms, the stat one word (mean, p99, or a --metric-percentiles p99.9).
  for (const LatencyFigure& figure : latency_figures()) {
    if (!figure.needs_stream) continue;
    // Built by appending: GCC 12's -O3 misreads "lit" + std::string as an overlapping copy.
    std::string tail = "_";
    tail.append(figure.key).append("_ms");
    if (key.size() > tail.size() && key.ends_with(tail) &&
        key.substr(0, key.size() - tail.size()).find('_') == std::string_view::npos) {
      return true;
    }
  }
  return false;
}

bool streamed_none(const nlohmann::json& run) {
  const std::optional<double> completed = number_at(run, key::completed);
  const std::optional<double> not_streamed = number_at(run, key::requests_not_streamed);
  return completed && not_streamed && *completed > 0 && *not_streamed >= *completed;
}

std::optional<double> known_metric(const nlohmann::json& run, std::string_view key) {
  if (!run.is_object()) return std::nullopt;
  const auto found = run.find(key);
  if (found == run.end() || !found->is_number()) return std::nullopt;
  if (needs_input_tokens(key) && !input_tokens_known(run)) return std::nullopt;
  return found->get<double>();
}

}  // namespace bench::results
