// The results object and the per-request JSONL line. Flat key names follow SGLang's
// bench_serving and vLLM's benchmark result files, so scripts written for them read bench's
// figures unchanged; everything bench adds (sources, errors, definitions) is nested beside them.
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "bench/metrics/error_class.hpp"
#include "bench/metrics/histogram.hpp"
#include "bench/results/agent_trace_section.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/results/format.hpp"
#include "bench/results/image_split.hpp"
#include "bench/results/load_warning.hpp"
#include "bench/results/multi_turn_section.hpp"
#include "bench/results/provenance.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/server_section.hpp"
#include "bench/results/writer.hpp"
#include "bench/util/clock.hpp"
#include "run_figures.hpp"
#include "server_gauges.hpp"

namespace bench::results {
namespace {

using metrics::Distribution;
using metrics::RunSummary;
using nlohmann::json;

// Plain doubles only: JSON has no NaN, and nlohmann would write null for it.
using results::finite_or_zero;

// Server-supplied text (error bodies, finish_reason) may hold invalid UTF-8, on which
// json::dump throws; invalid bytes become U+FFFD so the caller's dump cannot fail.
std::string valid_utf8(std::string_view text) {
  const std::string dumped =
      json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
  return json::parse(dumped).get<std::string>();
}

// "usage" when every completed request's count came from usage, the other source when every
// one came from it, "mixed" when both occur, "none" when there were no completed requests.
std::string_view source_label(std::int64_t from_usage, std::int64_t other,
                              std::string_view other_label) {
  if (other == 0) return from_usage > 0 ? "usage" : "none";
  return from_usage == 0 ? other_label : "mixed";
}

// The output's source: as source_label, with the tokenizer's count (no usage, --tokenizer) a
// third source; "mixed" when more than one occurs.
std::string_view output_source_label(const RunSummary& s) {
  const std::int64_t sources = (s.output_tokens_from_usage > 0 ? 1 : 0) +
                               (s.output_tokens_from_tokenizer > 0 ? 1 : 0) +
                               (s.output_tokens_from_chunks > 0 ? 1 : 0);
  if (sources > 1) return "mixed";
  if (s.output_tokens_from_tokenizer > 0) {
    return metrics::token_source_name(metrics::TokenSource::tokenizer);
  }
  return source_label(s.output_tokens_from_usage, s.output_tokens_from_chunks, "chunks_estimate");
}

json token_count_source(const RunSummary& s) {
  const std::optional<std::string_view> reasoning = metrics::reasoning_source_label(s.reasoning);
  const std::optional<std::string_view> tool_calls = metrics::tool_call_source_label(s.tool_calls);
  return {
      {"output", output_source_label(s)},
      {results::key::reasoning_token_source, reasoning ? json(*reasoning) : json(nullptr)},
      {"reasoning_from_usage", s.reasoning.from_usage},
      {"reasoning_from_tokenizer", s.reasoning.from_tokenizer},
      {"reasoning_from_chunks", s.reasoning.from_chunks},
      {results::key::tool_call_token_source, tool_calls ? json(*tool_calls) : json(nullptr)},
      {"tool_calls_from_usage", s.tool_calls.from_usage},
      {"tool_calls_from_tokenizer", s.tool_calls.from_tokenizer},
      {"tool_calls_from_chunks", s.tool_calls.from_chunks},
      {"input", source_label(s.input_tokens_from_usage, s.input_tokens_unknown, "unknown")},
      {"output_from_usage", s.output_tokens_from_usage},
      {"output_from_tokenizer", s.output_tokens_from_tokenizer},
      {"output_from_chunks", s.output_tokens_from_chunks},
      {"input_from_usage", s.input_tokens_from_usage},
      {"input_unknown", s.input_tokens_unknown},
  };
}

json errors_object(const RunSummary& s) {
  json errors = json::object();
  for (const auto& [error, summary] : s.errors) {
    if (summary.count == 0) continue;
    json samples = json::array();
    for (const std::string& sample : summary.samples) samples.push_back(valid_utf8(sample));
    errors[std::string(metrics::error_class_name(error))] = {{"count", summary.count},
                                                             {"samples", samples}};
  }
  return errors;
}

json cdf_array(const metrics::RunSummary::Cdf& cdf) {
  json points = json::array();
  for (const auto& [percentile, value] : cdf) points.push_back({percentile, finite_or_zero(value)});
  return points;
}

json timeline_object(const RunSummary& s) {
  json buckets = json::array();
  for (const metrics::TimelineBucket& b : s.timeline) {
    buckets.push_back({{"t_s", b.t_s},
                       {"width_s", b.width_s},
                       {"started", b.started},
                       {"finished", b.finished},
                       {"in_flight", b.in_flight},
                       {"mean_in_flight", b.mean_in_flight},
                       {"output_tokens", b.output_tokens},
                       {"input_tokens", b.input_tokens},
                       {"output_throughput", b.output_throughput()},
                       {"input_throughput", b.input_throughput()},
                       {"errors", b.errors}});
  }
  return {{"bucket_s", s.timeline_bucket_s}, {"buckets", buckets}};
}

// The steady-state window's latencies under the run's own key names, so a reader (or bench
// search's --slo-window steady) finds p99_ttft_ms in both; null when they are unknown.
void add_steady_latencies(json& out, const std::optional<metrics::SteadyLatencies>& latencies) {
  out["requests"] = latencies ? json(latencies->requests) : json();
  const std::pair<const char*, const metrics::Distribution*> figures[] = {
      {"ttft_ms", latencies ? &latencies->ttft_ms : nullptr},
      {"tpot_ms", latencies ? &latencies->tpot_ms : nullptr},
      {"e2e_latency_ms", latencies ? &latencies->e2e_ms : nullptr}};
  for (const auto& figure : figures) {
    const char* name = figure.first;
    const metrics::Distribution* values = figure.second;  // no binding: clang 14 cannot capture one
    const auto value = [values](double metrics::Distribution::*field) {
      return values != nullptr ? stat(*values, field) : json();
    };
    out[fmt::format("mean_{}", name)] = value(&metrics::Distribution::mean);
    out[fmt::format("median_{}", name)] = value(&metrics::Distribution::median);
    out[fmt::format("p90_{}", name)] = value(&metrics::Distribution::p90);
    out[fmt::format("p99_{}", name)] = value(&metrics::Distribution::p99);
  }
}

json steady_state_object(const metrics::RunSummary& s, bool input_known) {
  const metrics::SteadyState& steady = s.steady_state;
  if (!steady.found) return nullptr;
  json out = {{"start_s", steady.start_s},
              {"end_s", steady.end_s},
              {"target_in_flight", steady.target_in_flight},
              {"output_throughput", finite_or_zero(steady.output_throughput)},
              {"input_throughput", if_known(input_known, steady.input_throughput)},
              {"total_throughput", if_known(input_known, steady.total_throughput)},
              {"request_throughput", finite_or_zero(steady.request_throughput)}};
  add_steady_latencies(out, s.steady_latencies);
  // Why the latencies are null, as data (metrics::SteadyLatencyGap); null when they are known.
  out[results::key::steady_latency_unknown] =
      s.steady_latencies ? json(nullptr)
                         : json(metrics::steady_latency_gap_name(s.steady_latency_gap));
  return out;
}

json client_object(const RunSummary& s, const ClientCheck& check) {
  const metrics::ClientLoad& client = check.load;
  json warnings = json::array();
  for (const std::string& warning : check.warnings) warnings.push_back(warning);
  const bool reason_known = !client.threads_reason.empty();
  return {
      {"threads", client.threads},
      {"threads_auto", reason_known ? json(client.threads_auto) : json(nullptr)},
      {"threads_reason", reason_known ? json(client.threads_reason) : json(nullptr)},
      {"cpu_s", finite_or_zero(client.cpu_s)},
      {"wall_s", finite_or_zero(client.wall_s)},
      {"busiest_thread_utilization", finite_or_zero(client.busiest_thread_utilization)},
      {"busiest_thread_demand", finite_or_zero(client.busiest_thread_demand)},
      {"run_queue_wait_ms",
       client.run_queue_wait_s ? json(s_to_ms(*client.run_queue_wait_s)) : json(nullptr)},
      {"process_cpu_share", results::known_or_null(client.process_cpu_share)},
      {"cpu_ms_per_1k_output_tokens",
       results::known_or_null(client.cpu_ms_per_1k_output_tokens(s.total_output_tokens))},
      {"peak_rss_mb", static_cast<double>(client.peak_rss_bytes) / (1 << 20)},
      {"preconnect",
       {{"requested", client.preconnect_requested},
        {"opened", client.preconnect_opened},
        {"failed", client.preconnect_failed},
        {"took_ms", finite_or_zero(s_to_ms(client.preconnect_s))}}},
      {"late_wakes",
       {{"sleeps", client.timer_wakes},
        {"over_1ms", client.late_timer_wakes},
        {"latest_ms", ns_to_ms(client.latest_timer_wake_ns)}}},
      {"connection_reuse",
       {{"server_closes_after_response", client.server_prompt_closes},
        {"stopped", client.reuse_stopped()},
        {"stopped_after_closes_in_a_row",
         client.reuse_stopped() ? json(client.reuse_stopped_after_closes) : json(nullptr)},
        {"stopping_close_within_ms",
         client.reuse_stopped() ? json(ns_to_ms(client.reuse_stopped_close_ns)) : json(nullptr)}}},
      {"warnings", warnings}};
}

// How many requests disclosed the input's split into computed and cached (results::key); the
// figures of the split are rows of run_figures.hpp.
void put_input_split(json& out, const RunSummary& s) {
  out[results::key::input_split_disclosure] =
      metrics::cache_disclosure_name(s.input_split.disclosure());
}

// The run's warnings, one line each; the client's own stay under "client".
json run_warnings(const RunSummary& s, const RunContext& c) {
  json warnings = json::array();
  if (const std::optional<std::string> load = load_not_reached_warning(s, c)) {
    warnings.push_back(*load);
  }
  if (const std::optional<std::string> cache = prompt_cache_warning(s, c)) {
    warnings.push_back(*cache);
  }
  return warnings;
}

// The offered load beside request_rate (a row of run_figures.hpp): vLLM's ramp-up keys
// (vllm/benchmarks/serve.py writes ramp_up_strategy, ramp_up_start_rps, ramp_up_end_rps).
void put_load(json& out, const RunContext& c) {
  const bool ramp = ramp_up(c);
  out["ramp_up_strategy"] = ramp ? json(c.ramp_up_strategy) : json(nullptr);
  out["ramp_up_start_rps"] = ramp ? json(c.ramp_up_start_rps) : json(nullptr);
  out["ramp_up_end_rps"] = ramp ? json(c.ramp_up_end_rps) : json(nullptr);
}

// How many raw latency values were kept (the distributions are rows of run_figures.hpp).
void put_latency_samples(json& out, const RunSummary& s) {
  out[results::key::latency_samples] = {
      {results::key::sample_budget, s.latency_sample_budget},
      {results::key::samples_exact, s.latency_samples_exact},
      {results::key::max_relative_error,
       s.latency_samples_exact ? 0.0 : metrics::Histogram::kMaxRelativeError}};
}

}  // namespace

json sweep_to_json(const std::string& variable, const json& values,
                   const std::vector<json>& points) {
  json out = json::object();
  out[results::key::schema_version] = results::kSchemaVersion;
  out[results::key::bench_version] = BENCH_VERSION;
  out[results::key::kind] = results::kind_name(results::Kind::sweep);
  out[results::key::sweep] = {{results::key::variable, variable}, {results::key::values, values}};
  out[results::key::points] = points;
  return out;
}

json to_json(const RunSummary& s, const RunContext& c) {
  json out = json::object();
  out[results::key::schema_version] = results::kSchemaVersion;
  out[results::key::kind] = results::kind_name(results::Kind::run);
  out[results::key::bench_version] = BENCH_VERSION;
  out[results::key::provenance] = c.provenance;
  out[results::key::started_at] = c.started_at;
  out[results::key::base_url] = c.base_url;
  out[results::key::embedded_server] = c.embedded_server;
  out["simulator"] = c.simulator;
  out[results::key::answer_check] = c.answer_check;
  out["endpoint"] = c.endpoint;
  out[results::key::model] = c.model;

  // Input figures lacking some request's prompt_tokens are unknown (null), never 0 or a part.
  const bool input_known = s.input_tokens_known();
  for (const RunFigure& figure : run_figures()) out[figure.key] = figure.value({s, c, input_known});
  put_input_split(out, s);
  if (sent_images(c.config)) {
    out[results::key::image_input_split] = image_input_split_json(image_input_split(s));
  }
  put_latency_samples(out, s);
  out["chunks_differ_from_tokens"] = s.chunks_differ_from_tokens;
  out["itl_estimated"] = s.itl_estimated;
  if (s.multi_turn) out[results::key::multi_turn] = multi_turn_json(*s.multi_turn);
  if (s.agent_trees) out[results::key::agent_trace] = agent_trace_json(s, c);

  put_load(out, c);
  out["interrupted"] = c.interrupted;
  out[results::key::reused_prompts] = c.prompts_reused;
  out[results::key::prompts_share_prefixes] = c.prompts_share_prefixes;
  if (c.prefix_share) out[results::key::prefix_share] = *c.prefix_share;
  if (c.server_metrics) {
    out["server_metrics"] = server_metrics_json(*c.server_metrics, s, c.meant_to_share_prefixes());
  }
  out[results::key::warnings] = run_warnings(s, c);
  out[results::key::client_saturated] = c.client.saturated;
  out[results::key::host_late] = c.client.host_late;
  out["client"] = client_object(s, c.client);
  out["timeline"] = timeline_object(s);
  if (c.server_metrics) put_timeline_gauges(out["timeline"]["buckets"], s, *c.server_metrics);
  out[results::key::distributions] = {{"ttft_ms", cdf_array(s.ttft_cdf_ms)},
                                      {"itl_ms", cdf_array(s.itl_cdf_ms)},
                                      {"tpot_ms", cdf_array(s.tpot_cdf_ms)},
                                      {"e2e_latency_ms", cdf_array(s.e2e_cdf_ms)}};
  out["steady_state"] = steady_state_object(s, input_known);
  out[results::key::token_count_source] = token_count_source(s);
  out["errors"] = errors_object(s);
  out[results::key::config] = c.config;
  out[results::key::definitions] = metric_definitions();
  if (s.agent_trees) out[results::key::definitions].update(agent_trace_definitions());
  return out;
}

}  // namespace bench::results
