#include "bench/workload/dataset.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "bench/workload/dataset_error.hpp"
#include "bench/workload/prompt_source.hpp"
#include "data_dirs.hpp"

namespace {

using bench::workload::dataset_kind_name;
using bench::workload::DatasetError;
using bench::workload::DatasetKind;
using bench::workload::DatasetOptions;
using bench::workload::open_prompt_source;
using bench::workload::parse_dataset_kind;
using bench::workload::PromptSource;

using bench::testing::kDatasetsDir;

DatasetOptions of_kind(DatasetKind kind, std::optional<std::size_t> count = std::nullopt) {
  DatasetOptions options;
  options.kind = kind;
  options.count = count;
  options.seed = 5;
  if (kind == DatasetKind::sharegpt) options.path = kDatasetsDir + "sharegpt_sample.json";
  if (kind == DatasetKind::jsonl) options.path = kDatasetsDir + "requests.jsonl";
  return options;
}

std::string invalid_argument_message(const DatasetOptions& options) {
  try {
    open_prompt_source(options);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Dataset, ParsesTheFourNamesAndNothingElse) {
  for (DatasetKind kind : {DatasetKind::random, DatasetKind::sharegpt, DatasetKind::jsonl,
                           DatasetKind::shared_prefix}) {
    EXPECT_EQ(parse_dataset_kind(dataset_kind_name(kind)), kind);
  }
  EXPECT_EQ(dataset_kind_name(DatasetKind::shared_prefix), "shared-prefix");
  EXPECT_EQ(parse_dataset_kind("generated-shared-prefix"), std::nullopt);
  EXPECT_EQ(parse_dataset_kind("ShareGPT"), std::nullopt);
}

TEST(Dataset, RandomPromptsAreMadeOnDemandWithTheirLengths) {
  DatasetOptions options = of_kind(DatasetKind::random);
  options.input_len = 30;
  options.output_len = 7;
  const std::unique_ptr<PromptSource> source = open_prompt_source(options);
  EXPECT_EQ(source->prompt(11).input_len, 30);
  EXPECT_EQ(source->prompt(11).output_len, 7);
  EXPECT_EQ(source->distinct_prompts(), std::nullopt);
  EXPECT_EQ(source->summary(), "random: prompts made on demand, input 30 words, max_tokens 7");
}

TEST(Dataset, FileDatasetsNeedAPathAndGeneratedOnesTakeNone) {
  DatasetOptions sharegpt = of_kind(DatasetKind::sharegpt);
  sharegpt.path.clear();
  EXPECT_NE(invalid_argument_message(sharegpt).find("--dataset sharegpt needs --dataset-path"),
            std::string::npos);
  DatasetOptions random = of_kind(DatasetKind::random, 3);
  random.path = kDatasetsDir + "requests.jsonl";
  EXPECT_NE(invalid_argument_message(random).find("--dataset-path is read only by"),
            std::string::npos);
}

TEST(Dataset, SharegptSummarySaysWhatWasDroppedAndRepeated) {
  const std::unique_ptr<PromptSource> source =
      open_prompt_source(of_kind(DatasetKind::sharegpt, 50));
  EXPECT_EQ(source->distinct_prompts(), std::optional<std::uint64_t>(20));
  EXPECT_NE(source->summary().find("31 conversations, 20 usable"), std::string::npos)
      << source->summary();
  EXPECT_NE(source->summary().find("50 requests a point, 30 of them repeats"), std::string::npos)
      << source->summary();
}

TEST(Dataset, JsonlGivesEveryRequestOnceBeforeAnyRepeats) {
  const std::unique_ptr<PromptSource> source = open_prompt_source(of_kind(DatasetKind::jsonl));
  std::set<std::string> texts;
  for (std::uint64_t i = 0; i < 7; ++i) texts.insert(source->prompt(i).text);
  EXPECT_EQ(texts.size(), 7u);
  EXPECT_EQ(source->summary(), "jsonl " + kDatasetsDir + "requests.jsonl: 7 requests on 9 lines");
}

TEST(Dataset, FileErrorsComeThroughWithTheirFileAndLine) {
  DatasetOptions options = of_kind(DatasetKind::jsonl);
  options.path = kDatasetsDir + "bad_json.jsonl";
  try {
    open_prompt_source(options);
    FAIL() << "no exception";
  } catch (const DatasetError& error) {
    EXPECT_EQ(error.line(), 3u);
  }
}

TEST(Dataset, SharedPrefixSummaryNamesItsGroupsAndPrefix) {
  DatasetOptions options = of_kind(DatasetKind::shared_prefix);
  options.prefix_groups = 4;
  options.questions_per_group = 3;
  options.prefix_len = 50;
  options.input_len = 10;
  const std::unique_ptr<PromptSource> source = open_prompt_source(options);
  EXPECT_TRUE(source->shares_prefixes());
  EXPECT_NE(source->summary().find("4 groups of 3 questions a round, prefix 50 words"),
            std::string::npos)
      << source->summary();
}

}  // namespace
