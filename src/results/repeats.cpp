#include "bench/results/repeats.hpp"

#include <span>
#include <string>

#include "bench/metrics/confidence.hpp"
#include "bench/results/format.hpp"

namespace bench::results {

namespace {

using nlohmann::json;

// `values` (one per repeat) as one: equal ones as they are; else numbers' mean (null when some
// repeat's figure is unknown: no mean of part of the repeats), bools' any, objects key by key,
// the rest the first repeat's.
json combine_values(const std::vector<const json*>& values) {
  const json& first = *values.front();
  bool equal = true;
  for (const json* value : values) equal = equal && *value == first;
  if (equal) return first;
  bool numbers = true, bools = true, objects = true, numbers_or_null = true;
  for (const json* value : values) {
    numbers = numbers && value->is_number();
    numbers_or_null = numbers_or_null && (value->is_number() || value->is_null());
    bools = bools && value->is_boolean();
    objects = objects && value->is_object();
  }
  if (!numbers && numbers_or_null) return nullptr;
  if (numbers) {
    double sum = 0;
    for (const json* value : values) sum += value->get<double>();
    return sum / static_cast<double>(values.size());
  }
  if (bools) {
    for (const json* value : values) {
      if (value->get<bool>()) return true;
    }
    return false;
  }
  if (!objects) return first;
  json out = json::object();
  for (const auto& [name, value] : first.items()) {
    std::vector<const json*> members;
    for (const json* object : values) {
      const auto found = object->find(name);
      if (found == object->end()) break;
      members.push_back(&*found);
    }
    out[name] = members.size() == values.size() ? combine_values(members) : value;
  }
  return out;
}

json figure_summary(const std::vector<double>& values) {
  const metrics::MeanInterval interval = metrics::mean_interval(values, kRepeatConfidence);
  const auto or_null = [](const std::optional<double>& value) {
    return value ? json(*value) : json();
  };
  json out = {{"mean", interval.mean},
              {"std", or_null(interval.std_dev)},
              {"half_width", or_null(interval.half_width)},
              {"low", json()},
              {"high", json()},
              {"values", values}};
  if (interval.half_width) {
    out["low"] = interval.mean - *interval.half_width;
    out["high"] = interval.mean + *interval.half_width;
  }
  return out;
}

}  // namespace

std::span<const RepeatedFigure> repeated_figures() {
  static constexpr RepeatedFigure kFigures[] = {
      {key::output_throughput, "output tok/s", 1},
      {key::input_throughput, "input tok/s", 1},
      {key::total_throughput, "total tok/s", 1},
      {key::request_throughput, "requests/s", 2},
      {"median_ttft_ms", "TTFT p50 (ms)", 2},
      {"p99_ttft_ms", "TTFT p99 (ms)", 2},
      {"median_tpot_ms", "TPOT p50 (ms)", 2},
      {"p99_tpot_ms", "TPOT p99 (ms)", 2},
      {"median_itl_ms", "ITL p50 (ms)", 2},
      {"p99_itl_ms", "ITL p99 (ms)", 2},
      {"median_e2e_latency_ms", "E2E p50 (ms)", 2},
      {"p99_e2e_latency_ms", "E2E p99 (ms)", 2},
      // Efficiency (efficiency.hpp): null in every repeat without --gpus, a price or an energy
      // counter, and then left out of the text report.
      {key::output_throughput_per_gpu, "output tok/s per GPU", 1, false},
      {key::input_throughput_per_gpu, "input tok/s per GPU", 1, false},
      {key::total_throughput_per_gpu, "total tok/s per GPU", 1, false},
      {key::median_output_throughput_per_user, "output tok/s per user p50", 1},
      {key::p10_output_throughput_per_user, "output tok/s per user p10", 1},
      {key::usd_per_million_output_tokens, "USD per M output tokens", 3, false},
      {key::joules_per_output_token, "J per output token", 3, false},
  };
  return kFigures;
}

std::optional<std::vector<double>> repeat_values(const json& point, std::string_view key) {
  const auto runs = point.find(key::repeat_runs);
  if (runs == point.end() || !runs->is_array() || runs->empty()) return std::nullopt;
  std::vector<double> values;
  for (const json& run : *runs) {
    const auto found = run.is_object() ? run.find(key) : run.end();
    if (found == run.end() || !found->is_number()) return std::nullopt;
    values.push_back(found->get<double>());
  }
  return values;
}

std::size_t repeat_count(const json& point) {
  const auto runs = point.find(key::repeat_runs);
  return runs != point.end() && runs->is_array() && !runs->empty() ? runs->size() : 1;
}

json combine_repeats(const std::vector<json>& runs) {
  std::vector<const json*> objects;
  for (const json& run : runs) objects.push_back(&run);
  json out = combine_values(objects);
  json repeated = runs;
  out[key::repeat_runs] = repeated;
  json figures = json::object();
  for (const RepeatedFigure& figure : repeated_figures()) {
    const auto values = repeat_values(out, figure.key);
    figures[std::string(figure.key)] = values ? figure_summary(*values) : json();
  }
  out[key::repeats] = {{"count", runs.size()},
                       {"confidence", kRepeatConfidence},
                       {"interval", "student_t"},
                       {"figures", std::move(figures)}};
  return out;
}

}  // namespace bench::results
