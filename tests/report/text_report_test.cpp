// render_text's promises: output tok/s comes first and no tok/s is ever bare, failures,
// estimates and multi-token chunks are said out loud, the latency table is complete, and the
// footer points at the definitions.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/report/report.hpp"
#include "report_fixtures.hpp"

namespace {

using namespace report_test;

std::size_t position_of(const std::string& text, std::string_view needle) {
  const std::size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << "missing: " << needle << "\n" << text;
  return at;
}

std::string line_containing(const std::string& text, std::string_view needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return {};
  const std::size_t begin = text.rfind('\n', at) + 1;  // npos + 1 == 0 for the first line
  return text.substr(begin, text.find('\n', at) - begin);
}

TEST(RenderText, PutsOutputThroughputBeforeInputAndTotal) {
  const std::string text = bench::report::render_text(clean_summary(), context());
  const std::size_t output = position_of(text, "Output token throughput:");
  const std::size_t input = position_of(text, "Input token throughput:");
  const std::size_t total = position_of(text, "Total token throughput:");
  EXPECT_LT(output, input);
  EXPECT_LT(input, total);
  EXPECT_EQ(text.find("tok/s"), text.find("tok/s (output)"))
      << "the first tok/s of the report must be the output throughput";
  EXPECT_NE(line_containing(text, "Output token throughput:").find("2438.10 tok/s (output)"),
            std::string::npos);
  EXPECT_NE(line_containing(text, "Input token throughput:").find("5950.48 tok/s (input)"),
            std::string::npos);
  EXPECT_NE(line_containing(text, "Total token throughput:")
                .find("8388.58 tok/s (total = input + output)"),
            std::string::npos);
}

// Every "tok/s" in the text, each with what follows it. (A scan rather than std::regex: g++ 12
// warns maybe-uninitialized inside <regex> under -O2 with sanitizers, and warnings are errors.)
std::vector<std::string> tok_per_s_occurrences(const std::string& text) {
  std::vector<std::string> found;
  for (std::size_t at = text.find("tok/s"); at != std::string::npos;
       at = text.find("tok/s", at + 1)) {
    found.push_back(text.substr(at, text.find('\n', at) - at));
  }
  return found;
}

TEST(RenderText, NeverPrintsABareTokPerSecond) {
  for (const RunSummary& summary : every_variant()) {
    const std::string text = bench::report::render_text(summary, context());
    const std::vector<std::string> occurrences = tok_per_s_occurrences(text);
    EXPECT_GE(occurrences.size(), 3u) << text;
    for (const std::string& occurrence : occurrences) {
      const bool labelled = occurrence.rfind("tok/s (output)", 0) == 0 ||
                            occurrence.rfind("tok/s (input)", 0) == 0 ||
                            occurrence.rfind("tok/s (total", 0) == 0;
      EXPECT_TRUE(labelled) << "bare: " << occurrence << "\n" << text;
    }
  }
}

TEST(RenderText, WarnsUnderTheThroughputBlockIffRequestsFailed) {
  const std::string clean = bench::report::render_text(clean_summary(), context());
  EXPECT_EQ(clean.find("WARNING"), std::string::npos) << clean;

  const std::string failing = bench::report::render_text(failing_summary(), context());
  const std::string warning =
      "WARNING: 10 of 200 requests failed (5.0%) \u2014 throughput counts successful requests "
      "only";
  const std::size_t at = position_of(failing, warning);
  const std::size_t concurrency = position_of(failing, "Achieved concurrency:");
  // The warning is the line right after the throughput block's last line.
  EXPECT_EQ(failing.find('\n', concurrency) + 1, at) << failing;
}

TEST(RenderText, HeaderNamesTheTargetAndReconcilesTheCounts) {
  const std::string text = bench::report::render_text(failing_summary(), context());
  EXPECT_EQ(text.rfind("=", 0), 0u) << "starts with a rule";
  EXPECT_NE(text.find(" bench results "), std::string::npos);
  EXPECT_NE(text.find("http://127.0.0.1:40123 (embedded simulated server)"), std::string::npos);
  EXPECT_NE(line_containing(text, "Endpoint:").find("chat"), std::string::npos);
  EXPECT_NE(line_containing(text, "Model:").find("sim-model"), std::string::npos);
  EXPECT_NE(line_containing(text, "Max concurrency:").find("64"), std::string::npos);
  EXPECT_NE(text.find("200 sent = 190 completed + 10 failed + 0 cancelled"), std::string::npos);
  EXPECT_NE(line_containing(text, "Warm-up requests (excluded):").find("2"), std::string::npos);
  EXPECT_NE(line_containing(text, "Duration (s):").find("10.50"), std::string::npos);

  RunContext remote = context();
  remote.embedded_server = false;
  const std::string remote_text = bench::report::render_text(clean_summary(), remote);
  EXPECT_EQ(remote_text.find("embedded"), std::string::npos);
}

TEST(RenderText, StatesTheSourceOfEveryTokenCount) {
  const std::string clean = bench::report::render_text(clean_summary(), context());
  EXPECT_NE(line_containing(clean, "Total output tokens:").find("25600 (from server usage)"),
            std::string::npos);
  EXPECT_NE(line_containing(clean, "Total input tokens:").find("62480 (from server usage)"),
            std::string::npos);
  EXPECT_EQ(clean.find("ESTIMATE"), std::string::npos) << clean;
  EXPECT_NE(clean.find("requested 256 words, server counted 312.4 tokens"), std::string::npos);
  EXPECT_NE(clean.find("requested 128 tokens (max_tokens), received 128 tokens"),
            std::string::npos);

  const std::string estimated = bench::report::render_text(estimated_summary(), context());
  EXPECT_NE(line_containing(estimated, "Total output tokens:")
                .find("ESTIMATE from chunk count: server sent no usage"),
            std::string::npos)
      << estimated;
  EXPECT_NE(line_containing(estimated, "Total input tokens:").find("unknown"), std::string::npos);
  EXPECT_NE(line_containing(estimated, "Output token throughput:").find("ESTIMATE"),
            std::string::npos);
  EXPECT_NE(estimated.find("server count unknown"), std::string::npos);

  RunSummary mixed = clean_summary();
  mixed.output_tokens_from_usage = 150;
  mixed.output_tokens_from_chunks = 50;
  const std::string mixed_text = bench::report::render_text(mixed, context());
  const std::string output_line = line_containing(mixed_text, "Total output tokens:");
  EXPECT_NE(output_line.find("mixed: 150 requests from server usage, 50 ESTIMATED"),
            std::string::npos)
      << output_line;
}

TEST(RenderText, LabelsOutputCountedByTheTokenizerAndNotAsAnEstimate) {
  RunSummary counted = estimated_summary();
  counted.output_tokens_from_tokenizer = counted.output_tokens_from_chunks;
  counted.output_tokens_from_chunks = 0;
  const std::string text = bench::report::render_text(counted, context());
  EXPECT_NE(line_containing(text, "Total output tokens:")
                .find("counted by the tokenizer: server sent no usage"),
            std::string::npos)
      << text;
  EXPECT_NE(line_containing(text, "Mean output length:").find("(counted by the tokenizer)"),
            std::string::npos);
  EXPECT_EQ(line_containing(text, "Output token throughput:").find("ESTIMATE"), std::string::npos);

  RunSummary mixed = clean_summary();
  mixed.output_tokens_from_usage = 150;
  mixed.output_tokens_from_tokenizer = 40;
  mixed.output_tokens_from_chunks = 10;
  const std::string output_line =
      line_containing(bench::report::render_text(mixed, context()), "Total output tokens:");
  EXPECT_NE(output_line.find("mixed: 150 requests from server usage, 40 counted by the "
                             "tokenizer, 10 ESTIMATED from chunk count"),
            std::string::npos)
      << output_line;
}

TEST(RenderText, MeanInputLengthShowsTheTokenizersCountBesideTheServers) {
  RunSummary s = clean_summary();
  EXPECT_EQ(line_containing(bench::report::render_text(s, context()), "Mean input length:")
                .find("tokenizer counted"),
            std::string::npos);
  s.mean_client_prompt_tokens = 250;
  const std::string line =
      line_containing(bench::report::render_text(s, context()), "Mean input length:");
  EXPECT_NE(line.find("tokenizer counted 250 tokens, server counted"), std::string::npos) << line;
}

TEST(RenderText, ShowsUnknownInputAndTotalAsNotAvailableNeverZero) {
  RunSummary s = estimated_summary();  // no request carried prompt_tokens
  s.input_throughput = 0;              // what the sums give without them
  s.total_throughput = s.output_throughput;
  s.steady_state.found = true;
  s.steady_state.output_throughput = s.output_throughput;
  const std::string text = bench::report::render_text(s, context());
  const std::string input = line_containing(text, "Input token throughput:");
  EXPECT_NE(input.find("n/a tok/s (input)"), std::string::npos) << input;
  EXPECT_NE(input.find("input unknown"), std::string::npos) << input;
  EXPECT_EQ(input.find("0.00"), std::string::npos) << input;
  const std::string total = line_containing(text, "Total token throughput:");
  EXPECT_NE(total.find("n/a tok/s (total = input + output; input unknown)"), std::string::npos)
      << total;
  EXPECT_NE(line_containing(text, "input token throughput:").find("n/a"), std::string::npos);
  EXPECT_NE(line_containing(text, "total token throughput:").find("n/a"), std::string::npos);
  EXPECT_NE(line_containing(text, "Total input tokens:").find("n/a"), std::string::npos);
}

TEST(RenderText, SteadyStateShowsItsLatenciesOrWhyNot) {
  RunSummary s = clean_summary();
  s.steady_state.found = true;
  s.steady_state.output_throughput = s.output_throughput;
  s.steady_latency_gap = bench::metrics::SteadyLatencyGap::few_inside;
  std::string line = line_containing(bench::report::render_text(s, context()), "  latency");
  EXPECT_NE(line.find("n/a (fewer than half the completed requests fit in the window)"),
            std::string::npos)
      << line;
  bench::metrics::SteadyLatencies latency;
  latency.requests = 180;
  latency.ttft_ms.count = latency.tpot_ms.count = latency.e2e_ms.count = 180;
  latency.ttft_ms.median = 12.5;
  latency.ttft_ms.p99 = 40.25;
  latency.tpot_ms.median = 2;
  latency.tpot_ms.p99 = 3;
  latency.e2e_ms.median = 300;
  latency.e2e_ms.p99 = 420;
  s.steady_latencies = latency;
  line = line_containing(bench::report::render_text(s, context()), "  latency");
  EXPECT_NE(line.find("TTFT 12.50 / 40.25  TPOT 2.00 / 3.00  E2E 300.00 / 420.00  (180 "
                      "requests inside)"),
            std::string::npos)
      << line;
}

// issue 28: the one reason that applies, never a list of guesses (a merge's, where each shard
// had its latencies), and no 0.00 for a window with no completed request in it.
TEST(RenderText, SaysTheOneReasonTheSteadyLatenciesAreUnknown) {
  RunSummary s = clean_summary();
  s.steady_state.found = true;
  s.steady_latency_gap = bench::metrics::SteadyLatencyGap::merged;
  std::string line = line_containing(bench::report::render_text(s, context()), "  latency");
  EXPECT_NE(line.find("n/a (merged from shards, whose results keep no request's times)"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("budget"), std::string::npos) << line;
  s.steady_latency_gap = bench::metrics::SteadyLatencyGap::none_inside;
  line = line_containing(bench::report::render_text(s, context()), "  latency");
  EXPECT_NE(line.find("n/a (no completed request started and ended inside the window)"),
            std::string::npos)
      << line;
  s.steady_latency_gap = bench::metrics::SteadyLatencyGap::budget_ran_out;
  line = line_containing(bench::report::render_text(s, context()), "  latency");
  EXPECT_NE(line.find("n/a (the raw-value budget ran out"), std::string::npos) << line;
}

// issue 28: nothing completed. What was asked is known from what was sent; a figure of no
// values is n/a, never 0.
TEST(RenderText, ARunWithNoCompletedRequestPrintsNoZeroForAFigureOfNoValues) {
  RunSummary s;
  s.sent = 8;
  s.failed = 8;
  s.mean_requested_input_len = 16;
  s.mean_requested_output_len = 8;
  s.schedule_lag_ms = distribution(1);
  const std::string text = bench::report::render_text(s, context());
  EXPECT_NE(line_containing(text, "Mean input length:").find("requested 16 words"),
            std::string::npos)
      << text;
  EXPECT_NE(line_containing(text, "Mean output length:")
                .find("requested 8 tokens (max_tokens), received n/a (no completed request)"),
            std::string::npos)
      << text;
  EXPECT_NE(line_containing(text, "TTFT from intended start (ms):").find("p50 n/a  p99 n/a"),
            std::string::npos)
      << text;
  EXPECT_NE(line_containing(text, "E2E from intended start (ms):").find("p50 n/a  p99 n/a"),
            std::string::npos)
      << text;
  EXPECT_EQ(line_containing(text, "Schedule lag (ms):").find("n/a"), std::string::npos);
}

TEST(RenderText, SaysNoCapForAnOpenLoopWithoutConcurrency) {
  bench::results::RunContext open_loop = context();
  open_loop.concurrency = std::nullopt;
  open_loop.request_rate = 20;
  const std::string text = bench::report::render_text(clean_summary(), open_loop);
  EXPECT_NE(line_containing(text, "Max concurrency:").find("none (open loop: no cap)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("65536"), std::string::npos);
}

TEST(RenderText, NotesWhenChunksCarryMoreThanOneToken) {
  const std::string clean = bench::report::render_text(clean_summary(), context());
  EXPECT_EQ(clean.find("chunks != tokens"), std::string::npos);

  RunSummary summary = multi_token_chunk_summary();
  const std::string exact = bench::report::render_text(summary, context());
  EXPECT_NE(exact.find("chunks != tokens: 6400 text chunks carried 25600 tokens; ITL splits "
                       "each chunk gap over its tokens (exact from per-chunk usage)"),
            std::string::npos)
      << exact;

  summary.itl_estimated = true;
  summary.requests_with_per_chunk_usage = 0;
  const std::string estimated = bench::report::render_text(summary, context());
  EXPECT_NE(estimated.find("(ESTIMATED from completion_tokens / chunks)"), std::string::npos)
      << estimated;
}

TEST(RenderText, LatencyTableHasEveryRowAndColumnInOrder) {
  const std::string text = bench::report::render_text(clean_summary(), context());
  const std::string head = line_containing(text, "median");
  std::size_t last = 0;
  for (std::string_view column : {"mean", "median", "std", "p90", "p95", "p99", "max"}) {
    const std::size_t at = head.find(column, last);
    ASSERT_NE(at, std::string::npos) << column << " in: " << head;
    last = at;
  }
  std::size_t previous_row = 0;
  const std::pair<std::string_view, double> rows[] = {
      {"TTFT  ", 100}, {"ITL  ", 200}, {"ICL  ", 300}, {"TPOT  ", 400}, {"E2E  ", 500}};
  for (const auto& [name, base] : rows) {
    const std::size_t at = text.find("\n" + std::string(name));
    ASSERT_NE(at, std::string::npos) << name;
    EXPECT_GT(at, previous_row) << name;
    previous_row = at;
    const std::string row = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
    std::size_t value_at = 0;
    for (int i = 1; i <= 7; ++i) {
      const std::string value = fmt::format("{:.2f}", base + i / 10.0);
      value_at = row.find(value, value_at);
      EXPECT_NE(value_at, std::string::npos) << value << " in row: " << row;
    }
  }
  EXPECT_NE(line_containing(text, "Schedule lag (ms):").find("mean 600.10  p99 600.60  max 600.70"),
            std::string::npos);
  EXPECT_NE(line_containing(text, "TTFT from intended start (ms):").find("p50 700.20  p99 700.60"),
            std::string::npos);
  EXPECT_NE(line_containing(text, "E2E from intended start (ms):").find("p50 800.20  p99 800.60"),
            std::string::npos);
}

TEST(RenderText, ShowsADashForADistributionWithoutValues) {
  RunSummary summary = clean_summary();
  summary.tpot_ms = Distribution{};
  const std::string text = bench::report::render_text(summary, context());
  const std::size_t at = position_of(text, "\nTPOT ");
  const std::string tpot_row = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  EXPECT_EQ(tpot_row.find("0.00"), std::string::npos) << tpot_row;
  EXPECT_NE(tpot_row.find('-'), std::string::npos) << tpot_row;
}

TEST(RenderText, ListsErrorClassesWithASampleAndTheLimitThatCutThem) {
  const std::string clean = bench::report::render_text(clean_summary(), context());
  EXPECT_EQ(clean.find(" Errors "), std::string::npos);

  const std::string text = bench::report::render_text(failing_summary(), context());
  EXPECT_NE(text.find("\n  http_5xx: 7  (e.g. HTTP 500: simulated internal error)\n"),
            std::string::npos)
      << text;
  // A class one of bench's limits makes names the flag that set it.
  EXPECT_NE(text.find("\n  stall: 3 cut by --stall-timeout\n"), std::string::npos) << text;
}

TEST(RenderText, EndsWithTheDefinitionsPointer) {
  const std::string text = bench::report::render_text(clean_summary(), context());
  const std::string footer =
      "Definitions: docs/metrics.md; every JSON result carries them under \"definitions\".\n";
  ASSERT_GE(text.size(), footer.size());
  EXPECT_EQ(text.substr(text.size() - footer.size()), footer);
}

// --no-stream: a run that streamed no request has no TTFT, ITL, ICL or TPOT rows (never a 0 or a
// dash that reads like a measurement), and one line says why; its E2E stays.
TEST(RenderText, SaysInOneLineThatNothingStreamedHasNoTokenTimings) {
  RunSummary s = clean_summary();
  s.not_streamed = s.completed;
  s.ttft_ms = {};
  s.itl_ms = {};
  s.icl_ms = {};
  s.tpot_ms = {};
  s.ttft_from_intended_ms = {};
  const std::string text = bench::report::render_text(s, context());
  EXPECT_NE(text.find("No request was streamed (--no-stream): TTFT, ITL, ICL and TPOT do not "
                      "exist; E2E is each whole answer's wait (200 requests)."),
            std::string::npos)
      << text;
  // The table's rows start with their label.
  for (const std::string_view row : {"\nTTFT ", "\nITL ", "\nICL ", "\nTPOT ", "TTFT from"}) {
    EXPECT_EQ(text.find(row), std::string::npos) << row << " in:\n" << text;
  }
  EXPECT_NE(text.find("\nE2E "), std::string::npos);
  EXPECT_TRUE(line_containing(text, "ITL: per token").empty());
}

TEST(RenderText, SaysHowManyWereNotStreamedWhenSomeWere) {
  RunSummary s = clean_summary();
  s.not_streamed = 50;
  const std::string text = bench::report::render_text(s, context());
  EXPECT_NE(text.find("Not streamed: 50 of 200 completed requests (--no-stream): TTFT, ITL, ICL "
                      "and TPOT are the 150 streamed ones'; E2E is all of them."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nTTFT "), std::string::npos);
  EXPECT_TRUE(line_containing(bench::report::render_text(clean_summary(), context()),
                              "streamed")
                  .empty());  // a streamed run says nothing of it
}

}  // namespace
