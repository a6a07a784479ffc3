// Bad input to the real binary: a one-line error naming the flag and the value, the usage exit
// code, and nothing sent. Also: an unreachable server is a clear run failure.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "hostile_server.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;

using bench::cli::kExitRunFailed;
using bench::cli::kExitUsage;

struct BadFlagCase {
  std::vector<std::string> args;
  std::string must_mention;  // the flag (and value) the error has to name
};

class BadFlag : public ::testing::TestWithParam<BadFlagCase> {};

TEST_P(BadFlag, IsRejectedWithAMessageNamingTheFlagAndNothingIsSent) {
  bench::sim::SimServer server({});
  std::vector<std::string> args = {"--base-url", server.base_url()};
  const BadFlagCase& param = GetParam();
  if (param.args[0] == "--base-url") args.clear();
  args.insert(args.end(), param.args.begin(), param.args.end());
  const ProcessResult result = run_process(BENCH_BINARY, args);
  EXPECT_EQ(result.exit_code, kExitUsage) << result.err;
  EXPECT_NE(result.err.find(param.must_mention), std::string::npos) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_EQ(server.requests_served(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Cli, BadFlag,
    ::testing::Values(
        BadFlagCase{{"--concurrency", "-1"}, "--concurrency"},
        BadFlagCase{{"--concurrency", "0"}, "--concurrency"},
        BadFlagCase{{"--num-prompts", "ten"}, "--num-prompts"},
        BadFlagCase{{"--endpoint", "embeddings"}, "--endpoint"},
        BadFlagCase{{"--extra-body", "{not json"}, "--extra-body: '{not json'"},
        BadFlagCase{{"--extra-body", "[1,2]"}, "--extra-body"},
        BadFlagCase{{"--header", "no-colon-here"}, "--header: 'no-colon-here'"},
        BadFlagCase{{"--base-url", "ftp://example"}, "--base-url: 'ftp://example'"},
        BadFlagCase{{"--output-format", "xml"}, "--output-format"},
        BadFlagCase{{"--request-timeout", "-5"}, "--request-timeout"},
        BadFlagCase{{"--no-such-flag"}, "--no-such-flag"},
        BadFlagCase{{"--extra-body", R"({"stream":false})"}, "--extra-body: \"stream\""},
        BadFlagCase{{"--extra-body", R"({"stream":null})"}, "--extra-body: \"stream\""},
        BadFlagCase{{"--extra-body", R"({"n":2})"}, "--extra-body: \"n\""},
        BadFlagCase{{"--sim-profile", "tiny"}, "--sim-profile"},
        BadFlagCase{{"--sim-no-usage"}, "--sim-no-usage"},
        BadFlagCase{{"--output-file", "/nonexistent-bench-dir/r.json"},
                    "--output-file: '/nonexistent-bench-dir/r.json'"},
        BadFlagCase{{"--html", "/nonexistent-bench-dir/r.html"}, "--html"},
        BadFlagCase{{"--save-requests", "/"}, "--save-requests: '/'"},
        BadFlagCase{{"--prefix-share", "1"}, "--prefix-share: '1' is not a share"},
        BadFlagCase{{"--prefix-share", "0.5,x"}, "--prefix-share: 'x'"},
        BadFlagCase{{"--prefix-share", "0,0.5", "--concurrency", "1,2"},
                    "--prefix-share: a list sweeps the share"},
        BadFlagCase{{"--prefix-share", "0.5", "--dataset", "shared-prefix"},
                    "--prefix-share: only with --dataset random"},
        BadFlagCase{{"--prefix-share", "0.5", "--reuse-prompts"},
                    "--prefix-share: not with --reuse-prompts"},
        BadFlagCase{{"--prefix-share", "0.999", "--input-len", "100"},
                    "--prefix-share: 0.999 of --input-len 100 leaves no text"},
        // CLI11 read -1 into the unsigned seed as 18446744073709551615.
        BadFlagCase{{"--seed", "-1"}, "--seed: '-1' is not a number >= 0"}));

// Each refusal is one line that a person can read: bounds as numbers, not 309 digits.
TEST(Cli, RangeErrorsPrintReadableBounds) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--burstiness", "0"},
                                               {"--request-timeout", "-1"},
                                               {"--range-ratio", "2"},
                                               {"--sim-time-scale", "0"}}) {
    const ProcessResult result = run_process(BENCH_BINARY, args);
    EXPECT_EQ(result.exit_code, kExitUsage) << args[0];
    EXPECT_NE(result.err.find(args[0]), std::string::npos) << result.err;
    const std::string first_line = result.err.substr(0, result.err.find('\n'));
    EXPECT_LT(first_line.size(), 120u) << first_line;
  }
}

TEST(Cli, SubcommandErrorsPointAtTheSubcommandsOwnHelp) {
  const ProcessResult compare =
      run_process(BENCH_BINARY, {"compare", "/nonexistent-bench-dir/a.json", "b.json"});
  EXPECT_EQ(compare.exit_code, kExitUsage);
  EXPECT_NE(compare.err.find("Run 'bench compare --help'"), std::string::npos) << compare.err;
  const ProcessResult report = run_process(BENCH_BINARY, {"report", "--no-such-flag"});
  EXPECT_EQ(report.exit_code, kExitUsage);
  EXPECT_NE(report.err.find("Run 'bench report --help'"), std::string::npos) << report.err;
}

TEST(Cli, AnUnwritableOutputPathLeavesNoFileBehind) {
  bench::testing::TempDir dir;
  const ProcessResult result =
      run_process(BENCH_BINARY, {"--num-prompts", "2", "--output-file", dir.file("r.json"),
                                 "--html", dir.file("missing/r.html")});
  EXPECT_EQ(result.exit_code, kExitUsage) << result.err;
  EXPECT_TRUE(bench::testing::read_file(dir.file("r.json")).empty());
}

// Every file bench writes is checked before anything is sent, by creating a file where the
// writer will (as root, access(2) calls /proc writable, where no file can be created), and an
// unwritable path is the usage exit everywhere: the run's files, report -o, merge -o and the
// simulator's truth log, one line naming the flag and the path.
TEST(Cli, EveryUnwritableOutputPathIsTheUsageExitBeforeAnythingIsSent) {
  bench::sim::SimServer server({});
  const bench::testing::TempDir dir;
  const std::string results = dir.file("results.json");
  { std::ofstream(results) << "{}\n"; }
  const std::string missing = "/nonexistent-bench-dir/out";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--base-url", server.base_url(), "--html", "/proc/bench-r.html"},
       "--html: cannot write '/proc/bench-r.html'"},
      {{"--base-url", server.base_url(), "--output-file", "/proc/bench-r.json"},
       "--output-file: cannot write '/proc/bench-r.json'"},
      {{"--base-url", server.base_url(), "--save-requests", "/proc/bench-r.jsonl"},
       "--save-requests: cannot write '/proc/bench-r.jsonl'"},
      {{"--sim-trace", "/proc/bench-trace.jsonl", "--num-prompts", "1"},
       "--sim-trace: cannot write '/proc/bench-trace.jsonl'"},
      {{"report", results, "-o", "/proc/bench-r.html"},
       "report -o: cannot write '/proc/bench-r.html'"},
      {{"report", results, "-o", missing}, "report -o: '" + missing + "': no directory"},
      {{"merge", results, "-o", missing}, "merge -o: '" + missing + "': no directory"},
      {{"serve-sim", "--port", "0", "--trace", "/proc/bench-trace.jsonl"},
       "--trace: cannot write '/proc/bench-trace.jsonl'"},
  };
  for (const auto& [args, must_mention] : cases) {
    const ProcessResult result = run_process(BENCH_BINARY, args);
    EXPECT_EQ(result.exit_code, kExitUsage) << args[0] << " " << args.back() << ": " << result.err;
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;  // one line
    EXPECT_NE(result.err.find(must_mention), std::string::npos) << result.err;
  }
  EXPECT_EQ(server.requests_served(), 0u);
}

TEST(Cli, HelpListsTheFlagsAndExitsZero) {
  const ProcessResult result = run_process(BENCH_BINARY, {"--help"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* flag : {"--base-url", "--concurrency", "--max-concurrency", "--num-prompts",
                           "--output-format", "--save-requests", "serve-sim"}) {
    EXPECT_NE(result.out.find(flag), std::string::npos) << flag;
  }
}

TEST(Cli, ServeSimHelpDocumentsTheServerFlags) {
  const ProcessResult result = run_process(BENCH_BINARY, {"serve-sim", "--help"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* flag : {"--port", "--ttft-ms", "--tpot-ms", "--tokens-per-chunk"}) {
    EXPECT_NE(result.out.find(flag), std::string::npos) << flag;
  }
  // llama-2's template costs 3 tokens by the word rule, 8 as llama-2's tokenizer counts its
  // markers (native_tokenizer_test measures it): the help said 3 alone.
  EXPECT_NE(result.out.find("3 template tokens by the word rule"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("8 with llama-2's"), std::string::npos) << result.out;
}

TEST(Cli, UnreachableServerIsARunFailureNamingTheUrl) {
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  const ProcessResult result = run_process(
      BENCH_BINARY,
      {"--base-url", "http://127.0.0.1:1", "--ready-timeout", "0", "--num-prompts", "2"});
  EXPECT_EQ(result.exit_code, kExitRunFailed);
  EXPECT_NE(result.err.find("http://127.0.0.1:1"), std::string::npos) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
}

// A port that answers bytes that are not HTTP was reached: curl's "Unsupported protocol" read
// "cannot reach ...", which sends the user after a network problem that is not there.
TEST(Cli, APortThatAnswersNonHttpWasReachedAndDidNotAnswerHttp) {
  const bench::testing::HostileServer ssh([](bench::testing::Exchange& exchange) {
    exchange.send("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\nProtocol mismatch.\n");
  });
  const std::string authority = ssh.base_url().substr(std::string("http://").size());
  const ProcessResult result =
      run_process(BENCH_BINARY, {"--base-url", ssh.base_url(), "--num-prompts", "2"});
  EXPECT_EQ(result.exit_code, kExitRunFailed) << result.err;
  EXPECT_NE(result.err.find("reached " + authority + " but it did not answer HTTP (GET " +
                            ssh.base_url() + "/v1/models: "),
            std::string::npos)
      << result.err;
  EXPECT_EQ(result.err.find("cannot reach"), std::string::npos) << result.err;
}

TEST(Cli, UnreachableServerWithAKnownModelCountsEveryRequestAsConnectRefused) {
  const ProcessResult result =
      run_process(BENCH_BINARY, {"--base-url", "http://127.0.0.1:1", "--ready-timeout", "0",
                                 "--model", "m", "--no-answer-check", "--per-chunk-usage", "off",
                                 "--num-prompts", "5", "--output-format", "json"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.out.find("\"connect_refused\""), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\"failed\": 5"), std::string::npos) << result.out;
}

}  // namespace
