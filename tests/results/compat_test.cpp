// --json-compat: the itl keys carry the peers' meaning (per-chunk gaps), under their names.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/results/compat.hpp"

namespace {

using bench::results::Compat;
using bench::results::compat_view;
using nlohmann::json;

// Chunks of two tokens: a chunk gap of 20 ms is 10 ms per token.
json run() {
  return {{"kind", "run"},           {"mean_itl_ms", 10.0}, {"p99_itl_ms", 12.0},
          {"mean_icl_ms", 20.0},     {"p99_icl_ms", 24.0},  {"mean_e2e_latency_ms", 300.0},
          {"total_throughput", 9.0}, {"goodput", nullptr},  {"output_throughput", 3.0}};
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

// issue 28: a compat file read back by bench's definitions: per-token ITL in its place again, the
// peers' extra names gone; the same object that was viewed.
TEST(NativeView, TakesEitherViewOffAgain) {
  for (const Compat compat : {Compat::sglang, Compat::vllm}) {
    auto native = bench::results::native_view(compat_view(run(), compat), "n2.json");
    ASSERT_TRUE(std::holds_alternative<json>(native));
    EXPECT_EQ(std::get<json>(native), run());
  }
  const json sweep = {{"kind", "sweep"}, {"points", json::array({run(), run()})}};
  auto native = bench::results::native_view(compat_view(sweep, Compat::vllm), "sweep.json");
  ASSERT_TRUE(std::holds_alternative<json>(native));
  EXPECT_EQ(std::get<json>(native), sweep);
}

TEST(NativeView, LeavesBenchsOwnKeysAlone) {
  auto native = bench::results::native_view(run(), "n1.json");
  ASSERT_TRUE(std::holds_alternative<json>(native));
  EXPECT_EQ(std::get<json>(native), run());
}

TEST(NativeView, RefusesAViewItDoesNotKnowNamingWhy) {
  json odd = run();
  odd["json_compat"] = "aiperf";
  auto native = bench::results::native_view(odd, "odd.json");
  ASSERT_TRUE(std::holds_alternative<bench::results::FormatError>(native));
  EXPECT_EQ(std::get<bench::results::FormatError>(native).message,
            "odd.json: \"json_compat\": \"aiperf\" is no view this bench writes (vllm, sglang): "
            "its keys cannot be read by bench's definitions");
}

// One table of the peers' names: what the vllm view writes is what gates and compare accept.
TEST(KeyAliases, EveryNameTheVllmViewAddsIsAnAliasOfTheKeyItCopies) {
  const json view = compat_view(run(), Compat::vllm);
  for (const auto& [name, value] : view.items()) {
    if (run().contains(name) || name == "json_compat" || name.ends_with("_itl_per_token_ms")) {
      continue;
    }
    const std::optional<std::string> key = bench::results::aliased_key(name);
    ASSERT_TRUE(key.has_value()) << name;
    EXPECT_EQ(value, run()[*key]) << name;
  }
  EXPECT_EQ(bench::results::aliased_key("p99_e2el_ms"), "p99_e2e_latency_ms");
  EXPECT_FALSE(bench::results::aliased_key("output_throughput").has_value());
}

}  // namespace
