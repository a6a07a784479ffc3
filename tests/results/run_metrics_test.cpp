// run_metric_names(), the gates' names, against what bench really writes: results::to_json's
// numeric keys, and a results file of the real binary. When json_report.cpp gains or loses a
// numeric key, this is the test that says run_metric_names() must follow.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/writer.hpp"
#include "results_fixtures.hpp"

namespace {

using bench::results::numeric_keys;
using bench::results::run_metric_names;
using bench::testing::compare_fixture;
using nlohmann::json;

// Numeric, but describe the file rather than the run.
const std::set<std::string> kNotMetrics = {"schema_version"};

json reported_results() {
  bench::metrics::RunSummary summary;
  summary.sent = 10;
  summary.completed = 10;
  summary.duration_s = 1.5;
  summary.output_throughput = 100;
  bench::results::RunContext context;
  context.concurrency = 4;
  return bench::results::to_json(summary, context);
}

bool listed(const std::string& name) {
  const auto& names = run_metric_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(RunMetricNames, ListsEveryNumericKeyOfTheReport) {
  for (const std::string& key : numeric_keys(reported_results())) {
    if (kNotMetrics.count(key) != 0) continue;
    EXPECT_TRUE(listed(key)) << key << " is written by to_json, not in run_metric_names()";
  }
}

TEST(RunMetricNames, ListsOnlyKeysTheReportWrites) {
  const json results = reported_results();
  for (const std::string& name : run_metric_names()) {
    ASSERT_TRUE(results.contains(name))
        << name << " is in run_metric_names() but to_json does not write it";
    // null when not measured (goodput without SLOs), "inf" for an unlimited request_rate.
    const json& value = results[name];
    EXPECT_TRUE(value.is_number() || value.is_null() || value == json("inf"))
        << name << " is " << value.dump();
  }
}

TEST(RunMetricNames, CoversEveryNumericKeyOfARealResultsFile) {
  for (const std::string& key : numeric_keys(compare_fixture("run_c4.json"))) {
    if (kNotMetrics.count(key) != 0) continue;
    EXPECT_TRUE(listed(key)) << key;
  }
}

TEST(RunMetricNames, HasNoDuplicates) {
  std::vector<std::string> names = run_metric_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

TEST(NumericKeys, SkipsBooleansStringsAndObjects) {
  const json results = {{"output_throughput", 1.5}, {"sent", 3},
                        {"itl_estimated", true},    {"model", "m"},
                        {"config", {{"a", 1}}},     {"goodput", nullptr}};
  EXPECT_EQ(numeric_keys(results), (std::vector<std::string>{"output_throughput", "sent"}));
}

TEST(RunMetricNames, LaysOutEveryDistributionAsSGLangDoes) {
  EXPECT_EQ(bench::results::distribution_key("p99", "ttft"), "p99_ttft_ms");
  EXPECT_TRUE(listed("median_e2e_latency_ms"));
  EXPECT_TRUE(listed("std_icl_ms"));
}

TEST(NumericKeys, ReadsASweepsFirstPoint) {
  const json sweep = compare_fixture("sweep_c1_2_4.json");
  EXPECT_EQ(numeric_keys(sweep), numeric_keys(sweep["points"][0]));
  EXPECT_FALSE(numeric_keys(sweep).empty());
}

TEST(NeedsStream, NamesEveryFigureTimedFromAStreamsChunks) {
  for (const char* key :
       {"p99_ttft_ms", "median_itl_ms", "mean_icl_ms", "p90_tpot_ms", "max_ttfa_ms",
        "median_ttst_ms", "p99.9_ttft_ms", "p99_ttft_from_intended_ms",
        "median_output_throughput_per_user", "p10_output_throughput_per_user"}) {
    EXPECT_TRUE(bench::results::needs_stream(key)) << key;
  }
  for (const char* key : {"median_e2e_latency_ms", "p99_ttfb_ms", "output_throughput",
                          "requests_not_streamed", "median_e2e_latency_from_intended_ms"}) {
    EXPECT_FALSE(bench::results::needs_stream(key)) << key;
  }
}

TEST(StreamedNone, HoldsWhenEveryCompletedRequestWasNotStreamed) {
  using bench::results::streamed_none;
  EXPECT_TRUE(streamed_none(json{{"completed", 3}, {"requests_not_streamed", 3}}));
  EXPECT_FALSE(streamed_none(json{{"completed", 3}, {"requests_not_streamed", 2}}));
  EXPECT_FALSE(streamed_none(json{{"completed", 0}, {"requests_not_streamed", 0}}));
  EXPECT_FALSE(streamed_none(compare_fixture("run_c4.json")));  // a file from before the key
}

TEST(RunFigures, ARunThatStreamedNothingWritesItsCountAndNullTokenTimings) {
  bench::metrics::RunSummary summary;
  summary.sent = 4;
  summary.completed = 4;
  summary.not_streamed = 4;
  summary.duration_s = 1;
  summary.e2e_ms.count = 4;
  summary.e2e_ms.median = 250;
  const json run = bench::results::to_json(summary, bench::results::RunContext{});
  EXPECT_EQ(run["requests_not_streamed"], 4);
  EXPECT_TRUE(run["median_ttft_ms"].is_null());
  EXPECT_TRUE(run["p99_tpot_ms"].is_null());
  EXPECT_TRUE(run["mean_itl_ms"].is_null());
  EXPECT_EQ(run["median_e2e_latency_ms"], 250);
  EXPECT_TRUE(bench::results::streamed_none(run));
}

}  // namespace
