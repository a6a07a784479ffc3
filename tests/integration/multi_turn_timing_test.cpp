// Multi-turn TTFT by turn against the embedded server made slow to prefill (1 ms per prompt token,
// time-scaled): with its prefix cache each turn prefills only what is new (the last reply and
// the new question), so TTFT stays flat while the history grows; without it every turn prefills
// the whole history and TTFT rises with the turn. Reads modelled latencies: a timing test.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using nlohmann::json;

json by_turn(const std::string& cache) {
  const ProcessResult run = run_process(BENCH_BINARY, {"--multi-turn",
                                                       "--turns",
                                                       "3",
                                                       "--num-prompts",
                                                       "2",
                                                       "--concurrency",
                                                       "2",
                                                       "--input-len",
                                                       "128",
                                                       "--output-len",
                                                       "16",
                                                       "--ignore-eos",
                                                       "--sim-profile",
                                                       "tiny",
                                                       "--sim-prefix-cache",
                                                       cache,
                                                       "--sim-prefill-us-per-token",
                                                       "1000",
                                                       "--sim-time-scale",
                                                       "4",
                                                       "--output-format",
                                                       "json",
                                                       "--quiet"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return json::parse(run.out)["multi_turn"]["by_turn"];
}

double mean_ttft_ms(const json& turns, std::size_t turn) {
  return turns.at(turn)["mean_ttft_ms"].get<double>();
}

TEST(MultiTurnTiming, WithThePrefixCacheTtftStaysFlatWithoutItItRisesWithTheTurn) {
  // Turn 3 sends 128 + 16 + 128 + 16 + 128 = 416 tokens: uncached, about 3.3 x turn 1's prefill.
  const json cached = by_turn("on");
  const json uncached = by_turn("off");
  ASSERT_EQ(cached.size(), 3u);
  ASSERT_EQ(uncached.size(), 3u);
  EXPECT_LT(mean_ttft_ms(cached, 2), 1.5 * mean_ttft_ms(cached, 0)) << cached;
  EXPECT_GT(mean_ttft_ms(uncached, 2), 2.0 * mean_ttft_ms(uncached, 0)) << uncached;
  EXPECT_GT(mean_ttft_ms(uncached, 2), 2.0 * mean_ttft_ms(cached, 2));
}

}  // namespace
