// The Server section's cross-checks beyond the token counts: the server's prefix-cache hits held
// against the cached tokens bench's responses disclosed, and the queueing its gauge polls saw held
// against bench's own requests in flight, each said as a finding (and in the JSON for the HTML).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/report/report.hpp"
#include "bench/results/writer.hpp"

namespace {

using bench::metrics::RunSummary;
using bench::results::GaugePolls;
using bench::results::RunContext;
using bench::results::ServerMetricsWindow;
using bench::server_metrics::Delta;
using bench::server_metrics::QueueSight;
using bench::server_metrics::ServerFamily;

// 1000 input tokens over 4 requests; `cached` of them disclosed as cached when given.
RunSummary with_input(std::optional<std::int64_t> cached) {
  RunSummary summary;
  summary.total_input_tokens = 1000;
  summary.total_output_tokens = 100;
  summary.input_split.requests = 4;
  if (cached) {
    summary.input_split.disclosing_requests = 4;
    summary.input_split.cached_tokens = *cached;
    summary.input_split.computed_tokens = 1000 - *cached;
  } else {
    summary.input_split.unknown_split_tokens = 1000;
  }
  return summary;
}

RunContext with_hits(double hits, double queries, std::optional<GaugePolls> polls = {}) {
  Delta delta;
  delta.family = ServerFamily::vllm;
  delta.prompt_tokens = 1000;
  delta.generation_tokens = 100;
  delta.prefix_cache_hit_tokens = hits;
  delta.prefix_cache_query_tokens = queries;
  ServerMetricsWindow window;
  window.url = "http://127.0.0.1:8000/metrics";
  window.delta = delta;
  window.polls = std::move(polls);
  RunContext context;
  context.server_metrics = window;
  return context;
}

TEST(ServerFindings, HitsAgreeingWithBenchsCachedSplitAreNoFinding) {
  const RunSummary summary = with_input(320);
  const RunContext context = with_hits(320, 1000);
  const std::string text = bench::report::render_text(summary, context);
  EXPECT_NE(text.find("320 of 1000 prompt tokens looked up (bench: 320 cached input tokens)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("prefix cache hit"), std::string::npos) << text;
  const nlohmann::json section = bench::results::to_json(summary, context).at("server_metrics");
  EXPECT_EQ(section.at("bench_cached_input_tokens"), 320);
  EXPECT_EQ(section.at("prefix_cache_hit_difference"), 0);
  EXPECT_TRUE(section.at("findings").empty());
}

TEST(ServerFindings, HitsBeyondBenchsCachedSplitAreAWarning) {
  const RunSummary summary = with_input(0);
  const RunContext context = with_hits(480, 1000);
  const std::string text = bench::report::render_text(summary, context);
  EXPECT_NE(text.find("WARNING: the server's prefix cache hit 480 prompt tokens, bench's "
                      "responses said 0 were cached"),
            std::string::npos)
      << text;
  const nlohmann::json section = bench::results::to_json(summary, context).at("server_metrics");
  EXPECT_EQ(section.at("prefix_cache_hit_difference"), 480);
  ASSERT_EQ(section.at("findings").size(), 1u);
}

TEST(ServerFindings, UndisclosedSplitTakesTheServersShareAsTheWitness) {
  const RunSummary summary = with_input(std::nullopt);
  std::string text = bench::report::render_text(summary, with_hits(50, 1000));
  EXPECT_NE(text.find("Note: bench's responses did not say their cached tokens; the server's "
                      "prefix cache served 5.0% of the prompt tokens it looked up"),
            std::string::npos)
      << text;
  text = bench::report::render_text(summary, with_hits(600, 1000));
  EXPECT_NE(text.find("WARNING: the server's prefix cache served 60.0% of the prompt tokens it "
                      "looked up, on a workload not meant to share prefixes"),
            std::string::npos)
      << text;
  RunContext shared = with_hits(600, 1000);
  shared.prompts_share_prefixes = true;  // sharing is its purpose: a note, not a warning
  text = bench::report::render_text(summary, shared);
  EXPECT_EQ(text.find("WARNING: the server's prefix cache"), std::string::npos) << text;
  const nlohmann::json section = bench::results::to_json(summary, shared).at("server_metrics");
  EXPECT_TRUE(section.at("bench_cached_input_tokens").is_null());
  EXPECT_TRUE(section.at("prefix_cache_hit_difference").is_null());
}

GaugePolls polls_seeing(std::initializer_list<QueueSight> sights) {
  GaugePolls polls;
  polls.interval_s = 1;
  for (QueueSight sight : sights) polls.queue.add(sight);
  return polls;
}

// SGLang gives its prefix cache only as cache_hit_rate, a gauge: held against bench's cached
// share as a rate (percent), never as a count of tokens, with a stated 10-point tolerance.
RunContext with_hit_rate(double rate) {
  Delta delta;
  delta.family = ServerFamily::sglang;
  delta.prompt_tokens = 1000;
  delta.generation_tokens = 100;
  delta.prefix_cache_hit_ratio = rate;
  ServerMetricsWindow window;
  window.url = "http://127.0.0.1:30000/metrics";
  window.delta = delta;
  RunContext context;
  context.server_metrics = window;
  return context;
}

TEST(ServerFindings, AHitRateGaugeFarFromBenchsCachedShareIsAWarning) {
  const RunSummary summary = with_input(100);  // 10.0% cached
  const std::string text = bench::report::render_text(summary, with_hit_rate(0.45));
  EXPECT_NE(text.find("Prefix-cache hit rate (server):   45.0% (a gauge of its latest prefill "
                      "batches, after the last request; bench: 10.0% of input tokens cached)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("WARNING: the server's prefix-cache hit rate (a gauge of its latest "
                      "prefill batches, read after the last request) was 45.0%, bench's "
                      "responses said 10.0% of input tokens were cached: more than 10 points "
                      "apart"),
            std::string::npos)
      << text;
  const nlohmann::json server =
      bench::results::to_json(summary, with_hit_rate(0.45))["server_metrics"];
  EXPECT_DOUBLE_EQ(server["prefix_cache_hit_rate"].get<double>(), 0.45);
  EXPECT_DOUBLE_EQ(server["bench_cached_input_share"].get<double>(), 0.10);
  EXPECT_DOUBLE_EQ(server["prefix_cache_hit_rate_difference"].get<double>(), 0.35);
  EXPECT_EQ(server["findings"].size(), 1u) << server.dump();
}

TEST(ServerFindings, AHitRateWithinTheToleranceOrWithoutBenchsSplitIsNoFinding) {
  const std::string near = bench::report::render_text(with_input(100), with_hit_rate(0.18));
  EXPECT_NE(near.find("18.0% (a gauge"), std::string::npos) << near;
  EXPECT_EQ(near.find("WARNING"), std::string::npos) << near;
  const RunSummary undisclosed = with_input(std::nullopt);
  const std::string unknown = bench::report::render_text(undisclosed, with_hit_rate(0.9));
  EXPECT_NE(unknown.find("bench: n/a of input tokens cached"), std::string::npos) << unknown;
  EXPECT_EQ(unknown.find("WARNING"), std::string::npos) << unknown;
  const nlohmann::json server =
      bench::results::to_json(undisclosed, with_hit_rate(0.9))["server_metrics"];
  EXPECT_TRUE(server["prefix_cache_hit_rate_difference"].is_null());
}

TEST(ServerFindings, QueueingBeyondBenchsRequestsIsAWarning) {
  const RunContext context =
      with_hits(0, 1000,
                polls_seeing({QueueSight::beyond_bench, QueueSight::beyond_bench, QueueSight::none,
                              QueueSight::bench_idle}));
  const std::string text = bench::report::render_text(with_input(0), context);
  EXPECT_NE(text.find("WARNING: in 2 of 4 polls the server held more requests (running + "
                      "waiting) than bench had in flight, some of them waiting: others share "
                      "the server"),
            std::string::npos)
      << text;
  // One poll alone may be a request crossing the scrape: a note.
  EXPECT_NE(text.find("Note: in 1 of 4 polls requests waited at the server while bench had none "
                      "in flight: others share the server"),
            std::string::npos)
      << text;
  const nlohmann::json section =
      bench::results::to_json(with_input(0), context).at("server_metrics");
  EXPECT_EQ(section.at("gauges").at("queue").at("beyond_bench"), 2);
  EXPECT_EQ(section.at("gauges").at("queue").at("while_bench_idle"), 1);
  EXPECT_EQ(section.at("findings").size(), 2u);
}

TEST(ServerFindings, TheServerQueueingBenchsOwnLoadIsANote) {
  const RunContext context =
      with_hits(0, 1000, polls_seeing({QueueSight::server_queues, QueueSight::none}));
  const std::string text = bench::report::render_text(with_input(0), context);
  EXPECT_NE(text.find("Note: in 1 of 2 polls some of bench's requests waited at the server (its "
                      "batch was full): their TTFT includes the wait"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("others share"), std::string::npos) << text;
}

}  // namespace
