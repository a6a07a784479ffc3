// issue 28: --fail-on-regression per figure ("output_throughput=2%,p99_ttft_ms=10%", the plain
// "5%" still the threshold for every other figure), and a --json-compat file read by its own
// definitions (its itl is per chunk) rather than as bench's, so that no false regression
// comes of the difference.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/compare/compare.hpp"
#include "bench/results/compat.hpp"
#include "bench/results/read_file.hpp"
#include "bench/results/run_metrics.hpp"
#include "compare_helpers.hpp"
#include "results_fixtures.hpp"
#include "temp_file.hpp"

namespace {

using bench::compare::CompareError;
using bench::compare::Thresholds;
using bench::compare::Verdict;
using nlohmann::json;

// A results file as every command reads it (results::read_results_file), or its refusal.
std::variant<json, CompareError> load(const std::string& path) {
  auto file = bench::results::read_results_file(path);
  if (auto* error = std::get_if<bench::results::FormatError>(&file)) {
    return CompareError{error->message};
  }
  return std::get<bench::results::ResultsFile>(file).results;
}

Thresholds parsed_thresholds(const std::string& text) {
  auto result = bench::compare::parse_thresholds("--fail-on-regression", text);
  if (const auto* error = std::get_if<CompareError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<Thresholds>(result);
}

std::string thresholds_refusal(const std::string& text) {
  auto result = bench::compare::parse_thresholds("--fail-on-regression", text);
  if (std::holds_alternative<Thresholds>(result)) {
    ADD_FAILURE() << text << " was accepted";
    return "";
  }
  return std::get<CompareError>(result).message;
}

bench::compare::Comparison compared_with(const json& base, const json& next,
                                         const Thresholds& thresholds) {
  bench::compare::CompareOptions options;
  options.threshold = thresholds.all;
  options.metric_thresholds = thresholds.by_metric;
  auto result = bench::compare::compare(base, next, options);
  if (const auto* error = std::get_if<CompareError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<bench::compare::Comparison>(result);
}

TEST(ParseThresholds, OneForEveryFigureAsBefore) {
  const Thresholds t = parsed_thresholds("5%");
  EXPECT_DOUBLE_EQ(t.all.value_or(-1), 0.05);
  EXPECT_TRUE(t.by_metric.empty());
}

TEST(ParseThresholds, PerFigureAndADefaultBeside) {
  const Thresholds t = parsed_thresholds("output_throughput=2%,p99_ttft_ms=10%");
  EXPECT_FALSE(t.all.has_value());
  EXPECT_EQ(t.by_metric,
            (std::map<std::string, double>{{"output_throughput", 0.02}, {"p99_ttft_ms", 0.1}}));
  const Thresholds both = parsed_thresholds("5%, p99_itl_ms=0.2");
  EXPECT_DOUBLE_EQ(both.all.value_or(-1), 0.05);
  EXPECT_DOUBLE_EQ(both.by_metric.at("p99_itl_ms"), 0.2);
}

TEST(ParseThresholds, APeersNameIsBenchsFigure) {
  const Thresholds t = parsed_thresholds("total_token_throughput=3%,p99_e2el_ms=4%");
  EXPECT_DOUBLE_EQ(t.by_metric.at("total_throughput"), 0.03);
  EXPECT_DOUBLE_EQ(t.by_metric.at("p99_e2e_latency_ms"), 0.04);
}

TEST(ParseThresholds, RefusesWhatItCannotApply) {
  EXPECT_EQ(thresholds_refusal("p90_ttft_ms=5%")
                .rfind("--fail-on-regression: 'p90_ttft_ms' is not a figure bench compare judges "
                       "(output_throughput, ",
                       0),
            0u);
  EXPECT_EQ(thresholds_refusal("p99_ttft_ms=5"),
            "--fail-on-regression: '5' would be a fraction (500%); write 5% for 5 percent, or a "
            "fraction up to 1");
  EXPECT_EQ(thresholds_refusal("5%,1%"),
            "--fail-on-regression: '5%,1%' gives the threshold for every figure twice");
  EXPECT_EQ(thresholds_refusal("p99_ttft_ms=5%,p99_ttft_ms=6%"),
            "--fail-on-regression: 'p99_ttft_ms' is given twice");
  EXPECT_NE(thresholds_refusal("5%,").find("is not a threshold"), std::string::npos);
}

// The trial's case: output moved 0.03%, ITL p99 (noise) 20%; a loose ITL threshold beside a
// tight default fails on output only when output moves more.
TEST(CompareThresholds, EachFigureIsJudgedByItsOwnThresholdElseTheDefault) {
  const json base = bench::testing::compare_fixture("run_c4.json");
  json next = base;
  next["p99_itl_ms"] = base["p99_itl_ms"].get<double>() * 1.2;
  next["output_throughput"] = base["output_throughput"].get<double>() * 0.9997;

  const auto global = compared_with(base, next, parsed_thresholds("0.1%"));
  EXPECT_EQ(bench::testing::row(global, "p99_itl_ms").verdict, Verdict::regression);
  EXPECT_TRUE(global.failed());

  const auto own = compared_with(base, next, parsed_thresholds("0.1%,p99_itl_ms=25%"));
  EXPECT_EQ(bench::testing::row(own, "p99_itl_ms").verdict, Verdict::worse);
  EXPECT_EQ(bench::testing::row(own, "output_throughput").verdict, Verdict::worse);
  EXPECT_FALSE(own.failed());

  // Only some figures given: the others are marked, never failed.
  const auto only = compared_with(base, next, parsed_thresholds("output_throughput=0.01%"));
  EXPECT_EQ(bench::testing::row(only, "output_throughput").verdict, Verdict::regression);
  EXPECT_EQ(bench::testing::row(only, "p99_itl_ms").verdict, Verdict::worse);
  EXPECT_EQ(only.regressions(), 1u);
  const std::string text = bench::compare::render_text(only);
  EXPECT_NE(text.find("1 regression beyond output_throughput 0.01% (--fail-on-regression)"),
            std::string::npos)
      << text;
  const json written = bench::compare::to_json(only);
  EXPECT_TRUE(written["threshold"].is_null());
  EXPECT_DOUBLE_EQ(written["thresholds"]["output_throughput"].get<double>(), 0.0001);
}

// A run whose chunks carry four tokens each: per-token ITL a quarter of the per-chunk gap.
json four_token_chunks() {
  json run = bench::testing::compare_fixture("run_c4.json");
  for (std::string_view stat : bench::results::kDistributionStats) {
    const std::string itl = bench::results::distribution_key(stat, "itl");
    run[bench::results::distribution_key(stat, "icl")] = run[itl].get<double>() * 4;
  }
  run["chunks_differ_from_tokens"] = true;
  return run;
}

// The trial: `bench compare n1.json n2.json` where n2 is the same run written with
// --json-compat sglang printed "ITL median ms 10.00 40.00 +300.04%", a false regression.
TEST(CompareCompatFiles, AJsonCompatFileIsReadByItsOwnDefinitions) {
  const json native = four_token_chunks();
  for (const auto compat : {bench::results::Compat::sglang, bench::results::Compat::vllm}) {
    const bench::testing::TempFile file("compat.json",
                                        bench::results::compat_view(native, compat).dump());
    auto loaded = load(file.path());
    ASSERT_TRUE(std::holds_alternative<json>(loaded)) << std::get<CompareError>(loaded).message;
    const json& read = std::get<json>(loaded);
    EXPECT_EQ(read, native);  // the view taken off again, key for key
    const auto comparison = bench::testing::compared(native, read, 0.05);
    EXPECT_EQ(bench::testing::row(comparison, "median_itl_ms").verdict, Verdict::same);
    EXPECT_EQ(bench::testing::row(comparison, "p99_itl_ms").verdict, Verdict::same);
    EXPECT_FALSE(comparison.failed());
  }
}

TEST(CompareCompatFiles, AViewThatCannotBeReadSoIsRefusedNamingWhy) {
  json unknown = bench::testing::compare_fixture("run_c4.json");
  unknown["json_compat"] = "genai-perf";
  const bench::testing::TempFile odd("odd.json", unknown.dump());
  auto loaded = load(odd.path());
  ASSERT_TRUE(std::holds_alternative<CompareError>(loaded));
  EXPECT_EQ(std::get<CompareError>(loaded).message,
            odd.path() +
                ": \"json_compat\": \"genai-perf\" is no view this bench writes (vllm, "
                "sglang): its keys cannot be read by bench's definitions");

  json stripped = bench::results::compat_view(four_token_chunks(), bench::results::Compat::sglang);
  stripped.erase("p99_itl_per_token_ms");
  const bench::testing::TempFile partial("partial.json", stripped.dump());
  loaded = load(partial.path());
  ASSERT_TRUE(std::holds_alternative<CompareError>(loaded));
  EXPECT_NE(std::get<CompareError>(loaded).message.find(
                "a --json-compat sglang file whose p99_itl_ms is per chunk, without "
                "p99_itl_per_token_ms"),
            std::string::npos);
}

}  // namespace
