// `bench conformance` through the real binary: the battery against the embedded simulator and
// against a serve-sim with faults, its archive replayed, its refusals.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/wire/recording.hpp"
#include "run_process.hpp"
#include "serve_sim_process.hpp"

namespace {

using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;

constexpr const char* kSecret = "sk-conformance-secret-0123456789";

// The table's row of `check` (its first column), or "" when none.
std::string row_of(const std::string& table, const std::string& check) {
  std::size_t at = 0;
  while (at < table.size()) {
    const std::size_t end = table.find('\n', at);
    const std::string line = table.substr(at, end - at);
    if (line.rfind(check + "  ", 0) == 0) return line;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return "";
}

std::vector<bench::wire::Exchange> recording(const std::string& dir) {
  auto loaded = bench::wire::load_recording(dir);
  if (std::holds_alternative<bench::wire::WireError>(loaded)) return {};
  return std::get<std::vector<bench::wire::Exchange>>(std::move(loaded));
}

TEST(Conformance, the_embedded_simulator_passes_conformance_with_every_row_holding) {
  TempDir temp;
  const std::string archive = temp.file("archive");
  const auto result = run_process(BENCH_BINARY, {"conformance", "-o", archive});
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  for (const char* check :
       {"streamed chat", "streamed completions", "usage, asked", "usage, unasked", "cached tokens",
        "reasoning", "tool calls", "oversize prompt", "wrong model", "closed connection",
        "/tokenize", "/metrics"}) {
    const std::string row = row_of(result.out, check);
    EXPECT_NE(row.find("  holds  "), std::string::npos) << check << ": " << result.out;
  }
  EXPECT_TRUE(std::filesystem::exists(archive + "/SOURCE.md"));
  EXPECT_GE(recording(archive).size(), 12u) << result.err;
}

TEST(Conformance, a_server_without_usage_fails_conformance_on_the_usage_row_with_exit_4) {
  TempDir temp;
  ServeSimProcess sim(BENCH_BINARY, {"--ttft-ms", "1", "--tpot-ms", "1", "--no-usage"}, temp);
  ASSERT_FALSE(sim.base_url().empty());
  const auto result = run_process(
      BENCH_BINARY, {"conformance", "--base-url", sim.base_url(), "-o", temp.file("archive")});
  EXPECT_EQ(result.exit_code, 4) << result.out << result.err;
  EXPECT_NE(row_of(result.out, "usage, asked").find("does not hold"), std::string::npos)
      << result.out;
  EXPECT_NE(row_of(result.out, "streamed chat").find("  holds  "), std::string::npos) << result.out;
  // The plain simulator: no reasoning model, any model name served.
  EXPECT_NE(row_of(result.out, "reasoning").find("not shown"), std::string::npos) << result.out;
  EXPECT_NE(row_of(result.out, "wrong model").find("not shown"), std::string::npos) << result.out;
}

TEST(Conformance, a_server_that_cuts_its_streams_fails_conformance_on_the_stream_rows) {
  TempDir temp;
  ServeSimProcess sim(BENCH_BINARY,
                      {"--ttft-ms", "1", "--tpot-ms", "1", "--truncate-fraction", "1",
                       "--tokenize-dialect", "none"},
                      temp);
  ASSERT_FALSE(sim.base_url().empty());
  const auto result = run_process(
      BENCH_BINARY, {"conformance", "--base-url", sim.base_url(), "-o", temp.file("archive")});
  EXPECT_EQ(result.exit_code, 4) << result.out << result.err;
  for (const char* check : {"streamed chat", "streamed completions", "closed connection"}) {
    EXPECT_NE(row_of(result.out, check).find("does not hold"), std::string::npos)
        << check << ": " << result.out;
  }
  EXPECT_NE(row_of(result.out, "/tokenize").find("not shown"), std::string::npos) << result.out;
  EXPECT_NE(row_of(result.out, "/metrics").find("  holds  "), std::string::npos) << result.out;
}

TEST(Conformance, the_conformance_archive_holds_no_api_key_and_replays_through_serve_sim) {
  TempDir temp;
  ServeSimProcess sim(BENCH_BINARY, {"--ttft-ms", "1", "--tpot-ms", "1", "--max-model-len", "2048"},
                      temp);
  ASSERT_FALSE(sim.base_url().empty());
  const std::string archive = temp.file("archive");
  const auto result = run_process(BENCH_BINARY, {"conformance", "--base-url", sim.base_url(),
                                                 "--api-key", kSecret, "-o", archive});
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ((result.out + result.err).find(kSecret), std::string::npos);
  for (const auto& entry : std::filesystem::directory_iterator(archive)) {
    EXPECT_EQ(bench::testing::read_file(entry.path().string()).find(kSecret), std::string::npos)
        << entry.path();
  }
  const auto exchanges = recording(archive);
  ASSERT_FALSE(exchanges.empty());
  std::int64_t completions = 0, refused = 0;
  for (const auto& exchange : exchanges) {
    if (exchange.shape.path != "/v1/completions" || !exchange.shape.stream) continue;
    ++completions;
    if (exchange.status != 200) ++refused;
  }
  ASSERT_GT(completions, 0);
  ASSERT_GT(refused, 0);  // the oversize prompt's 400
  // Every streamed completion of the archive, served back in turn, read by a run.
  TempDir replay_dir;  // a ServeSimProcess announces its URL in a file of its directory
  ServeSimProcess replay(BENCH_BINARY, {"--replay", archive, "--trace", replay_dir.file("trace")},
                         replay_dir);
  ASSERT_FALSE(replay.base_url().empty());
  const auto run = run_process(
      BENCH_BINARY, {"--base-url", replay.base_url(), "--model", "bench-sim", "--endpoint",
                     "completions", "--output-format", "json", "--quiet", "--no-answer-check",
                     "--per-chunk-usage", "off", "--concurrency", "1", "--warmup-requests", "0",
                     "--num-prompts", std::to_string(completions)});
  const nlohmann::json results = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << run.err;
  replay.stop();
  const std::string served = bench::testing::read_file(replay_dir.file("trace"));
  EXPECT_EQ(results["completed"], completions - refused) << run.err << served;
  EXPECT_EQ(results["failed"], refused) << run.err << served;
}

TEST(Conformance, a_bad_base_url_stops_conformance_in_one_line) {
  TempDir temp;
  const auto https = run_process(
      BENCH_BINARY, {"conformance", "--base-url", "https://example.invalid", "-o", temp.file("a")});
  EXPECT_EQ(https.exit_code, 2);
  EXPECT_NE(https.err.find("http://HOST:PORT"), std::string::npos) << https.err;
  const auto unreachable = run_process(
      BENCH_BINARY, {"conformance", "--base-url", "http://127.0.0.1:1", "-o", temp.file("b")});
  EXPECT_EQ(unreachable.exit_code, 3) << unreachable.err;
  EXPECT_EQ(std::count(unreachable.err.begin(), unreachable.err.end(), '\n'), 1) << unreachable.err;
  EXPECT_NE(unreachable.err.find("127.0.0.1:1"), std::string::npos) << unreachable.err;
}

}  // namespace
