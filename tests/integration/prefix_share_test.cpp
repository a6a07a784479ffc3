// --prefix-share through the real binary against the embedded server's prefix cache (16-token
// blocks; its tokens are words), seen from its truth log: a list sweeps the share, one point a
// share; every request of a point starts with the point's system prompt, which was sent once
// before the point (the priming request, unmeasured), so each request's cached tokens are that
// prompt's whole blocks, exactly; a point asking 0 shares nothing; the results name the sweep's
// variable and put the asked share beside the cached share served.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace prefix_share_test {

using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

constexpr int kRequests = 8;  // a point's measured requests

struct ShareRun {
  ProcessResult process;
  json results;
  std::vector<json> served;  // the truth log, in arrival order
  std::vector<json> sent;    // bench's request lines
};

ShareRun run_shares(const TempDir& dir, const std::vector<std::string>& extra) {
  const std::string trace_path = dir.file("trace.jsonl");
  const std::string requests_path = dir.file("requests.jsonl");
  std::vector<std::string> args = {"--concurrency",
                                   "4",
                                   "--num-prompts",
                                   std::to_string(kRequests),
                                   "--input-len",
                                   "128",
                                   "--output-len",
                                   "4",
                                   "--ignore-eos",
                                   "--seed",
                                   "11",
                                   "--sim-profile",
                                   "tiny",
                                   "--sim-prefix-cache",
                                   "on",
                                   "--sim-trace",
                                   trace_path,
                                   "--save-requests",
                                   requests_path,
                                   "--output-format",
                                   "json",
                                   "--quiet",
                                   "--per-chunk-usage",
                                   "off"};
  args.insert(args.end(), extra.begin(), extra.end());
  ShareRun run;
  run.process = run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  if (run.process.exit_code != 0) return run;
  run.results = json::parse(run.process.out);
  run.served = read_jsonl(trace_path);
  run.sent = read_jsonl(requests_path);
  return run;
}

std::int64_t count(const json& line, const char* key) { return line.at(key).get<std::int64_t>(); }

TEST(PrefixShare, ASweepOfSharesCachesEachPointsSharedSystemPromptAndSaysBothShares) {
  const TempDir dir;
  const ShareRun run = run_shares(dir, {"--prefix-share", "0,0.5,0.875"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const json& sweep = run.results;
  EXPECT_EQ(sweep["sweep"]["variable"], "prefix_share");
  EXPECT_EQ(sweep["sweep"]["values"], (json{0.0, 0.5, 0.875}));
  const double asked[] = {0.0, 0.5, 0.875};
  const std::int64_t prefix_tokens[] = {0, 64, 112};  // 4 and 7 whole blocks
  ASSERT_EQ(sweep["points"].size(), 3u);
  for (std::size_t p = 0; p < 3; ++p) {
    SCOPED_TRACE("point " + std::to_string(p));
    const json& point = sweep["points"][p];
    EXPECT_EQ(point["prefix_share"], asked[p]);
    EXPECT_EQ(point["input_split_disclosure"], "all");
    EXPECT_DOUBLE_EQ(point["cached_input_share"].get<double>(), asked[p]);
    EXPECT_EQ(point["warnings"], json::array());
    EXPECT_EQ(point.contains("prefix_primed"), p > 0);
    if (p > 0) {
      EXPECT_EQ(point["prefix_primed"], true);
    }
  }
  // The server saw each point's requests after its priming request (points 1 and 2 only): one
  // request of max_tokens 1 whose own blocks nothing had cached yet.
  ASSERT_EQ(run.served.size(), static_cast<std::size_t>(3 * kRequests + 2));
  std::size_t line = 0;
  for (std::size_t p = 0; p < 3; ++p) {
    SCOPED_TRACE("point " + std::to_string(p));
    if (p > 0) {
      const json& prime = run.served[line++];
      EXPECT_EQ(count(prime, "completion_tokens"), 1);
      EXPECT_EQ(count(prime, "prompt_tokens"), 128);
      EXPECT_EQ(count(prime, "cached_prompt_tokens"), 0);  // a new system prompt each point
    }
    for (int r = 0; r < kRequests; ++r, ++line) {
      const json& served = run.served[line];
      EXPECT_EQ(count(served, "prompt_tokens"), 128);
      EXPECT_EQ(count(served, "cached_prompt_tokens"), prefix_tokens[p]) << served;
    }
  }
  // bench's request lines hold only the measured requests, their cached counts the server's.
  ASSERT_EQ(run.sent.size(), static_cast<std::size_t>(3 * kRequests));
}

TEST(PrefixShare, AgentSessionsShareTheSystemPromptOnTheirFirstTurnAndKeepItInTheHistory) {
  const TempDir dir;
  const std::string tools = dir.file("tools.json");
  std::ofstream(tools)
      << R"([{"type":"function","function":{"name":"read_file","parameters":{}}}])";
  const ShareRun run =
      run_shares(dir, {"--prefix-share", "0.5", "--multi-turn", "--tools", tools, "--tool-choice",
                       "required", "--tool-result-len", "20", "--turns", "3"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  EXPECT_EQ(run.results["prefix_share"], 0.5);
  EXPECT_EQ(run.results["prefix_primed"], true);
  ASSERT_EQ(run.served.size(), static_cast<std::size_t>(1 + kRequests * 3));
  for (std::size_t k = 1; k < run.served.size(); ++k) {
    const json& served = run.served[k];
    ASSERT_EQ(served["outcome"], "ok") << served;
    // Every turn starts with the shared system prompt's 4 blocks; later turns find more.
    EXPECT_GE(count(served, "cached_prompt_tokens"), 64) << served;
    if (count(served, "prompt_tokens") == 128) {
      EXPECT_EQ(count(served, "cached_prompt_tokens"), 64) << "a first turn: " << served;
    }
  }
}

}  // namespace prefix_share_test
