#include "bench/live/json_line.hpp"

#include <cstddef>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bench::live {

namespace {

using json = nlohmann::ordered_json;  // keys in the order written, for people reading the feed

json requests_json(const RequestCounts& counts) {
  return {{"completed", counts.completed},
          {"failed", counts.failed},
          {"cancelled", counts.cancelled},
          {"ended", counts.ended()}};
}

json tokens_json(const TokenCounts& tokens) {
  return {{"input", tokens.input},
          {"output", tokens.output},
          {"total", tokens.input + tokens.output},
          {"input_computed", tokens.input_computed},
          {"input_cached", tokens.input_cached},
          {"input_split_unknown", tokens.input_split_unknown},
          {"output_reasoning", tokens.output_reasoning},
          {"output_tool_call", tokens.output_tool_call},
          {"requests_input_unknown", tokens.requests_input_unknown},
          {"requests_output_unknown", tokens.requests_output_unknown}};
}

// "p50", "p90", "p99".
std::string percentile_key(double percentile) {
  // Not "p" + std::to_string(...): GCC 12 at -O3 warns -Wrestrict on a one-character literal
  // plus a std::string (a false positive, GCC bug 105329).
  return fmt::format("p{}", static_cast<int>(percentile));
}

// A rate over the window's span; unknown (null) before any time has passed.
json per_second(std::int64_t tokens, double span_s) {
  return span_s > 0 ? json(static_cast<double>(tokens) / span_s) : json(nullptr);
}

json window_json(const Snapshot& snapshot) {
  json window = {{"seconds", snapshot.window_s}, {"span_s", snapshot.window_span_s}};
  for (const Latency latency : kLatencies) {
    const WindowFigures& figures = snapshot.window[static_cast<std::size_t>(latency)];
    json one = {{"values", figures.values}, {"capped", figures.capped}};
    for (std::size_t k = 0; k < kWindowPercentiles.size(); ++k) {
      const std::optional<double>& value = figures.percentiles[k];
      one[percentile_key(kWindowPercentiles[k])] = value ? json(*value) : json(nullptr);
    }
    window[std::string(latency_name(latency)) + "_ms"] = std::move(one);
  }
  const double span = snapshot.window_span_s;
  window["output_tokens_per_s"] = per_second(snapshot.window_output_tokens, span);
  window["input_tokens_per_s"] = per_second(snapshot.window_input_tokens, span);
  window["total_tokens_per_s"] =
      per_second(snapshot.window_input_tokens + snapshot.window_output_tokens, span);
  return window;
}

}  // namespace

std::string json_line(const Snapshot& snapshot) {
  const json object = {
      {"live_version", kLiveJsonVersion},
      {"sequence", snapshot.sequence},
      {"elapsed_s", snapshot.elapsed_s},
      {"unix_ms", snapshot.unix_ms},
      {"final", snapshot.final},
      {"shard", snapshot.shard.empty() ? json(nullptr) : json(snapshot.shard)},
      {"point", snapshot.point.empty() ? json(nullptr) : json(snapshot.point)},
      {"point_index", snapshot.point_index < 0 ? json(nullptr) : json(snapshot.point_index)},
      {"in_flight", snapshot.in_flight},
      {"publisher_cpu_s", snapshot.publisher_cpu_s},
      {"requests",
       {{"measured", requests_json(snapshot.measured)},
        {"warmup", requests_json(snapshot.warmup)}}},
      {"tokens", tokens_json(snapshot.tokens)},
      {"window", window_json(snapshot)}};
  return object.dump();
}

}  // namespace bench::live
