// `bench certify RESULTS` (the loopback twin) held against the truth: a light run's twin is within
// the machine's floor and unflagged; a run made client-bound on purpose (256 streams of 0.05 ms
// tokens on one event loop, beside its own server on the same cores) gets a large error and the
// flag. Timing: the bounds are wide, and the client-bound run is judged at a 1% share.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace certify_twin_timing_test {

using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

json certificate(const std::vector<std::string>& run_args, const std::vector<std::string>& extra) {
  TempDir dir;
  std::vector<std::string> args = run_args;
  args.insert(args.end(), {"--ignore-eos", "--quiet", "--output-file", dir.file("run.json")});
  const auto run = run_process(BENCH_BINARY, args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> certify = {"certify", dir.file("run.json"), "--output-format", "json"};
  certify.insert(certify.end(), extra.begin(), extra.end());
  const auto certified = run_process(BENCH_BINARY, certify);
  EXPECT_EQ(certified.exit_code, 0) << certified.err;
  return json::parse(certified.out);
}

TEST(CertifyTwinTiming, ALightRunsTwinIsWithinTheFloorAndUnflagged) {
  const json error = certificate(
      {"--num-prompts", "24", "--concurrency", "4", "--input-len", "32", "--output-len", "12"}, {});
  EXPECT_EQ(error["over_share"], false) << error.dump(2);
  EXPECT_EQ(error["requests_joined"], 24);
  EXPECT_LT(error["ttft_client_error_p99_ms"].get<double>(), 2.5);  // 50 ms TTFT: 5%
  EXPECT_NE(error["twin"].get<std::string>().find("loopback twin"), std::string::npos);
}

TEST(CertifyTwinTiming, AClientBoundRunsTwinGetsALargeErrorAndTheFlag) {
  const json error = certificate(
      {"--sim-ttft-ms", "1", "--sim-tpot-ms", "0.05", "--concurrency", "256", "--num-prompts",
       "256", "--input-len", "16", "--output-len", "200", "--client-threads", "1"},
      {"--max-error-share", "0.01"});
  EXPECT_EQ(error["over_share"], true) << error.dump(2);
  EXPECT_GT(error["ttft_client_error_p99_ms"].get<double>(), 1.0) << error.dump(2);
}

}  // namespace certify_twin_timing_test
