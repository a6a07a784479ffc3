// The report's "Server" section and JSON "server_metrics": the server's counter deltas held
// against bench's counts, a mismatch beyond 1% said as a warning, unknown figures as n/a/null.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/report/report.hpp"
#include "bench/results/writer.hpp"

namespace {

using bench::metrics::RunSummary;
using bench::results::RunContext;
using bench::results::ServerMetricsWindow;
using bench::server_metrics::Delta;
using bench::server_metrics::ServerFamily;

RunSummary counted(std::int64_t input_tokens, std::int64_t output_tokens) {
  RunSummary summary;
  summary.total_input_tokens = input_tokens;
  summary.total_output_tokens = output_tokens;
  return summary;
}

RunContext with_window(std::optional<Delta> delta, std::string failure = {}) {
  RunContext context;
  ServerMetricsWindow window;
  window.url = "http://127.0.0.1:8000/metrics";
  window.delta = std::move(delta);
  window.failure = std::move(failure);
  context.server_metrics = window;
  return context;
}

Delta vllm_delta(double prompt_tokens, double generation_tokens) {
  Delta delta;
  delta.family = ServerFamily::vllm;
  delta.prompt_tokens = prompt_tokens;
  delta.generation_tokens = generation_tokens;
  return delta;
}

TEST(ServerSection, AgreeingCountsAreSaidSoWithoutAWarning) {
  const std::string text =
      bench::report::render_text(counted(1000, 200), with_window(vllm_delta(1000, 200)));
  EXPECT_NE(text.find("Scraped:                          http://127.0.0.1:8000/metrics (vllm)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Generation tokens (server):       200 (bench: the same count of output "
                      "tokens)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Preemptions (server):             n/a"), std::string::npos) << text;
  EXPECT_EQ(text.find("the server's generation tokens differ"), std::string::npos) << text;
}

TEST(ServerSection, AMismatchBeyondOnePercentIsAWarning) {
  const auto summary = counted(1000, 200);
  const auto context = with_window(vllm_delta(1005, 230));
  const std::string text = bench::report::render_text(summary, context);
  EXPECT_NE(text.find("230 (bench: 200 output tokens; the server counted 30 more, +15.0%)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("WARNING: the server's generation tokens differ from bench's output tokens "
                      "by +15.0%: one of the two miscounts, or other clients share the server"),
            std::string::npos)
      << text;
  // 0.5% on the input side: within the tolerance, said as a difference but not a warning.
  EXPECT_EQ(text.find("the server's prompt tokens differ"), std::string::npos) << text;
  const nlohmann::json written = bench::results::to_json(summary, context).at("server_metrics");
  EXPECT_EQ(written.at("generation_tokens"), 230);
  EXPECT_EQ(written.at("bench_output_tokens"), 200);
  EXPECT_EQ(written.at("generation_tokens_difference"), 30);
  EXPECT_EQ(written.at("prompt_tokens_difference"), 5);
  EXPECT_TRUE(written.at("error").is_null());
  EXPECT_TRUE(written.at("preemptions").is_null());
}

TEST(ServerSection, AFailedScrapeIsOneLineAndNullFigures) {
  const auto context =
      with_window(std::nullopt, "GET http://127.0.0.1:8000/metrics answered HTTP 404");
  const std::string text = bench::report::render_text(counted(10, 5), context);
  EXPECT_NE(text.find("Server metrics:                   unavailable: GET "
                      "http://127.0.0.1:8000/metrics answered HTTP 404"),
            std::string::npos)
      << text;
  const nlohmann::json written =
      bench::results::to_json(counted(10, 5), context).at("server_metrics");
  EXPECT_EQ(written.at("error"), "GET http://127.0.0.1:8000/metrics answered HTTP 404");
  EXPECT_TRUE(written.at("family").is_null());
  EXPECT_TRUE(written.at("generation_tokens").is_null());
}

TEST(ServerSection, UnknownInputTokensLeaveTheDifferenceUnknown) {
  RunSummary summary = counted(0, 5);
  summary.input_tokens_unknown = 3;
  const nlohmann::json written =
      bench::results::to_json(summary, with_window(vllm_delta(900, 5))).at("server_metrics");
  EXPECT_TRUE(written.at("bench_input_tokens").is_null());
  EXPECT_TRUE(written.at("prompt_tokens_difference").is_null());
  EXPECT_EQ(written.at("generation_tokens_difference"), 0);
}

TEST(ServerSection, SpeculativeAcceptanceIsSaidOverTheWindow) {
  Delta delta = vllm_delta(1000, 200);
  delta.spec_draft_tokens = 800;
  delta.spec_accepted_tokens = 600;
  const auto context = with_window(delta);
  const std::string text = bench::report::render_text(counted(1000, 200), context);
  EXPECT_NE(text.find("Speculative decoding (server):    75.0% of drafted tokens accepted (600 of "
                      "800)"),
            std::string::npos)
      << text;
  const nlohmann::json written = bench::results::to_json(counted(1000, 200), context);
  const nlohmann::json& spec = written.at("server_metrics").at("spec_decode");
  EXPECT_EQ(spec.at("draft_tokens"), 800);
  EXPECT_EQ(spec.at("accepted_tokens"), 600);
  EXPECT_DOUBLE_EQ(spec.at("acceptance_rate").get<double>(), 0.75);
  EXPECT_TRUE(spec.at("accept_length").is_null());
}

TEST(ServerSection, SglangAcceptanceComesFromItsGauges) {
  Delta delta = vllm_delta(1000, 200);
  delta.family = ServerFamily::sglang;
  delta.spec_accept_length = 2.9;
  delta.spec_accept_rate = 0.55;
  const std::string text = bench::report::render_text(counted(1000, 200), with_window(delta));
  EXPECT_NE(text.find("at the window's end: 2.90 tokens accepted a step, acceptance 55.0%"),
            std::string::npos)
      << text;
}

TEST(ServerSection, NoSpeculativeDecodingNoLineAndNullKey) {
  const auto context = with_window(vllm_delta(1000, 200));
  const std::string text = bench::report::render_text(counted(1000, 200), context);
  EXPECT_EQ(text.find("Speculative decoding"), std::string::npos) << text;
  const nlohmann::json written = bench::results::to_json(counted(1000, 200), context);
  EXPECT_TRUE(written.at("server_metrics").at("spec_decode").is_null());
}

// The poller started 3 s after the point's epoch and the timeline 4 s after it, so a reading
// 1.5 s into the series is 0.5 s into the timeline: two readings land in bucket 0 (their mean),
// one in bucket 1, none in bucket 2 (null, not 0).
TEST(ServerSection, TheTimelineBucketsCarryTheServersGaugesPolledInThem) {
  RunSummary summary = counted(10, 10);
  for (int i = 0; i < 3; ++i) {
    bench::metrics::TimelineBucket bucket;
    bucket.t_s = i;
    bucket.width_s = 1;
    summary.timeline.push_back(bucket);
  }
  summary.timeline_start_ns = 4'000'000'000;  // on the records' clock
  RunContext context = with_window(vllm_delta(10, 10));
  context.server_metrics->records_epoch_steady_ns = 100'000'000'000;
  bench::results::GaugePolls polls;
  polls.origin_steady_ns = 103'000'000'000;
  polls.series.add({1'500'000'000, 4, 1, 0.25});  // timeline 0.5 s
  polls.series.add({1'700'000'000, 6, 3, 0.75});  // timeline 0.7 s
  polls.series.add({2'500'000'000, 2, 0, 0.5});   // timeline 1.5 s
  context.server_metrics->polls = std::move(polls);
  const nlohmann::json buckets = bench::results::to_json(summary, context)["timeline"]["buckets"];
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_DOUBLE_EQ(buckets[0]["server_requests_running"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(buckets[0]["server_requests_waiting"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(buckets[0]["server_kv_cache_usage"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(buckets[1]["server_requests_running"].get<double>(), 2.0);
  EXPECT_TRUE(buckets[2]["server_requests_running"].is_null()) << buckets.dump();
  EXPECT_TRUE(buckets[2]["server_kv_cache_usage"].is_null());
  // The series stays where reports read it.
  EXPECT_EQ(
      bench::results::to_json(summary, context)["server_metrics"]["gauges"]["series"]["t_s"].size(),
      3u);
}

TEST(ServerSection, WithoutPollsTheTimelineBucketsHaveNoServerKeys) {
  RunSummary summary = counted(10, 10);
  summary.timeline.push_back({});
  const nlohmann::json buckets =
      bench::results::to_json(summary, with_window(vllm_delta(10, 10)))["timeline"]["buckets"];
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_FALSE(buckets[0].contains("server_requests_running"));
}

TEST(ServerSection, NoWindowNoSectionAndNoKey) {
  const RunContext context;
  EXPECT_EQ(bench::report::render_text(counted(1, 1), context).find(" Server "), std::string::npos);
  EXPECT_FALSE(bench::results::to_json(counted(1, 1), context).contains("server_metrics"));
}

}  // namespace
