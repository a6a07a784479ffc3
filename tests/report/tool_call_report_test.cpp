// A run whose answers were tool calls, in every report format: output tok/s stays all generated
// tokens, the tool-call part stands beside it labelled with its kind, with its share of the
// output, the calls made and the source of the count; a run without tool calls shows none of it
// (null in JSON, empty CSV cells).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"

namespace {

using bench::metrics::RequestRecord;
using bench::metrics::RunSummary;
using bench::metrics::TokenSource;
using nlohmann::json;

constexpr std::int64_t kToolMs = 1'000'000;

// Over one second: a request whose answer was one call of 60 tokens (from usage), one of two
// calls counted 30 of its 40 tokens by the chunks estimate, and a text answer of 100 tokens.
RunSummary tool_call_run() {
  std::vector<RequestRecord> records(3);
  const std::int64_t completion[] = {60, 40, 100}, tool_tokens[] = {60, 30, 0};
  const std::vector<std::vector<std::string>> names = {{"get_weather"}, {"search", "fetch"}, {}};
  const TokenSource source[] = {TokenSource::usage, TokenSource::chunks, TokenSource::none};
  for (std::size_t i = 0; i < records.size(); ++i) {
    RequestRecord& r = records[i];
    r.first_token_ns = 100 * kToolMs;
    r.first_answer_ns = tool_tokens[i] > 0 ? -1 : r.first_token_ns;
    r.text_chunk_ns = {r.first_token_ns, 200 * kToolMs};
    r.end_ns = 1000 * kToolMs;
    r.prompt_tokens = 10;
    r.prompt_token_source = TokenSource::usage;
    r.completion_tokens = completion[i];
    r.completion_token_source = TokenSource::usage;
    r.tool_call_chunks = tool_tokens[i] > 0 ? 2 : 0;
    r.tool_call_names = names[i];
    r.tool_call_tokens = tool_tokens[i];
    r.tool_call_token_source = source[i];
    r.finish_reason = tool_tokens[i] > 0 ? "tool_calls" : "stop";
  }
  return bench::metrics::summarize_run(records);
}

RunSummary text_run() {
  RequestRecord r;
  r.first_token_ns = r.first_answer_ns = 100 * kToolMs;
  r.text_chunk_ns = {r.first_token_ns};
  r.end_ns = 1000 * kToolMs;
  r.prompt_tokens = 10;
  r.prompt_token_source = TokenSource::usage;
  r.completion_tokens = 40;
  r.completion_token_source = TokenSource::usage;
  r.finish_reason = "stop";
  return bench::metrics::summarize_run(std::vector<RequestRecord>{r});
}

TEST(ToolCallReport, JsonGivesTheToolCallPartOfTheOutputWithItsSource) {
  const json r = bench::results::to_json(tool_call_run(), {});
  EXPECT_DOUBLE_EQ(r["output_throughput"].get<double>(), 200.0);
  EXPECT_DOUBLE_EQ(r["tool_call_output_throughput"].get<double>(), 90.0);
  EXPECT_EQ(r["total_tool_call_tokens"], 90);
  EXPECT_DOUBLE_EQ(r["tool_call_output_share"].get<double>(), 90.0 / 200.0);
  EXPECT_EQ(r["total_tool_calls"], 3);
  EXPECT_EQ(r["requests_with_tool_calls"], 2);
  EXPECT_DOUBLE_EQ(r["mean_tool_call_tokens"].get<double>(), 45.0);
  EXPECT_EQ(r["token_count_source"]["tool_calls"], "mixed");
  EXPECT_EQ(r["token_count_source"]["tool_calls_from_usage"], 1);
  EXPECT_EQ(r["token_count_source"]["tool_calls_from_chunks"], 1);
}

TEST(ToolCallReport, JsonWritesNullNotZeroWithoutToolCalls) {
  const json r = bench::results::to_json(text_run(), {});
  EXPECT_EQ(r["requests_with_tool_calls"], 0);
  for (const char* key : {"total_tool_calls", "total_tool_call_tokens", "tool_call_output_share",
                          "tool_call_output_throughput", "mean_tool_call_tokens"}) {
    EXPECT_TRUE(r[key].is_null()) << key << " = " << r[key];
  }
  EXPECT_TRUE(r["token_count_source"]["tool_calls"].is_null());
}

TEST(ToolCallReport, TextLabelsTheToolCallOutputAndItsSource) {
  const std::string text = bench::report::render_text(tool_call_run(), {});
  EXPECT_NE(text.find("90.00 output tok/s (tool calls)  [ESTIMATE"), std::string::npos) << text;
  EXPECT_NE(text.find("90 tokens, 45.0% of output (mixed: 1 from server usage, 0 counted by the "
                      "tokenizer, 1 ESTIMATED from tool-call chunks)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("2 of 3, 3 calls"), std::string::npos) << text;
  const std::string plain = bench::report::render_text(text_run(), {});
  EXPECT_EQ(plain.find("tool call"), std::string::npos) << plain;
}

TEST(ToolCallReport, CsvHasTheToolCallColumnsEmptyWhenUnknown) {
  const std::string csv = bench::results::to_csv(
      {bench::results::to_json(tool_call_run(), {}), bench::results::to_json(text_run(), {})});
  EXPECT_NE(csv.find(",tool_call_output_throughput,tool_call_output_share,total_tool_calls,"
                     "mean_tool_call_tokens,tool_call_token_source\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",90,0.45,3,45,mixed\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",,,,,\n"), std::string::npos) << csv;
}

TEST(ToolCallReport, HtmlShowsTheToolCallRowOnlyWithToolCalls) {
  const std::string row = "tool calls</th>";
  const std::string html =
      bench::report::render_html_report(bench::results::to_json(tool_call_run(), {}));
  EXPECT_NE(html.find(row), std::string::npos);
  EXPECT_NE(html.find("Tool-call tokens"), std::string::npos);
  const std::string plain =
      bench::report::render_html_report(bench::results::to_json(text_run(), {}));
  EXPECT_EQ(plain.find(row), std::string::npos);
  EXPECT_EQ(plain.find("Tool-call tokens"), std::string::npos);
}

}  // namespace
