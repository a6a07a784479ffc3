// The snapshot as one JSON line: output, input and total tokens apart, latencies in ms, and an
// unknown figure null, never 0.
#include "bench/live/json_line.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/live/tally.hpp"
#include "live_samples.hpp"

namespace bench::live {
namespace {

using nlohmann::json;
using testing::completed;

TEST(LiveJsonLine, KeepsOutputInputAndTotalApart) {
  Tally tally(30);
  tally.begin_point(0);
  tally.add(sample_of(completed(100, 4, 20, 2), 1'000'000'000));
  Snapshot snapshot;
  tally.fill(snapshot, 2'000'000'000);
  const std::string line = json_line(snapshot);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const json object = json::parse(line);
  EXPECT_EQ(object["tokens"]["input"], 100);
  EXPECT_EQ(object["tokens"]["output"], 4);
  EXPECT_EQ(object["tokens"]["total"], 104);
  EXPECT_EQ(object["requests"]["measured"]["completed"], 1);
  EXPECT_DOUBLE_EQ(object["window"]["ttft_ms"]["p50"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(object["window"]["span_s"].get<double>(), 2);
  EXPECT_DOUBLE_EQ(object["window"]["output_tokens_per_s"].get<double>(), 2);
  EXPECT_DOUBLE_EQ(object["window"]["input_tokens_per_s"].get<double>(), 50);
  EXPECT_DOUBLE_EQ(object["window"]["total_tokens_per_s"].get<double>(), 52);
  EXPECT_TRUE(object["point"].is_null());
  EXPECT_TRUE(object["shard"].is_null());
}

TEST(LiveJsonLine, UnknownFiguresAreNull) {
  const json object = json::parse(json_line(Snapshot{}));
  EXPECT_TRUE(object["window"]["ttft_ms"]["p99"].is_null());
  EXPECT_TRUE(object["window"]["output_tokens_per_s"].is_null());  // no time has passed
  EXPECT_TRUE(object["point_index"].is_null());
}

}  // namespace
}  // namespace bench::live
