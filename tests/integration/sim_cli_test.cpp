// `bench serve-sim` as a user meets it: --help documents every profile, engine flag, fault and
// quirk; flags that do not apply to the chosen profile are usage errors (exit 2) that name the
// flag; and the standalone server, started as its own process, serves a bench run and writes
// its truth log on SIGINT.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jsonl.hpp"
#include "run_process.hpp"
#include "serve_sim_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

TEST(SimCli, ServeSimHelpDocumentsEveryProfileFaultAndQuirk) {
  const ProcessResult help = run_process(BENCH_BINARY, {"serve-sim", "--help"});
  ASSERT_EQ(help.exit_code, 0) << help.err;
  for (const char* text : {"--profile",
                           "fixed",
                           "firehose",
                           "tiny",
                           "h100-dense-8b",
                           "pcie-8gpu-moe",
                           "--time-scale",
                           "--max-running-requests",
                           "--kv-cache-tokens",
                           "--max-batched-tokens",
                           "--step-us",
                           "--comm-us-per-step",
                           "--decode-us-per-seq",
                           "--decode-ns-per-context-token",
                           "--prefill-us-per-token",
                           "--fail-429-fraction",
                           "--fail-500-fraction",
                           "--fail-503-fraction",
                           "--reset-fraction",
                           "--stall-fraction",
                           "--stall-s",
                           "--malformed-json-fraction",
                           "--truncate-fraction",
                           "--stream-error-fraction",
                           "--no-usage-fraction",
                           "--multi-token-fraction",
                           "--multi-token-count",
                           "--crlf-fraction",
                           "--comment-fraction",
                           "--usage-on-last-chunk",
                           "--no-role-chunk",
                           "--close-after-stream",
                           "--trace",
                           "--seed",
                           "--ttft-ms",
                           "--tpot-ms",
                           "--tokens-per-chunk",
                           "--prefix-cache",
                           "/flush_cache",
                           "/reset_prefix_cache"}) {
    EXPECT_NE(help.out.find(text), std::string::npos) << text;
  }
  // The same flags reach the embedded server through bench's --sim- prefix: the run's help
  // says so in one line instead of listing them again, and a run takes them.
  const ProcessResult main_help = run_process(BENCH_BINARY, {"--help"});
  EXPECT_NE(main_help.out.find("is --sim-X here"), std::string::npos) << main_help.out;
  const ProcessResult run =
      run_process(BENCH_BINARY, {"--sim-ttft-ms", "5", "--sim-time-scale", "10",
                                 "--sim-reset-fraction", "0", "--num-prompts", "4", "--input-len",
                                 "8", "--output-len", "4", "--output-format", "json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

struct Misuse {
  std::vector<std::string> args;
  std::string says;
};

TEST(SimCli, FlagsThatDoNotApplyToTheProfileAreUsageErrorsNamingTheFlag) {
  const std::vector<Misuse> cases = {
      {{"serve-sim", "--profile", "tiny", "--ttft-ms", "5"},
       "--ttft-ms: applies to --profile fixed"},
      {{"serve-sim", "--tpot-ms", "5", "--profile", "firehose"}, "--tpot-ms: applies to"},
      {{"serve-sim", "--max-running-requests", "4"}, "--max-running-requests: applies to"},
      {{"--sim-step-us", "10"}, "--sim-step-us: applies to --sim-profile tiny"},
      {{"serve-sim", "--profile", "h200"}, "--profile"},
      {{"serve-sim", "--time-scale", "0"}, "--time-scale"},
      {{"serve-sim", "--reset-fraction", "1.5"}, "--reset-fraction"},
  };
  for (const Misuse& misuse : cases) {
    const ProcessResult run = run_process(BENCH_BINARY, misuse.args);
    EXPECT_EQ(run.exit_code, 2) << misuse.says;
    EXPECT_NE(run.err.find(misuse.says), std::string::npos) << run.err;
  }
}

TEST(SimCli, AStandaloneServeSimServesABenchRunAndWritesItsTruthLog) {
  TempDir dir;
  const std::string trace_path = dir.file("trace.jsonl");
  ServeSimProcess serve_sim(
      BENCH_BINARY, {"--profile", "tiny", "--max-running-requests", "4", "--trace", trace_path},
      dir);
  const std::string& base_url = serve_sim.base_url();
  ProcessResult run;
  if (!base_url.empty()) {
    run = run_process(BENCH_BINARY, {"--base-url", base_url, "--concurrency", "8", "--num-prompts",
                                     "24", "--output-len", "16", "--input-len", "32",
                                     "--ignore-eos", "--output-format", "json", "--quiet"});
  }
  const ProcessResult& server = serve_sim.stop();
  ASSERT_FALSE(base_url.empty()) << server.err;
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(json::parse(run.out)["completed"], 24);
  EXPECT_EQ(server.exit_code, 0) << server.err;
  EXPECT_NE(server.err.find("profile tiny: continuous batching, up to 4 running"),
            std::string::npos)
      << server.err;
  int streamed = 0;
  for (const json& record : bench::testing::read_jsonl(trace_path)) {
    if (record["completion_tokens"] == 16) {
      ++streamed;
      EXPECT_EQ(record["outcome"], "ok");
      EXPECT_GE(record["prefill_start_ns"].get<std::int64_t>(),
                record["arrival_ns"].get<std::int64_t>());
    }
  }
  EXPECT_EQ(streamed, 24);
}

TEST(SimCli, ServeSimSaysItStopsServingOnSigintNotThatRequestsFinish) {
  const TempDir dir;
  ServeSimProcess serve_sim(BENCH_BINARY, {}, dir);
  ASSERT_FALSE(serve_sim.base_url().empty());  // it serves: SIGINT now stops a server
  const ProcessResult& server = serve_sim.stop();
  EXPECT_EQ(server.exit_code, 0) << server.err;
  EXPECT_NE(server.err.find("bench serve-sim: interrupt: stopping the server"), std::string::npos)
      << server.err;
  EXPECT_EQ(server.err.find("in-flight"), std::string::npos) << server.err;
}

}  // namespace
