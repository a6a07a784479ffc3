// The flags whose value is one word of a few, read by cli::add_choice into their enum: each word
// they accept lands as its value, and any other is refused at parse time by one error that names
// the flag, the word and the words allowed.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/cli/options.hpp"
#include "parse_run_options.hpp"
#include "temp_file.hpp"

namespace {

using bench::cli::kExitUsage;
using bench::cli::OutputFormat;
using bench::cli::ParseResult;
using bench::cli::SearchOver;
using bench::cli::SloWindow;
using bench::testing::parse_args;
using bench::testing::TempFile;

// `bench search` with the one SLO it needs, then `flags`.
ParseResult parse_search(std::vector<std::string> flags) {
  flags.insert(flags.begin(), {"search", "--slo", "p99_ttft_ms<=500"});
  return parse_args(flags);
}

void expect_refused(const ParseResult& parsed, const std::string& error,
                    const std::string& command) {
  EXPECT_EQ(parsed.exit_code, kExitUsage);
  EXPECT_EQ(parsed.message,
            "bench: error: " + error + "\nRun '" + command + " --help' for the flags.\n");
}

TEST(ChoiceFlags, run_output_format_reads_each_word) {
  EXPECT_EQ(parse_args({}).run.output.format, OutputFormat::text);
  for (const auto& [word, format] :
       {std::pair{"text", OutputFormat::text}, std::pair{"json", OutputFormat::json},
        std::pair{"csv", OutputFormat::csv}}) {
    const ParseResult parsed = parse_args({"--output-format", word});
    ASSERT_FALSE(parsed.exit_code) << parsed.message;
    EXPECT_EQ(parsed.run.output.format, format) << word;
  }
  expect_refused(parse_args({"--output-format", "xml"}),
                 "--output-format: xml not in {text,json,csv}", "bench");
  expect_refused(parse_args({"--output-format", "JSON"}),
                 "--output-format: JSON not in {text,json,csv}", "bench");
}

TEST(ChoiceFlags, search_reads_its_probes_output_format) {
  const ParseResult parsed = parse_search({"--output-format", "json"});
  ASSERT_FALSE(parsed.exit_code) << parsed.message;
  EXPECT_EQ(parsed.run.output.format, OutputFormat::json);
  expect_refused(parse_search({"--output-format", "xml"}),
                 "--output-format: xml not in {text,json,csv}", "bench search");
}

TEST(ChoiceFlags, search_over_reads_concurrency_or_rate) {
  EXPECT_EQ(parse_search({}).search.over, SearchOver::concurrency);
  EXPECT_EQ(parse_search({"--over", "concurrency"}).search.over, SearchOver::concurrency);
  const ParseResult rate = parse_search({"--over", "rate"});
  ASSERT_FALSE(rate.exit_code) << rate.message;
  EXPECT_EQ(rate.search.over, SearchOver::rate);
  expect_refused(parse_search({"--over", "tokens"}), "--over: tokens not in {concurrency,rate}",
                 "bench search");
}

TEST(ChoiceFlags, search_slo_window_reads_steady_or_whole) {
  EXPECT_EQ(parse_search({}).search.slo_window, SloWindow::steady);
  EXPECT_EQ(parse_search({"--slo-window", "steady"}).search.slo_window, SloWindow::steady);
  const ParseResult whole = parse_search({"--slo-window", "whole"});
  ASSERT_FALSE(whole.exit_code) << whole.message;
  EXPECT_EQ(whole.search.slo_window, SloWindow::whole);
  expect_refused(parse_search({"--slo-window", "tail"}), "--slo-window: tail not in {steady,whole}",
                 "bench search");
}

TEST(ChoiceFlags, compare_output_format_reads_text_or_json) {
  const TempFile base("base.json", "{}");
  const TempFile next("new.json", "{}");
  EXPECT_EQ(parse_args({"compare", base.path(), next.path()}).compare.format, OutputFormat::text);
  const ParseResult json =
      parse_args({"compare", base.path(), next.path(), "--output-format", "json"});
  ASSERT_FALSE(json.exit_code) << json.message;
  EXPECT_EQ(json.compare.format, OutputFormat::json);
  expect_refused(parse_args({"compare", base.path(), next.path(), "--output-format", "csv"}),
                 "--output-format: csv not in {text,json}", "bench compare");
}

TEST(ChoiceFlags, merge_output_format_reads_text_json_or_csv) {
  const TempFile shard("shard.json", "{}");
  EXPECT_EQ(parse_args({"merge", shard.path()}).merge.format, OutputFormat::text);
  for (const auto& [word, format] :
       {std::pair{"text", OutputFormat::text}, std::pair{"json", OutputFormat::json},
        std::pair{"csv", OutputFormat::csv}}) {
    const ParseResult parsed = parse_args({"merge", shard.path(), "--output-format", word});
    ASSERT_FALSE(parsed.exit_code) << parsed.message;
    EXPECT_EQ(parsed.merge.format, format) << word;
  }
  expect_refused(parse_args({"merge", shard.path(), "--output-format", "yaml"}),
                 "--output-format: yaml not in {text,json,csv}", "bench merge");
}

}  // namespace
