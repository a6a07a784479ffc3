// A replayed agent trace's figures in each report: the JSON "agent_trace" object with its
// definitions, the text lines (the ceiling under "Prompt cache", the "Agent trace" section) and
// the HTML card; AgentX's validity at the 1% line; InferenceX's view of a sweep. A run without
// them (every run that is no agent trace) has none of it, byte for byte.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/metrics/agent_trees.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/inferencex_view.hpp"
#include "bench/report/report.hpp"
#include "bench/results/agent_trace_section.hpp"
#include "bench/results/writer.hpp"
#include "report_fixtures.hpp"

namespace {

using bench::metrics::ErrorClass;
using nlohmann::json;
using report_test::RunSummary;

bench::metrics::AgentTreeSummary two_trees() {
  bench::metrics::AgentTreeSummary agents;
  agents.cache_ceiling = {.requests = 40,
                          .prompt_tokens = 100'000,
                          .ceiling_tokens = 90'000,
                          .disclosing_requests = 40,
                          .disclosed_prompt_tokens = 100'000,
                          .disclosed_ceiling_tokens = 90'000,
                          .cached_tokens = 85'000};
  agents.tree_turns = report_test::distribution(20);
  agents.tree_output_throughput = report_test::distribution(30);
  agents.tree_input_throughput = report_test::distribution(3000);
  agents.subagent_duration_ms = report_test::distribution(900);
  agents.subagent_turns = report_test::distribution(4);
  agents.subagent_output_throughput = report_test::distribution(60);
  agents.root = {.requests = 30,
                 .completed = 30,
                 .output_tokens = 3000,
                 .ttft_ms = report_test::distribution(40)};
  agents.subagents = {.requests = 10,
                      .completed = 10,
                      .output_tokens = 500,
                      .ttft_ms = report_test::distribution(20)};
  return agents;
}

RunSummary agent_summary() {
  RunSummary s = report_test::clean_summary();
  s.agent_trees = two_trees();
  return s;
}

TEST(AgentTraceReport, JsonHoldsTheCeilingTheTreesAndTheirDefinitions) {
  const json run = bench::results::to_json(agent_summary(), report_test::context());
  const json& agent = run.at("agent_trace");
  EXPECT_EQ(agent["cache_ceiling"]["ceiling_tokens"], 90'000);
  EXPECT_EQ(agent["cache_ceiling"]["cached_tokens"], 85'000);
  EXPECT_DOUBLE_EQ(agent["cache_ceiling"]["ceiling_share"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(agent["cache_ceiling"]["cached_share"].get<double>(), 0.85);
  EXPECT_NEAR(agent["cache_ceiling"]["gap_share"].get<double>(), 0.05, 1e-12);
  EXPECT_EQ(agent["cache_ceiling"]["gap_tokens"], 5'000);
  EXPECT_EQ(agent["trees"]["count"], two_trees().tree_turns.count);
  EXPECT_EQ(agent["trees"]["p99_output_throughput"], two_trees().tree_output_throughput.p99);
  EXPECT_EQ(agent["subagents"]["median_duration_ms"], two_trees().subagent_duration_ms.median);
  EXPECT_EQ(agent["root_requests"]["requests"], 30);
  EXPECT_EQ(agent["subagent_requests"]["output_tokens"], 500);
  EXPECT_EQ(agent["valid"], true);
  for (const char* name :
       {"agent_trace", "valid", "context_overflows", "cache_ceiling", "trees", "subagents",
        "root_requests", "p90_interactivity", "computed_input_throughput_per_gpu"}) {
    EXPECT_TRUE(run["definitions"].contains(name)) << name;
  }
}

TEST(AgentTraceReport, ARunThatIsNoAgentTraceIsUnchanged) {
  const RunSummary plain = report_test::clean_summary();
  const json run = bench::results::to_json(plain, report_test::context());
  EXPECT_FALSE(run.contains("agent_trace"));
  EXPECT_EQ(run["definitions"], bench::results::metric_definitions());
  const std::string text = bench::report::render_text(plain, report_test::context());
  EXPECT_EQ(text.find("ceiling"), std::string::npos);
  EXPECT_EQ(text.find("Agent trace"), std::string::npos);
  EXPECT_EQ(text.find("context_overflow"), std::string::npos);
  EXPECT_EQ(bench::report::render_html_report(run).find("Agent trace"), std::string::npos);
}

TEST(AgentTraceReport, OverflowsPastOnePercentOfResponsesMakeTheRunInvalid) {
  RunSummary s = agent_summary();
  s.completed = 198;
  s.failed = 2;
  s.errors[ErrorClass::context_overflow].count = 2;  // 1% of 200: still valid
  bench::results::AgentTraceValidity validity = bench::results::agent_trace_validity(s);
  EXPECT_TRUE(validity.valid) << validity.reason;
  EXPECT_EQ(validity.responses, 200);
  s.completed = 197;
  s.failed = 3;
  s.errors[ErrorClass::context_overflow].count = 3;
  validity = bench::results::agent_trace_validity(s);
  EXPECT_FALSE(validity.valid);
  EXPECT_EQ(validity.reason,
            "3 context overflows in 200 responses (1.50%): over AgentX's limit of 1%");
  const std::string text = bench::report::render_text(s, report_test::context());
  EXPECT_NE(text.find("Valid (AgentX's rule):            NO: 3 context overflows in 200"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  context_overflow: 3"), std::string::npos) << text;
  const std::string html =
      bench::report::render_html_report(bench::results::to_json(s, report_test::context()));
  EXPECT_NE(html.find("NOT valid by AgentX"), std::string::npos);
}

TEST(AgentTraceReport, TextPutsTheCeilingUnderThePromptCacheAndASectionOfItsOwn) {
  const std::string text = bench::report::render_text(agent_summary(), report_test::context());
  const std::size_t cache = text.find("\nPrompt cache:");
  const std::size_t ceiling = text.find(
      "\nPrompt cache ceiling:             90.0% (90000 of 100000 prompt tokens in blocks sent "
      "before");
  ASSERT_NE(ceiling, std::string::npos) << text;
  EXPECT_LT(cache, ceiling);
  EXPECT_NE(text.find("  served by the server:           85.0% (85000 tokens, usage of 40 of 40 "
                      "requests); gap 5.0 points, 5000 tokens"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Requests of root agents:          30 sent, 30 completed, 3000 output"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  at p90 interactivity:"), std::string::npos) << text;
}

// Two points of a concurrency sweep, as a sweep's results file holds them.
json agent_sweep() {
  json first = bench::results::to_json(agent_summary(), report_test::context());
  json second = first;
  first["max_concurrency"] = 1;
  first["agent_trace"]["p90_interactivity"] = 200.0;
  first["total_throughput_per_gpu"] = 1000.0;
  first["total_throughput"] = 2000.0;
  second["max_concurrency"] = 2;
  second["agent_trace"]["p90_interactivity"] = 150.0;
  second["total_throughput_per_gpu"] = 1800.0;
  second["total_throughput"] = 3600.0;
  return bench::results::sweep_to_json("concurrency", json::array({1, 2}), {first, second});
}

TEST(InferenceXView, OnePointAConcurrencyWithItsItlNamed) {
  const json sweep = agent_sweep();
  const auto points = bench::report::inferencex_points(sweep);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_TRUE(points[0].pareto);
  EXPECT_TRUE(points[1].pareto);
  const std::string table = bench::report::render_inferencex_table(sweep);
  EXPECT_NE(table.find("InferenceX view (agent trace)"), std::string::npos) << table;
  EXPECT_NE(table.find("1 / p90 TPOT: per token"), std::string::npos) << table;
  EXPECT_NE(table.find("1800.0"), std::string::npos) << table;
  const auto chart = bench::report::inferencex_chart(sweep);
  ASSERT_TRUE(chart);
  EXPECT_NE(chart->x.label.find("1 / p90 TPOT, per token"), std::string::npos);
}

TEST(InferenceXView, ASweepThatIsNoAgentTraceShowsNothingMore) {
  const json plain = bench::results::to_json(report_test::clean_summary(), report_test::context());
  const json sweep =
      bench::results::sweep_to_json("concurrency", json::array({64, 64}), {plain, plain});
  EXPECT_TRUE(bench::report::inferencex_points(sweep).empty());
  EXPECT_EQ(bench::report::render_inferencex_table(sweep), "");
  EXPECT_FALSE(bench::report::inferencex_chart(sweep));
  EXPECT_EQ(bench::report::render_html_report(sweep).find("InferenceX"), std::string::npos);
}

}  // namespace
