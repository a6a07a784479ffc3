// A results file as llm-d's Benchmark Report v0.2.1 (llmd_report.hpp). The field names and
// units are the schema's (llm-d-benchmark, llmdbenchmark/analysis/benchmark_report/
// br_v0_2_1_json_schema.json); what each of bench's figures becomes is in docs/export.md.
#include "bench/results/llmd_report.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/lengths.hpp"
#include "bench/results/read_file.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/shard_state.hpp"
#include "bench/results/workload.hpp"
#include "bench/util/fnv1a.hpp"

namespace bench::results {
namespace {

using nlohmann::json;

// The schema's units (its Units enum) for what bench reports.
constexpr std::string_view kCount = "count";
constexpr std::string_view kMs = "ms";
constexpr std::string_view kMsPerToken = "ms/token";
constexpr std::string_view kTokensPerS = "tokens/s";
constexpr std::string_view kQueriesPerS = "queries/s";

// The run's options under "config", as cli/options.cpp's options_to_json names them.
namespace config_key {
constexpr std::string_view dataset = "dataset";
constexpr std::string_view input_len = "input_len";
constexpr std::string_view output_len = "output_len";
constexpr std::string_view range_ratio = "range_ratio";
constexpr std::string_view output_range_ratio = "output_range_ratio";
constexpr std::string_view range_rule = "range_rule";
constexpr std::string_view ignore_eos = "ignore_eos";
}  // namespace config_key

const json& object_at(const json& object, std::string_view key) {
  static const json kNone;
  const auto found = object.find(key);
  return found == object.end() ? kNone : *found;
}

std::string text_at(const json& object, std::string_view key) {
  const json& value = object_at(object, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

// The schema's Statistics: units and mean are required, every other field optional.
json statistics(std::string_view units, double mean) { return {{"units", units}, {"mean", mean}}; }

// A latency distribution: mean, std and the percentiles bench writes as {stat}_{name}_ms, the
// other percentiles from its CDF ("distributions"). nullopt when it has no values.
std::optional<json> latency(const json& run, std::string_view name, std::string_view units) {
  const std::optional<double> mean = known_metric(run, distribution_key("mean", name));
  if (!mean) return std::nullopt;
  json out = statistics(units, *mean);
  constexpr std::pair<const char*, std::string_view> kFromKeys[] = {
      {"stddev", "std"}, {"p50", "median"}, {"p90", "p90"},
      {"p95", "p95"},    {"p99", "p99"},    {"max", "max"}};
  for (const auto& [field, stat] : kFromKeys) {
    if (const auto value = known_metric(run, distribution_key(stat, name))) out[field] = *value;
  }
  constexpr std::pair<double, const char*> kFromCdf[] = {
      {0, "min"}, {1, "p1"}, {5, "p5"}, {10, "p10"}, {25, "p25"}, {75, "p75"}, {99.9, "p99p9"}};
  const json& cdf = object_at(object_at(run, key::distributions), std::string(name) + "_ms");
  if (!cdf.is_array()) return out;
  for (const json& point : cdf) {
    if (!point.is_array() || point.size() != 2 || !point[0].is_number() || !point[1].is_number()) {
      continue;
    }
    for (const auto& [percentile, field] : kFromCdf) {
      if (point[0].get<double>() == percentile) out[field] = point[1].get<double>();
    }
  }
  return out;
}

std::optional<json> rate(const json& run, std::string_view key, std::string_view units) {
  const std::optional<double> value = known_metric(run, key);
  if (!value) return std::nullopt;
  return statistics(units, *value);
}

// A request count. A point measured several times (--repeat) holds the repeats' mean; the
// schema counts requests, so it gets their sum over the repeats.
std::optional<std::int64_t> count(const json& run, std::string_view key) {
  const json& repeats = object_at(run, key::repeat_runs);
  if (repeats.is_array() && !repeats.empty()) {
    std::int64_t sum = 0;
    for (const json& repeat : repeats) {
      const json& value = object_at(repeat, key);
      if (!value.is_number_integer()) return std::nullopt;
      sum += value.get<std::int64_t>();
    }
    return sum;
  }
  const json& value = object_at(run, key);
  if (!value.is_number_integer()) return std::nullopt;
  return value.get<std::int64_t>();
}

std::optional<json> requests(const json& run) {
  const auto sent = count(run, key::sent);
  if (!sent) return std::nullopt;
  json out = {{"total", *sent}};
  // "failures": requests that responded with an error; bench's failed also counts those that
  // never got a response (docs/export.md). "incomplete": not completed, i.e. cancelled.
  if (const auto failed = count(run, key::failed)) out["failures"] = *failed;
  if (const auto cancelled = count(run, key::cancelled)) out["incomplete"] = *cancelled;
  if (const auto input = rate(run, key::mean_prompt_tokens, kCount)) out["input_length"] = *input;
  if (const auto output = rate(run, key::mean_completion_tokens, kCount)) {
    out["output_length"] = *output;
  }
  return out;
}

json aggregate(const json& run) {
  json out = json::object();
  if (auto counts = requests(run)) out["requests"] = std::move(*counts);
  json latencies = json::object();
  for (const LatencyFigure& figure : latency_figures()) {
    if (figure.llmd_name.empty()) continue;
    const auto unit = figure.llmd_per_token ? kMsPerToken : kMs;
    if (auto stats = latency(run, figure.key, unit))
      latencies[std::string(figure.llmd_name)] = *stats;
  }
  if (!latencies.empty()) out["latency"] = std::move(latencies);
  json rates = json::object();
  constexpr std::pair<const char*, std::string_view> kRates[] = {
      {"output_token_rate", key::output_throughput},
      {"input_token_rate", key::input_throughput},
      {"total_token_rate", key::total_throughput}};
  for (const auto& [field, figure] : kRates) {
    if (auto stats = rate(run, figure, kTokensPerS)) rates[field] = *stats;
  }
  if (auto stats = rate(run, key::request_throughput, kQueriesPerS)) rates["request_rate"] = *stats;
  if (!rates.empty()) out["throughput"] = std::move(rates);
  return out;
}

bool random_lengths(const json& config) {
  const json& dataset = object_at(config, config_key::dataset);
  return dataset == "random" || dataset == "random-ids";
}

// A length bench drew (a whole number of tokens, as the config holds it): fixed, or uniform
// with --range-ratio (around it; below it by SGLang's rule, fixed only at ratio 1). The output
// length may have a ratio of its own (vLLM's {"input": a, "output": b}).
json drawn_length(const json& config, const json& length, bool output) {
  const double ratio = (output ? number_at(config, config_key::output_range_ratio) : std::nullopt)
                           .value_or(number_at(config, config_key::range_ratio).value_or(0));
  const bool below = object_at(config, config_key::range_rule) == "below";
  const bool spread = below ? ratio < 1 : ratio > 0;
  return {{"distribution", spread ? "uniform" : "fixed"}, {"value", length}};
}

// A length option of the config: a whole number of at least 1 (the schema's SequenceLength
// value is at least 1 in llm-d's pydantic model), else null.
const json& length_option(const json& config, std::string_view key) {
  static const json kNone;
  const json& value = object_at(config, key);
  return value.is_number_integer() && value.get<std::int64_t>() >= 1 ? value : kNone;
}

// The input length in tokens: the length asked for when it was counted in tokens of a random
// dataset, else the mean the server counted; nullopt when neither is known (the schema's
// load then cannot be filled in honestly, and is left out).
std::optional<json> input_seq_len(const json& run, const json& config) {
  const json& asked = length_option(config, config_key::input_len);
  if (random_lengths(config) && object_at(run, key::input_len_unit) == "tokens" &&
      !asked.is_null()) {
    return drawn_length(config, asked, false);
  }
  if (const auto mean = known_metric(run, key::mean_prompt_tokens)) {
    return json{{"distribution", "other"}, {"value", *mean}};
  }
  return std::nullopt;
}

// "Output sequence length (if enforced)": only --ignore-eos makes a server generate max_tokens.
std::optional<json> output_seq_len(const json& config) {
  const json& asked = length_option(config, config_key::output_len);
  if (object_at(config, config_key::ignore_eos) != true || !random_lengths(config) ||
      asked.is_null()) {
    return std::nullopt;
  }
  return drawn_length(config, asked, true);
}

std::string_view load_source(const json& config) {
  const json& dataset = object_at(config, config_key::dataset);
  if (random_lengths(config) || dataset == "shared-prefix") return "random";
  if (dataset == "sharegpt" || dataset == "jsonl" || dataset == "trace") return "sampled";
  return "unknown";
}

std::optional<json> load(const json& run, int stage) {
  const json& config = object_at(run, key::config);
  auto input = input_seq_len(run, config);
  if (!input) return std::nullopt;
  const json& version = object_at(run, key::bench_version);
  json standardized = {{"tool", kLlmdToolName},
                       {"tool_version", version.is_string() ? version : json("unknown")},
                       {"source", load_source(config)},
                       {"stage", stage},
                       {"input_seq_len", std::move(*input)}};
  if (auto output = output_seq_len(config)) standardized["output_seq_len"] = std::move(*output);
  const auto rate_qps = number_at(run, key::request_rate);
  if (rate_qps && std::isfinite(*rate_qps) && *rate_qps > 0) standardized["rate_qps"] = *rate_qps;
  const json& cap = object_at(run, key::max_concurrency);
  if (cap.is_number_integer() && cap.get<std::int64_t>() >= 1) standardized["concurrency"] = cap;
  const json& shards = object_at(object_at(run, key::merged), key::shards);
  if (shards.is_number_integer() && shards.get<std::int64_t>() >= 1) {
    standardized["parallelism"] = shards;
  }
  if (object_at(run, key::multi_turn).is_object()) standardized["multi_turn"] = {{"enabled", true}};
  json metadata = {{"schema_version", "0.0.1"}};
  if (const std::string dataset = text_at(config, config_key::dataset); !dataset.empty()) {
    metadata["description"] = fmt::format("bench's {} dataset", dataset);
  }
  if (const auto fingerprint = workload_fingerprint(run)) metadata["cfg_id"] = *fingerprint;
  json native = json::object();
  if (config.is_object()) native["args"] = config;
  return json{{"metadata", std::move(metadata)},
              {"standardized", std::move(standardized)},
              {"native", std::move(native)}};
}

json run_section(const json& run, std::string_view experiment_id) {
  util::Fnv1a64 uid;
  uid.add("bench llm-d report ");
  uid.add(run.dump());
  json time = json::object();
  if (const std::string started = text_at(run, key::started_at); !started.empty()) {
    time["start"] = started;
  }
  // ISO 8601's duration, as llm-d's own converters write it (PT<seconds>S).
  if (const auto duration = number_at(run, key::duration)) {
    time["duration"] = fmt::format("PT{}S", *duration);
  }
  std::string description = fmt::format(
      "bench {} against {}{}, model {}", text_at(run, key::bench_version),
      text_at(run, key::base_url),
      object_at(run, key::embedded_server) == true ? " (its embedded simulated server)" : "",
      text_at(run, key::model));
  const json& repeats = object_at(run, key::repeat_runs);
  if (repeats.is_array() && repeats.size() > 1) {
    description +=
        fmt::format("; latencies and rates are the mean of {} repeats, request counts their sum",
                    repeats.size());
  }
  json out = {{"uid", uid.hex()}, {"eid", experiment_id}, {"description", description}};
  if (!time.empty()) out["time"] = std::move(time);
  return out;
}

}  // namespace

json llmd_report(const json& run, std::string_view experiment_id, int stage) {
  json report = {{"version", kLlmdReportVersion},
                 {"run", run_section(run, experiment_id)},
                 {"results", {{"request_performance", {{"aggregate", aggregate(run)}}}}}};
  if (auto workload = load(run, stage)) report["scenario"] = {{"load", std::move(*workload)}};
  return report;
}

std::variant<json, FormatError> llmd_export(const json& results, std::string_view name,
                                            std::optional<std::int64_t> point) {
  auto file = read_results(results, name);
  if (auto* error = std::get_if<FormatError>(&file)) return std::move(*error);
  return llmd_export(std::get<ResultsFile>(file), name, point);
}

std::variant<json, FormatError> llmd_export(const ResultsFile& file, std::string_view name,
                                            std::optional<std::int64_t> point) {
  util::Fnv1a64 experiment;
  experiment.add("bench llm-d experiment ");
  experiment.add(file.results.dump());
  const bool one_run = file.kind == Kind::run;
  const std::size_t points = one_run ? 1 : file.results[key::points].size();
  if (point && (*point < 1 || static_cast<std::size_t>(*point) > points)) {
    return FormatError{fmt::format("--point {}: {} has {} point{} (1 to {})", *point, name, points,
                                   points == 1 ? "" : "s", points)};
  }
  if (one_run) return llmd_report(file.results, experiment.hex(), 0);
  json reports = json::array();
  for (std::size_t i = 0; i < points; ++i) {
    if (point && static_cast<std::size_t>(*point) != i + 1) continue;
    reports.push_back(
        llmd_report(file.results[key::points][i], experiment.hex(), static_cast<int>(i)));
  }
  return point ? reports.front() : reports;
}

}  // namespace bench::results
