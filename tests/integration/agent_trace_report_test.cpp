// What a replayed agent trace reports (issue 46, section 4), through the real binary against the
// embedded server with its prefix cache: the cache ceiling the trace's blocks allow, beside what
// the server served (the ceiling is the sum the trace's hash ids imply; the simulator serves all
// of it when the trace's blocks are whole blocks of its own 16 tokens, as the real traces' 64
// are, and each request's rounded down to them otherwise), the trees and their subagents, the
// requests by agent, AgentX's validity, and InferenceX's view of a concurrency sweep. A run that
// is no agent trace reports none of it.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace agent_trace_report_test {

using bench::testing::TempDir;
using nlohmann::json;

constexpr std::int64_t kSimBlockTokens = 16;  // the simulator's cache block (vLLM's default)

const std::string kTree = std::string(BENCH_TEST_DATA_DIR) + "/traces/weka_tree.json";
const std::string kTrace0291 = std::string(BENCH_TEST_DATA_DIR) + "/traces/weka/trace_0291.json";

// What a trace's hash ids say of one replay of it: its requests (the root's and those of every
// subagent after the root's first request: one before it has no parent and is dropped), its
// subagents, and the prompt tokens of whole blocks whose chain of ids an earlier request sent:
// the prefix-cache ceiling. Summed in any order it is the same: every block either extends a
// chain sent before or starts a new one.
struct TraceSums {
  std::int64_t requests = 0;
  std::int64_t root_requests = 0;
  std::int64_t subagents = 0;
  std::int64_t ceiling_tokens = 0;
  std::int64_t block_size = 0;
};

TraceSums sums_of(const std::string& path) {
  const json trace = json::parse(std::ifstream(path));
  const std::int64_t block_size = trace.at("block_size").get<std::int64_t>();
  std::vector<const json*> sent;
  TraceSums sums;
  sums.block_size = block_size;
  bool root_started = false;
  for (const json& request : trace.at("requests")) {
    if (request.at("type") != "subagent") {
      root_started = true;
      sent.push_back(&request);
      ++sums.root_requests;
    } else if (root_started) {
      ++sums.subagents;
      for (const json& inner : request.at("requests")) sent.push_back(&inner);
    }
  }
  std::set<std::vector<std::int64_t>> chains;
  for (const json* request : sent) {
    std::vector<std::int64_t> chain;
    bool matching = true;
    for (const json& id : request->at("hash_ids")) {
      chain.push_back(id.get<std::int64_t>());
      if (matching && chains.contains(chain)) {
        sums.ceiling_tokens += block_size;
      } else {
        matching = false;
        chains.insert(chain);
      }
    }
  }
  sums.requests = static_cast<std::int64_t>(sent.size());
  return sums;
}

struct TraceRun {
  bench::testing::ProcessResult process;
  json results;
  std::vector<json> requests;  // --save-requests
};

// One replay of `path` at a time, each trace whole, sped up 1000x on a fast simulator with its
// prefix cache.
std::vector<std::string> replay_args(const std::string& path, const std::string& concurrency) {
  return {"--dataset",      "trace",     "--trace-format",     "weka",
          "--dataset-path", path,        "--trace-speed",      "1000",
          "--concurrency",  concurrency, "--sim-prefix-cache", "on",
          "--sim-ttft-ms",  "5",         "--sim-tpot-ms",      "0.2",
          "--seed",         "3",         "--trace-start",      "beginning"};
}

TraceRun replay(const std::string& path, const TempDir& dir) {
  const std::string requests = dir.file("requests.jsonl");
  std::vector<std::string> args = replay_args(path, "1");
  args.insert(args.end(), {"--save-requests", requests, "--output-format", "json"});
  TraceRun run;
  run.process =
      bench::testing::run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  if (run.process.exit_code != 0) return run;
  run.results = json::parse(run.process.out);
  run.requests = bench::testing::read_jsonl(requests);
  return run;
}

void expect_ceiling_implied_and_served(const std::string& path) {
  SCOPED_TRACE(path);
  const TraceSums sums = sums_of(path);
  const TempDir dir;
  const TraceRun run = replay(path, dir);
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  ASSERT_TRUE(run.results.contains("agent_trace")) << run.process.out;
  const json& agent = run.results["agent_trace"];
  EXPECT_EQ(run.results["completed"], sums.requests);
  const json& ceiling = agent["cache_ceiling"];
  EXPECT_EQ(ceiling["requests"], sums.requests);
  EXPECT_EQ(ceiling["disclosing_requests"], sums.requests);
  EXPECT_EQ(ceiling["ceiling_tokens"], sums.ceiling_tokens);
  EXPECT_EQ(ceiling["prompt_tokens"], run.results["total_input_tokens"]);
  // The simulator's cache serves whole blocks of its own: of a trace with blocks of that size
  // (trace_0291's 64) all the ceiling; of one with smaller blocks (the made-up tree's 8) each
  // request's ceiling rounded down to them, and the gap says so.
  ASSERT_EQ(run.requests.size(), static_cast<std::size_t>(sums.requests));
  std::int64_t served = 0;
  for (const json& request : run.requests) {
    const std::int64_t request_ceiling = request["cache_ceiling_tokens"].get<std::int64_t>();
    const std::int64_t whole_blocks = request_ceiling / kSimBlockTokens * kSimBlockTokens;
    EXPECT_EQ(request["cached_prompt_tokens"], whole_blocks) << request.dump();
    served += whole_blocks;
  }
  EXPECT_EQ(ceiling["cached_tokens"], served);
  EXPECT_EQ(ceiling["gap_tokens"], sums.ceiling_tokens - served);
  if (sums.block_size % kSimBlockTokens == 0) {
    EXPECT_EQ(served, sums.ceiling_tokens);
  }
  // One tree, completed, and every subagent of it.
  EXPECT_EQ(agent["trees"]["count"], 1);
  EXPECT_EQ(agent["trees"]["mean_turns"], sums.requests);
  EXPECT_GT(agent["trees"]["mean_output_throughput"].get<double>(), 0);
  EXPECT_GT(agent["trees"]["mean_input_throughput"].get<double>(), 0);
  EXPECT_EQ(agent["subagents"]["count"], sums.subagents);
  EXPECT_GT(agent["subagents"]["max_duration_ms"].get<double>(), 0);
  EXPECT_GE(agent["subagents"]["min_turns"].get<double>(), 1);
  EXPECT_GT(agent["subagents"]["median_output_throughput"].get<double>(), 0);
  EXPECT_EQ(agent["root_requests"]["requests"], sums.root_requests);
  EXPECT_EQ(agent["subagent_requests"]["requests"], sums.requests - sums.root_requests);
  EXPECT_EQ(agent["root_requests"]["output_tokens"].get<std::int64_t>() +
                agent["subagent_requests"]["output_tokens"].get<std::int64_t>(),
            run.results["total_output_tokens"].get<std::int64_t>());
  // TTFT and interactivity are timed from a stream: null where the trace sent none ("n" only,
  // as every request of trace_0291), never 0.
  const bool streamed = run.results.value("requests_not_streamed", 0) < sums.requests;
  EXPECT_EQ(agent["root_requests"]["median_ttft_ms"].is_null(), !streamed);
  EXPECT_EQ(agent["valid"], true);
  EXPECT_EQ(agent["context_overflows"], 0);
  EXPECT_EQ(agent["responses"], sums.requests);
  EXPECT_EQ(agent["p90_interactivity"].is_null(), !streamed);
  EXPECT_TRUE(run.results["definitions"].contains("cache_ceiling"));
}

TEST(AgentTraceReport, TheMadeUpTreesCeilingIsWhatItsIdsImplyAndTheServersBlocksRoundItDown) {
  expect_ceiling_implied_and_served(kTree);
}

TEST(AgentTraceReport, TheRealTracesCeilingIsWhatTheServerServedAndWhatItsIdsImply) {
  expect_ceiling_implied_and_served(kTrace0291);
}

TEST(AgentTraceReport, TheTextReportSaysTheCeilingTheTreesAndTheValidity) {
  const bench::testing::ProcessResult text = bench::testing::run_process(
      BENCH_BINARY, bench::testing::without_answer_check(replay_args(kTree, "1")));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  for (const char* line :
       {"Prompt cache ceiling:", "  served by the server:", "-- Agent trace --",
        "Valid (AgentX's rule):            yes: 0 context overflows in 7 responses",
        "Trees completed:                  1", "Subagents (of completed trees):   3",
        "Requests of root agents:          3 sent", "Requests of subagents:            4 sent",
        "  at p90 interactivity:"}) {
    EXPECT_NE(text.out.find(line), std::string::npos) << line << "\n" << text.out;
  }
}

// A request refused as too long for the model's context is counted apart; past 1% of the
// responses the run is not valid by AgentX's rule, and the refusal ends its tree.
TEST(AgentTraceReport, AContextOverflowMakesTheRunInvalid) {
  std::vector<std::string> args = replay_args(kTrace0291, "1");
  args.insert(args.end(), {"--sim-max-model-len", "60000", "--output-format", "json"});
  const bench::testing::ProcessResult run =
      bench::testing::run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  ASSERT_FALSE(run.out.empty()) << run.err;
  const json results = json::parse(run.out);
  ASSERT_TRUE(results["errors"].contains("context_overflow")) << results["errors"].dump();
  EXPECT_EQ(results["errors"]["context_overflow"]["count"], 1);
  EXPECT_FALSE(results["errors"].contains("http_4xx"));
  const json& agent = results["agent_trace"];
  EXPECT_EQ(agent["context_overflows"], 1);
  EXPECT_EQ(agent["valid"], false);
  EXPECT_NE(agent["validity"].get<std::string>().find("over AgentX's limit of 1%"),
            std::string::npos)
      << agent["validity"];
  EXPECT_EQ(results["multi_turn"]["sessions_failed"], 1);
  EXPECT_EQ(agent["trees"]["count"], 0);  // the failed tree has no end-to-end figure
}

// InferenceX's view of a sweep: one point a concurrency, the interactivity's ITL named.
TEST(AgentTraceReport, ASweepShowsInferenceXsViewBesideTheFrontier) {
  const TempDir dir;
  const std::string html = dir.file("report.html");
  std::vector<std::string> args = replay_args(kTree, "1,2");
  args.insert(args.end(), {"--gpus", "2", "--html", html});
  const bench::testing::ProcessResult sweep =
      bench::testing::run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const std::size_t view = sweep.out.find("InferenceX view (agent trace)");
  ASSERT_NE(view, std::string::npos) << sweep.out;
  EXPECT_LT(sweep.out.find("Efficiency frontier"), view);
  EXPECT_NE(sweep.out.find("1 / p90 TPOT: per token", view), std::string::npos) << sweep.out;
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("InferenceX view: total tok/s per GPU vs p90 interactivity"),
            std::string::npos);
  EXPECT_NE(page.find("1 / p90 TPOT, per token"), std::string::npos);
}

// The same flags without an agent trace: no section, no line, no key of it.
TEST(AgentTraceReport, OtherRunsReportNoneOfIt) {
  const std::vector<std::string> args = {"--num-prompts",      "4", "--concurrency", "2",
                                         "--sim-ttft-ms",      "5", "--sim-tpot-ms", "0.2",
                                         "--sim-prefix-cache", "on"};
  const bench::testing::ProcessResult text =
      bench::testing::run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find("Agent trace"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("ceiling"), std::string::npos) << text.out;
  std::vector<std::string> json_args = args;
  json_args.insert(json_args.end(), {"--output-format", "json"});
  const bench::testing::ProcessResult run =
      bench::testing::run_process(BENCH_BINARY, bench::testing::without_answer_check(json_args));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_FALSE(results.contains("agent_trace"));
  EXPECT_FALSE(results["definitions"].contains("cache_ceiling"));
}

}  // namespace agent_trace_report_test
