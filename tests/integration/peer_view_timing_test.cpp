// `bench report --as vllm` on replays of two wire recordings: where a server writes the role-only
// chunk early (the OpenAI recording: 1 ms, the first token at 40 ms) vLLM's client times the
// role chunk, and where it writes it with the first token (vLLM's own server) the two agree.
// The bounds leave the replay's timer tens of ms of lateness.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "serve_sim_process.hpp"

namespace peer_view_timing_test {

using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

struct Ttfts {
  double vllm = 0, bench = 0;
};

// The mean TTFT of vLLM's rules and bench's own on a replay of the recording `name`.
Ttfts ttfts_on_replay(const std::string& name, const std::string& model) {
  TempDir temp;
  ServeSimProcess replay(BENCH_BINARY,
                         {"--replay", std::string(BENCH_TEST_DATA_DIR) + "/wire/" + name}, temp);
  const std::string results = temp.file("results.json");
  const std::string requests = temp.file("requests.jsonl");
  const auto run = run_process(BENCH_BINARY, {"--base-url",        replay.base_url(),
                                              "--model",           model,
                                              "--concurrency",     "1",
                                              "--num-prompts",     "4",
                                              "--input-len",       "4",
                                              "--output-len",      "16",
                                              "--warmup-requests", "0",
                                              "--no-answer-check", "--quiet",
                                              "--output-file",     results,
                                              "--save-requests",   requests});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const auto report = run_process(BENCH_BINARY, {"report", results, "--as", "vllm", "--requests",
                                                 requests, "--output-format", "json"});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  Ttfts ttfts;
  const json views = json::parse(report.out);
  for (const json& figure : views["tools"][0]["figures"]) {
    if (figure["key"] != "mean_ttft_ms") continue;
    ttfts.vllm = figure["value"].get<double>();
    ttfts.bench = figure["bench_value"].get<double>();
  }
  EXPECT_GT(ttfts.bench, 0) << report.out;
  return ttfts;
}

TEST(PeerViewTiming, VllmsClientTimesAnEarlyRoleChunkAndNotOneSentWithTheFirstToken) {
  const Ttfts early = ttfts_on_replay("openai-chat-usage-cached", "gpt-4o-mini");
  EXPECT_LT(early.vllm, 20.0);
  EXPECT_GT(early.bench, 39.0);
  EXPECT_GT(early.bench - early.vllm, 20.0);
  const Ttfts with_token =
      ttfts_on_replay("vllm-chat-cached-idle-close", "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_GT(with_token.bench, 39.0);
  EXPECT_NEAR(with_token.vllm, with_token.bench, 1.0);
}

}  // namespace peer_view_timing_test
