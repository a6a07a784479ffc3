// `bench serve-sim` as a user meets it: --help documents every profile, engine flag, fault and
// quirk; flags that do not apply to the chosen profile are usage errors (exit 2) that name the
// flag; and the standalone server, started as its own process, serves a bench run and writes
// its truth log on SIGINT.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// A loopback port nothing listens on right now (the kernel's choice for port 0).
std::uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

TEST(SimCli, ServeSimHelpDocumentsEveryProfileFaultAndQuirk) {
  const ProcessResult help = run_process(BENCH_BINARY, {"serve-sim", "--help"});
  ASSERT_EQ(help.exit_code, 0) << help.err;
  for (const char* text :
       {"--profile", "fixed", "firehose", "tiny", "h100-dense-8b", "pcie-8gpu-moe", "--time-scale",
        "--max-running-requests", "--kv-cache-tokens", "--max-batched-tokens", "--step-us",
        "--comm-us-per-step", "--decode-us-per-seq", "--decode-ns-per-context-token",
        "--prefill-us-per-token", "--fail-429-fraction", "--fail-500-fraction",
        "--fail-503-fraction", "--reset-fraction", "--stall-fraction", "--stall-s",
        "--malformed-json-fraction", "--truncate-fraction", "--stream-error-fraction",
        "--no-usage-fraction", "--multi-token-fraction", "--multi-token-count", "--crlf-fraction",
        "--comment-fraction", "--usage-on-last-chunk", "--no-role-chunk", "--close-after-stream",
        "--trace", "--seed", "--ttft-ms", "--tpot-ms", "--tokens-per-chunk", "--prefix-cache",
        "/flush_cache", "/reset_prefix_cache"}) {
    EXPECT_NE(help.out.find(text), std::string::npos) << text;
  }
  // The same flags reach the embedded server through bench's --sim- prefix.
  const ProcessResult main_help = run_process(BENCH_BINARY, {"--help"});
  for (const char* text : {"--sim-profile", "--sim-time-scale", "--sim-reset-fraction",
                           "--sim-max-running-requests", "--sim-trace", "--sim-prefix-cache"}) {
    EXPECT_NE(main_help.out.find(text), std::string::npos) << text;
  }
}

struct Misuse {
  std::vector<std::string> args;
  std::string says;
};

TEST(SimCli, FlagsThatDoNotApplyToTheProfileAreUsageErrorsNamingTheFlag) {
  const std::vector<Misuse> cases = {
      {{"serve-sim", "--profile", "tiny", "--ttft-ms", "5"}, "--ttft-ms: applies to --profile fixed"},
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
  const std::uint16_t port = free_port();
  const std::string trace_path = dir.file("trace.jsonl");
  ProcessResult server;
  bench::testing::ProcessOptions until_sigint;
  until_sigint.timeout = std::chrono::milliseconds(60'000);
  until_sigint.signal_after = std::chrono::milliseconds(4'000);
  std::thread serving([&] {
    server = run_process(BENCH_BINARY,
                         {"serve-sim", "--port", std::to_string(port), "--profile", "tiny",
                          "--max-running-requests", "4", "--trace", trace_path},
                         until_sigint);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // let it bind
  const ProcessResult run = run_process(
      BENCH_BINARY, {"--base-url", "http://127.0.0.1:" + std::to_string(port), "--concurrency",
                     "8", "--num-prompts", "24", "--output-len", "16", "--input-len", "32",
                     "--ignore-eos", "--output-format", "json", "--quiet"});
  serving.join();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(json::parse(run.out)["completed"], 24);
  EXPECT_EQ(server.exit_code, 0) << server.err;
  EXPECT_NE(server.err.find("profile tiny: continuous batching, up to 4 running"),
            std::string::npos)
      << server.err;
  std::istringstream trace(bench::testing::read_file(trace_path));
  std::string line;
  int streamed = 0;
  while (std::getline(trace, line)) {
    const json record = json::parse(line);
    if (record["completion_tokens"] == 16) {
      ++streamed;
      EXPECT_EQ(record["outcome"], "ok");
      EXPECT_GE(record["prefill_start_ns"].get<std::int64_t>(),
                record["arrival_ns"].get<std::int64_t>());
    }
  }
  EXPECT_EQ(streamed, 24);
}

}  // namespace
