// Several servers (--base-url repeated) through the real binary: two simulated servers on
// loopback, requests spread 3:1 by --server-weights. Each server's own truth log holds exactly
// the requests "per_server" attributes to it, the split follows the weights exactly, the
// servers' counts and token sums add up to the run's; and a second server that refuses every
// connection has its failures classified and attributed to it alone; shards of such a run
// merge into the per-server figures of one process.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "hostile_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ClosedPort;
using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

bench::sim::SimOptions traced_sim(const std::string& trace) {
  bench::sim::SimOptions sim;
  sim.ttft_ms = 2;
  sim.tpot_ms = 1;
  sim.trace_path = trace;
  return sim;
}

std::size_t lines_in(const std::string& path) {
  std::ifstream in(path);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) lines += line.empty() ? 0 : 1;
  return lines;
}

// Per-chunk usage off: its probe would be one more request in the first server's log.
std::vector<std::string> run_flags(const std::string& first, const std::string& second) {
  return {"--per-chunk-usage",
          "off",
          "--base-url",
          first,
          "--base-url",
          second,
          "--server-weights",
          "3,1",
          "--num-prompts",
          "40",
          "--warmup-requests",
          "0",
          "--concurrency",
          "4",
          "--input-len",
          "16",
          "--output-len",
          "4",
          "--seed",
          "3",
          "--quiet",
          "--output-format",
          "json"};
}

// bench against two simulated servers whose truth logs are dir's first.jsonl and second.jsonl,
// with run_flags and `more`; the servers are gone (their logs complete) when it returns.
ProcessResult run_on_two_servers(const TempDir& dir, const std::vector<std::string>& more = {}) {
  bench::sim::SimServer first(traced_sim(dir.file("first.jsonl")));
  bench::sim::SimServer second(traced_sim(dir.file("second.jsonl")));
  std::vector<std::string> flags = run_flags(first.base_url(), second.base_url());
  flags.insert(flags.end(), more.begin(), more.end());
  return run_process(BENCH_BINARY, bench::testing::without_answer_check(flags));
}

std::int64_t sum_of(const json& servers, const std::string& key) {
  std::int64_t sum = 0;
  for (const json& server : servers) sum += server[key].get<std::int64_t>();
  return sum;
}

TEST(SeveralServers, RequestsFollowTheWeightsExactlyAndEachServersFiguresAddUpToTheRuns) {
  TempDir dir;
  const ProcessResult run = run_on_two_servers(dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  const json& servers = results["per_server"];
  ASSERT_EQ(servers.size(), 2u);
  EXPECT_EQ(servers[0]["weight"], 3);
  EXPECT_EQ(servers[0]["sent"], 30);  // 40 requests, 3 of every 4 to the first
  EXPECT_EQ(servers[1]["sent"], 10);
  // What each server itself saw (its truth log), not only what bench says it sent.
  EXPECT_EQ(lines_in(dir.file("first.jsonl")), 30u);
  EXPECT_EQ(lines_in(dir.file("second.jsonl")), 10u);
  for (const char* key :
       {"sent", "completed", "failed", "total_output_tokens", "total_input_tokens"}) {
    EXPECT_EQ(sum_of(servers, key), results[key].get<std::int64_t>()) << key;
  }
  EXPECT_NEAR(
      servers[0]["output_throughput"].get<double>() + servers[1]["output_throughput"].get<double>(),
      results["output_throughput"].get<double>(), 1e-6);
  EXPECT_GT(servers[1]["median_ttft_ms"].get<double>(), 0);
}

// The ids in a truth log: the responses that server sent.
std::set<std::string> response_ids_in(const std::string& path) {
  std::set<std::string> ids;
  for (const json& record : read_jsonl(path)) ids.insert(record.at("id").get<std::string>());
  return ids;
}

// The request log says which server each request went to: the one whose truth log holds it.
TEST(SeveralServers, TheRequestLogNamesTheServerThatAnsweredEachRequest) {
  TempDir dir;
  const ProcessResult run =
      run_on_two_servers(dir, {"--save-requests", dir.file("requests.jsonl")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::set<std::string> answered[] = {response_ids_in(dir.file("first.jsonl")),
                                            response_ids_in(dir.file("second.jsonl"))};
  std::size_t requests[2] = {0, 0};
  for (const json& request : read_jsonl(dir.file("requests.jsonl"))) {
    const auto server = request.at("server").get<std::size_t>();
    ASSERT_LT(server, 2u) << request;
    EXPECT_EQ(answered[server].count(request.at("response_id").get<std::string>()), 1u) << request;
    ++requests[server];
  }
  EXPECT_EQ(requests[0], 30u);
  EXPECT_EQ(requests[1], 10u);
}

TEST(SeveralServers, ADeadServersFailuresAreClassifiedAndAttributedToIt) {
  TempDir dir;
  const ClosedPort dead;
  ProcessResult run;
  {
    bench::sim::SimServer alive(traced_sim(dir.file("alive.jsonl")));
    // --ready-timeout 0: the dead server is the case under test, not one to wait for.
    std::vector<std::string> flags = run_flags(alive.base_url(), dead.base_url());
    flags.insert(flags.end(), {"--ready-timeout", "0"});
    run = run_process(BENCH_BINARY, bench::testing::without_answer_check(flags));
  }
  EXPECT_EQ(run.exit_code, 1) << run.err;  // some requests failed
  const json results = json::parse(run.out);
  const json& servers = results["per_server"];
  ASSERT_EQ(servers.size(), 2u);
  EXPECT_EQ(servers[0]["completed"], 30);
  EXPECT_EQ(servers[0]["failed"], 0);
  EXPECT_TRUE(servers[0]["errors"].empty());
  EXPECT_EQ(servers[1]["completed"], 0);
  EXPECT_EQ(servers[1]["failed"], 10);
  EXPECT_EQ(servers[1]["errors"], (json{{"connect_refused", 10}}));
  EXPECT_TRUE(servers[1]["median_ttft_ms"].is_null());  // unknown, never 0
  EXPECT_EQ(results["failed"], 10);
}

TEST(SeveralServers, ShardsMergeIntoEachServersFiguresOfOneProcess) {
  TempDir dir;
  std::vector<ProcessResult> shards;
  ProcessResult merge;
  {
    bench::sim::SimServer first(traced_sim(""));
    bench::sim::SimServer second(traced_sim(""));
    for (const char* shard : {"0/2", "1/2"}) {
      std::vector<std::string> flags = run_flags(first.base_url(), second.base_url());
      const std::string file = dir.file(std::string("shard-") + shard[0] + ".json");
      flags.insert(flags.end(), {"--shard", shard, "--output-file", file});
      shards.push_back(run_process(BENCH_BINARY, bench::testing::without_answer_check(flags)));
    }
  }
  for (const ProcessResult& shard : shards) ASSERT_EQ(shard.exit_code, 0) << shard.err;
  merge = run_process(BENCH_BINARY, {"merge", dir.file("shard-0.json"), dir.file("shard-1.json"),
                                     "--output-format", "json"});
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  const json merged = json::parse(merge.out);
  const json& servers = merged["per_server"];
  ASSERT_EQ(servers.size(), 2u);
  EXPECT_EQ(servers[0]["sent"], 30);  // the spread is by global request index
  EXPECT_EQ(servers[1]["sent"], 10);
  EXPECT_EQ(sum_of(servers, "completed"), merged["completed"].get<std::int64_t>());
  EXPECT_EQ(sum_of(servers, "total_output_tokens"),
            merged["total_output_tokens"].get<std::int64_t>());
  EXPECT_FALSE(servers[0].contains("shard_state"));  // a shard's, not the merged result's
}

}  // namespace
