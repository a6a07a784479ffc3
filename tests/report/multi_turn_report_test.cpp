// A multi-turn run's figures (--multi-turn) in each report: JSON "multi_turn" with a row per
// turn, the text section and the HTML table; a turn with no completed request has unknown
// TTFT and input tokens (null, "-", "n/a"), never 0; a run without sessions has no section.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/metrics/multi_turn.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/results/writer.hpp"
#include "report_fixtures.hpp"

namespace {

using nlohmann::json;

bench::metrics::MultiTurnSummary three_turns() {
  bench::metrics::MultiTurnSummary turns;
  bench::metrics::TurnFigures first{1, 8, 8, report_test::distribution(40), 64.0, 0.0, 64.0};
  bench::metrics::TurnFigures second{2, 8, 8, report_test::distribution(41), 144.0, 48.0, 96.0};
  bench::metrics::TurnFigures third{3, 2, 0, {}, -1, -1, -1};  // every third turn failed
  turns.by_turn = {first, second, third};
  turns.by_context = {{0, 128, 8, report_test::distribution(40), 64.0, 0.0},
                      {128, 256, 8, report_test::distribution(41), 144.0, 48.0}};
  turns.sessions.started = 8;
  turns.sessions.completed = 6;
  turns.sessions.failed = 2;
  turns.sessions.turns_completed = 22;
  turns.session_duration_ms = report_test::distribution(650);
  return turns;
}

TEST(MultiTurnReport, JsonTextAndHtmlShowEachTurnAndTheSessions) {
  bench::metrics::RunSummary summary = report_test::clean_summary();
  const json without = bench::results::to_json(summary, report_test::context());
  EXPECT_FALSE(without.contains("multi_turn"));
  EXPECT_EQ(bench::report::render_html_report(without).find("Multi-turn"), std::string::npos);

  summary.multi_turn = three_turns();
  const json run = bench::results::to_json(summary, report_test::context());
  const json& by_turn = run.at("multi_turn").at("by_turn");
  ASSERT_EQ(by_turn.size(), 3u);
  EXPECT_EQ(by_turn[1]["turn"], 2);
  EXPECT_EQ(by_turn[1]["mean_input_tokens"], 144.0);
  EXPECT_TRUE(by_turn[2]["median_ttft_ms"].is_null());
  EXPECT_TRUE(by_turn[2]["mean_input_tokens"].is_null());
  EXPECT_EQ(by_turn[1]["mean_cached_input_tokens"], 48.0);
  EXPECT_EQ(by_turn[1]["mean_computed_input_tokens"], 96.0);
  EXPECT_TRUE(by_turn[2]["mean_cached_input_tokens"].is_null());  // unknown, not 0
  const json& by_context = run.at("multi_turn").at("by_context");
  ASSERT_EQ(by_context.size(), 2u);
  EXPECT_EQ(by_context[1]["context_tokens_low"], 128);
  EXPECT_EQ(by_context[1]["context_tokens_high"], 256);
  EXPECT_EQ(by_context[1]["mean_cached_input_tokens"], 48.0);
  EXPECT_EQ(run["multi_turn"]["sessions_failed"], 2);

  const std::string text = bench::report::render_text(summary, report_test::context());
  EXPECT_NE(text.find("Multi-turn (by turn)"), std::string::npos) << text;
  EXPECT_NE(text.find("144.0"), std::string::npos) << text;
  EXPECT_NE(text.find("n/a"), std::string::npos) << text;
  EXPECT_NE(text.find("2 ended by a failed turn"), std::string::npos) << text;
  EXPECT_NE(text.find("cached  computed"), std::string::npos) << text;
  EXPECT_NE(text.find("96.0"), std::string::npos) << text;
  EXPECT_NE(text.find("context tokens"), std::string::npos) << text;
  EXPECT_NE(text.find("128-256"), std::string::npos) << text;

  const std::string html = bench::report::render_html_report(run);
  EXPECT_NE(html.find("<h2>Multi-turn, by turn</h2>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">144.0</td>"), std::string::npos);
  EXPECT_NE(html.find("2 ended by a failed turn"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">96.0</td>"), std::string::npos);
  EXPECT_NE(html.find("TTFT by context length"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("TTFT against context length"), std::string::npos);
}

}  // namespace
