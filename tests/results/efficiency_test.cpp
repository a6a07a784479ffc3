// The efficiency figures (results/efficiency.hpp) and the keys they are written under: per GPU
// each kind over --gpus, per user as the run summarized it (1000 / each request's TPOT), cost per
// million tokens of each kind; unknown (null) whenever a part is unknown, never 0.
#include <gtest/gtest.h>

#include <optional>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/efficiency.hpp"
#include "bench/results/format.hpp"
#include "bench/results/writer.hpp"
#include "energy_window.hpp"

namespace {

namespace key = bench::results::key;
using bench::metrics::RunSummary;
using bench::results::efficiency;
using bench::results::RunContext;
using nlohmann::json;

RunSummary measured() {
  RunSummary s;
  s.sent = s.completed = 100;
  s.input_tokens_from_usage = s.output_tokens_from_usage = 100;
  s.duration_s = 10;
  s.output_throughput = 622;
  s.input_throughput = 1245;
  s.total_throughput = 1867;
  s.tpot_ms.count = 100;
  s.tpot_ms.median = 20;
  s.tpot_ms.p90 = 40;
  s.median_output_per_user = 50;  // RunSummary's percentiles of 1000 / each request's TPOT
  s.p10_output_per_user = 25;
  s.ttft_ms.count = 100;
  s.ttft_ms.median = 150;
  return s;
}

RunContext on_gpus(std::int64_t gpus, std::optional<double> price = std::nullopt) {
  RunContext c;
  c.accelerators.gpus = gpus;
  c.accelerators.gpu_hour_usd = price;
  return c;
}

TEST(Efficiency, PerGpuIsEachKindOverTheGpus) {
  const auto e = efficiency(measured(), on_gpus(8));
  EXPECT_DOUBLE_EQ(*e.output_per_gpu, 622.0 / 8);
  EXPECT_DOUBLE_EQ(*e.input_per_gpu, 1245.0 / 8);
  EXPECT_DOUBLE_EQ(*e.total_per_gpu, 1867.0 / 8);
}

TEST(Efficiency, WithoutGpusNoPerGpuOrCostFigureIsGuessed) {
  const auto e = efficiency(measured(), RunContext{});
  EXPECT_FALSE(e.output_per_gpu);
  EXPECT_FALSE(e.input_per_gpu);
  EXPECT_FALSE(e.total_per_gpu);
  EXPECT_FALSE(e.usd_per_million_output);
  const json out = bench::results::to_json(measured(), RunContext{});
  EXPECT_TRUE(out[key::output_throughput_per_gpu].is_null());
  EXPECT_TRUE(out[key::total_throughput_per_gpu].is_null());
  EXPECT_TRUE(out[key::usd_per_million_output_tokens].is_null());
}

TEST(Efficiency, AnUnknownInputCountLeavesInputAndTotalPerGpuUnknown) {
  RunSummary s = measured();
  s.input_tokens_unknown = 3;
  const auto e = efficiency(s, on_gpus(8, 2.0));
  EXPECT_DOUBLE_EQ(*e.output_per_gpu, 622.0 / 8);
  EXPECT_FALSE(e.input_per_gpu);
  EXPECT_FALSE(e.total_per_gpu);
  EXPECT_FALSE(e.usd_per_million_input);
  EXPECT_FALSE(e.usd_per_million_total);
  EXPECT_TRUE(e.usd_per_million_output);
}

TEST(Efficiency, PerUserIsTheRunsPercentilesOfEachRequestsRate) {
  const auto e = efficiency(measured(), RunContext{});
  EXPECT_DOUBLE_EQ(*e.median_output_per_user, 50);
  EXPECT_DOUBLE_EQ(*e.p10_output_per_user, 25);
  const json out = bench::results::to_json(measured(), RunContext{});
  EXPECT_DOUBLE_EQ(out[key::median_output_throughput_per_user].get<double>(), 50);
  EXPECT_DOUBLE_EQ(out[key::p10_output_throughput_per_user].get<double>(), 25);
}

TEST(Efficiency, PerUserIsUnknownWithoutATpot) {
  RunSummary s = measured();
  s.tpot_ms = {};
  s.median_output_per_user = s.p10_output_per_user = std::nullopt;
  const auto e = efficiency(s, RunContext{});
  EXPECT_FALSE(e.median_output_per_user);
  EXPECT_TRUE(
      bench::results::to_json(s, RunContext{})[key::p10_output_throughput_per_user].is_null());
}

// 8 GPUs at 2.50 USD an hour cost 20 USD an hour; at 622 output tok/s an hour makes 2,239,200
// output tokens: 8.93 USD per million. Each kind is charged the whole time.
TEST(Efficiency, CostChargesTheGpusTimeToEachKind) {
  const auto e = efficiency(measured(), on_gpus(8, 2.5));
  const double usd_per_s = 8 * 2.5 / 3600;
  EXPECT_NEAR(*e.usd_per_million_output, 20.0 / (622.0 * 3600) * 1e6, 1e-9);
  EXPECT_DOUBLE_EQ(*e.usd_per_million_output, usd_per_s / 622 * 1e6);
  EXPECT_DOUBLE_EQ(*e.usd_per_million_input, usd_per_s / 1245 * 1e6);
  EXPECT_DOUBLE_EQ(*e.usd_per_million_total, usd_per_s / 1867 * 1e6);
  const json out = bench::results::to_json(measured(), on_gpus(8, 2.5));
  EXPECT_DOUBLE_EQ(out[key::usd_per_million_output_tokens].get<double>(), usd_per_s / 622 * 1e6);
}

TEST(Efficiency, NoOutputMeansNoCostPerOutputTokenRatherThanZero) {
  RunSummary s = measured();
  s.output_throughput = 0;
  const auto e = efficiency(s, on_gpus(8, 2.5));
  EXPECT_FALSE(e.usd_per_million_output);
  EXPECT_DOUBLE_EQ(*e.output_per_gpu, 0.0);  // a measured 0, not an unknown
}

TEST(Efficiency, TheResultsWriteEachKindUnderItsOwnKey) {
  const json out = bench::results::to_json(measured(), on_gpus(8, 2.5));
  EXPECT_DOUBLE_EQ(out[key::output_throughput_per_gpu].get<double>(), 622.0 / 8);
  EXPECT_DOUBLE_EQ(out[key::input_throughput_per_gpu].get<double>(), 1245.0 / 8);
  EXPECT_DOUBLE_EQ(out[key::total_throughput_per_gpu].get<double>(), 1867.0 / 8);
  EXPECT_DOUBLE_EQ(out[key::median_output_throughput_per_user].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(out[key::p10_output_throughput_per_user].get<double>(), 25.0);
  const json definitions = bench::results::metric_definitions();
  EXPECT_TRUE(definitions.contains("throughput_per_gpu"));
  EXPECT_TRUE(definitions.contains("output_throughput_per_user"));
  EXPECT_TRUE(definitions.contains("usd_per_million_tokens"));
}

TEST(Efficiency, EnergyPerTokenIsTheWindowsJoulesOverEachKindsTokens) {
  RunSummary s = measured();
  s.total_output_tokens = 6220;
  s.total_input_tokens = 12450;
  const auto e = efficiency(s, bench::testing::context_with_energy(1866.0));
  EXPECT_DOUBLE_EQ(*e.gpu_energy_joules, 1866.0);
  EXPECT_DOUBLE_EQ(*e.joules_per_output_token, 1866.0 / 6220);
  EXPECT_DOUBLE_EQ(*e.joules_per_total_token, 1866.0 / (6220 + 12450));
}

TEST(Efficiency, NoCounterOrWarmUpInTheWindowLeavesEnergyPerTokenUnknown) {
  RunSummary s = measured();
  s.total_output_tokens = 6220;
  const auto none = efficiency(s, bench::testing::context_with_energy(std::nullopt));
  EXPECT_FALSE(none.gpu_energy_joules);
  EXPECT_FALSE(none.joules_per_output_token);
  const json out = bench::results::to_json(s, bench::testing::context_with_energy(std::nullopt));
  EXPECT_TRUE(out[key::joules_per_output_token].is_null());
  const auto warm = efficiency(s, bench::testing::context_with_energy(100.0, 5));
  EXPECT_DOUBLE_EQ(*warm.gpu_energy_joules, 100.0);
  EXPECT_FALSE(warm.joules_per_output_token);  // the warm-up's tokens' energy is in it
  EXPECT_FALSE(efficiency(s, RunContext{}).gpu_energy_joules);
}

}  // namespace
