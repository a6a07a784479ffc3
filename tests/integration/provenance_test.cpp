// Every result records what made it (results/provenance.hpp), the text report says it, and
// `bench compare` warns, one line an item, when two results were made differently; the saved
// results of tests/data, from before the block, still read and render.
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include <curl/curl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

const std::vector<std::string> kLightRun = {"--num-prompts", "4", "--concurrency", "2",
                                            "--input-len",   "8", "--output-len",  "4",
                                            "--sim-ttft-ms", "1", "--sim-tpot-ms", "1"};

std::vector<std::string> light_run(std::vector<std::string> more) {
  std::vector<std::string> args = kLightRun;
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// How many of compare's stderr lines are about what made the two files.
int provenance_lines(const std::string& err) {
  int lines = 0;
  for (std::size_t at = 0; (at = err.find("were made with a different", at)) != std::string::npos;
       ++at) {
    ++lines;
  }
  for (std::size_t at = 0; (at = err.find("does not record what made it", at)) != std::string::npos;
       ++at) {
    ++lines;
  }
  return lines;
}

TEST(Provenance, EveryResultRecordsTheBuildAndTheHostThatMadeIt) {
  const ProcessResult run = run_process(BENCH_BINARY, light_run({"--output-format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  const json& made = results["provenance"];
  ASSERT_TRUE(made.is_object()) << results.dump();
  EXPECT_EQ(made["bench_version"], results["bench_version"]);
  EXPECT_FALSE(made["commit"].get<std::string>().empty());
  EXPECT_FALSE(made["build_type"].get<std::string>().empty());
  // The libcurl loaded at run time, as this process (linked alike) loads it.
  EXPECT_EQ(made["libcurl"], curl_version_info(CURLVERSION_NOW)->version);
  EXPECT_EQ(made["cpus_online"], sysconf(_SC_NPROCESSORS_ONLN));
  EXPECT_FALSE(made["cpu_model"].get<std::string>().empty());

  const ProcessResult text = run_process(BENCH_BINARY, kLightRun);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Made by:"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("libcurl " + made["libcurl"].get<std::string>()), std::string::npos)
      << text.out;
}

TEST(Provenance, CompareWarnsOnceForEachItemTwoResultsWereMadeDifferentlyIn) {
  TempDir dir;
  const ProcessResult run =
      run_process(BENCH_BINARY, light_run({"--quiet", "--output-file", dir.file("a.json")}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ProcessResult same =
      run_process(BENCH_BINARY, {"compare", dir.file("a.json"), dir.file("a.json")});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(provenance_lines(same.err), 0) << same.err;

  // The same results as if made by another libcurl on a 64-CPU host.
  json other = json::parse(bench::testing::read_file(dir.file("a.json")));
  other["provenance"]["libcurl"] = "0.0.1";
  other["provenance"]["cpus_online"] = 64;
  std::ofstream(dir.file("b.json")) << other.dump();
  const ProcessResult differ =
      run_process(BENCH_BINARY, {"compare", dir.file("a.json"), dir.file("b.json")});
  EXPECT_EQ(differ.exit_code, 0) << differ.err;  // a warning, not a failure
  EXPECT_EQ(provenance_lines(differ.err), 2) << differ.err;
  EXPECT_NE(differ.err.find("different libcurl version"), std::string::npos) << differ.err;
  EXPECT_NE(differ.err.find("different CPUs online"), std::string::npos) << differ.err;
}

// Saved results from before the block: they still compare (with each other silently, with a
// new file in one line naming what is unknown) and render.
TEST(Provenance, SavedResultsWithoutTheBlockStillCompareAndRender) {
  const std::string data = std::string(BENCH_TEST_DATA_DIR);
  const ProcessResult old_pair =
      run_process(BENCH_BINARY,
                  {"compare", data + "/compare/run_c4.json", data + "/compare/run_c4_rerun.json"});
  EXPECT_EQ(old_pair.exit_code, 0) << old_pair.err;
  EXPECT_EQ(provenance_lines(old_pair.err), 0) << old_pair.err;

  TempDir dir;
  const ProcessResult run =
      run_process(BENCH_BINARY, light_run({"--quiet", "--output-file", dir.file("new.json")}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ProcessResult mixed =
      run_process(BENCH_BINARY, {"compare", data + "/compare/run_c4.json", dir.file("new.json")});
  EXPECT_NE(mixed.exit_code, 2) << mixed.err;  // compared, not refused
  EXPECT_EQ(provenance_lines(mixed.err), 1) << mixed.err;
  EXPECT_NE(mixed.err.find("run_c4.json does not record what made it"), std::string::npos)
      << mixed.err;

  for (const char* name : {"single_run.json", "single_run_legacy.json", "sweep_concurrency.json"}) {
    const ProcessResult report = run_process(
        BENCH_BINARY, {"report", data + "/results/" + name, "-o", dir.file("report.html")});
    EXPECT_EQ(report.exit_code, 0) << name << ": " << report.err;
  }
}

}  // namespace
