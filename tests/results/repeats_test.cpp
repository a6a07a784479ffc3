// A repeated point as one results object: equal keys kept, differing numbers averaged, bools
// any, the rest the first repeat's; the summary's interval per figure; each repeat kept.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "bench/results/repeats.hpp"

namespace {

using bench::results::combine_repeats;
using bench::results::repeat_count;
using bench::results::repeat_values;
using nlohmann::json;

json run(double output, std::int64_t sent, bool saturated, const std::string& started) {
  return {{"kind", "run"},
          {"output_throughput", output},
          {"input_throughput", nullptr},
          {"sent", sent},
          {"max_concurrency", 8},
          {"client_saturated", saturated},
          {"started_at", started},
          {"steady_state", {{"output_throughput", output / 2}, {"start_s", 1}}},
          {"timeline", {{"bucket_s", 1}, {"buckets", json::array({output})}}}};
}

TEST(Repeats, KeepsEqualKeysAveragesNumbersAndSaysWhenAnyRepeatWasSaturated) {
  const json point = combine_repeats(
      {run(100, 10, false, "a"), run(110, 10, true, "b"), run(120, 13, false, "c")});
  EXPECT_EQ(point["kind"], "run");
  EXPECT_EQ(point["max_concurrency"], 8);
  EXPECT_TRUE(point["max_concurrency"].is_number_integer());
  EXPECT_EQ(point["sent"], 11.0);
  EXPECT_DOUBLE_EQ(point["output_throughput"].get<double>(), 110);
  EXPECT_TRUE(point["input_throughput"].is_null());
  EXPECT_EQ(point["client_saturated"], true);
  EXPECT_EQ(point["started_at"], "a");
  EXPECT_DOUBLE_EQ(point["steady_state"]["output_throughput"].get<double>(), 55);
  EXPECT_EQ(point["steady_state"]["start_s"], 1);
  EXPECT_EQ(point["timeline"]["buckets"], json::array({100.0}));  // the first repeat's
  ASSERT_EQ(point["repeat_runs"].size(), 3u);
  EXPECT_EQ(point["repeat_runs"][1], run(110, 10, true, "b"));
}

// issue 28: a figure with no values in one repeat (null) has no mean over the repeats: the
// combined figure is unknown, never the first repeat's nor a mean of the others.
TEST(Repeats, AFigureUnknownInSomeRepeatIsUnknownCombined) {
  json unknown_first = run(100, 10, false, "a");
  unknown_first["p99_ttft_ms"] = nullptr;
  json known = run(110, 10, false, "b");
  known["p99_ttft_ms"] = 40.0;
  EXPECT_TRUE(combine_repeats({unknown_first, known})["p99_ttft_ms"].is_null());
  EXPECT_TRUE(combine_repeats({known, unknown_first})["p99_ttft_ms"].is_null());
}

TEST(Repeats, SummarizesEachFigureWithItsStudentTInterval) {
  const json point = combine_repeats(
      {run(100, 10, false, "a"), run(110, 10, false, "a"), run(120, 10, false, "a")});
  const json& repeats = point["repeats"];
  EXPECT_EQ(repeats["count"], 3);
  EXPECT_EQ(repeats["confidence"], 0.95);
  EXPECT_EQ(repeats["interval"], "student_t");
  const json& output = repeats["figures"]["output_throughput"];
  EXPECT_DOUBLE_EQ(output["mean"].get<double>(), 110);
  EXPECT_DOUBLE_EQ(output["std"].get<double>(), 10);
  const double half_width = 4.302653 * 10 / std::sqrt(3.0);
  EXPECT_NEAR(output["half_width"].get<double>(), half_width, 1e-4);
  EXPECT_NEAR(output["low"].get<double>(), 110 - half_width, 1e-4);
  EXPECT_NEAR(output["high"].get<double>(), 110 + half_width, 1e-4);
  EXPECT_EQ(output["values"], json::array({100.0, 110.0, 120.0}));
  EXPECT_TRUE(repeats["figures"]["input_throughput"].is_null());  // unknown stays unknown
  EXPECT_TRUE(repeats["figures"]["p99_ttft_ms"].is_null());       // absent here
}

TEST(Repeats, ReadsBackEachRepeatsValuesAndCount) {
  const json point = combine_repeats({run(100, 10, false, "a"), run(130, 10, false, "a")});
  EXPECT_EQ(repeat_values(point, "output_throughput"), (std::vector<double>{100, 130}));
  EXPECT_FALSE(repeat_values(point, "input_throughput").has_value());
  EXPECT_EQ(repeat_count(point), 2u);
  const json single = run(100, 10, false, "a");
  EXPECT_FALSE(repeat_values(single, "output_throughput").has_value());
  EXPECT_EQ(repeat_count(single), 1u);
}

}  // namespace
