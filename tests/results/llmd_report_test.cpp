// bench export --format llm-d-report: bench's figures under llm-d's Benchmark Report v0.2.1
// fields, output, input and total rates apart, and what bench does not know left out (never 0).
// The reports' validity against llm-d's own schema is checked by tests/export (a JSON Schema
// validator on the real binary's output).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/results/llmd_report.hpp"
#include "results_fixtures.hpp"

namespace {

using bench::results::llmd_export;
using bench::results::llmd_report;
using nlohmann::json;

json llmd_run() {
  json run = bench::testing::saved_results("single_run.json");
  run["workload"] = {{"fingerprint", "00112233aabbccdd"}, {"generator_version", 3}, {"seed", 7}};
  return run;
}

const json& aggregate(const json& report) {
  return report["results"]["request_performance"]["aggregate"];
}

TEST(LlmdReport, KeepsOutputInputAndTotalRatesApart) {
  const json run = llmd_run();
  const json report = llmd_report(run, "exp");
  const json& rates = aggregate(report)["throughput"];
  EXPECT_EQ(rates["output_token_rate"]["mean"], run["output_throughput"]);
  EXPECT_EQ(rates["input_token_rate"]["mean"], run["input_throughput"]);
  EXPECT_EQ(rates["total_token_rate"]["mean"], run["total_throughput"]);
  EXPECT_EQ(rates["request_rate"]["mean"], run["request_throughput"]);
  EXPECT_EQ(rates["output_token_rate"]["units"], "tokens/s");
  EXPECT_EQ(rates["request_rate"]["units"], "queries/s");
  EXPECT_EQ(report["version"], "0.2.1");
  EXPECT_EQ(report["run"]["eid"], "exp");
}

TEST(LlmdReport, UnknownInputCountsLeaveTheirRatesOutNeverZero) {
  json run = llmd_run();
  run["input_throughput"] = nullptr;
  run["total_throughput"] = nullptr;
  run["total_input_tokens"] = nullptr;
  run["mean_prompt_tokens"] = nullptr;
  const json report = llmd_report(run, "exp");
  const json& rates = aggregate(report)["throughput"];
  EXPECT_FALSE(rates.contains("input_token_rate"));
  EXPECT_FALSE(rates.contains("total_token_rate"));
  EXPECT_TRUE(rates.contains("output_token_rate"));
  EXPECT_FALSE(aggregate(report)["requests"].contains("input_length"));
}

TEST(LlmdReport, LatenciesCarryBenchsPercentilesInMilliseconds) {
  const json run = llmd_run();
  const json report = llmd_report(run, "exp");
  const json& latency = aggregate(report)["latency"];
  const json& ttft = latency["time_to_first_token"];
  EXPECT_EQ(ttft["units"], "ms");
  EXPECT_EQ(ttft["mean"], run["mean_ttft_ms"]);
  EXPECT_EQ(ttft["p50"], run["median_ttft_ms"]);
  EXPECT_EQ(ttft["p99"], run["p99_ttft_ms"]);
  EXPECT_EQ(ttft["stddev"], run["std_ttft_ms"]);
  EXPECT_EQ(ttft["min"], run["distributions"]["ttft_ms"][0][1]);
  EXPECT_TRUE(ttft.contains("p99p9"));
  EXPECT_EQ(latency["inter_token_latency"]["units"], "ms/token");
  EXPECT_EQ(latency["inter_token_latency"]["mean"], run["mean_itl_ms"]);
  EXPECT_EQ(latency["time_per_output_token"]["mean"], run["mean_tpot_ms"]);
  EXPECT_EQ(latency["request_latency"]["mean"], run["mean_e2e_latency_ms"]);
  // bench does not measure NTPOT (E2E over every output token): left out, not made up.
  EXPECT_FALSE(latency.contains("normalized_time_per_output_token"));
}

TEST(LlmdReport, ADistributionWithoutValuesIsLeftOut) {
  json run = llmd_run();
  for (const char* stat : {"mean", "median", "std", "p90", "p95", "p99", "max"}) {
    run[std::string(stat) + "_tpot_ms"] = nullptr;
  }
  const json report = llmd_report(run, "exp");
  const json& latency = aggregate(report)["latency"];
  EXPECT_FALSE(latency.contains("time_per_output_token"));
  EXPECT_TRUE(latency.contains("time_to_first_token"));
}

TEST(LlmdReport, CountsRequestsSentFailedAndCancelled) {
  json run = llmd_run();
  run["sent"] = 10;
  run["completed"] = 7;
  run["failed"] = 2;
  run["cancelled"] = 1;
  const json report = llmd_report(run, "exp");
  const json& requests = aggregate(report)["requests"];
  EXPECT_EQ(requests["total"], 10);
  EXPECT_EQ(requests["failures"], 2);
  EXPECT_EQ(requests["incomplete"], 1);
  EXPECT_EQ(requests["output_length"]["mean"], run["mean_completion_tokens"]);
  EXPECT_EQ(requests["output_length"]["units"], "count");
}

TEST(LlmdReport, NamesBenchAsTheLoadGeneratorWithItsLoad) {
  json run = llmd_run();
  run["config"]["ignore_eos"] = true;
  run["input_len_unit"] = "tokens";
  const json report = llmd_report(run, "exp", 3);
  const json& load = report["scenario"]["load"];
  EXPECT_EQ(load["standardized"]["tool"], "bench");
  EXPECT_EQ(load["standardized"]["tool_version"], run["bench_version"]);
  EXPECT_EQ(load["standardized"]["stage"], 3);
  EXPECT_EQ(load["standardized"]["source"], "random");
  EXPECT_EQ(load["standardized"]["concurrency"], run["max_concurrency"]);
  EXPECT_EQ(load["standardized"]["input_seq_len"]["value"], run["config"]["input_len"]);
  EXPECT_EQ(load["standardized"]["output_seq_len"]["value"], run["config"]["output_len"]);
  EXPECT_EQ(load["metadata"]["cfg_id"], "00112233aabbccdd");
  // A closed loop has no request rate: left out rather than written as infinity or 0.
  EXPECT_FALSE(load["standardized"].contains("rate_qps"));
}

TEST(LlmdReport, LengthsInWordsGiveTheServersMeanTokens) {
  json run = llmd_run();
  run["input_len_unit"] = "words";
  run["config"]["ignore_eos"] = false;
  const json report = llmd_report(run, "exp");
  const json& load = report["scenario"]["load"]["standardized"];
  EXPECT_EQ(load["input_seq_len"]["distribution"], "other");
  EXPECT_EQ(load["input_seq_len"]["value"], run["mean_prompt_tokens"]);
  // Without --ignore-eos the output length is not enforced.
  EXPECT_FALSE(load.contains("output_seq_len"));
}

TEST(LlmdReport, WithoutAnyKnownInputLengthTheLoadIsLeftOut) {
  json run = llmd_run();
  run["input_len_unit"] = "words";
  run["mean_prompt_tokens"] = nullptr;
  EXPECT_FALSE(llmd_report(run, "exp").contains("scenario"));
}

TEST(LlmdReport, RunTimeIsTheStartAndTheMeasuredDuration) {
  const json run = llmd_run();
  const json report = llmd_report(run, "exp");
  const json& time = report["run"]["time"];
  EXPECT_EQ(time["start"], run["started_at"]);
  EXPECT_EQ(time["duration"], "PT14.019367896S");
}

TEST(LlmdExport, ASweepGivesOneReportPerPointOrTheOneAsked) {
  const json sweep = bench::testing::saved_results("sweep_concurrency.json");
  const std::size_t points = sweep["points"].size();
  ASSERT_GE(points, 2u);
  const auto all = llmd_export(sweep, "sweep.json", std::nullopt);
  ASSERT_TRUE(std::holds_alternative<json>(all));
  const json& reports = std::get<json>(all);
  ASSERT_TRUE(reports.is_array());
  ASSERT_EQ(reports.size(), points);
  EXPECT_EQ(reports[0]["run"]["eid"], reports[1]["run"]["eid"]);
  EXPECT_NE(reports[0]["run"]["uid"], reports[1]["run"]["uid"]);
  EXPECT_EQ(aggregate(reports[1])["throughput"]["output_token_rate"]["mean"],
            sweep["points"][1]["output_throughput"]);

  const auto second = llmd_export(sweep, "sweep.json", 2);
  ASSERT_TRUE(std::holds_alternative<json>(second));
  EXPECT_EQ(std::get<json>(second), reports[1]);
}

TEST(LlmdExport, APointTheFileLacksIsAnError) {
  const auto result = llmd_export(llmd_run(), "run.json", 2);
  ASSERT_TRUE(std::holds_alternative<bench::results::FormatError>(result));
  EXPECT_NE(std::get<bench::results::FormatError>(result).message.find("run.json has 1 point"),
            std::string::npos);
  EXPECT_TRUE(std::holds_alternative<json>(llmd_export(llmd_run(), "run.json", 1)));
}

TEST(LlmdExport, RefusesJsonThatIsNoResultsFile) {
  const auto result = llmd_export(json{{"a", 1}}, "other.json", std::nullopt);
  EXPECT_TRUE(std::holds_alternative<bench::results::FormatError>(result));
}

}  // namespace
