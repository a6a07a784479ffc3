// The input split of a run with images: usage's mean beside the tokenizer's text mean and their
// difference, each unknown (null, "unknown") unless every completed request had it, never 0.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/results/image_split.hpp"

namespace {

using bench::metrics::RunSummary;
using bench::results::image_input_split;
using bench::results::image_input_split_json;

RunSummary counted(bool every_usage, bool paired) {
  RunSummary s;
  s.completed = 4;
  s.input_tokens_from_usage = every_usage ? 4 : 3;
  s.mean_prompt_tokens = 1234.0;
  s.mean_client_prompt_tokens = 200.0;
  s.prompt_counts_paired = paired;
  return s;
}

TEST(ImageInputSplit, ImagesAreUsageLessTheTextWhenBothAreKnownForEveryRequest) {
  const auto split = image_input_split(counted(true, true));
  EXPECT_EQ(split.requests, 4);
  EXPECT_EQ(split.images, 1034.0);
  EXPECT_EQ(image_input_split_json(split)["mean_image_tokens_estimate"], 1034.0);
  // Read back from a results run object, as the HTML report does.
  const auto read = bench::results::image_input_split_of(
      nlohmann::json{{"image_input_split", image_input_split_json(split)}});
  ASSERT_TRUE(read);
  EXPECT_EQ(read->requests, split.requests);
  EXPECT_EQ(read->input, split.input);
  EXPECT_EQ(read->text, split.text);
  EXPECT_EQ(read->images, split.images);
  EXPECT_FALSE(bench::results::image_input_split_of(nlohmann::json::object()));
}

TEST(ImageInputSplit, UnknownWhenTheTextOrTheUsageIsNotKnownForEveryRequest) {
  const auto no_text = image_input_split(counted(true, false));
  EXPECT_FALSE(no_text.text);
  EXPECT_FALSE(no_text.images);
  const auto some_usage = image_input_split(counted(false, true));
  EXPECT_FALSE(some_usage.input);
  EXPECT_FALSE(some_usage.images);
  const nlohmann::json written = image_input_split_json(some_usage);
  EXPECT_TRUE(written["mean_input_tokens"].is_null());
  EXPECT_TRUE(written["mean_image_tokens_estimate"].is_null());
  EXPECT_EQ(written["mean_text_tokens"], 200.0);
}

}  // namespace
