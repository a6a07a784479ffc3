// A reasoning model's run in every report format: output tok/s stays all generated tokens, the
// reasoning and answer parts stand beside it, each labelled with its kind, TTFA beside TTFT, and
// the source of the reasoning count; a run where nothing reasoned shows none of it (null in JSON).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/results/writer.hpp"

namespace {

using bench::metrics::RequestRecord;
using bench::metrics::RunSummary;
using bench::metrics::TokenSource;
using nlohmann::json;

constexpr std::int64_t kMs = 1'000'000;

// Two requests over one second: 100 tokens (80 reasoning, from usage) and 50 (20, counted
// from the reasoning chunks); TTFT 100 and 200 ms, TTFA 500 and 300 ms.
RunSummary reasoning_run() {
  std::vector<RequestRecord> records(2);
  const std::int64_t first[] = {100, 200}, answer[] = {500, 300};
  const std::int64_t completion[] = {100, 50}, reasoning[] = {80, 20};
  const TokenSource source[] = {TokenSource::usage, TokenSource::chunks};
  for (std::size_t i = 0; i < records.size(); ++i) {
    RequestRecord& r = records[i];
    r.first_token_ns = first[i] * kMs;
    r.first_answer_ns = answer[i] * kMs;
    r.text_chunk_ns = {r.first_token_ns, r.first_answer_ns};
    r.end_ns = 1000 * kMs;
    r.prompt_tokens = 10;
    r.prompt_token_source = TokenSource::usage;
    r.completion_tokens = completion[i];
    r.completion_token_source = TokenSource::usage;
    r.reasoning_chunks = 1;
    r.reasoning_tokens = reasoning[i];
    r.reasoning_token_source = source[i];
    r.finish_reason = "stop";
  }
  return bench::metrics::summarize_run(records);
}

RunSummary plain_run() {
  RequestRecord r;
  r.first_token_ns = r.first_answer_ns = 100 * kMs;
  r.text_chunk_ns = {r.first_token_ns};
  r.end_ns = 1000 * kMs;
  r.prompt_tokens = 10;
  r.prompt_token_source = TokenSource::usage;
  r.completion_tokens = 40;
  r.completion_token_source = TokenSource::usage;
  r.finish_reason = "stop";
  return bench::metrics::summarize_run(std::vector<RequestRecord>{r});
}

TEST(ReasoningReport, JsonSplitsTheOutputAndKeepsItWhole) {
  const json r = bench::results::to_json(reasoning_run(), {});
  EXPECT_DOUBLE_EQ(r["output_throughput"].get<double>(), 150.0);
  EXPECT_DOUBLE_EQ(r["reasoning_output_throughput"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(r["answer_output_throughput"].get<double>(), 50.0);
  EXPECT_EQ(r["total_reasoning_tokens"], 100);
  EXPECT_EQ(r["total_answer_tokens"], 50);
  EXPECT_EQ(r["requests_with_reasoning"], 2);
  EXPECT_DOUBLE_EQ(r["mean_reasoning_tokens"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(r["mean_answer_tokens"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(r["mean_ttfa_ms"].get<double>(), 400.0);
  EXPECT_DOUBLE_EQ(r["median_ttfa_ms"].get<double>(), 400.0);
  EXPECT_DOUBLE_EQ(r["mean_ttft_ms"].get<double>(), 150.0);
  EXPECT_EQ(r["token_count_source"]["reasoning"], "mixed");
  EXPECT_EQ(r["token_count_source"]["reasoning_from_chunks"], 1);
}

TEST(ReasoningReport, JsonWritesNullNotZeroWhenNothingReasoned) {
  const json r = bench::results::to_json(plain_run(), {});
  EXPECT_EQ(r["requests_with_reasoning"], 0);
  for (const char* key :
       {"total_reasoning_tokens", "total_answer_tokens", "reasoning_output_throughput",
        "answer_output_throughput", "mean_reasoning_tokens", "mean_answer_tokens", "mean_ttfa_ms",
        "median_ttfa_ms", "p99_ttfa_ms", "max_ttfa_ms"}) {
    EXPECT_TRUE(r[key].is_null()) << key << " = " << r[key];
  }
  EXPECT_TRUE(r["token_count_source"]["reasoning"].is_null());
}

TEST(ReasoningReport, TextLabelsEachOutputKindAndAddsTtfa) {
  const std::string text = bench::report::render_text(reasoning_run(), {});
  EXPECT_NE(text.find("100.00 output tok/s (reasoning)  [ESTIMATE"), std::string::npos) << text;
  EXPECT_NE(text.find("50.00 output tok/s (answer)"), std::string::npos) << text;
  EXPECT_NE(text.find("150.00 tok/s (output)"), std::string::npos) << text;
  EXPECT_NE(text.find("TTFA        400.00"), std::string::npos) << text;
  EXPECT_NE(text.find("100 + 50 (mixed: 1 from server usage, 0 counted by the tokenizer, 1 "
                      "ESTIMATED from reasoning chunks)"),
            std::string::npos)
      << text;
  const std::string plain = bench::report::render_text(plain_run(), {});
  EXPECT_EQ(plain.find("TTFA"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("reasoning"), std::string::npos) << plain;
}

TEST(ReasoningReport, CsvHasTheReasoningColumnsEmptyWhenUnknown) {
  const std::string csv = bench::results::to_csv(
      {bench::results::to_json(reasoning_run(), {}), bench::results::to_json(plain_run(), {})});
  EXPECT_NE(csv.find(",reasoning_output_throughput,answer_output_throughput,mean_ttfa_ms,"
                     "median_ttfa_ms,p99_ttfa_ms,mean_reasoning_tokens,reasoning_token_source,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",100,50,400,400,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",50,mixed,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",,,,,,,\n"), std::string::npos) << csv;  // the plain run: all unknown
}

TEST(ReasoningReport, HtmlShowsTheSplitAndTtfaOnlyWhenSomethingReasoned) {
  // The rows' own labels: the definitions, quoted in every page, name the figures too.
  const std::string reasoning_row = "reasoning</th>";
  const std::string ttfa_row = "TTFA<span";
  const std::string html =
      bench::report::render_html_report(bench::results::to_json(reasoning_run(), {}));
  EXPECT_NE(html.find(reasoning_row), std::string::npos);
  EXPECT_NE(html.find("output tok/s (answer)</td>"), std::string::npos);
  EXPECT_NE(html.find(ttfa_row), std::string::npos);
  const std::string plain =
      bench::report::render_html_report(bench::results::to_json(plain_run(), {}));
  EXPECT_EQ(plain.find(reasoning_row), std::string::npos);
  EXPECT_EQ(plain.find(ttfa_row), std::string::npos);
}

}  // namespace
