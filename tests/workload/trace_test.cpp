// The trace dataset: each format read by its column names, rows kept in time order with their
// offsets, filters, window, speed and count applied; bad files stop with file:line; Mooncake
// prompts share exactly the blocks their hash ids share.
#include "bench/workload/trace.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/workload/dataset_error.hpp"
#include "bench/workload/prompt_source.hpp"
#include "bench/workload/trace_prompts.hpp"
#include "data_dirs.hpp"
#include "temp_file.hpp"

namespace {

using bench::testing::TempFile;
using bench::workload::DatasetError;
using bench::workload::TraceFile;
using bench::workload::TraceFormat;
using bench::workload::TraceOptions;
using bench::workload::TraceRow;
using bench::workload::TraceWindow;

using bench::testing::kTracesDir;

TraceOptions format(TraceFormat trace_format) {
  TraceOptions options;
  options.format = trace_format;
  return options;
}

std::vector<std::int64_t> offsets_ms(const TraceFile& file) {
  std::vector<std::int64_t> out;
  for (const std::int64_t ns : *file.offsets_ns()) out.push_back(ns / 1'000'000);
  return out;
}

// The message a bad file stops with.
std::string error_of(const std::string& path, TraceFormat trace_format) {
  try {
    TraceFile file(path, format(trace_format), std::nullopt);
  } catch (const DatasetError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(TraceFile, MooncakeRowsKeepTheirLengthsOffsetsAndHashIds) {
  const TraceFile file(kTracesDir + "mooncake_sample.jsonl", format(TraceFormat::mooncake),
                       std::nullopt);
  ASSERT_EQ(file.size(), 20u);
  EXPECT_EQ(file.row(0).input_len, 1269);
  EXPECT_EQ(file.row(0).output_len, 7);
  EXPECT_EQ(file.hash_ids(0), (std::vector<std::int64_t>{10, 100, 101}));
  EXPECT_EQ(file.hash_ids(19), (std::vector<std::int64_t>{10, 11, 128}));
  const std::vector<std::int64_t> offsets = offsets_ms(file);
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 70);
  EXPECT_EQ(offsets[19], 1870);
  EXPECT_EQ(file.stats().rows, 20u);
  EXPECT_EQ(file.stats().used, 20u);
}

TEST(TraceFile, AzureTimesAreOffsetsFromTheFirstRowToTheNanosecond) {
  const TraceFile file(kTracesDir + "azure_sample.csv", format(TraceFormat::azure), std::nullopt);
  ASSERT_EQ(file.size(), 20u);
  // 18:15:46.6805904 then 18:15:46.7160909: 35.5005 ms apart.
  EXPECT_EQ((*file.offsets_ns())[0], 0);
  EXPECT_EQ((*file.offsets_ns())[1], 35'500'500);
  EXPECT_EQ(file.row(0).input_len, 84);
  EXPECT_EQ(file.row(0).output_len, 8);
}

TEST(TraceFile, AzureTimesCrossMidnightAndMonthEnds) {
  const TempFile trace("t.csv",
                       "GeneratedTokens,TIMESTAMP,ContextTokens\n"  // columns by name
                       "5,2023-11-30 23:59:59.5,10\n"
                       "6,2023-12-01 00:00:00.25,11\n");
  const TraceFile file(trace.path(), format(TraceFormat::azure), std::nullopt);
  ASSERT_EQ(file.size(), 2u);
  EXPECT_EQ((*file.offsets_ns())[1], 750'000'000);
  EXPECT_EQ(file.row(1).input_len, 11);
  EXPECT_EQ(file.row(1).output_len, 6);
}

TEST(TraceFile, BurstGptDropsFailedRowsAndFiltersByModelAndLogType) {
  const TraceFile all(kTracesDir + "burstgpt_sample.csv", format(TraceFormat::burstgpt),
                      std::nullopt);
  EXPECT_EQ(all.stats().rows, 22u);
  EXPECT_EQ(all.stats().empty, 2u);  // Response tokens 0: failed requests
  EXPECT_EQ(all.size(), 20u);
  TraceOptions options = format(TraceFormat::burstgpt);
  options.model = "GPT-4";
  options.log_type = "API log";
  const TraceFile some(kTracesDir + "burstgpt_sample.csv", options, std::nullopt);
  // GPT-4 API log rows at 6, 7, 10, 14, 15, 16 s: offsets from the first of them.
  EXPECT_EQ(offsets_ms(some), (std::vector<std::int64_t>{0, 1000, 4000, 8000, 9000, 10000}));
  EXPECT_EQ(some.stats().other_model + some.stats().other_log_type + some.stats().empty +
                some.stats().used,
            22u);
}

TEST(TraceFile, QuotedCsvFieldsAreReadWhole) {
  const TempFile trace("t.csv",
                       "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
                       "0,\"Chat, \"\"GPT\"\"\",10,2,12,\"API log\"\r\n"
                       "1,ChatGPT,11,2,13,API log\r\n");
  TraceOptions options = format(TraceFormat::burstgpt);
  options.model = "Chat, \"GPT\"";
  const TraceFile file(trace.path(), options, std::nullopt);
  ASSERT_EQ(file.size(), 1u);
  EXPECT_EQ(file.row(0).input_len, 10);
}

TEST(TraceFile, SpeedDividesOffsetsAndTheWindowCountsFromItsStart) {
  TraceOptions options = format(TraceFormat::burstgpt);
  options.speed = 4;
  options.window = TraceWindow{4, 10};  // trace seconds 9 to 15 (the file starts at 5)
  const TraceFile file(kTracesDir + "burstgpt_sample.csv", options, std::nullopt);
  // Rows at 10, 12, 14, 14 s (11 s is a failed one), 5 s from the file's start is the origin.
  EXPECT_EQ(offsets_ms(file), (std::vector<std::int64_t>{250, 750, 1250, 1250}));
  EXPECT_EQ(file.stats().outside_window, 5u);
}

TEST(TraceFile, AnEmptyWindowSaysWhy) {
  TraceOptions options = format(TraceFormat::mooncake);
  options.window = TraceWindow{100, 200};
  try {
    TraceFile file(kTracesDir + "mooncake_sample.jsonl", options, std::nullopt);
    FAIL() << "expected an error";
  } catch (const DatasetError& error) {
    EXPECT_NE(std::string(error.what()).find("no row to replay: 20 rows read"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("--trace-window 100-200"), std::string::npos);
  }
}

TEST(TraceFile, MaxRowsStopsReadingAtTheCount) {
  const TraceFile file(kTracesDir + "mooncake_sample.jsonl", format(TraceFormat::mooncake), 5);
  EXPECT_EQ(file.size(), 5u);
  EXPECT_EQ(file.stats().rows, 5u);
}

TEST(TraceFile, BadFilesNameFileAndLine) {
  EXPECT_EQ(error_of(kTracesDir + "missing_column.csv", TraceFormat::azure),
            kTracesDir +
                "missing_column.csv:1: no column \"GeneratedTokens\" in the header (the azure "
                "format needs TIMESTAMP, ContextTokens, GeneratedTokens; found: TIMESTAMP, "
                "ContextTokens)");
  EXPECT_EQ(error_of(kTracesDir + "unsorted.jsonl", TraceFormat::mooncake),
            kTracesDir +
                "unsorted.jsonl:3: timestamp 0.040 s (from the first row) is before the "
                "previous row's 0.050 s (line 2): a trace's rows must be in time order");
  EXPECT_EQ(error_of(kTracesDir + "negative.csv", TraceFormat::burstgpt),
            kTracesDir + "negative.csv:3: \"Timestamp\" is negative (-1)");
  EXPECT_EQ(error_of(kTracesDir + "not_a_number.csv", TraceFormat::azure),
            kTracesDir +
                "not_a_number.csv:4: \"ContextTokens\" is \"abc\", not a whole number of "
                "tokens");
  EXPECT_EQ(error_of(kTracesDir + "empty.csv", TraceFormat::azure),
            kTracesDir +
                "empty.csv: empty: expected a CSV header (TIMESTAMP, ContextTokens, "
                "GeneratedTokens) and one request a row");
  // The wrong format for the file: its header lacks the columns.
  EXPECT_NE(error_of(kTracesDir + "azure_sample.csv", TraceFormat::burstgpt)
                .find("azure_sample.csv:1: no column \"Timestamp\""),
            std::string::npos);
}

TEST(TraceFile, MooncakeLineErrorsNameTheKey) {
  const TempFile missing("t.jsonl",
                         "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 2}\n");
  EXPECT_EQ(error_of(missing.path(), TraceFormat::mooncake),
            missing.path() + ":1: no \"hash_ids\"");
  const TempFile text("t.jsonl",
                      "\n{\"timestamp\": 0, \"input_length\": \"5\", \"output_length\": 2, "
                      "\"hash_ids\": []}\n");
  EXPECT_EQ(error_of(text.path(), TraceFormat::mooncake),
            text.path() + ":2: \"input_length\" is \"5\", not a whole number of tokens");
  const TempFile negative("t.jsonl",
                          "{\"timestamp\": -3, \"input_length\": 5, \"output_length\": 2, "
                          "\"hash_ids\": []}\n");
  EXPECT_EQ(error_of(negative.path(), TraceFormat::mooncake),
            negative.path() + ":1: \"timestamp\" is negative (-3)");
  const TempFile blank("t.jsonl", "\n\n");
  EXPECT_EQ(error_of(blank.path(), TraceFormat::mooncake),
            blank.path() + ": no request rows in the file");
}

TEST(TraceWindowFlag, ParsesStartDashEndInSeconds) {
  const auto window = bench::workload::parse_trace_window("60-120.5");
  ASSERT_TRUE(window);
  EXPECT_EQ(window->start_s, 60);
  EXPECT_EQ(window->end_s, 120.5);
  EXPECT_FALSE(bench::workload::parse_trace_window("120-60"));
  EXPECT_FALSE(bench::workload::parse_trace_window("60"));
  EXPECT_FALSE(bench::workload::parse_trace_window("a-b"));
  EXPECT_FALSE(bench::workload::parse_trace_window("-5-10"));
}

// --- prompts -------------------------------------------------------------------------------

std::vector<std::string> space_separated(const std::string& text) {
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find(' ', at);
    words.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return words;
}

std::size_t common_words(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = space_separated(a), y = space_separated(b);
  std::size_t n = 0;
  while (n < x.size() && n < y.size() && x[n] == y[n]) ++n;
  return n;
}

TEST(TracePrompt, EqualHashIdsAtEqualPositionsShareExactlyThoseBlocks) {
  const auto prompt = [](std::int64_t input, std::vector<std::int64_t> ids, std::uint64_t request,
                         std::uint64_t stream = 0) {
    return bench::workload::trace_prompt(TraceRow{input, 4}, ids, 7, stream, request, {});
  };
  const auto a = prompt(1300, {10, 11, 12}, 0);
  const auto b = prompt(1100, {10, 11, 13}, 1);
  const auto c = prompt(600, {10, 14}, 2);
  const auto d = prompt(1300, {11, 10, 12}, 3);  // same ids, other positions
  EXPECT_EQ(space_separated(a.text).size(), 1300u);
  EXPECT_EQ(a.input_len, 1300);
  EXPECT_EQ(a.output_len, 4);
  EXPECT_EQ(space_separated(b.text).size(), 1100u);
  EXPECT_EQ(common_words(a.text, b.text), 1024u);
  EXPECT_EQ(common_words(a.text, c.text), 512u);
  EXPECT_EQ(common_words(a.text, d.text), 0u);
  // A block cut short is the start of the whole one.
  const auto short_block = prompt(1000, {10, 11}, 4);
  EXPECT_EQ(common_words(a.text, short_block.text), 1000u);
  // Another stream (a sweep's next point) has blocks of its own.
  EXPECT_EQ(common_words(a.text, prompt(1300, {10, 11, 12}, 0, 1).text), 0u);
  // The same request is the same prompt.
  EXPECT_EQ(prompt(1300, {10, 11, 12}, 0).text, a.text);
}

TEST(TracePrompt, InputBeyondTheBlocksIsTheRequestsOwn) {
  const auto a = bench::workload::trace_prompt(TraceRow{700, 4}, {10}, 7, 0, 5, {});
  const auto b = bench::workload::trace_prompt(TraceRow{700, 4}, {10}, 7, 0, 6, {});
  EXPECT_EQ(space_separated(a.text).size(), 700u);
  EXPECT_EQ(common_words(a.text, b.text), 512u);
  // Without hash ids (azure, burstgpt) no two requests share even a first word.
  const auto c = bench::workload::trace_prompt(TraceRow{50, 4}, {}, 7, 0, 5, {});
  const auto e = bench::workload::trace_prompt(TraceRow{50, 4}, {}, 7, 0, 6, {});
  EXPECT_EQ(common_words(c.text, e.text), 0u);
  EXPECT_EQ(c.client_tokens, -1);  // no tokenizer: lengths are words
}

TEST(TraceSource, GivesTheTracesArrivalsAndRowsByRequest) {
  bench::workload::DatasetOptions options;
  options.kind = bench::workload::DatasetKind::trace;
  options.path = kTracesDir + "mooncake_sample.jsonl";
  options.trace.format = TraceFormat::mooncake;
  options.trace.speed = 2;
  options.count = 10;
  const auto source = bench::workload::open_prompt_source(options);
  ASSERT_NE(source->arrival_offsets_ns(), nullptr);
  EXPECT_EQ(source->arrival_offsets_ns()->size(), 10u);
  EXPECT_EQ((*source->arrival_offsets_ns())[1], 35'000'000);  // 70 ms at twice the speed
  EXPECT_TRUE(source->shares_prefixes());
  EXPECT_EQ(source->prompt(bench::workload::prompt_index(0, 3)).input_len, 614);
  EXPECT_NE(source->summary().find("10 rows read, 10 replayed"), std::string::npos)
      << source->summary();
  EXPECT_NE(source->summary().find("prompts share prefixes where their hash ids repeat"),
            std::string::npos)
      << source->summary();
}

// Prompts share a prefix where rows share their first hash block: the sample's first two rows
// share block 10; a replay of its first row alone shares none (a high cached share is then
// worth a warning).
TEST(TraceSource, RowsThatShareNoFirstHashBlockShareNoPrefix) {
  bench::workload::DatasetOptions options;
  options.kind = bench::workload::DatasetKind::trace;
  options.path = kTracesDir + "mooncake_sample.jsonl";
  options.trace.format = TraceFormat::mooncake;
  options.count = 2;
  EXPECT_TRUE(bench::workload::open_prompt_source(options)->shares_prefixes());
  options.count = 1;
  const auto alone = bench::workload::open_prompt_source(options);
  EXPECT_FALSE(alone->shares_prefixes());
  EXPECT_NE(alone->summary().find("no two prompts share a first block"), std::string::npos)
      << alone->summary();
}

}  // namespace
