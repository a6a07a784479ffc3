// vLLM's and SGLang's own result files read as bench results (results/peer_file_read.hpp), by the
// figure catalogue's peer names, through the one reader every command uses (read_results_file).
#include "bench/results/peer_file_read.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <variant>

#include "bench/results/read_file.hpp"
#include "temp_file.hpp"

namespace {

using bench::results::FormatError;
using bench::results::read_results_file;
using bench::results::ResultsFile;
using nlohmann::json;

const std::string kPeerResults = std::string(BENCH_TEST_DATA_DIR) + "/peer_results/";

json read_as_bench(const std::string& path) {
  auto file = read_results_file(path);
  if (const auto* error = std::get_if<FormatError>(&file)) {
    ADD_FAILURE() << error->message;
    return json();
  }
  return std::get<ResultsFile>(file).results;
}

json parsed(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST(PeerFileRead, VllmsFileIsARunUnderBenchsKeys) {
  const json vllm = parsed(kPeerResults + "vllm_save_result.json");
  const json run = read_as_bench(kPeerResults + "vllm_save_result.json");
  EXPECT_EQ(run[bench::results::kPeerFileKey], "vllm");
  EXPECT_EQ(run["completed"], vllm["completed"]);
  EXPECT_EQ(run["sent"], vllm["completed"].get<int>() + vllm["failed"].get<int>());
  EXPECT_EQ(run["output_throughput"], vllm["output_throughput"]);
  EXPECT_EQ(run["total_throughput"], vllm["total_token_throughput"]);
  EXPECT_EQ(run["median_ttft_ms"], vllm["median_ttft_ms"]);
  EXPECT_EQ(run["p99_e2e_latency_ms"], vllm["p99_e2el_ms"]);
  // vLLM's itl is a chunk gap: bench's icl, never bench's per-token itl.
  EXPECT_EQ(run["median_icl_ms"], vllm["median_itl_ms"]);
  EXPECT_FALSE(run.contains("median_itl_ms"));
  // No figure the file lacks is made up: vLLM writes no input throughput.
  EXPECT_FALSE(run.contains("input_throughput"));
  EXPECT_FALSE(run.contains("goodput"));  // null without --goodput
}

TEST(PeerFileRead, AiperfsExportIsARunUnderBenchsKeys) {
  const json aiperf = parsed(kPeerResults + "aiperf_profile_export.json");
  const json run = read_as_bench(kPeerResults + "aiperf_profile_export.json");
  EXPECT_EQ(run[bench::results::kPeerFileKey], "aiperf");
  EXPECT_EQ(run["completed"], 20);
  EXPECT_EQ(run["total_output_tokens"], 240);
  EXPECT_DOUBLE_EQ(run["duration"].get<double>(), 0.8127);
  EXPECT_DOUBLE_EQ(run["output_throughput"].get<double>(), 295.3);
  EXPECT_EQ(run["mean_ttft_ms"], aiperf["time_to_first_token"]["avg"]);
  EXPECT_EQ(run["median_ttft_ms"], aiperf["time_to_first_token"]["p50"]);
  EXPECT_EQ(run["p99_e2e_latency_ms"], aiperf["request_latency"]["p99"]);
  // AIPerf's ITL is bench's TPOT, its ICL bench's ICL: never bench's per-token ITL.
  EXPECT_EQ(run["mean_tpot_ms"], aiperf["inter_token_latency"]["avg"]);
  EXPECT_EQ(run["p99_icl_ms"], aiperf["inter_chunk_latency"]["p99"]);
  EXPECT_FALSE(run.contains("mean_itl_ms"));
  // Nothing it does not hold is made up: no error count in it, so no failed nor sent.
  EXPECT_FALSE(run.contains("failed"));
  EXPECT_FALSE(run.contains("input_throughput"));
}

TEST(PeerFileRead, SglangsLineIsARunUnderBenchsKeys) {
  const json sglang = parsed(kPeerResults + "sglang_output_file.jsonl");
  const json run = read_as_bench(kPeerResults + "sglang_output_file.jsonl");
  EXPECT_EQ(run[bench::results::kPeerFileKey], "sglang");
  EXPECT_EQ(run["total_throughput"], sglang["total_throughput"]);
  EXPECT_EQ(run["input_throughput"], sglang["input_throughput"]);
  EXPECT_EQ(run["p90_e2e_latency_ms"], sglang["p90_e2e_latency_ms"]);
  EXPECT_EQ(run["p99_icl_ms"], sglang["p99_itl_ms"]);
  EXPECT_FALSE(run.contains("sent"));  // SGLang writes no failed count
}

// A line SGLang's own client wrote (its bench_serving.py at ai-blaise/optimization-playground
// 88a6f9dab, scripts/peer-differential): an unlimited rate is Python's bare Infinity, not JSON.
TEST(PeerFileRead, SglangsOwnLineIsReadDespitePythonsInfinity) {
  const json run = read_as_bench(kPeerResults + "sglang_client_output_file.jsonl");
  EXPECT_EQ(run[bench::results::kPeerFileKey], "sglang");
  EXPECT_EQ(run["completed"], 20);
  EXPECT_TRUE(run["median_ttft_ms"].is_number());
  EXPECT_TRUE(run["median_icl_ms"].is_number());
}

TEST(PeerFileRead, PythonsConstantsAreReadOnlyInAPeersFile) {
  const bench::testing::TempFile own("own.json", R"({"output_throughput": Infinity})");
  auto file = read_results_file(own.path());
  ASSERT_TRUE(std::holds_alternative<FormatError>(file));
  EXPECT_NE(std::get<FormatError>(file).message.find("not JSON"), std::string::npos);
}

TEST(PeerFileRead, BenchsOwnFilesAreNotPeers) {
  EXPECT_FALSE(bench::results::peer_file_as_results(
                   parsed(std::string(BENCH_TEST_DATA_DIR) + "/compare/run_c4.json"))
                   .has_value());
  EXPECT_FALSE(bench::results::peer_file_as_results(json::array()).has_value());
}

TEST(PeerFileRead, AFileOfAppendedRunsIsRefusedSayingHowToTakeOne) {
  const std::string line = [] {
    std::ifstream in(kPeerResults + "sglang_output_file.jsonl");
    std::string text;
    std::getline(in, text);
    return text;
  }();
  const bench::testing::TempFile appended("appended.jsonl", line + "\n" + line + "\n");
  auto file = read_results_file(appended.path());
  ASSERT_TRUE(std::holds_alternative<FormatError>(file));
  EXPECT_NE(std::get<FormatError>(file).message.find(
                "2 runs, one JSON object a line (SGLang's --output-file and vLLM's "
                "--append-result append one a run)"),
            std::string::npos)
      << std::get<FormatError>(file).message;
}

}  // namespace
