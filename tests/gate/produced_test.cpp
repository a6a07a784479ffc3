// check_produced: a gate on a figure the endpoint cannot produce is one line naming the flag,
// the figure and the endpoint; a figure it produces, or one every run has, passes.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "bench/gate/metric_names.hpp"
#include "bench/metrics/figures.hpp"
#include "bench/results/run_metrics.hpp"

namespace {

using bench::gate::check_produced;
using bench::metrics::Figure;
using bench::metrics::FigureSet;

const FigureSet kPromptOnly{Figure::ttft, Figure::token_gaps, Figure::output_tokens};

TEST(CheckProduced, RefusesAFigureTheEndpointLacks) {
  const std::optional<std::string> refusal =
      check_produced("--fail-over", "p99_ttfa_ms", kPromptOnly, "completions");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(*refusal,
            "--fail-over: 'p99_ttfa_ms' is a figure of reasoning, which --endpoint completions "
            "does not produce");
  EXPECT_TRUE(check_produced("--slo", "total_tool_calls", kPromptOnly, "completions"));
}

TEST(CheckProduced, PassesWhatTheEndpointProducesAndWhatEveryRunHas) {
  EXPECT_EQ(check_produced("--fail-over", "p99_ttft_ms", kPromptOnly, "x"), std::nullopt);
  EXPECT_EQ(check_produced("--fail-over", "p99_itl_ms", kPromptOnly, "x"), std::nullopt);
  EXPECT_EQ(check_produced("--fail-over", "p99_e2e_latency_ms", FigureSet{}, "x"), std::nullopt);
  EXPECT_EQ(check_produced("--fail-under", "request_throughput", FigureSet{}, "x"), std::nullopt);
  // vLLM's name for a figure is judged as bench's key it aliases.
  EXPECT_EQ(check_produced("--fail-over", "p99_e2el_ms", FigureSet{}, "x"), std::nullopt);
}

TEST(FigureOfKey, NamesTheKindOfEachEndpointDependentFigure) {
  EXPECT_EQ(bench::results::figure_of_key("p99_ttft_ms"), Figure::ttft);
  EXPECT_EQ(bench::results::figure_of_key("median_tpot_ms"), Figure::token_gaps);
  EXPECT_EQ(bench::results::figure_of_key("total_reasoning_tokens"), Figure::reasoning);
  EXPECT_EQ(bench::results::figure_of_key("median_ttfa_ms"), Figure::reasoning);
  EXPECT_EQ(bench::results::figure_of_key("total_tool_call_tokens"), Figure::tool_calls);
  EXPECT_EQ(bench::results::figure_of_key("cached_input_share"), Figure::cached_input);
  EXPECT_EQ(bench::results::figure_of_key("output_throughput"), Figure::output_tokens);
  EXPECT_EQ(bench::results::figure_of_key("completed"), std::nullopt);
  EXPECT_EQ(bench::results::figure_of_key("p99_e2e_latency_ms"), std::nullopt);
}

}  // namespace
