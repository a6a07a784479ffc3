// merge_shards over hand-built shard objects: clocks that started apart are placed on the
// earliest one (the duration is the union window) and a spread beyond the limit is warned of;
// the whole's concurrency is the shards' shares added up; multi-turn figures and the client's
// late wakes are the shards' added up, and a multi-turn shard is not merged with one that is
// not.
#include "bench/merge/merge.hpp"

#include <variant>

#include <gtest/gtest.h>

#include "bench/metrics/multi_turn.hpp"
#include "bench/results/shard_state.hpp"

namespace {

using nlohmann::json;

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kEpoch = 1796380200LL * 1'000'000'000;

// Shard `index` of `count`: one request of 10 ms from its epoch, which is `late_ms` after kEpoch.
bench::merge::ShardFile shard(std::int64_t index, std::int64_t count, std::int64_t late_ms) {
  bench::metrics::SummaryOptions options;
  options.target_in_flight = 1;
  bench::metrics::RunAccumulator accumulator(options);
  bench::metrics::RequestRecord r;
  r.text_chunk_ns = {4 * kMs, 6 * kMs};
  r.first_token_ns = 4 * kMs;
  r.end_ns = 10 * kMs;
  r.prompt_tokens = 7;
  r.completion_tokens = 2;
  accumulator.add(r);
  bench::results::ShardStamp stamp;
  stamp.index = index;
  stamp.count = count;
  stamp.host = "node" + std::to_string(index);
  stamp.epoch_unix_ns = kEpoch + late_ms * kMs;
  stamp.first_send_ns = 0;
  json run = {{"schema_version", 1},
              {"kind", "run"},
              {"output_throughput", 0},
              {"max_concurrency", 1},
              {"request_rate", "inf"},
              {"config", {{"concurrency", {count}}, {"shard_index", index}}},
              {"workload", {{"fingerprint", "abc"}, {"seed", 1}}},
              {"shard", bench::results::shard_to_json(stamp)},
              {"shard_state", bench::results::accumulator_to_json(accumulator.state())}};
  return {"shard-" + std::to_string(index) + ".json", run};
}

// The host's delays are each shard's: their sleeps and late ones added up, the latest kept.
TEST(MergeShards, AddsUpTheShardsLateWakes) {
  bench::merge::ShardFile first = shard(0, 2, 0);
  bench::merge::ShardFile second = shard(1, 2, 0);
  first.results["client"]["late_wakes"] = {{"sleeps", 100}, {"over_1ms", 3}, {"latest_ms", 7.5}};
  second.results["client"]["late_wakes"] = {{"sleeps", 50}, {"over_1ms", 1}, {"latest_ms", 2}};
  const auto merged = bench::merge::merge_shards({first, second});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  const json& late_wakes = std::get<bench::merge::Merged>(merged).results["client"]["late_wakes"];
  EXPECT_EQ(late_wakes["sleeps"], 150);
  EXPECT_EQ(late_wakes["over_1ms"], 4);
  EXPECT_DOUBLE_EQ(late_wakes["latest_ms"].get<double>(), 7.5);
}

json made_by(const std::string& cpu_model) {
  return {{"bench_version", "0.1.0"}, {"commit", "0cc2ba1"},    {"build_type", "Release"},
          {"libcurl", "7.88.1"},      {"cpu_model", cpu_model}, {"cpus_online", 2}};
}

// What made the shards is kept: their common values, and where they differ (another host's
// CPU), each value, the item named in shards_differ and a warning.
TEST(MergeShards, KeepsWhatMadeTheShardsAndSaysWhereTheyDiffer) {
  bench::merge::ShardFile first = shard(0, 2, 0);
  bench::merge::ShardFile second = shard(1, 2, 0);
  first.results["provenance"] = made_by("AMD EPYC 7B13");
  second.results["provenance"] = made_by("AMD EPYC 7B13");
  auto merged = bench::merge::merge_shards({first, second});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  json expected = made_by("AMD EPYC 7B13");
  expected["shards_differ"] = json::array();
  EXPECT_EQ(std::get<bench::merge::Merged>(merged).results["provenance"], expected);
  EXPECT_TRUE(std::get<bench::merge::Merged>(merged).warnings.empty());

  second.results["provenance"] = made_by("Intel Xeon Gold 6338");
  merged = bench::merge::merge_shards({first, second});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  const auto& m = std::get<bench::merge::Merged>(merged);
  EXPECT_EQ(m.results["provenance"]["cpu_model"],
            json::array({"AMD EPYC 7B13", "Intel Xeon Gold 6338"}));
  EXPECT_EQ(m.results["provenance"]["libcurl"], "7.88.1");
  EXPECT_EQ(m.results["provenance"]["shards_differ"], json::array({"cpu_model"}));
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("differ in cpu_model"), std::string::npos) << m.warnings[0];

  // A shard from an older bench: what made it is unknown, not the other's.
  second.results.erase("provenance");
  merged = bench::merge::merge_shards({first, second});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  EXPECT_EQ(std::get<bench::merge::Merged>(merged).results["provenance"]["libcurl"],
            json::array({"7.88.1", nullptr}));
}

// Each verdict of the self-check holds for the whole when any shard's did.
TEST(MergeShards, KeepsEachSelfCheckVerdictOfAnyShard) {
  bench::merge::ShardFile first = shard(0, 2, 0);
  bench::merge::ShardFile second = shard(1, 2, 0);
  first.results["client_saturated"] = false;
  first.results["host_late"] = true;
  second.results["client_saturated"] = false;
  second.results["host_late"] = false;
  const auto merged = bench::merge::merge_shards({first, second});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  const json& results = std::get<bench::merge::Merged>(merged).results;
  EXPECT_EQ(results["client_saturated"], false);
  EXPECT_EQ(results["host_late"], true);
}

// An answer check's block (results/answer_check.hpp) of one verdict, told apart by its seconds.
json answer_check(const std::string& verdict, double seconds) {
  return {{"verdict", verdict}, {"prompts", 3}, {"seconds", seconds}, {"answers", json::array()}};
}

// A sweep of one point (concurrency `count`) holding `run`, with the run's answer check at the
// top as a sweep writes it.
bench::merge::ShardFile as_sweep(bench::merge::ShardFile shard) {
  json sweep = {{"schema_version", 1},
                {"kind", "sweep"},
                {"sweep", {{"variable", "concurrency"}, {"values", {1}}}},
                {"answer_check", shard.results["answer_check"]},
                {"points", json::array({shard.results})}};
  return {shard.name, sweep};
}

// Each shard checked the answers of its own server: the whole carries the first implausible
// check (a warning any shard drew is not lost), else the first shard's; a sweep's top and its
// points alike.
// How lengths were counted is the command's (every shard's the same); the /tokenize requests
// that made the prompts ahead are the shards' added up, the time the longest (made at once).
TEST(MergeShards, KeepsHowLengthsWereCountedAndAddsUpThePromptsMadeAhead) {
  bench::merge::ShardFile first = shard(0, 2, 0);
  bench::merge::ShardFile second = shard(1, 2, 0);
  for (auto* part : {&first, &second}) {
    part->results["input_len_unit"] = "tokens";
    part->results["length_tokenizer"] = "server /tokenize (vLLM dialect)";
    part->results["words_reason"] = nullptr;
    part->results["server_tokenize_requests"] = 0;
  }
  first.results["tokenize_requests_ahead"] = 500;
  second.results["tokenize_requests_ahead"] = 501;
  first.results["prompts_ahead_s"] = 0.25;
  second.results["prompts_ahead_s"] = 0.5;
  const auto merged = bench::merge::merge_shards({first, second});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  const json& results = std::get<bench::merge::Merged>(merged).results;
  EXPECT_EQ(results["input_len_unit"], "tokens");
  EXPECT_EQ(results["length_tokenizer"], "server /tokenize (vLLM dialect)");
  EXPECT_TRUE(results["words_reason"].is_null());
  EXPECT_EQ(results["tokenize_requests_ahead"], 1001);
  EXPECT_EQ(results["prompts_ahead_s"], 0.5);
  EXPECT_EQ(results["server_tokenize_requests"], 0);
}

TEST(MergeShards, KeepsTheFirstImplausibleAnswerCheckElseTheFirstShards) {
  bench::merge::ShardFile first = shard(0, 3, 0);
  bench::merge::ShardFile second = shard(1, 3, 0);
  bench::merge::ShardFile third = shard(2, 3, 0);
  first.results["answer_check"] = answer_check("plausible", 1);
  second.results["answer_check"] = answer_check("implausible", 2);
  third.results["answer_check"] = answer_check("implausible", 3);
  auto merged = bench::merge::merge_shards({first, second, third});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  EXPECT_EQ(std::get<bench::merge::Merged>(merged).results["answer_check"],
            answer_check("implausible", 2));

  merged = bench::merge::merge_shards({as_sweep(first), as_sweep(second), as_sweep(third)});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  const json& sweep = std::get<bench::merge::Merged>(merged).results;
  EXPECT_EQ(sweep["answer_check"], answer_check("implausible", 2));
  EXPECT_EQ(sweep["points"][0]["answer_check"], answer_check("implausible", 2));

  second.results["answer_check"] = answer_check("plausible", 2);
  third.results["answer_check"] = nullptr;  // --no-answer-check
  merged = bench::merge::merge_shards({first, second, third});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  EXPECT_EQ(std::get<bench::merge::Merged>(merged).results["answer_check"],
            answer_check("plausible", 1));
}

TEST(MergeShards, PlacesLateClocksOnTheEarliestAndWarnsOfAWideStartSpread) {
  const auto merged = bench::merge::merge_shards({shard(0, 2, 0), shard(1, 2, 100)});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  const auto& m = std::get<bench::merge::Merged>(merged);
  EXPECT_EQ(m.results["completed"], 2);
  EXPECT_EQ(m.results["total_output_tokens"], 4);
  EXPECT_NEAR(m.results["duration"].get<double>(), 0.110, 1e-9);  // 0 .. 100 + 10 ms
  EXPECT_EQ(m.results["max_concurrency"], 2);
  EXPECT_EQ(m.results["merged"]["shards"], 2);
  EXPECT_EQ(m.results["merged"]["start_spread_ms"], 100.0);
  EXPECT_EQ(m.results["merged"]["hosts"], json({"node0", "node1"}));
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("started 100.0 ms apart"), std::string::npos) << m.warnings[0];
  EXPECT_FALSE(m.results.contains("shard_state"));
}

TEST(MergeShards, ShardsStartedTogetherMergeWithoutAWarning) {
  const auto merged = bench::merge::merge_shards({shard(1, 2, 3), shard(0, 2, 0)});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  EXPECT_TRUE(std::get<bench::merge::Merged>(merged).warnings.empty());
  EXPECT_NEAR(std::get<bench::merge::Merged>(merged).results["duration"].get<double>(), 0.013,
              1e-9);
}

// Each shard's energy is of its own window of the same GPUs: the merged figure is unknown, and
// the merge says so rather than writing a silent null.
TEST(MergeShards, SaysTheShardsEnergyIsNotMergedAndWritesItNull) {
  bench::merge::ShardFile first = shard(0, 2, 0);
  bench::merge::ShardFile second = shard(1, 2, 0);
  first.results["gpu_energy_joules"] = 1200.0;
  second.results["gpu_energy_joules"] = 1300.0;
  const auto merged = bench::merge::merge_shards({first, second});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  const auto& whole = std::get<bench::merge::Merged>(merged);
  ASSERT_EQ(whole.warnings.size(), 1u);
  EXPECT_NE(whole.warnings.front().find("energy is not merged"), std::string::npos);
  EXPECT_TRUE(whole.results["gpu_energy_joules"].is_null());
  EXPECT_TRUE(whole.results["joules_per_output_token"].is_null());
}

TEST(MergeShards, RefusesShardsOfDifferentCounts) {
  const auto merged = bench::merge::merge_shards({shard(0, 2, 0), shard(1, 3, 0)});
  ASSERT_TRUE(std::holds_alternative<bench::merge::MergeError>(merged));
  EXPECT_NE(std::get<bench::merge::MergeError>(merged).message.find("shard-1.json: shard 1/3"),
            std::string::npos);
}

// `file` with a "multi_turn" object holding the state of `sessions` sessions of 2 turns, each
// turn's TTFT `ttft_ms`.
bench::merge::ShardFile with_sessions(bench::merge::ShardFile file, int sessions, double ttft_ms) {
  bench::metrics::MultiTurnAccumulator accumulator;
  for (int k = 0; k < sessions; ++k) {
    for (std::int64_t turn = 0; turn < 2; ++turn) {
      bench::metrics::RequestRecord r;
      r.turn = turn;
      r.first_token_ns = static_cast<std::int64_t>(ttft_ms * kMs);
      r.prompt_tokens = 10 + 20 * turn;
      accumulator.add_turn(r);
    }
    accumulator.add_session({true, false, 2, 30 * kMs});
  }
  file.results["multi_turn"] = {
      {"sessions_started", sessions},  // the shard's own figures, not the whole's
      {"shard_state", bench::results::multi_turn_state_to_json(accumulator.state())}};
  return file;
}

TEST(MergeShards, AddsUpTheShardsMultiTurnFiguresByTurnAndBySession) {
  const auto merged = bench::merge::merge_shards(
      {with_sessions(shard(0, 2, 0), 3, 10), with_sessions(shard(1, 2, 0), 2, 20)});
  ASSERT_TRUE(std::holds_alternative<bench::merge::Merged>(merged));
  const auto& m = std::get<bench::merge::Merged>(merged);
  const json& multi_turn = m.results["multi_turn"];
  EXPECT_EQ(multi_turn["sessions_started"], 5);
  EXPECT_EQ(multi_turn["sessions_completed"], 5);
  EXPECT_EQ(multi_turn["turns_completed"], 10);
  ASSERT_EQ(multi_turn["by_turn"].size(), 2u);
  EXPECT_EQ(multi_turn["by_turn"][1]["requests"], 5);
  EXPECT_DOUBLE_EQ(multi_turn["by_turn"][1]["mean_ttft_ms"].get<double>(), 14);  // (3x10+2x20)/5
  EXPECT_DOUBLE_EQ(multi_turn["by_turn"][1]["mean_input_tokens"].get<double>(), 30);
  EXPECT_EQ(multi_turn["median_session_duration_ms"], 30.0);
  EXPECT_FALSE(multi_turn.contains("shard_state"));
  ASSERT_TRUE(m.runs.front().summary.multi_turn.has_value());  // for the text report too
}

TEST(MergeShards, RefusesAMultiTurnShardWithOneThatIsNotNamingTheFile) {
  auto merged = bench::merge::merge_shards({shard(0, 2, 0), with_sessions(shard(1, 2, 0), 1, 5)});
  ASSERT_TRUE(std::holds_alternative<bench::merge::MergeError>(merged));
  EXPECT_EQ(std::get<bench::merge::MergeError>(merged).message,
            "shard-1.json: a multi-turn run (\"multi_turn\"), but shard-0.json is not");
  merged = bench::merge::merge_shards({with_sessions(shard(0, 2, 0), 1, 5), shard(1, 2, 0)});
  ASSERT_TRUE(std::holds_alternative<bench::merge::MergeError>(merged));
  EXPECT_EQ(std::get<bench::merge::MergeError>(merged).message,
            "shard-1.json: not a multi-turn run (\"multi_turn\"), but shard-0.json is one");
  bench::merge::ShardFile no_state = with_sessions(shard(1, 2, 0), 1, 5);
  no_state.results["multi_turn"].erase("shard_state");
  merged = bench::merge::merge_shards({with_sessions(shard(0, 2, 0), 1, 5), no_state});
  ASSERT_TRUE(std::holds_alternative<bench::merge::MergeError>(merged));
  EXPECT_NE(std::get<bench::merge::MergeError>(merged).message.find(
                "shard-1.json: unreadable \"multi_turn\" \"shard_state\""),
            std::string::npos);
}

}  // namespace
