// Lengths in tokens by default, through the real binary: with no --tokenizer bench takes the
// model's tokenizer.json from the Hugging Face cache, else the server's /tokenize, else words,
// and says which at start and in the results; a repo id given with --tokenizer is read from the
// cache or refused in one line; the server's /tokenize calls are made before the point's clock.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "bench/tokenizer/byte_level.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

namespace fs = std::filesystem;
using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// A byte-level BPE without merges: every byte of a text is one token.
json byte_tokenizer() {
  const bench::tokenizer::ByteLevelMap map;
  json vocab = json::object();
  for (int byte = 0; byte < 256; ++byte) vocab[map.encode(std::string(1, char(byte)))] = byte;
  return {{"version", "1.0"},
          {"added_tokens", json::array()},
          {"normalizer", nullptr},
          {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}}},
          {"decoder", {{"type", "ByteLevel"}}},
          {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", json::array()}}}};
}

// The same with one merge: " k" is one token, as in every real vocabulary (a weka block's text
// begins with "k" for it: workload/agent_block_text.hpp).
json byte_tokenizer_with_space_k() {
  json tokenizer = byte_tokenizer();
  const bench::tokenizer::ByteLevelMap map;
  tokenizer["model"]["vocab"][map.encode(" k")] = 256;
  tokenizer["model"]["merges"].push_back(map.encode(" ") + " " + map.encode("k"));
  return tokenizer;
}

// `repo`'s main snapshot in the hub cache `cache`, as huggingface_hub lays it out.
std::string put_in_hub_cache(const std::string& cache, const std::string& folder,
                             const json& tokenizer = byte_tokenizer()) {
  const fs::path repo = fs::path(cache) / folder;
  fs::create_directories(repo / "refs");
  fs::create_directories(repo / "snapshots" / "0123abcd");
  std::ofstream(repo / "refs" / "main") << "0123abcd";
  const fs::path file = repo / "snapshots" / "0123abcd" / "tokenizer.json";
  std::ofstream(file) << tokenizer.dump();
  return file.string();
}

struct DefaultRun {
  ProcessResult result;
  json results;  // the JSON results, null when the run wrote none
};

DefaultRun run_lengths(bench::sim::SimOptions sim, std::vector<std::string> args,
                       const std::string& hub_cache) {
  sim.ttft_ms = 1;
  sim.tpot_ms = 0;
  bench::sim::SimServer server(sim);
  std::vector<std::string> full = {"--base-url",        server.base_url(),
                                   "--concurrency",     "2",
                                   "--num-prompts",     "8",
                                   "--output-len",      "4",
                                   "--per-chunk-usage", "off",
                                   "--output-format",   "json"};
  full.insert(full.end(), args.begin(), args.end());
  bench::testing::ProcessOptions options;
  options.env = {"HF_HUB_CACHE=" + hub_cache};
  DefaultRun run;
  run.result = run_process(BENCH_BINARY, bench::testing::without_answer_check(full), options);
  EXPECT_FALSE(run.result.timed_out);
  run.results = json::parse(run.result.out, nullptr, /*allow_exceptions=*/false);
  return run;
}

TEST(DefaultTokenizer, counts_with_the_servers_tokenize_made_before_the_clock) {
  TempDir cache;
  const DefaultRun run = run_lengths({}, {"--input-len", "50"}, cache.path());
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  EXPECT_NE(run.result.err.find("bench: lengths: tokens, counted by server /tokenize (vLLM "
                                "dialect)"),
            std::string::npos)
      << run.result.err;
  EXPECT_EQ(run.results["input_len_unit"], "tokens");
  EXPECT_EQ(run.results["length_tokenizer"], "server /tokenize (vLLM dialect)");
  EXPECT_TRUE(run.results["words_reason"].is_null());
  // Eight prompts, each one /tokenize to its length (the simulator counts words: the first
  // guess is exact); none while the point ran.
  EXPECT_GE(run.results["tokenize_requests_ahead"].get<int>(), 8);
  EXPECT_EQ(run.results["server_tokenize_requests"], 0);
  EXPECT_EQ(run.results["mean_prompt_tokens"], 50);
}

TEST(DefaultTokenizer, takes_the_models_tokenizer_json_from_the_hugging_face_cache) {
  TempDir cache;
  const std::string file = put_in_hub_cache(cache.path(), "models--org--tiny");
  const DefaultRun run =
      run_lengths({}, {"--model", "org/tiny", "--input-len", "40"}, cache.path());
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  EXPECT_NE(run.result.err.find("bench: lengths: tokens, counted by " + file), std::string::npos)
      << run.result.err;
  EXPECT_EQ(run.results["input_len_unit"], "tokens");
  EXPECT_TRUE(run.results["tokenize_requests_ahead"].is_null());  // a file costs the server none
}

TEST(DefaultTokenizer, words_when_no_tokenizer_can_be_had_said_at_start_and_recorded) {
  TempDir cache;
  bench::sim::SimOptions sim;
  sim.tokenize_dialect = bench::sim::TokenizeDialect::none;
  const DefaultRun run = run_lengths(sim, {"--input-len", "30"}, cache.path());
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  EXPECT_NE(run.result.err.find("bench: lengths: words: no tokenizer (no tokenizer.json for "
                                "'bench-sim' in the Hugging Face cache at " +
                                cache.path() +
                                ", and the server has no /tokenize bench can use); --tokenizer "
                                "to give one"),
            std::string::npos)
      << run.result.err;
  EXPECT_EQ(run.results["input_len_unit"], "words");
  EXPECT_TRUE(run.results["words_reason"].is_string());
}

// Prompts that could not all be made before the clock (a warm-up by time, --duration, over
// 10,000 requests a point) would ask the server's /tokenize while it is measured: not by default.
TEST(DefaultTokenizer, words_when_the_servers_tokenize_would_be_asked_during_the_run) {
  TempDir cache;
  const DefaultRun run =
      run_lengths({}, {"--input-len", "30", "--warmup-duration", "0.1s"}, cache.path());
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  EXPECT_NE(run.result.err.find("the server's /tokenize would be asked while the run is "
                                "measured"),
            std::string::npos)
      << run.result.err;
  EXPECT_EQ(run.results["input_len_unit"], "words");
  EXPECT_TRUE(run.results["server_tokenize_requests"].is_null());
}

TEST(DefaultTokenizer, tokenizer_words_is_the_explicit_choice_of_words) {
  TempDir cache;
  const DefaultRun run =
      run_lengths({}, {"--tokenizer", "words", "--input-len", "30"}, cache.path());
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  EXPECT_NE(run.result.err.find("bench: lengths: words (--tokenizer words)"), std::string::npos)
      << run.result.err;
  EXPECT_EQ(run.results["input_len_unit"], "words");
  EXPECT_EQ(run.results["words_reason"], "--tokenizer words");
}

TEST(DefaultTokenizer, a_repo_id_is_read_from_the_cache_or_refused_before_any_request) {
  TempDir cache;
  const std::string file = put_in_hub_cache(cache.path(), "models--org--tiny");
  const DefaultRun found =
      run_lengths({}, {"--tokenizer", "org/tiny", "--input-len", "40"}, cache.path());
  ASSERT_EQ(found.result.exit_code, 0) << found.result.err;
  EXPECT_NE(found.result.err.find("counted by " + file), std::string::npos) << found.result.err;

  const DefaultRun missing =
      run_lengths({}, {"--tokenizer", "meta-llama/Llama-3.1-8B-Instruct"}, cache.path());
  EXPECT_EQ(missing.result.exit_code, 2);
  EXPECT_NE(missing.result.err.find(
                "bench: error: --tokenizer meta-llama/Llama-3.1-8B-Instruct is not in the Hugging "
                "Face cache at " +
                cache.path() +
                "; bench does not download: `huggingface-cli download "
                "meta-llama/Llama-3.1-8B-Instruct tokenizer.json`, or --tokenizer server"),
            std::string::npos)
      << missing.result.err;
}

// A weka replay makes each block to its length when its request is sent, a few counts a block:
// it takes the model's tokenizer.json as every run does, but never the server's /tokenize.
DefaultRun replay_weka(const std::vector<std::string>& args, const std::string& hub_cache) {
  bench::sim::SimServer server({});
  std::vector<std::string> full = {
      "--base-url",      server.base_url(),
      "--dataset",       "trace",
      "--trace-format",  "weka",
      "--dataset-path",  std::string(BENCH_TEST_DATA_DIR) + "/traces/weka_tree.json",
      "--trace-start",   "beginning",
      "--trace-speed",   "1000",
      "--output-format", "json"};
  full.insert(full.end(), args.begin(), args.end());
  bench::testing::ProcessOptions options;
  options.env = {"HF_HUB_CACHE=" + hub_cache};
  DefaultRun run;
  run.result = run_process(BENCH_BINARY, bench::testing::without_answer_check(full), options);
  run.results = json::parse(run.result.out, nullptr, /*allow_exceptions=*/false);
  return run;
}

TEST(DefaultTokenizer, a_weka_replay_takes_a_cached_tokenizer_json_never_the_servers_tokenize) {
  TempDir cache;
  const DefaultRun words = replay_weka({}, cache.path());
  ASSERT_EQ(words.result.exit_code, 0) << words.result.err;
  EXPECT_NE(words.result.err.find("bench: lengths: words: no tokenizer (no tokenizer.json for "
                                  "'bench-sim' in the Hugging Face cache at " +
                                  cache.path() +
                                  "; a weka trace's blocks are made to their "
                                  "lengths when sent"),
            std::string::npos)
      << words.result.err;
  EXPECT_EQ(words.results["input_len_unit"], "words");
  EXPECT_TRUE(words.results["tokenize_requests_ahead"].is_null());

  const std::string file =
      put_in_hub_cache(cache.path(), "models--org--tiny", byte_tokenizer_with_space_k());
  const DefaultRun tokens = replay_weka({"--model", "org/tiny"}, cache.path());
  ASSERT_EQ(tokens.result.exit_code, 0) << tokens.result.err;
  EXPECT_NE(tokens.result.err.find("bench: lengths: tokens, counted by " + file), std::string::npos)
      << tokens.result.err;
  EXPECT_NE(tokens.result.err.find("lengths in tokens"), std::string::npos) << tokens.result.err;
  EXPECT_EQ(tokens.results["input_len_unit"], "tokens");
  // The client's count of what it sent is the requests' recorded lengths.
  EXPECT_EQ(tokens.results["mean_client_prompt_tokens"],
            tokens.results["mean_requested_input_len"]);
}

TEST(DefaultTokenizer, compare_refuses_a_words_run_against_a_tokens_run) {
  TempDir cache;
  TempDir dir;
  const DefaultRun tokens =
      run_lengths({}, {"--output-file", dir.file("tokens.json")}, cache.path());
  const DefaultRun words = run_lengths(
      {}, {"--tokenizer", "words", "--output-file", dir.file("words.json")}, cache.path());
  ASSERT_EQ(tokens.result.exit_code, 0) << tokens.result.err;
  ASSERT_EQ(words.result.exit_code, 0) << words.result.err;
  const ProcessResult compared =
      run_process(BENCH_BINARY, {"compare", dir.file("words.json"), dir.file("tokens.json")});
  EXPECT_EQ(compared.exit_code, 2);
  EXPECT_NE(compared.err.find("bench compare: error: cannot compare " + dir.file("words.json") +
                              " (lengths in words) with " + dir.file("tokens.json") +
                              " (lengths in tokens)"),
            std::string::npos)
      << compared.err;
}

}  // namespace
