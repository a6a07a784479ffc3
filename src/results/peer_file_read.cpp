// vLLM's and SGLang's result files read into bench's keys, by the figure catalogue's peer names.
#include "bench/results/peer_file_read.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

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

}  // namespace

std::optional<std::string_view> peer_file_tool(const json& parsed) {
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
