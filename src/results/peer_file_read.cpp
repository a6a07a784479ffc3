// vLLM's and SGLang's result files, and AIPerf's JSON export, read into bench's keys by the figure
// catalogue's peer names.
#include "bench/results/peer_file_read.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "bench/results/compat.hpp"
#include "bench/results/latency_figures.hpp"

namespace bench::results {

namespace {

using nlohmann::json;

// The counts and throughputs both peers write under bench's own names, and vLLM's names for
// bench's (total_token_throughput, request_goodput: compat's aliases).
constexpr std::string_view kSameKeys[] = {"completed",
                                          "failed",
                                          "duration",
                                          "total_input_tokens",
                                          "total_output_tokens",
                                          "request_throughput",
                                          "input_throughput",
                                          "output_throughput",
                                          "total_throughput",
                                          "goodput"};

bool is_bench_stat(std::string_view stat) {
  return std::find(kDistributionStats.begin(), kDistributionStats.end(), stat) !=
         kDistributionStats.end();
}

// "p99_e2el_ms" -> the stat ("p99") and the peer's name ("e2el"), or false.
bool split_latency_key(std::string_view key, std::string_view& stat, std::string_view& name) {
  if (!key.ends_with("_ms")) return false;
  key.remove_suffix(3);
  const std::size_t underscore = key.find('_');
  if (underscore == std::string_view::npos) return false;
  stat = key.substr(0, underscore);
  name = key.substr(underscore + 1);
  return !name.empty();
}

void copy_latencies(const json& parsed, PeerName LatencyFigure::*tool, json& out) {
  for (const auto& [key, value] : parsed.items()) {
    std::string_view stat;
    std::string_view name;
    if (!value.is_number() || !split_latency_key(key, stat, name) || !is_bench_stat(stat)) continue;
    if (const LatencyFigure* figure = peer_figure(tool, name)) {
      out[distribution_key(stat, figure->key)] = value;
    }
  }
}

// AIPerf's profile_export_aiperf.json (aiperf/exporters/json_exporter.py, the shape of
// aiperf/common/models/export_models.py at db4f6397): one object per metric tag, {"unit", "avg",
// "p50", "p90", "p95", "p99", "std", "min", "max"}, in display units (ms for latencies, seconds
// for the benchmark's duration), beside "input_config".
bool is_aiperf_export(const json& parsed) {
  if (!parsed.contains("input_config")) return false;
  for (const char* tag : {"request_latency", "time_to_first_token", "request_count"}) {
    const auto metric = parsed.find(tag);
    if (metric != parsed.end() && metric->is_object() && metric->contains("unit")) return true;
  }
  return false;
}

// A metric's value: its "avg" (a count's or a rate's one value), when its unit is `unit` (empty:
// any); nullopt otherwise.
std::optional<double> aiperf_value(const json& parsed, const char* tag, std::string_view unit,
                                   const char* stat = "avg") {
  const auto metric = parsed.find(tag);
  if (metric == parsed.end() || !metric->is_object()) return std::nullopt;
  if (!unit.empty() && metric->value("unit", std::string()) != unit) return std::nullopt;
  const auto value = metric->find(stat);
  if (value == metric->end() || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

// bench's statistics and AIPerf's spelling of each.
constexpr std::pair<std::string_view, const char*> kAiperfStats[] = {
    {"mean", "avg"}, {"median", "p50"}, {"std", "std"}, {"p90", "p90"},
    {"p95", "p95"},  {"p99", "p99"},    {"max", "max"}};

json aiperf_as_results(const json& parsed) {
  json out = {{"kind", "run"}, {std::string(kPeerFileKey), "aiperf"}};
  const std::pair<const char*, std::pair<const char*, std::string_view>> scalars[] = {
      {"completed", {"request_count", ""}},
      {"failed", {"error_request_count", ""}},
      {"duration", {"benchmark_duration", "sec"}},
      {"total_input_tokens", {"total_isl", ""}},
      {"total_output_tokens", {"total_osl", ""}},
      {"request_throughput", {"request_throughput", ""}},
      {"output_throughput", {"output_token_throughput", ""}}};
  for (const auto& [key, source] : scalars) {
    if (const auto value = aiperf_value(parsed, source.first, source.second)) out[key] = *value;
  }
  for (const char* count : {"completed", "failed", "total_input_tokens", "total_output_tokens"}) {
    if (out.contains(count)) out[count] = std::llround(out[count].get<double>());
  }
  for (const LatencyFigure& figure : latency_figures()) {
    if (figure.aiperf.agreement == Agreement::none) continue;
    const std::string tag(figure.aiperf.name);
    for (const auto& [stat, spelled] : kAiperfStats) {
      if (const auto value = aiperf_value(parsed, tag.c_str(), "ms", spelled)) {
        out[distribution_key(stat, figure.key)] = *value;
      }
    }
  }
  return out;
}

constexpr PeerFileTool kPeerFileTools[] = {
    {"vllm", "vLLM", "its itl is bench's icl"},
    {"sglang", "SGLang", "its itl is bench's icl"},
    {"aiperf", "AIPerf",
     "its inter_token_latency is bench's tpot, its inter_chunk_latency bench's icl"}};

}  // namespace

const PeerFileTool* peer_file_tool_info(std::string_view id) {
  for (const PeerFileTool& tool : kPeerFileTools) {
    if (tool.id == id) return &tool;
  }
  return nullptr;
}

std::optional<std::string_view> peer_file_tool(const json& parsed) {
  if (parsed.is_object() && is_aiperf_export(parsed)) return "aiperf";
  if (!parsed.is_object() || parsed.contains("schema_version") ||
      parsed.contains("bench_version") || !parsed.contains("completed")) {
    return std::nullopt;
  }
  if (parsed.contains("model_id") && parsed.contains("total_token_throughput")) return "vllm";
  // Older SGLang lines have no total_throughput: its dataset_name and backend tell it.
  if (parsed.contains("dataset_name") && parsed.contains("backend") &&
      parsed.contains("output_throughput")) {
    return "sglang";
  }
  return std::nullopt;
}

std::optional<json> peer_file_as_results(const json& parsed) {
  const std::optional<std::string_view> tool = peer_file_tool(parsed);
  if (!tool) return std::nullopt;
  if (*tool == "aiperf") return aiperf_as_results(parsed);
  json out = {{"kind", "run"}, {std::string(kPeerFileKey), std::string(*tool)}};
  for (const auto& [key, value] : parsed.items()) {
    if (!value.is_number()) continue;
    const std::string bench_key = aliased_key(key).value_or(key);
    if (std::find(std::begin(kSameKeys), std::end(kSameKeys), bench_key) != std::end(kSameKeys)) {
      out[bench_key] = value;
    }
  }
  if (out.contains("completed") && out.contains("failed")) {
    out["sent"] = out["completed"].get<std::int64_t>() + out["failed"].get<std::int64_t>();
  }
  copy_latencies(parsed, *tool == "vllm" ? &LatencyFigure::vllm : &LatencyFigure::sglang, out);
  return out;
}

}  // namespace bench::results
