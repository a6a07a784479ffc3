// A tool's figures from a run's request log: each measured completed request read by the tool's
// rules (request_times.cpp), pooled as the tool pools them, summarized by its percentile rule.
#include "bench/peer_view/recompute.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "request_times.hpp"
#include "rule_words.hpp"
#include "tool_stats.hpp"

namespace bench::peer_view {

namespace {

using results::LoggedRequest;

struct Pooled {
  std::vector<WeightedValue> ttft, gaps, per_token, tpot_from_start, e2e;
  Counts counts;
  std::int64_t output_tokens = 0;
  std::optional<std::int64_t> input_tokens = 0;  // nullopt once a request's is unknown
  double first_send_ms = std::numeric_limits<double>::infinity();
  double last_token_ms = -std::numeric_limits<double>::infinity();
};

std::optional<std::int64_t> input_tokens(InputCount rule, const LoggedRequest& r) {
  return rule == InputCount::usage ? r.prompt_tokens : r.client_prompt_tokens;
}

void pool_times(const ToolRules& tool, const RequestTimes& t, Pooled& pooled) {
  if (t.ttft) pooled.ttft.push_back({*t.ttft});
  if (t.e2e) pooled.e2e.push_back({*t.e2e});
  for (const double gap : t.chunk_gaps) pooled.gaps.push_back({gap});
  const auto tokens = static_cast<double>(t.output_tokens);
  if (t.per_token)
    pooled.per_token.push_back({*t.per_token, tool.per_token_weighted ? tokens - 1 : 1});
  if (t.tpot_from_start) pooled.tpot_from_start.push_back({*t.tpot_from_start, tokens});
  if (!t.gaps_exact) ++pooled.counts.inexact_gaps;
}

void pool_request(const ToolRules& tool, const LoggedRequest& r, Pooled& pooled) {
  ++pooled.counts.requests;
  pooled.output_tokens += output_tokens(tool.output, r);
  if (r.completion_token_source != "usage") ++pooled.counts.without_usage;
  const auto input = input_tokens(tool.input, r);
  if (pooled.input_tokens && input) *pooled.input_tokens += *input;
  if (!input) pooled.input_tokens.reset();
  pooled.first_send_ms = std::min(pooled.first_send_ms, r.start_ms);
  const double last = r.chunk_arrival_ms.empty() ? r.e2e_ms : r.chunk_arrival_ms.back();
  pooled.last_token_ms = std::max(pooled.last_token_ms, r.start_ms + last);
  if (r.tool_call_chunks > 0) ++pooled.counts.with_tool_calls;
  if (!r.streamed) {
    pooled.e2e.push_back({r.e2e_ms});  // a whole body: its latency, and no chunk times
    return;
  }
  const std::optional<RequestTimes> times = request_times(tool, r);
  if (!times) {
    ++pooled.counts.without_choice_log;
    return;
  }
  pool_times(tool, *times, pooled);
}

std::string stat_key(const ToolRules& tool, std::string_view stat, std::string_view name) {
  if (tool.keys == KeyStyle::stat_infix_ms) return fmt::format("{}_{}_ms", stat, name);
  return fmt::format("{}.{}", name, stat);
}

// The three statistics of one distribution, each read against bench's of `bench_infix`.
void add_distribution(const ToolRules& tool, std::string_view name, std::string_view bench_infix,
                      std::vector<WeightedValue> values, const Why& why, PeerView& view) {
  if (name.empty()) return;
  const ThreeStats stats = three_stats(tool.percentiles, std::move(values));
  const std::string_view bench_stats[] = {"mean", "median", "p99"};
  const std::string_view tool_stats[] = {tool.names.mean, tool.names.median, tool.names.p99};
  const std::optional<double> values_of[] = {stats.mean, stats.median, stats.p99};
  for (std::size_t i = 0; i < 3; ++i) {
    view.figures.push_back(
        {stat_key(tool, tool_stats[i], name), values_of[i],
         bench_infix.empty() ? "" : fmt::format("{}_{}_ms", bench_stats[i], bench_infix),
         i == 0 ? why.of_mean : why.of_rank});
  }
}

void add_rate(std::string_view name, std::optional<double> count, double window_s,
              std::string_view bench_key, std::string why, PeerView& view) {
  if (name.empty()) return;
  std::optional<double> rate;
  if (count && window_s > 0) rate = *count / window_s;
  view.figures.push_back({std::string(name), rate, std::string(bench_key), std::move(why)});
}

void add_throughputs(const ToolRules& tool, const Pooled& pooled, const RunFacts& run,
                     PeerView& view) {
  const double window_s = tool.window == Window::run
                              ? run.duration_s
                              : (pooled.last_token_ms - pooled.first_send_ms) / 1000.0;
  const std::string window = window_why(tool, window_s, run.duration_s);
  const auto output = static_cast<double>(pooled.output_tokens);
  std::optional<double> input, total;
  if (pooled.input_tokens) {
    input = static_cast<double>(*pooled.input_tokens);
    total = *input + output;
  }
  const std::string outputs = join_why(output_count_why(tool, pooled.counts), window);
  add_rate(tool.names.output_throughput, output, window_s, "output_throughput", outputs, view);
  add_rate(tool.names.input_throughput, input, window_s, "input_throughput",
           join_why(input_count_why(tool), window), view);
  add_rate(tool.names.total_throughput, total, window_s, "total_throughput",
           join_why(join_why(input_count_why(tool), output_count_why(tool, pooled.counts)), window),
           view);
  add_rate(tool.names.request_throughput, static_cast<double>(pooled.counts.requests), window_s,
           "request_throughput", window, view);
}

}  // namespace

PeerView recompute(const ToolRules& tool, std::span<const LoggedRequest> log, const RunFacts& run) {
  Pooled pooled;
  for (const LoggedRequest& r : log) {
    if (!r.warmup && r.ok) pool_request(tool, r, pooled);
  }
  PeerView view;
  view.tool = &tool;
  view.requests = pooled.counts.requests;
  add_distribution(tool, distribution_name(tool, "ttft"), "ttft", pooled.ttft,
                   ttft_why(tool, pooled.counts), view);
  add_distribution(tool, distribution_name(tool, "icl"), "icl", pooled.gaps, gaps_why(tool), view);
  add_distribution(tool, distribution_name(tool, "tpot"), "tpot", pooled.per_token,
                   per_token_why(tool), view);
  add_distribution(tool, tool.names.tpot_from_start, "", pooled.tpot_from_start,
                   tpot_from_start_why(tool), view);
  add_distribution(tool, distribution_name(tool, "e2e_latency"), "e2e_latency", pooled.e2e,
                   e2e_why(tool), view);
  add_throughputs(tool, pooled, run, view);
  view.notes = notes(tool, pooled.counts);
  return view;
}

}  // namespace bench::peer_view
