// CSV: the same figures as the JSON results, one row per run, for spreadsheets and shell sweeps.
// Rows are rendered from the JSON objects, so the two formats cannot disagree.
#include <cmath>
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

namespace {

using nlohmann::json;

// The columns, in order: what a run was, then its throughput (output first), latency, counts.
constexpr std::string_view kColumns[] = {
    "max_concurrency",
    "request_rate",
    "duration",
    "sent",
    "completed",
    "failed",
    "cancelled",
    "request_throughput",
    "output_throughput",
    "input_throughput",
    "total_throughput",
    "goodput",
    "total_output_tokens",
    "total_input_tokens",
    // The input split beside the input figures (null cells when the server did not say).
    results::key::computed_input_throughput,
    results::key::cached_input_throughput,
    results::key::total_computed_input_tokens,
    results::key::total_cached_input_tokens,
    results::key::cached_input_share,
    results::key::input_split_disclosure,
    // Per GPU (null cells without --gpus), per user, cost (null without a price) and energy
    // (null without a GPU energy counter scraped).
    results::key::output_throughput_per_gpu,
    results::key::input_throughput_per_gpu,
    results::key::total_throughput_per_gpu,
    results::key::median_output_throughput_per_user,
    results::key::p10_output_throughput_per_user,
    results::key::usd_per_million_output_tokens,
    results::key::usd_per_million_input_tokens,
    results::key::usd_per_million_total_tokens,
    results::key::gpu_energy_joules,
    results::key::joules_per_output_token,
    results::key::joules_per_total_token,
    "mean_ttft_ms",
    "median_ttft_ms",
    "p99_ttft_ms",
    "mean_itl_ms",
    "median_itl_ms",
    "p99_itl_ms",
    "median_icl_ms",
    "p99_icl_ms",
    "mean_tpot_ms",
    "median_tpot_ms",
    "p99_tpot_ms",
    "median_e2e_latency_ms",
    "p99_e2e_latency_ms",
    "concurrency",
    "p99_client_lag_ms",
    results::key::client_saturated,
    results::key::host_late,
    "output_token_source",
    "interrupted",
    results::key::reused_prompts,
    "ramp_up_strategy",
    "ramp_up_start_rps",
    "ramp_up_end_rps",
    // Reasoning models (empty cells when no request reasoned).
    results::key::reasoning_output_throughput,
    results::key::answer_output_throughput,
    "mean_ttfa_ms",
    "median_ttfa_ms",
    "p99_ttfa_ms",
    results::key::mean_reasoning_tokens,
    "reasoning_token_source",
    // Tool calls (empty cells when no request called a tool).
    results::key::tool_call_output_throughput,
    results::key::tool_call_output_share,
    results::key::total_tool_calls,
    results::key::mean_tool_call_tokens,
    "tool_call_token_source",
};

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string cell(const json& run, std::string_view column) {
  const json* value = nullptr;
  json source;
  if (column == "output_token_source" || column == "reasoning_token_source" ||
      column == "tool_call_token_source") {
    const auto found = run.find("token_count_source");
    const std::string kind = column == "output_token_source" ? "output"
                             : column == "reasoning_token_source"
                                 ? std::string(results::key::reasoning_token_source)
                                 : std::string(results::key::tool_call_token_source);
    if (found != run.end() && found->is_object()) source = found->value(kind, json());
    value = &source;
  } else {
    const auto found = run.find(std::string(column));
    if (found == run.end()) return "";
    value = &*found;
  }
  if (value->is_null()) return "";
  if (value->is_string()) return csv_field(value->get<std::string>());
  if (value->is_boolean()) return value->get<bool>() ? "true" : "false";
  if (value->is_number_integer() || value->is_number_unsigned()) return value->dump();
  if (value->is_number_float()) {
    const double number = value->get<double>();
    return std::isfinite(number) ? fmt::format("{:.6g}", number) : "";
  }
  return csv_field(value->dump());
}

}  // namespace

std::string to_csv(const std::vector<json>& runs) {
  std::string out;
  for (std::size_t i = 0; i < std::size(kColumns); ++i) {
    if (i > 0) out += ',';
    out += kColumns[i];
  }
  out += '\n';
  for (const json& run : runs) {
    for (std::size_t i = 0; i < std::size(kColumns); ++i) {
      if (i > 0) out += ',';
      out += cell(run, kColumns[i]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace bench::results
