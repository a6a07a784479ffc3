// The input tokens split into computed and cached in every report (JSON, text, CSV, the sweep
// table, HTML) with all, some and no requests disclosing it; the prompt cache note; and the
// warning above a 10% cached share on a workload not meant to share prefixes.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/results/writer.hpp"
#include "report_fixtures.hpp"

namespace {

using namespace report_test;
using nlohmann::json;

// clean_summary's 62480 input tokens over 10.5 s, split as the server said.
RunSummary split_summary(std::int64_t disclosing, std::int64_t computed, std::int64_t cached) {
  RunSummary s = clean_summary();
  s.input_split.requests = s.completed;
  s.input_split.disclosing_requests = disclosing;
  s.input_split.computed_tokens = computed;
  s.input_split.cached_tokens = cached;
  s.input_split.unknown_split_tokens = s.total_input_tokens - computed - cached;
  s.computed_input_throughput = static_cast<double>(computed) / s.duration_s;
  s.cached_input_throughput = static_cast<double>(cached) / s.duration_s;
  return s;
}

RunSummary all_disclosed() { return split_summary(200, 54980, 7500); }  // 12.0% cached
RunSummary some_disclosed() { return split_summary(150, 40000, 6000); }
RunSummary none_disclosed() { return split_summary(0, 0, 0); }

// A split of `cached_percent`% over every request of clean_summary's input.
RunSummary cached_share(double cached_percent) {
  const auto cached = static_cast<std::int64_t>(62480 * cached_percent / 100);
  return split_summary(200, 62480 - cached, cached);
}

// A key/value line of the text report: "Label:" padded to 34 columns, then a figure right
// aligned in 10 ("   5236.19 tok/s ...").
std::string field(const std::string& label, const std::string& figure, const std::string& rest) {
  std::string line = label + ":";
  line.resize(34, ' ');
  return line + std::string(10 - figure.size(), ' ') + figure + rest;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The CSV row's cell under `column`.
std::string csv_cell(const std::string& csv, const std::string& column) {
  std::vector<std::string> header, row;
  std::stringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  std::stringstream head(line);
  for (std::string cell; std::getline(head, cell, ',');) header.push_back(cell);
  std::getline(lines, line);
  std::stringstream cells(line + ",");
  for (std::string cell; std::getline(cells, cell, ',');) row.push_back(cell);
  for (std::size_t i = 0; i < header.size() && i < row.size(); ++i) {
    if (header[i] == column) return row[i];
  }
  ADD_FAILURE() << "no column " << column << " in " << csv;
  return "";
}

TEST(InputSplitJson, AllDisclosedWritesTotalsThroughputsAndShareThatAddUp) {
  const json r = bench::results::to_json(all_disclosed(), context());
  EXPECT_EQ(r["input_split_disclosure"], "all");
  EXPECT_EQ(r["input_split_disclosing_requests"], 200);
  EXPECT_EQ(r["total_computed_input_tokens"], 54980);
  EXPECT_EQ(r["total_cached_input_tokens"], 7500);
  EXPECT_EQ(r["total_computed_input_tokens"].get<std::int64_t>() +
                r["total_cached_input_tokens"].get<std::int64_t>(),
            r["total_input_tokens"].get<std::int64_t>());
  EXPECT_NEAR(r["computed_input_throughput"].get<double>(), 54980 / 10.5, 1e-9);
  EXPECT_NEAR(r["cached_input_throughput"].get<double>(), 7500 / 10.5, 1e-9);
  EXPECT_NEAR(r["cached_input_share"].get<double>(), 7500.0 / 62480, 1e-12);
  EXPECT_EQ(r["reused_prompts"], false);
}

TEST(InputSplitJson, SomeDisclosedLeavesTotalsNullAndSharesOverTheDisclosing) {
  const json r = bench::results::to_json(some_disclosed(), context());
  EXPECT_EQ(r["input_split_disclosure"], "some");
  EXPECT_EQ(r["input_split_disclosing_requests"], 150);
  for (const char* key : {"total_computed_input_tokens", "total_cached_input_tokens",
                          "computed_input_throughput", "cached_input_throughput"}) {
    EXPECT_TRUE(r[key].is_null()) << key << " is " << r[key].dump();
  }
  EXPECT_NEAR(r["cached_input_share"].get<double>(), 6000.0 / 46000, 1e-12);
}

TEST(InputSplitJson, NoneDisclosedIsNullNeverZero) {
  const json r = bench::results::to_json(none_disclosed(), context());
  EXPECT_EQ(r["input_split_disclosure"], "none");
  EXPECT_EQ(r["input_split_disclosing_requests"], 0);
  for (const char* key :
       {"total_computed_input_tokens", "total_cached_input_tokens", "computed_input_throughput",
        "cached_input_throughput", "cached_input_share"}) {
    EXPECT_TRUE(r[key].is_null()) << key << " is " << r[key].dump();
  }
  EXPECT_TRUE(r["input_throughput"].is_number());  // the input itself is known
}

TEST(InputSplitJson, DefinesEveryNewKey) {
  const json definitions = bench::results::metric_definitions();
  for (const char* key :
       {"computed_input_throughput", "cached_input_throughput", "total_computed_input_tokens",
        "cached_input_share", "input_split_disclosure", "reused_prompts", "warnings"}) {
    EXPECT_TRUE(definitions.contains(key)) << key;
  }
}

TEST(InputSplitCsv, WritesTheSplitAndLeavesUnknownCellsEmpty) {
  const std::string all =
      bench::results::to_csv({bench::results::to_json(all_disclosed(), context())});
  EXPECT_EQ(csv_cell(all, "total_cached_input_tokens"), "7500");
  EXPECT_EQ(csv_cell(all, "total_computed_input_tokens"), "54980");
  EXPECT_EQ(csv_cell(all, "cached_input_share"), "0.120038");
  EXPECT_EQ(csv_cell(all, "input_split_disclosure"), "all");
  EXPECT_EQ(csv_cell(all, "reused_prompts"), "false");
  const std::string none =
      bench::results::to_csv({bench::results::to_json(none_disclosed(), context())});
  EXPECT_EQ(csv_cell(none, "cached_input_throughput"), "");
  EXPECT_EQ(csv_cell(none, "cached_input_share"), "");
  EXPECT_EQ(csv_cell(none, "input_split_disclosure"), "none");
}

TEST(InputSplitText, AllDisclosedShowsComputedAndCachedBesideInput) {
  const std::string text = bench::report::render_text(all_disclosed(), context());
  EXPECT_TRUE(contains(text, field("  computed (prefilled)", "5236.19", " tok/s (input)\n")))
      << text;
  EXPECT_TRUE(contains(text, field("  cached (prefix cache)", "714.29", " tok/s (input)\n")))
      << text;
  EXPECT_TRUE(contains(text, "  computed + cached:              54980 computed + 7500 cached"))
      << text;
  EXPECT_TRUE(contains(text,
                       "Prompt cache:                     server disclosed cached tokens "
                       "on all requests: 12.0% cached"))
      << text;
  // Output stays first, input's split sits between input and total.
  EXPECT_LT(text.find("Output token throughput"), text.find("Input token throughput"));
  EXPECT_LT(text.find("Input token throughput"), text.find("computed (prefilled)"));
  EXPECT_LT(text.find("cached (prefix cache)"), text.find("Total token throughput"));
}

TEST(InputSplitText, SomeDisclosedSaysHowManyAndShowsNoPartAsTheWhole) {
  const std::string text = bench::report::render_text(some_disclosed(), context());
  EXPECT_TRUE(contains(text, field("  computed (prefilled)", "n/a",
                                   " tok/s (input)  [disclosed on 150 of 200 requests]")))
      << text;
  EXPECT_TRUE(contains(text,
                       "server disclosed cached tokens on 150 of 200 requests: 13.0% "
                       "cached (of theirs)"))
      << text;
}

TEST(InputSplitText, NoneDisclosedSaysSoAndNamesVllmsFlag) {
  const std::string text = bench::report::render_text(none_disclosed(), context());
  EXPECT_TRUE(contains(text, field("  cached (prefix cache)", "n/a",
                                   " tok/s (input)  [server did not disclose cached tokens]")))
      << text;
  EXPECT_TRUE(contains(text,
                       "server did not disclose cached prompt tokens (vLLM needs "
                       "--enable-prompt-tokens-details)"))
      << text;
  EXPECT_FALSE(contains(text, field("  cached (prefix cache)", "0.00", ""))) << text;
}

TEST(CachedShareWarning, NinePercentDrawsNoWarning) {
  const RunSummary s = cached_share(9);
  EXPECT_FALSE(bench::results::prompt_cache_warning(s, context()));
  EXPECT_EQ(bench::results::to_json(s, context())["warnings"], json::array());
  EXPECT_FALSE(contains(bench::report::render_text(s, context()), "prefix cache, on a workload"));
}

TEST(CachedShareWarning, ElevenPercentWarnsInTextAndJson) {
  const RunSummary s = cached_share(11);
  const auto warning = bench::results::prompt_cache_warning(s, context());
  ASSERT_TRUE(warning);
  EXPECT_EQ(*warning,
            "11.0% of input tokens were served from the server's prefix cache, on a workload not "
            "meant to share prefixes: input tok/s and TTFT measure the cache, not prefill");
  EXPECT_EQ(bench::results::to_json(s, context())["warnings"], json::array({*warning}));
  EXPECT_TRUE(contains(bench::report::render_text(s, context()), "WARNING: " + *warning));
}

TEST(CachedShareWarning, SharedPrefixWorkloadIsNotWarnedButStillShown) {
  RunContext shared = context();
  shared.prompts_share_prefixes = true;
  const RunSummary s = cached_share(60);
  EXPECT_FALSE(bench::results::prompt_cache_warning(s, shared));
  EXPECT_EQ(bench::results::to_json(s, shared)["warnings"], json::array());
  EXPECT_TRUE(contains(bench::report::render_text(s, shared),
                       "60.0% cached; shared-prefix workload: sharing is its purpose"));
}

// A Mooncake trace run was said to be a "shared-prefix workload": it is a trace replay, whose
// prompts share prefixes where its hash ids repeat.
TEST(CachedShareWarning, ATraceReplayIsNamedAsOneNotAsASharedPrefixWorkload) {
  RunContext trace = context();
  trace.prompts_share_prefixes = true;
  trace.prompts_from_trace = true;
  const RunSummary s = cached_share(60);
  EXPECT_FALSE(bench::results::prompt_cache_warning(s, trace));
  const std::string text = bench::report::render_text(s, trace);
  EXPECT_TRUE(contains(text,
                       "60.0% cached; trace replay whose prompts share prefixes where its "
                       "hash ids repeat"))
      << text;
  EXPECT_FALSE(contains(text, "shared-prefix workload")) << text;
}

TEST(CachedShareWarning, ReusedPromptsAreACacheWarmMeasurementSaidSo) {
  RunContext reused = context();
  reused.prompts_reused = true;
  const RunSummary s = cached_share(60);
  EXPECT_FALSE(bench::results::prompt_cache_warning(s, reused));
  const json r = bench::results::to_json(s, reused);
  EXPECT_EQ(r["reused_prompts"], true);
  EXPECT_EQ(r["warnings"], json::array());
  EXPECT_TRUE(contains(bench::report::render_text(s, reused),
                       "prompts reused on purpose (--reuse-prompts): cache-warm"));
}

// A multi-turn run resends each session's history every turn: a cache serving it is the
// workload's doing (it was warned as "not meant to share prefixes").
TEST(CachedShareWarning, MultiTurnSessionsResendTheirHistoryAndAreNotWarned) {
  RunContext sessions = context();
  sessions.prompts_resend_history = true;
  const RunSummary s = cached_share(60);
  EXPECT_FALSE(bench::results::prompt_cache_warning(s, sessions));
  EXPECT_EQ(bench::results::to_json(s, sessions)["warnings"], json::array());
  EXPECT_TRUE(contains(bench::report::render_text(s, sessions),
                       "60.0% cached; multi-turn sessions: each turn resends its history"));
}

TEST(InputSplitSweepTable, ShowsTheCachedShareAndEachPointsWarning) {
  RunContext first = context();
  first.concurrency = 4;
  const json points = {bench::results::to_json(none_disclosed(), first),
                       bench::results::to_json(cached_share(50), first)};
  const json sweep = bench::results::sweep_to_json("concurrency", json::array({4, 4}),
                                                   points.get<std::vector<json>>());
  const std::string table = bench::report::render_sweep_table(sweep);
  EXPECT_TRUE(contains(table, " cached ")) << table;
  EXPECT_TRUE(contains(table, "    n/a ")) << table;
  EXPECT_TRUE(contains(table, "   50.0 ")) << table;
  EXPECT_TRUE(contains(table,
                       "WARNING (concurrency 4): 50.0% of input tokens were served from "
                       "the server's prefix cache"))
      << table;
}

TEST(InputSplitHtml, ShowsTheSplitTheNoteAndTheWarning) {
  const std::string html =
      bench::report::render_html_report(bench::results::to_json(cached_share(50), context()));
  EXPECT_TRUE(contains(html, "computed (prefilled)")) << html;
  EXPECT_TRUE(contains(html, "input tok/s (cached)"));
  EXPECT_TRUE(contains(html, "server disclosed cached tokens on all requests: 50.0% cached"));
  EXPECT_TRUE(contains(html, "<p class=\"alert warn\">50.0% of input tokens were served"));
  const std::string none =
      bench::report::render_html_report(bench::results::to_json(none_disclosed(), context()));
  EXPECT_TRUE(contains(none, "server did not disclose cached prompt tokens"));
}

}  // namespace
