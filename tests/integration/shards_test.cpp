// Shards through the real binary: 4 processes (--shard I/4, one --start-at) against one
// simulated server, merged by `bench merge`, hold exactly the requests, prompts, counts and
// token sums of one process running the same seeded workload (closed loop, Poisson open loop,
// a sweep), with the percentiles of the shards' own requests; multi-turn shards each hold whole
// sessions and merge to the one process's figures by turn; and the one-line refusals of bad shards,
// bad start times and files that cannot be merged (exit 2, no output written).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

using bench::cli::kExitUsage;
constexpr int kShards = 4;
// Time enough for four processes to start and connect on a loaded CI machine; a --start-at
// already passed is refused (exit 2).
constexpr double kStartAheadS = 2.0;

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

std::vector<json> read_lines(const std::string& path) {
  std::vector<json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  return lines;
}

// Unix seconds `ahead_s` from now, to the millisecond: every shard's --start-at.
std::string start_time(double ahead_s) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const double seconds = std::chrono::duration<double>(now).count() + ahead_s;
  return fmt::format("{:.3f}", seconds);
}

bench::sim::SimOptions fast_sim(const std::string& trace) {
  bench::sim::SimOptions sim;
  sim.ttft_ms = 5;
  sim.tpot_ms = 1;
  sim.trace_path = trace;
  return sim;
}

// The prompts a server saw, as the multiset of their hashes.
std::multiset<std::string> prompts_in(const std::string& trace) {
  std::multiset<std::string> prompts;
  for (const json& line : read_lines(trace)) prompts.insert(line["prompt_hash"].get<std::string>());
  return prompts;
}

// A request of a run: its sweep point's label (null for a single run) and its index.
using RequestKey = std::pair<std::string, std::uint64_t>;
RequestKey key_of(const json& request) {
  return {request.value("point", json()).dump(), request["index"].get<std::uint64_t>()};
}

struct Measured {
  json results;
  std::map<RequestKey, double> intended_ms;  // request -> intended start, ms
  std::multiset<std::string> prompts;
  // Measured requests' latencies from the request logs, by sweep point label: what the
  // merged percentiles must be computed from.
  std::map<std::string, std::vector<double>> ttft_ms;
  std::map<std::string, std::vector<double>> e2e_ms;
};

void add_latencies(Measured& out, const json& request) {
  if (request["warmup"].get<bool>() || request["status"] != "ok") return;
  const std::string point = request.value("point", json()).dump();
  out.ttft_ms[point].push_back(request["ttft_ms"].get<double>());
  out.e2e_ms[point].push_back(request["e2e_ms"].get<double>());
}

// The median as docs/metrics.md defines percentiles (numpy's linear method).
double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const double h = static_cast<double>(values.size() - 1) / 2;
  const auto low = static_cast<std::size_t>(h);
  if (low + 1 >= values.size()) return values[low];
  return values[low] + (h - static_cast<double>(low)) * (values[low + 1] - values[low]);
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

Measured single_process(const std::vector<std::string>& workload) {
  TempDir dir;
  ProcessResult run;
  {
    bench::sim::SimServer server(fast_sim(dir.file("trace.jsonl")));
    run = run_process(BENCH_BINARY,
                      bench::testing::without_answer_check(with(
                          {"--base-url", server.base_url(), "--quiet", "--output-file",
                           dir.file("single.json"), "--save-requests", dir.file("requests.jsonl")},
                          workload)));
  }
  EXPECT_EQ(run.exit_code, 0) << run.err;
  Measured out{read_json(dir.file("single.json")), {}, prompts_in(dir.file("trace.jsonl")), {}, {}};
  for (const json& r : read_lines(dir.file("requests.jsonl"))) {
    out.intended_ms[key_of(r)] = r["intended_start_ms"].get<double>();
  }
  return out;
}

// Runs `shards` shard processes at once, started together (unless `together` is false: the
// refusals need shards' files, not their timing); their results files in `dir`.
void run_shards(const std::string& base_url, const std::vector<std::string>& workload,
                const TempDir& dir, int shards, bool together = true) {
  const std::vector<std::string> start =
      together ? std::vector<std::string>{"--start-at", start_time(kStartAheadS)}
               : std::vector<std::string>{};
  std::vector<ProcessResult> runs(static_cast<std::size_t>(shards));
  std::vector<std::thread> threads;
  for (int i = 0; i < shards; ++i) {
    threads.emplace_back([&, i] {
      runs[static_cast<std::size_t>(i)] = run_process(
          BENCH_BINARY,
          bench::testing::without_answer_check(with(
              with({"--base-url", base_url, "--quiet", "--shard", fmt::format("{}/{}", i, shards),
                    "--output-file", dir.file(fmt::format("shard-{}.json", i)), "--save-requests",
                    dir.file(fmt::format("requests-{}.jsonl", i))},
                   start),
              workload)));
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const ProcessResult& run : runs) ASSERT_EQ(run.exit_code, 0) << run.err;
}

std::vector<std::string> shard_files(const TempDir& dir, int shards) {
  std::vector<std::string> files;
  for (int i = 0; i < shards; ++i) files.push_back(dir.file(fmt::format("shard-{}.json", i)));
  return files;
}

Measured sharded(const std::vector<std::string>& workload) {
  TempDir dir;
  {
    bench::sim::SimServer server(fast_sim(dir.file("trace.jsonl")));
    run_shards(server.base_url(), workload, dir, kShards);
  }
  const ProcessResult merge = run_process(
      BENCH_BINARY, with({"merge", "-o", dir.file("merged.json")}, shard_files(dir, kShards)));
  EXPECT_EQ(merge.exit_code, 0) << merge.err;
  EXPECT_NE(merge.out.find("Merged from 4 shards"), std::string::npos) << merge.out;
  Measured out{read_json(dir.file("merged.json")), {}, prompts_in(dir.file("trace.jsonl")), {}, {}};
  for (int i = 0; i < kShards; ++i) {
    for (const json& r : read_lines(dir.file(fmt::format("requests-{}.jsonl", i)))) {
      const RequestKey key = key_of(r);
      EXPECT_EQ(key.second % kShards, static_cast<std::uint64_t>(i)) << "request " << key.second;
      EXPECT_FALSE(out.intended_ms.contains(key)) << "request " << key.second << " sent twice";
      out.intended_ms[key] = r["intended_start_ms"].get<double>();
      add_latencies(out, r);
    }
  }
  return out;
}

// Exact: what was sent and counted. The merged latencies are those of the shards' own
// requests (a wall-clock comparison with the single process would hold the machine's load,
// which is not what a merge decides).
void expect_same_run(const json& one, const json& merged) {
  for (const char* key : {"sent", "completed", "failed", "warmup_requests", "total_input_tokens",
                          "total_output_tokens", "total_text_chunks", "max_concurrency"}) {
    EXPECT_EQ(merged[key], one[key]) << key;
  }
  EXPECT_EQ(merged["request_rate"], one["request_rate"]);
  EXPECT_EQ(merged["workload"], one["workload"]);
  EXPECT_GT(merged["output_throughput"].get<double>(), 0);
  EXPECT_EQ(merged["merged"]["shards"], kShards);
  EXPECT_TRUE(merged["merged"]["start_spread_ms"].is_number());
  EXPECT_FALSE(merged.contains("shard_state"));
  EXPECT_FALSE(merged.contains("shard"));
}

// The merged medians are the medians of every shard's measured requests, as one process would
// have computed them from the same values.
void expect_latencies_of_the_shards(const Measured& sharded, const json& merged,
                                    const std::string& point) {
  ASSERT_TRUE(sharded.ttft_ms.contains(point)) << point;
  EXPECT_NEAR(merged["median_ttft_ms"].get<double>(), median_of(sharded.ttft_ms.at(point)), 0.01)
      << point;
  EXPECT_NEAR(merged["median_e2e_latency_ms"].get<double>(), median_of(sharded.e2e_ms.at(point)),
              0.01)
      << point;
}

TEST(Shards, ClosedLoopShardsMergeToTheSingleProcessRun) {
  const std::vector<std::string> workload = {"--num-prompts", "24", "--warmup-requests", "4",
                                             "--concurrency", "4",  "--output-len",      "8",
                                             "--seed",        "7",  "--per-chunk-usage", "off"};
  const Measured one = single_process(workload);
  const Measured merged = sharded(workload);
  expect_same_run(one.results, merged.results);
  expect_latencies_of_the_shards(merged, merged.results, "null");
  EXPECT_EQ(merged.prompts, one.prompts);  // the same prompts, each sent once
  std::set<RequestKey> one_requests, merged_requests;
  for (const auto& [key, ms] : one.intended_ms) one_requests.insert(key);
  for (const auto& [key, ms] : merged.intended_ms) merged_requests.insert(key);
  EXPECT_EQ(merged_requests, one_requests);
}

TEST(Shards, PoissonOpenLoopShardsSendEveryNthArrivalOfTheOneSchedule) {
  const std::vector<std::string> workload = {"--num-prompts",     "32", "--request-rate", "160",
                                             "--output-len",      "6",  "--seed",         "11",
                                             "--per-chunk-usage", "off"};
  const Measured one = single_process(workload);
  const Measured merged = sharded(workload);
  expect_same_run(one.results, merged.results);
  expect_latencies_of_the_shards(merged, merged.results, "null");
  EXPECT_EQ(merged.prompts, one.prompts);
  // The union of the shards' arrivals is the single process's schedule, to the microsecond.
  ASSERT_EQ(merged.intended_ms.size(), one.intended_ms.size());
  for (const auto& [key, ms] : one.intended_ms) {
    EXPECT_NEAR(merged.intended_ms.at(key), ms, 0.002) << "request " << key.second;
  }
}

TEST(Shards, SweepMergesPointByPoint) {
  const std::vector<std::string> workload = {"--num-prompts",     "8",  "--concurrency", "4,8",
                                             "--output-len",      "4",  "--seed",        "3",
                                             "--per-chunk-usage", "off"};
  const Measured one = single_process(workload);
  const Measured merged = sharded(workload);
  ASSERT_EQ(merged.results["kind"], "sweep");
  ASSERT_EQ(merged.results["points"].size(), 2u);
  for (std::size_t p = 0; p < 2; ++p) {
    expect_same_run(one.results["points"][p], merged.results["points"][p]);
  }
  EXPECT_EQ(merged.prompts, one.prompts);
  EXPECT_EQ(merged.intended_ms.size(), one.intended_ms.size());
}

TEST(Shards, MultiTurnShardsHoldWholeSessionsAndMergeToTheSingleProcessFigures) {
  const std::vector<std::string> workload = {"--multi-turn",
                                             "--turns",
                                             "3",
                                             "--num-prompts",
                                             "6",
                                             "--concurrency",
                                             "2",
                                             "--input-len",
                                             "16",
                                             "--output-len",
                                             "4",
                                             "--seed",
                                             "7",
                                             "--per-chunk-usage",
                                             "off"};
  const json one = single_process(workload).results["multi_turn"];
  TempDir dir;
  {
    bench::sim::SimServer server(fast_sim(""));
    run_shards(server.base_url(), workload, dir, 2);
  }
  for (const std::string& file : shard_files(dir, 2)) {
    EXPECT_TRUE(read_json(file)["multi_turn"].contains("shard_state")) << file;
  }
  const ProcessResult merge = run_process(
      BENCH_BINARY, with({"merge", "-o", dir.file("merged.json")}, shard_files(dir, 2)));
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  EXPECT_NE(merge.out.find("Multi-turn (by turn)"), std::string::npos) << merge.out;
  const json merged = read_json(dir.file("merged.json"))["multi_turn"];
  EXPECT_EQ(merged["sessions_started"], 6);
  EXPECT_EQ(merged["sessions_completed"], 6);
  EXPECT_EQ(merged["turns_completed"], 18);
  EXPECT_FALSE(merged.contains("shard_state"));
  ASSERT_EQ(merged["by_turn"].size(), 3u);
  ASSERT_EQ(one["by_turn"].size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(merged["by_turn"][k]["requests"], one["by_turn"][k]["requests"]) << "turn " << k;
    EXPECT_EQ(merged["by_turn"][k]["requests"], 6) << "turn " << k;
  }
  // Every turn of a session from one shard: sessions are dealt whole, none twice or left out.
  std::map<std::int64_t, std::set<int>> shards_of_session;
  std::map<std::int64_t, int> turns_of_session;
  for (int i = 0; i < 2; ++i) {
    for (const json& r : read_lines(dir.file(fmt::format("requests-{}.jsonl", i)))) {
      const auto session = r["session"].get<std::int64_t>();
      shards_of_session[session].insert(i);
      ++turns_of_session[session];
      EXPECT_EQ(session % 2, i) << "session " << session << " dealt to shard " << i;
    }
  }
  ASSERT_EQ(shards_of_session.size(), 6u);
  for (const auto& [session, shards] : shards_of_session) {
    EXPECT_EQ(shards.size(), 1u) << "session " << session << " spans shards";
    EXPECT_EQ(turns_of_session[session], 3) << "session " << session;
  }
  EXPECT_EQ(shards_of_session.begin()->first, 0);
  EXPECT_EQ(shards_of_session.rbegin()->first, 5);
}

TEST(Shards, MultiTurnSweepMergesEachPointsSessions) {
  const std::vector<std::string> workload = {"--multi-turn",
                                             "--turns",
                                             "2",
                                             "--num-prompts",
                                             "4",
                                             "--concurrency",
                                             "2,4",
                                             "--input-len",
                                             "16",
                                             "--output-len",
                                             "4",
                                             "--seed",
                                             "3",
                                             "--per-chunk-usage",
                                             "off"};
  TempDir dir;
  {
    bench::sim::SimServer server(fast_sim(""));
    run_shards(server.base_url(), workload, dir, 2);
  }
  const ProcessResult merge = run_process(
      BENCH_BINARY, with({"merge", "-o", dir.file("merged.json")}, shard_files(dir, 2)));
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  const json merged = read_json(dir.file("merged.json"));
  ASSERT_EQ(merged["points"].size(), 2u);
  for (const json& point : merged["points"]) {
    EXPECT_EQ(point["multi_turn"]["sessions_completed"], 4);
    EXPECT_EQ(point["multi_turn"]["turns_completed"], 8);
    EXPECT_EQ(point["multi_turn"]["by_turn"][1]["requests"], 4);
  }
}

class ShardMergeRefusal : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    bench::sim::SimServer server(fast_sim(""));
    run_shards(server.base_url(),
               {"--num-prompts", "4", "--concurrency", "2", "--output-len", "2", "--seed", "5"},
               *dir_, 2, false);
  }
  static void TearDownTestSuite() { delete dir_; }

  // Merges `files`: exit 2, one line naming what is wrong, and no output file.
  static std::string refusal(const std::vector<std::string>& files) {
    const std::string output = dir_->file("merged.json");
    const ProcessResult merge = run_process(BENCH_BINARY, with({"merge", "-o", output}, files));
    EXPECT_EQ(merge.exit_code, kExitUsage) << merge.err;
    EXPECT_EQ(std::count(merge.err.begin(), merge.err.end(), '\n'), 1) << merge.err;
    EXPECT_TRUE(merge.out.empty()) << merge.out;
    EXPECT_FALSE(std::ifstream(output).good());
    return merge.err;
  }
  // A copy of shard 1 with `edit` applied.
  static std::string edited_shard(const std::string& name, void (*edit)(json&)) {
    json shard = read_json(dir_->file("shard-1.json"));
    edit(shard);
    std::ofstream(dir_->file(name)) << shard.dump();
    return dir_->file(name);
  }

  static TempDir* dir_;
};
TempDir* ShardMergeRefusal::dir_ = nullptr;

TEST_F(ShardMergeRefusal, AMissingShard) {
  EXPECT_NE(refusal({dir_->file("shard-0.json")}).find("shard 1/2 is missing"), std::string::npos);
}

TEST_F(ShardMergeRefusal, AShardGivenTwice) {
  const std::string err = refusal({dir_->file("shard-0.json"), dir_->file("shard-0.json")});
  EXPECT_NE(err.find("shard 0/2 again"), std::string::npos) << err;
}

TEST_F(ShardMergeRefusal, AnotherConfigurationOrWorkload) {
  const std::string config =
      edited_shard("config.json", [](json& s) { s["config"]["output_len"] = 9; });
  std::string err = refusal({dir_->file("shard-0.json"), config});
  EXPECT_NE(err.find("config.json: another configuration"), std::string::npos) << err;
  EXPECT_NE(err.find("config.output_len: 9 vs 2"), std::string::npos) << err;
  const std::string seed = edited_shard("seed.json", [](json& s) { s["workload"]["seed"] = 6; });
  err = refusal({dir_->file("shard-0.json"), seed});
  EXPECT_NE(err.find("seed.json: another workload"), std::string::npos) << err;
}

TEST_F(ShardMergeRefusal, ATruncatedFileOrShardState) {
  const std::string text = bench::testing::read_file(dir_->file("shard-1.json"));
  std::ofstream(dir_->file("cut.json")) << text.substr(0, text.size() / 2);
  std::string err = refusal({dir_->file("shard-0.json"), dir_->file("cut.json")});
  EXPECT_NE(err.find("cut.json: not JSON"), std::string::npos) << err;
  const std::string state =
      edited_shard("state.json", [](json& s) { s["shard_state"].erase("timeline"); });
  err = refusal({dir_->file("shard-0.json"), state});
  EXPECT_NE(err.find("state.json: unreadable \"shard_state\""), std::string::npos) << err;
}

TEST_F(ShardMergeRefusal, AFileThatIsNoShard) {
  const std::string plain = edited_shard("plain.json", [](json& s) { s.erase("shard"); });
  const std::string err = refusal({dir_->file("shard-0.json"), plain});
  EXPECT_NE(err.find("plain.json: not a shard's results"), std::string::npos) << err;
}

// A multi-turn shard and a plain one of otherwise the same flags: the workload fingerprint
// holds the multi-turn options, so that is what refuses them; a file whose "multi_turn" was
// taken out (same workload, same configuration) is refused by the merge of multi-turn figures.
TEST_F(ShardMergeRefusal, AMultiTurnShardWithOneThatIsNot) {
  TempDir multi_turn;
  {
    bench::sim::SimServer server(fast_sim(""));
    run_shards(server.base_url(),
               {"--num-prompts", "4", "--concurrency", "2", "--output-len", "2", "--seed", "5",
                "--multi-turn", "--turns", "2"},
               multi_turn, 2, false);
  }
  std::string err = refusal({dir_->file("shard-0.json"), multi_turn.file("shard-1.json")});
  EXPECT_NE(err.find("shard-1.json: another workload"), std::string::npos) << err;
  json plain = read_json(multi_turn.file("shard-1.json"));
  plain.erase("multi_turn");
  std::ofstream(multi_turn.file("plain.json")) << plain.dump();
  err = refusal({multi_turn.file("shard-0.json"), multi_turn.file("plain.json")});
  EXPECT_NE(err.find("plain.json: not a multi-turn run (\"multi_turn\"), but "), std::string::npos)
      << err;
}

// A --prefix-share sweep over shards: each shard primes each point's system prompt (the same
// prompt: one seed), and the merged points keep their asked share beside the cached share of all
// the shards' requests, primed, without a warning that the cache flattered them.
TEST(Shards, APrefixShareSweepMergesWithItsSharesAndNoFalseCacheWarning) {
  const TempDir dir;
  bench::sim::SimOptions sim;
  sim.prefix_cache = true;
  sim.time_scale = 100;
  {
    const bench::sim::SimServer server(sim);
    run_shards(server.base_url(),
               {"--prefix-share", "0,0.5", "--concurrency", "4", "--num-prompts", "16",
                "--input-len", "64", "--output-len", "4", "--ignore-eos", "--seed", "9"},
               dir, 2);
  }
  const ProcessResult merge = run_process(
      BENCH_BINARY, with({"merge", "-o", dir.file("merged.json")}, shard_files(dir, 2)));
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  const json merged = read_json(dir.file("merged.json"));
  EXPECT_EQ(merged["sweep"]["variable"], "prefix_share");
  ASSERT_EQ(merged["points"].size(), 2u);
  const json& none = merged["points"][0];
  const json& half = merged["points"][1];
  EXPECT_EQ(none["prefix_share"], 0.0);
  EXPECT_EQ(none["cached_input_share"], 0.0);
  EXPECT_FALSE(none.contains("prefix_primed"));
  EXPECT_EQ(half["prefix_share"], 0.5);
  EXPECT_EQ(half["prefix_primed"], true);
  EXPECT_EQ(half["completed"], 16);
  // 32 of each prompt's 64 tokens: two whole blocks of the shared system prompt, every request.
  EXPECT_EQ(half["cached_input_share"], 0.5);
  EXPECT_EQ(half["warnings"], json::array()) << half["warnings"];
  EXPECT_EQ(none["warnings"], json::array()) << none["warnings"];
}

TEST(Shards, RefusesABadShardOrStartTimeInOneLine) {
  const std::vector<std::string> server = {"--base-url", "http://127.0.0.1:9", "--seed",
                                           "1",          "--num-prompts",      "4"};
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--shard", "5/4"}, "--shard 5/4: the shard index must be 0..3"},
      {{"--start-at", "2020-01-01T00:00:00Z"},
       "--start-at 2020-01-01T00:00:00Z: that time has passed"},
      {{"--shard", "1/4", "--concurrency", "2"}, "--concurrency 2 is below the 4 shards"},
  };
  for (const auto& [flags, expected] : cases) {
    const ProcessResult run =
        run_process(BENCH_BINARY, bench::testing::without_answer_check(with(server, flags)));
    EXPECT_EQ(run.exit_code, kExitUsage) << run.err;
    EXPECT_NE(run.err.find(expected), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
  const ProcessResult unseeded = run_process(
      BENCH_BINARY, {"--base-url", "http://127.0.0.1:9", "--shard", "0/2", "--num-prompts", "4"});
  EXPECT_EQ(unseeded.exit_code, kExitUsage);
  EXPECT_NE(unseeded.err.find("give all of them the same --seed"), std::string::npos)
      << unseeded.err;
}

}  // namespace
