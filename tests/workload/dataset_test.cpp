#include "bench/workload/dataset.hpp"

#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "bench/workload/dataset_error.hpp"

namespace {

using bench::workload::Dataset;
using bench::workload::DatasetError;
using bench::workload::DatasetKind;
using bench::workload::DatasetOptions;
using bench::workload::dataset_kind_name;
using bench::workload::load_dataset;
using bench::workload::parse_dataset_kind;

const std::string kDir = std::string(BENCH_TEST_DATA_DIR) + "/datasets/";

DatasetOptions of_kind(DatasetKind kind, std::optional<std::size_t> count = std::nullopt) {
  DatasetOptions options;
  options.kind = kind;
  options.count = count;
  options.seed = 5;
  if (kind == DatasetKind::sharegpt) options.path = kDir + "sharegpt_sample.json";
  if (kind == DatasetKind::jsonl) options.path = kDir + "requests.jsonl";
  return options;
}

std::string invalid_argument_message(const DatasetOptions& options) {
  try {
    load_dataset(options);
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

TEST(Dataset, RandomMakesTheCountAskedFor) {
  DatasetOptions options = of_kind(DatasetKind::random, 12);
  options.input_len = 30;
  options.output_len = 7;
  const Dataset dataset = load_dataset(options);
  EXPECT_EQ(dataset.prompts.size(), 12u);
  EXPECT_EQ(dataset.distinct, 12u);
  EXPECT_EQ(dataset.prompts.front().input_len, 30);
  EXPECT_EQ(dataset.summary, "random: 12 prompts, input 30 words, max_tokens 7");
  EXPECT_NE(invalid_argument_message(of_kind(DatasetKind::random)).find("request count"),
            std::string::npos);
}

TEST(Dataset, FileDatasetsNeedAPathAndGeneratedOnesTakeNone) {
  DatasetOptions sharegpt = of_kind(DatasetKind::sharegpt);
  sharegpt.path.clear();
  EXPECT_NE(invalid_argument_message(sharegpt).find("--dataset sharegpt needs --dataset-path"),
            std::string::npos);
  DatasetOptions random = of_kind(DatasetKind::random, 3);
  random.path = kDir + "requests.jsonl";
  EXPECT_NE(invalid_argument_message(random).find("--dataset-path is read only by"),
            std::string::npos);
}

TEST(Dataset, SharegptSummarySaysWhatWasDroppedAndRepeated) {
  const Dataset dataset = load_dataset(of_kind(DatasetKind::sharegpt, 50));
  EXPECT_EQ(dataset.prompts.size(), 50u);
  EXPECT_EQ(dataset.distinct, 20u);
  EXPECT_NE(dataset.summary.find("31 conversations, 20 usable"), std::string::npos)
      << dataset.summary;
  EXPECT_NE(dataset.summary.find("50 requests, 30 of them repeats"), std::string::npos)
      << dataset.summary;
}

TEST(Dataset, JsonlWithoutACountSendsEveryRequestOnce) {
  const Dataset dataset = load_dataset(of_kind(DatasetKind::jsonl));
  EXPECT_EQ(dataset.prompts.size(), 7u);
  std::set<std::string> texts;
  for (const auto& prompt : dataset.prompts) texts.insert(prompt.text);
  EXPECT_EQ(texts.size(), 7u);
  EXPECT_EQ(dataset.summary, "jsonl " + kDir + "requests.jsonl: 7 requests on 9 lines");
}

TEST(Dataset, FileErrorsComeThroughWithTheirFileAndLine) {
  DatasetOptions options = of_kind(DatasetKind::jsonl);
  options.path = kDir + "bad_json.jsonl";
  try {
    load_dataset(options);
    FAIL() << "no exception";
  } catch (const DatasetError& error) {
    EXPECT_EQ(error.line(), 3u);
  }
}

TEST(Dataset, SharedPrefixDefaultsToGroupsTimesQuestionsAndFitsACount) {
  DatasetOptions options = of_kind(DatasetKind::shared_prefix);
  options.prefix_groups = 4;
  options.questions_per_group = 3;
  options.prefix_len = 50;
  options.input_len = 10;
  const Dataset all = load_dataset(options);
  EXPECT_EQ(all.prompts.size(), 12u);
  EXPECT_NE(all.summary.find("4 groups x 3 questions = 12 requests, prefix 50 words"),
            std::string::npos)
      << all.summary;
  options.count = 10;
  const Dataset fewer = load_dataset(options);
  EXPECT_EQ(fewer.prompts.size(), 10u);
  EXPECT_NE(fewer.summary.find("10 of them sent"), std::string::npos) << fewer.summary;
}

}  // namespace
