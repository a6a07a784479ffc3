// --json-compat: the itl keys carry the peers' meaning (per-chunk gaps), under their names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/results/compat.hpp"

namespace {

using bench::results::Compat;
using bench::results::compat_view;
using nlohmann::json;

// Chunks of two tokens: a chunk gap of 20 ms is 10 ms per token.
json run() {
  return {{"kind", "run"},          {"mean_itl_ms", 10.0},       {"p99_itl_ms", 12.0},
          {"mean_icl_ms", 20.0},    {"p99_icl_ms", 24.0},        {"mean_e2e_latency_ms", 300.0},
          {"total_throughput", 9.0}, {"goodput", nullptr},       {"output_throughput", 3.0}};
}

TEST(CompatView, SglangItlIsTheGapBetweenChunks) {
  const json view = compat_view(run(), Compat::sglang);
  EXPECT_EQ(view["mean_itl_ms"], 20.0);
  EXPECT_EQ(view["p99_itl_ms"], 24.0);
  EXPECT_EQ(view["mean_itl_per_token_ms"], 10.0);
  EXPECT_EQ(view["output_throughput"], 3.0);
  EXPECT_EQ(view["json_compat"], "sglang");
  EXPECT_FALSE(view.contains("mean_e2el_ms"));
}

TEST(CompatView, VllmAlsoGetsItsOwnNames) {
  const json view = compat_view(run(), Compat::vllm);
  EXPECT_EQ(view["mean_itl_ms"], 20.0);
  EXPECT_EQ(view["mean_e2el_ms"], 300.0);
  EXPECT_EQ(view["total_token_throughput"], 9.0);
  EXPECT_TRUE(view["request_goodput"].is_null());
}

TEST(CompatView, AppliesToEveryPointOfASweep) {
  const json sweep = {{"kind", "sweep"}, {"points", json::array({run(), run()})}};
  const json view = compat_view(sweep, Compat::sglang);
  for (const json& point : view["points"]) EXPECT_EQ(point["mean_itl_ms"], 20.0);
}

TEST(CompatView, AppliesToEveryProbeOfASearchAndEveryRepeatOfAPoint) {
  const json repeated = {{"kind", "run"},
                         {"mean_itl_ms", 10.0},
                         {"mean_icl_ms", 20.0},
                         {"repeat_runs", json::array({run(), run()})}};
  const json view = compat_view(repeated, Compat::sglang);
  EXPECT_EQ(view["mean_itl_ms"], 20.0);
  for (const json& repeat : view["repeat_runs"]) EXPECT_EQ(repeat["mean_itl_ms"], 20.0);
  const json search = {{"kind", "search"}, {"points", json::array({run(), repeated})}};
  const json probes = compat_view(search, Compat::vllm);
  EXPECT_EQ(probes["points"][0]["mean_itl_ms"], 20.0);
  EXPECT_EQ(probes["points"][1]["repeat_runs"][1]["mean_e2el_ms"], 300.0);
  EXPECT_EQ(probes["json_compat"], "vllm");
}

TEST(CompatView, ParsesOnlyThePeersNames) {
  EXPECT_EQ(bench::results::parse_compat("vllm"), Compat::vllm);
  EXPECT_EQ(bench::results::parse_compat("sglang"), Compat::sglang);
  EXPECT_FALSE(bench::results::parse_compat("genai-perf"));
}

}  // namespace
