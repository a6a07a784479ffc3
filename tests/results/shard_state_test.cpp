// A shard's "shard" and "shard_state" objects (the run's and its "multi_turn"'s) written and
// read back unchanged, and what is refused when they are missing, edited or of another
// version, with the file named.
#include "bench/results/shard_state.hpp"

#include <fstream>
#include <memory>
#include <string>
#include <variant>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "bench/metrics/multi_turn.hpp"
#include "bench/metrics/run_summary.hpp"

namespace {

using bench::metrics::AccumulatorState;
using bench::results::FormatError;
using nlohmann::json;

AccumulatorState sample_state(std::uint64_t budget) {
  bench::metrics::SummaryOptions options;
  options.sample_budget = budget;
  options.slo.ttft_ms = 100;
  bench::metrics::RunAccumulator accumulator(options);
  for (int k = 0; k < 20; ++k) {
    bench::metrics::RequestRecord r;
    r.start_ns = r.intended_start_ns = k * 1'000'000;
    r.text_chunk_ns = {r.start_ns + 5'000'000, r.start_ns + 6'500'000};
    r.first_token_ns = r.text_chunk_ns.front();
    r.end_ns = r.start_ns + 7'000'000;
    r.prompt_tokens = 10;
    r.completion_tokens = 2;
    if (k % 2 == 0) {  // a tool call: its counts travel with the shard too
      r.tool_call_chunks = 2;
      r.tool_call_names = {"get_weather"};
      r.tool_call_tokens = 2;
      r.tool_call_token_source = bench::metrics::TokenSource::usage;
    }
    if (k == 3) r.error = bench::metrics::ErrorClass::stall;
    accumulator.add(r);
  }
  return accumulator.state();
}

TEST(ShardState, RoundTripsExactValuesAndHistograms) {
  for (std::uint64_t budget : {std::uint64_t{1'000'000}, std::uint64_t{4}}) {
    const json written = bench::results::accumulator_to_json(sample_state(budget));
    const auto read = bench::results::accumulator_from_json({{"shard_state", written}}, "a.json");
    ASSERT_TRUE(std::holds_alternative<AccumulatorState>(read));
    EXPECT_EQ(bench::results::accumulator_to_json(std::get<AccumulatorState>(read)), written);
    EXPECT_EQ(written["distributions"]["ttft_ms"]["exact"], budget > 4);
    EXPECT_EQ(written["counts"]["tool_call_requests"], 10);
    EXPECT_EQ(written["counts"]["tool_call_tokens"], 20);
  }
}

TEST(ShardState, RefusesAMissingPartOrAnotherVersionNamingTheFile) {
  json written = bench::results::accumulator_to_json(sample_state(1000));
  written["counts"].erase("sent");
  auto read = bench::results::accumulator_from_json({{"shard_state", written}}, "b.json");
  ASSERT_TRUE(std::holds_alternative<FormatError>(read));
  EXPECT_EQ(std::get<FormatError>(read).message.rfind("b.json: unreadable \"shard_state\"", 0), 0u);
  written = bench::results::accumulator_to_json(sample_state(1000));
  written["version"] = bench::results::kShardStateVersion + 1;
  read = bench::results::accumulator_from_json({{"shard_state", written}}, "c.json");
  ASSERT_TRUE(std::holds_alternative<FormatError>(read));
  EXPECT_NE(std::get<FormatError>(read).message.find(
                fmt::format("version {}", bench::results::kShardStateVersion + 1)),
            std::string::npos);
}

// A version-1 state (bench before 2026-12-05's keys: no connection_retries, no sums of what was
// sent) is refused as an older bench's, not read as far as it goes nor as a truncated file.
TEST(ShardState, RefusesAnOlderBenchsStateSayingSo) {
  json written = bench::results::accumulator_to_json(sample_state(1000));
  written["version"] = 1;
  written["counts"].erase("connection_retries");
  written["sums"].erase("sent_input_sum");
  written["sums"].erase("sent_output_sum");
  const auto read = bench::results::accumulator_from_json({{"shard_state", written}}, "old.json");
  ASSERT_TRUE(std::holds_alternative<FormatError>(read));
  const std::string& message = std::get<FormatError>(read).message;
  EXPECT_NE(message.find("old.json"), std::string::npos) << message;
  EXPECT_NE(message.find("version 1, written by an older bench"), std::string::npos) << message;
  EXPECT_EQ(message.find("not found"), std::string::npos) << message;
}

// A state this bench wrote when it set kShardStateVersion reads back whole. A key added to the
// state (a counter in visit_counters, a sum in RunSums, a distribution) without a version bump
// fails here: bump kShardStateVersion and write the file again: {"shard_state", "multi_turn":
// {"shard_state"}} of a multi-turn shard's results (`bench --base-url URL --shard 0/2 --seed 1
// --multi-turn --turns 2 --num-prompts 4 --concurrency 2 --input-len 16 --output-len 4
// --output-file x.json`).
TEST(ShardState, TheStateThisVersionWroteReadsBackWhole) {
  const std::string path = std::string(BENCH_TEST_DATA_DIR) + "/results/shard_state_v" +
                           std::to_string(bench::results::kShardStateVersion) + ".json";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << ": no state written by this version (see the comment above)";
  const json run = json::parse(in);
  const auto read = bench::results::accumulator_from_json(run, path);
  ASSERT_TRUE(std::holds_alternative<AccumulatorState>(read))
      << std::get<FormatError>(read).message;
  const auto multi_turn = bench::results::multi_turn_state_from_json(run.at("multi_turn"), path);
  ASSERT_TRUE(std::holds_alternative<bench::metrics::MultiTurnState>(multi_turn))
      << std::get<FormatError>(multi_turn).message;
  // Nothing written by this version is left unread (an edit that drops a key fails too).
  EXPECT_EQ(bench::results::accumulator_to_json(std::get<AccumulatorState>(read)),
            run.at("shard_state"));
}

TEST(ShardState, TheShardStampSaysItsLagsAgainstTheStartTime) {
  bench::results::ShardStamp stamp;
  stamp.index = 2;
  stamp.count = 4;
  stamp.host = "node7";
  stamp.start_at = "1796380200";
  stamp.start_at_unix_ns = 1796380200'000'000'000;
  stamp.epoch_unix_ns = 1796380200'000'250'000;  // 0.25 ms late
  stamp.first_send_ns = 1'000'000;
  const json written = bench::results::shard_to_json(stamp);
  EXPECT_EQ(written["start_lag_ms"], 0.25);
  EXPECT_EQ(written["first_send_lag_ms"], 1.25);
  const auto read = bench::results::shard_from_json({{"shard", written}}, "s.json");
  ASSERT_TRUE(std::holds_alternative<bench::results::ShardStamp>(read));
  EXPECT_EQ(bench::results::shard_to_json(std::get<bench::results::ShardStamp>(read)), written);
  json bad = written;
  bad["index"] = 4;
  const auto refused = bench::results::shard_from_json({{"shard", bad}}, "s.json");
  ASSERT_TRUE(std::holds_alternative<FormatError>(refused));
  EXPECT_NE(std::get<FormatError>(refused).message.find("s.json"), std::string::npos);
}

bench::metrics::MultiTurnState multi_turn_state(std::uint64_t budget) {
  bench::metrics::MultiTurnAccumulator accumulator(
      std::make_shared<bench::metrics::SampleBudget>(budget));
  for (int k = 0; k < 30; ++k) {
    bench::metrics::RequestRecord r;
    r.turn = k % 3;
    r.start_ns = k * 1'000'000;
    r.first_token_ns = r.start_ns + (4 + k) * 1'000'000;
    r.end_ns = r.first_token_ns + 1'000'000;
    r.prompt_tokens = k == 4 ? -1 : 50 * (r.turn + 1);  // one count unknown
    if (k == 7) r.error = bench::metrics::ErrorClass::http_5xx;
    accumulator.add_turn(r);
    if (r.turn == 2) accumulator.add_session({true, false, 3, (20 + k) * 1'000'000});
  }
  accumulator.add_session({false, true, 1, 0});
  accumulator.add_session({false, false, 2, 0});
  return accumulator.state();
}

TEST(ShardState, MultiTurnStateRoundTripsExactValuesAndHistograms) {
  for (std::uint64_t budget : {std::uint64_t{1'000}, std::uint64_t{4}}) {
    const bench::metrics::MultiTurnState state = multi_turn_state(budget);
    const json written = bench::results::multi_turn_state_to_json(state);
    const auto read =
        bench::results::multi_turn_state_from_json({{"shard_state", written}}, "a.json");
    ASSERT_TRUE(std::holds_alternative<bench::metrics::MultiTurnState>(read));
    const auto& back = std::get<bench::metrics::MultiTurnState>(read);
    EXPECT_EQ(bench::results::multi_turn_state_to_json(back), written);
    ASSERT_EQ(back.turns.size(), 3u);
    EXPECT_EQ(back.turns[1].requests, 10);
    EXPECT_EQ(back.turns[1].completed, 9);
    EXPECT_EQ(back.turns[1].input_tokens_known, 8);  // k = 4 had no count, k = 7 failed
    EXPECT_DOUBLE_EQ(back.turns[1].input_tokens_sum, 8 * 100);
    EXPECT_EQ(back.sessions.started, 12);
    EXPECT_EQ(back.sessions.failed, 1);
    EXPECT_EQ(back.sessions.turns_completed, 33);
    EXPECT_EQ(written["turns"][0]["ttft_ms"]["exact"], budget > 4);
    EXPECT_EQ(written["session_duration_ms"]["exact"], budget > 4);
  }
}

TEST(ShardState, RefusesAMultiTurnStateMissingAPartOrOfAnotherVersionNamingTheFile) {
  json written = bench::results::multi_turn_state_to_json(multi_turn_state(1000));
  written["turns"][1].erase("ttft_ms");
  auto read = bench::results::multi_turn_state_from_json({{"shard_state", written}}, "b.json");
  ASSERT_TRUE(std::holds_alternative<FormatError>(read));
  EXPECT_EQ(std::get<FormatError>(read).message.rfind(
                "b.json: unreadable \"multi_turn\" \"shard_state\"", 0),
            0u);
  written = bench::results::multi_turn_state_to_json(multi_turn_state(1000));
  written["version"] = 1;
  read = bench::results::multi_turn_state_from_json({{"shard_state", written}}, "c.json");
  ASSERT_TRUE(std::holds_alternative<FormatError>(read));
  EXPECT_NE(std::get<FormatError>(read).message.find("version 1, written by an older bench"),
            std::string::npos)
      << std::get<FormatError>(read).message;
  read = bench::results::multi_turn_state_from_json(json::object(), "d.json");  // no state
  ASSERT_TRUE(std::holds_alternative<FormatError>(read));
}

}  // namespace
