// The server's own TTFT, E2E, ITL and TPOT beside bench's in the Server section: the bucket range
// the server's p50 and p99 fall in, bench's value beside it, and a finding when bench's is
// outside; its queue time alone, with its exact mean. Also the polled gauges' mean and max.
#include <gtest/gtest.h>

#include <limits>
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
using bench::server_metrics::GaugeReading;
using bench::server_metrics::Histogram;
using bench::server_metrics::ServerFamily;

// 100 requests: 60 within 0.1 s, 98 within 0.25 s, all within 0.5 s.
Histogram ttft_histogram() {
  Histogram histogram;
  histogram.buckets = {
      {0.1, 60}, {0.25, 98}, {0.5, 100}, {std::numeric_limits<double>::infinity(), 100}};
  histogram.count = 100;
  return histogram;
}

RunSummary with_ttft(double p50_ms, double p99_ms) {
  RunSummary summary;
  summary.ttft_ms.count = 100;
  summary.ttft_ms.median = p50_ms;
  summary.ttft_ms.p99 = p99_ms;
  return summary;
}

RunContext with_delta(Delta delta, std::optional<GaugePolls> polls = std::nullopt) {
  RunContext context;
  ServerMetricsWindow window;
  window.url = "http://127.0.0.1:8000/metrics";
  delta.family = ServerFamily::vllm;
  window.delta = std::move(delta);
  window.polls = std::move(polls);
  context.server_metrics = window;
  return context;
}

Delta ttft_delta() {
  Delta delta;
  delta.ttft_seconds = ttft_histogram();
  return delta;
}

TEST(ServerLatency, BenchsPercentilesBesideTheServersBucketRange) {
  const RunSummary summary = with_ttft(80, 400);
  const std::string text = bench::report::render_text(summary, with_delta(ttft_delta()));
  EXPECT_NE(text.find("p50 TTFT (server):                0-0.1 s, bench 0.08 s"), std::string::npos)
      << text;
  EXPECT_NE(text.find("p99 TTFT (server):                0.25-0.5 s, bench 0.4 s"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Finding:"), std::string::npos) << text;
  EXPECT_EQ(text.find("E2E (server)"), std::string::npos) << text;  // not exposed: no line
  const nlohmann::json ranges = bench::results::to_json(summary, with_delta(ttft_delta()))
                                    .at("server_metrics")
                                    .at("latency_ranges");
  EXPECT_EQ(ranges.at("ttft").at("p99").at("server_lower_s"), 0.25);
  EXPECT_EQ(ranges.at("ttft").at("p99").at("server_upper_s"), 0.5);
  EXPECT_DOUBLE_EQ(ranges.at("ttft").at("p99").at("bench_s").get<double>(), 0.4);
  EXPECT_EQ(ranges.at("ttft").at("p99").at("bench_inside"), true);
  EXPECT_FALSE(ranges.contains("e2e"));
}

TEST(ServerLatency, BenchOutsideTheServersRangeIsAFinding) {
  const RunSummary summary = with_ttft(150, 700);
  const RunContext context = with_delta(ttft_delta());
  const std::string text = bench::report::render_text(summary, context);
  EXPECT_NE(text.find("Finding: bench's p50 TTFT (150.00 ms) is above the server's range "
                      "(0-100 ms) by more than its tolerance"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Finding: bench's p99 TTFT (700.00 ms) is above the server's range "
                      "(250-500 ms)"),
            std::string::npos)
      << text;
  const nlohmann::json ranges =
      bench::results::to_json(summary, context).at("server_metrics").at("latency_ranges");
  EXPECT_EQ(ranges.at("ttft").at("p50").at("bench_inside"), false);
}

TEST(ServerLatency, ABucketBeyondTheLastBoundIsOpenEnded) {
  Delta delta;
  Histogram slow;
  slow.buckets = {{0.1, 0}, {std::numeric_limits<double>::infinity(), 10}};
  slow.count = 10;
  delta.ttft_seconds = slow;
  const RunSummary summary = with_ttft(3000, 4000);
  const std::string text = bench::report::render_text(summary, with_delta(delta));
  EXPECT_NE(text.find("p99 TTFT (server):                above 0.1 s, bench 4 s"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Finding:"), std::string::npos) << text;
  const nlohmann::json ranges =
      bench::results::to_json(summary, with_delta(delta)).at("server_metrics").at("latency_ranges");
  EXPECT_EQ(ranges.at("ttft").at("p99").at("server_upper_s"), "inf");
}

TEST(ServerLatency, NoBenchRequestsLeaveBenchsFigureUnknown) {
  const RunSummary summary;  // no successful request: no TTFT of bench's
  const std::string text = bench::report::render_text(summary, with_delta(ttft_delta()));
  EXPECT_NE(text.find("p50 TTFT (server):                0-0.1 s, bench n/a"), std::string::npos)
      << text;
  const nlohmann::json p50 = bench::results::to_json(summary, with_delta(ttft_delta()))
                                 .at("server_metrics")
                                 .at("latency_ranges")
                                 .at("ttft")
                                 .at("p50");
  EXPECT_TRUE(p50.at("bench_s").is_null());
  EXPECT_TRUE(p50.at("bench_inside").is_null());
}

// 1000 token gaps: 900 within 0.01 s, all within 0.025 s; 10 requests' TPOT: 6 within 0.01 s,
// all within 0.025 s; 10 requests' queue time: 9 within 0.3 s, one within 0.5 s, 0.5 s in all.
Delta decode_delta() {
  const double inf = std::numeric_limits<double>::infinity();
  Delta delta;
  delta.itl_seconds = Histogram{{{0.01, 900}, {0.025, 1000}, {inf, 1000}}, 1000, 8};
  delta.tpot_seconds = Histogram{{{0.01, 6}, {0.025, 10}, {inf, 10}}, 10, 0.1};
  delta.queue_time_seconds = Histogram{{{0.3, 9}, {0.5, 10}, {inf, 10}}, 10, 0.5};
  return delta;
}

RunSummary with_decode(double itl_p50_ms, double itl_p99_ms, double tpot_p50_ms,
                       double tpot_p99_ms) {
  RunSummary summary;
  summary.itl_ms.count = 1000;
  summary.itl_ms.median = itl_p50_ms;
  summary.itl_ms.p99 = itl_p99_ms;
  summary.tpot_ms.count = 10;
  summary.tpot_ms.median = tpot_p50_ms;
  summary.tpot_ms.p99 = tpot_p99_ms;
  return summary;
}

TEST(ServerLatency, ItlAndTpotBesideBenchsPerTokenAndPerRequestFigures) {
  const RunSummary summary = with_decode(8, 20, 9.5, 21);
  const RunContext context = with_delta(decode_delta());
  const std::string text = bench::report::render_text(summary, context);
  EXPECT_NE(text.find("p50 ITL (server):                 0-0.01 s, bench 0.008 s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("p99 ITL (server):                 0.01-0.025 s, bench 0.02 s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("p50 TPOT (server):                0-0.01 s, bench 0.0095 s"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Finding:"), std::string::npos) << text;
  const nlohmann::json ranges =
      bench::results::to_json(summary, context).at("server_metrics").at("latency_ranges");
  EXPECT_EQ(ranges.at("itl").at("p99").at("server_lower_s"), 0.01);
  EXPECT_EQ(ranges.at("itl").at("p99").at("server_upper_s"), 0.025);
  EXPECT_DOUBLE_EQ(ranges.at("itl").at("p99").at("bench_s").get<double>(), 0.02);
  EXPECT_EQ(ranges.at("tpot").at("p50").at("bench_inside"), true);
}

TEST(ServerLatency, ATokenGapSlowerThanTheServersIsAFinding) {
  const RunSummary summary = with_decode(30, 40, 9, 12);
  const std::string text = bench::report::render_text(summary, with_delta(decode_delta()));
  EXPECT_NE(text.find("Finding: bench's p50 ITL (30.00 ms) is above the server's range (0-10 ms) "
                      "by more than its tolerance: the stream slowed on its way from the server"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Finding: bench's p50 TPOT"), std::string::npos) << text;
}

// The user trial's line: bench's p50 TPOT of 10.028 ms against the server's bucket bounded at
// 10 ms read "(0.01 s) is above the server's range (0-0.01 s)". Within 0.5 ms + 2% of a bound,
// bench's figure is inside; beyond it, the finding's figures read beyond the bound.
TEST(ServerLatency, AFigureWithinTheToleranceOfABoundIsInside) {
  const RunContext context = with_delta(decode_delta());
  const RunSummary near = with_decode(8, 20, 10.028, 21);
  const std::string text = bench::report::render_text(near, context);
  EXPECT_EQ(text.find("Finding: bench's p50 TPOT"), std::string::npos) << text;
  EXPECT_EQ(bench::results::to_json(near, context)
                .at("server_metrics")
                .at("latency_ranges")
                .at("tpot")
                .at("p50")
                .at("bench_inside"),
            true);
  const RunSummary beyond = with_decode(8, 20, 10.71, 21);  // 10 ms + 0.5 ms + 0.2 ms
  const std::string beyond_text = bench::report::render_text(beyond, context);
  EXPECT_NE(beyond_text.find("Finding: bench's p50 TPOT (10.71 ms) is above the server's range "
                             "(0-10 ms)"),
            std::string::npos)
      << beyond_text;
  // p99 ITL's bucket is 10-25 ms: 9.6 ms is within the tolerance below it, 9.2 ms is not.
  EXPECT_EQ(bench::report::render_text(with_decode(8, 9.6, 9, 21), context)
                .find("Finding: bench's p99 ITL"),
            std::string::npos);
  const std::string below_text = bench::report::render_text(with_decode(8, 9.2, 9, 21), context);
  EXPECT_NE(below_text.find("Finding: bench's p99 ITL (9.20 ms) is below the server's range "
                            "(10-25 ms)"),
            std::string::npos)
      << below_text;
}

TEST(ServerLatency, TheQueueTimeIsTheServersAloneWithItsExactMean) {
  const RunSummary summary = with_decode(8, 20, 9, 21);
  const RunContext context = with_delta(decode_delta());
  const std::string text = bench::report::render_text(summary, context);
  EXPECT_NE(text.find("p50 queue time (server):          0-0.3 s\n"), std::string::npos) << text;
  EXPECT_NE(text.find("p99 queue time (server):          0.3-0.5 s\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Mean queue time (server):         0.05 s (exact, from its histogram's "
                      "sum and count)"),
            std::string::npos)
      << text;
  const nlohmann::json server = bench::results::to_json(summary, context).at("server_metrics");
  const nlohmann::json& p99 = server.at("latency_ranges").at("queue_time").at("p99");
  EXPECT_EQ(p99.at("server_lower_s"), 0.3);
  EXPECT_EQ(p99.at("server_upper_s"), 0.5);
  EXPECT_FALSE(p99.contains("bench_s"));  // bench has no queue time of its own
  EXPECT_FALSE(p99.contains("bench_inside"));
  EXPECT_DOUBLE_EQ(server.at("mean_queue_time_s").get<double>(), 0.05);
}

TEST(ServerLatency, NoQueueTimeHistogramLeavesItsMeanNull) {
  const nlohmann::json server =
      bench::results::to_json(RunSummary{}, with_delta(ttft_delta())).at("server_metrics");
  EXPECT_TRUE(server.at("mean_queue_time_s").is_null());
  EXPECT_FALSE(server.at("latency_ranges").contains("queue_time"));
  EXPECT_FALSE(server.at("latency_ranges").contains("itl"));
}

TEST(ServerGauges, MeanAndMaxOfThePolledGauges) {
  GaugePolls polls;
  polls.interval_s = 0.5;
  polls.polls = 3;
  polls.series.add(GaugeReading{0, 2, 0, 0.25});
  polls.series.add(GaugeReading{1, 4, 2, 0.5});
  polls.series.add(GaugeReading{2, 6, 1, std::nullopt});
  const RunContext context = with_delta(Delta{}, polls);
  const std::string text = bench::report::render_text(RunSummary{}, context);
  EXPECT_NE(text.find("Running requests (server):        mean 4.0, max 6 (3 polls, every 0.5 s)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Waiting requests (server):        mean 1.0, max 2"), std::string::npos)
      << text;
  EXPECT_NE(text.find("KV-cache usage (server):          mean 37.5%, max 50.0%"), std::string::npos)
      << text;
  const nlohmann::json gauges =
      bench::results::to_json(RunSummary{}, context).at("server_metrics").at("gauges");
  EXPECT_EQ(gauges.at("requests_running").at("max"), 6);
  EXPECT_EQ(gauges.at("kv_cache_usage").at("mean"), 0.375);
  EXPECT_EQ(gauges.at("series").at("requests_waiting"), nlohmann::json::array({0, 2, 1}));
  EXPECT_TRUE(gauges.at("series").at("kv_cache_usage").at(2).is_null());
}

TEST(ServerGauges, SkippedAndFailedPollsAreSaid) {
  GaugePolls polls;
  polls.interval_s = 1;
  polls.polls = 4;
  polls.failed = 1;
  polls.skipped = 2;
  polls.slowest_scrape_s = 2.5;
  polls.first_failure = "GET http://127.0.0.1:8000/metrics answered HTTP 503";
  const RunContext context = with_delta(Delta{}, polls);
  const std::string text = bench::report::render_text(RunSummary{}, context);
  EXPECT_NE(
      text.find(
          "Note: 1 of 4 polls of the server failed; the first: GET http://127.0.0.1:8000/metrics "
          "answered HTTP 503"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("Note: 2 poll(s) of the server skipped: a scrape took up to 2.50 s, longer "
                      "than the 1 s interval"),
            std::string::npos)
      << text;
  EXPECT_EQ(bench::results::to_json(RunSummary{}, context)
                .at("server_metrics")
                .at("gauges")
                .at("polls_skipped"),
            2);
}

TEST(ServerGauges, NotPolledIsNull) {
  const nlohmann::json section =
      bench::results::to_json(RunSummary{}, with_delta(Delta{})).at("server_metrics");
  EXPECT_TRUE(section.at("gauges").is_null());
}

}  // namespace
