// Token-exact lengths through the real binary, checked on the server's side (the simulator's
// truth log says how many prompt tokens it counted): with --tokenizer server, --input-len N
// arrives as exactly N content tokens plus the chat template's reported overhead; random-ids
// as exactly N ids; a server without /tokenize stops the run with one line before any request;
// flags that cannot work are refused before anything is sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

struct LengthsRun {
  ProcessResult result;
  std::vector<json> served;  // the truth log: one line per completion request served
  std::vector<json> saved;   // bench's --save-requests
};

LengthsRun run_against(bench::sim::SimOptions options, std::vector<std::string> args) {
  TempDir dir;
  LengthsRun run;
  {
    options.ttft_ms = 1;
    options.tpot_ms = 0;
    options.trace_path = dir.file("trace.jsonl");
    bench::sim::SimServer server(options);
    std::vector<std::string> full = {"--base-url",        server.base_url(),
                                     "--concurrency",     "2",
                                     "--num-prompts",     "6",
                                     "--per-chunk-usage", "off",
                                     "--save-requests",   dir.file("requests.jsonl")};
    full.insert(full.end(), args.begin(), args.end());
    if (std::find(args.begin(), args.end(), "--output-len") == args.end()) {
      full.insert(full.end(), {"--output-len", "4"});
    }
    run.result = run_process(BENCH_BINARY, bench::testing::without_answer_check(full));
    EXPECT_FALSE(run.result.timed_out);
  }
  run.served = read_jsonl(dir.file("trace.jsonl"));
  run.saved = read_jsonl(dir.file("requests.jsonl"));
  return run;
}

bench::sim::SimOptions llama2_server(bench::sim::TokenizeDialect dialect) {
  bench::sim::SimOptions options;
  options.chat_template = bench::sim::ChatTemplate::llama2;
  options.tokenize_dialect = dialect;
  return options;
}

// The probe of per-chunk usage is off; a dialect without a chat tokenizer (TGI) measures the
// template with one probe request of a few tokens, so the run's six are those of N tokens.
void expect_every_prompt(const LengthsRun& run, std::int64_t served_tokens,
                         std::int64_t client_tokens) {
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  ASSERT_LE(run.served.size(), 7u) << run.result.err;
  EXPECT_EQ(std::count_if(run.served.begin(), run.served.end(),
                          [&](const json& line) { return line["prompt_tokens"] == served_tokens; }),
            6)
      << run.result.err;
  ASSERT_EQ(run.saved.size(), 6u);
  for (const json& line : run.saved) {
    EXPECT_EQ(line["client_prompt_tokens"], client_tokens) << line;
    EXPECT_EQ(line["prompt_tokens"], served_tokens) << line;
  }
}

class TokenizerDialect : public ::testing::TestWithParam<bench::sim::TokenizeDialect> {};

TEST_P(TokenizerDialect, chat_input_len_arrives_as_content_plus_the_reported_template) {
  const LengthsRun run =
      run_against(llama2_server(GetParam()), {"--tokenizer", "server", "--input-len", "1000"});
  // llama-2 on one user message: BOS, [INST], [/INST] (prompt_counter.hpp).
  EXPECT_NE(run.result.err.find("chat template: 3 tokens a prompt"), std::string::npos)
      << run.result.err;
  expect_every_prompt(run, 1003, 1000);
}

// The content arrives exactly; the server counts its llama-2 model's BOS beside it, as vLLM and
// llama.cpp count a completions prompt's.
TEST_P(TokenizerDialect, completions_input_len_arrives_exactly) {
  const LengthsRun run =
      run_against(llama2_server(GetParam()),
                  {"--tokenizer", "server", "--endpoint", "completions", "--input-len", "1000"});
  expect_every_prompt(run, 1001, 1000);
}

TEST_P(TokenizerDialect, the_detected_dialect_is_said_once_on_stderr) {
  const LengthsRun run =
      run_against(llama2_server(GetParam()),
                  {"--tokenizer", "server", "--endpoint", "completions", "--input-len", "10"});
  const std::string expected = GetParam() == bench::sim::TokenizeDialect::vllm ? "(vLLM dialect)"
                               : GetParam() == bench::sim::TokenizeDialect::llamacpp
                                   ? "(llama.cpp dialect)"
                                   : "(TGI dialect)";
  EXPECT_NE(run.result.err.find("bench: lengths: tokens, counted by server /tokenize " + expected),
            std::string::npos)
      << run.result.err;
}

INSTANTIATE_TEST_SUITE_P(Dialects, TokenizerDialect,
                         ::testing::Values(bench::sim::TokenizeDialect::vllm,
                                           bench::sim::TokenizeDialect::llamacpp,
                                           bench::sim::TokenizeDialect::tgi),
                         [](const auto& dialect_info) {
                           return std::string(
                               bench::sim::tokenize_dialect_name(dialect_info.param));
                         });

// The user trial's item 7 with --tokenizer server: against llama.cpp, --endpoint completions
// --input-len 32 warned "input_len_mismatch: the server counted 33.0 ... 32.0 expected". The
// 33rd token is the BOS the server adds; bench measures it by the server's /tokenize (with and
// without its special tokens; TGI's by their empty spans) and expects it: no warning.
class ServerBos : public ::testing::TestWithParam<bench::sim::TokenizeDialect> {};

TEST_P(ServerBos, a_completions_prompts_bos_is_expected_not_a_mismatch) {
  const LengthsRun run =
      run_against(llama2_server(GetParam()), {"--tokenizer", "server", "--endpoint", "completions",
                                              "--input-len", "32", "--output-format", "json"});
  expect_every_prompt(run, 33, 32);
  const json results = json::parse(run.result.out);
  EXPECT_EQ(results["prompt_special_tokens"], 1.0) << results;
  EXPECT_EQ(results["expected_prompt_tokens"], 33.0) << results;
  EXPECT_EQ(results["input_len_mismatch"], false) << results;
  EXPECT_EQ(run.result.err.find("input_len_mismatch"), std::string::npos) << run.result.err;
}

INSTANTIATE_TEST_SUITE_P(Dialects, ServerBos,
                         ::testing::Values(bench::sim::TokenizeDialect::vllm,
                                           bench::sim::TokenizeDialect::llamacpp,
                                           bench::sim::TokenizeDialect::tgi),
                         [](const auto& dialect_info) {
                           return std::string(
                               bench::sim::tokenize_dialect_name(dialect_info.param));
                         });

TEST(TokenLengths, input_len_includes_template_makes_the_server_count_exactly_n) {
  const LengthsRun run = run_against(
      llama2_server(bench::sim::TokenizeDialect::vllm),
      {"--tokenizer", "server", "--input-len", "1000", "--input-len-includes-template"});
  expect_every_prompt(run, 1000, 997);
}

TEST(TokenLengths, random_ids_arrive_as_exactly_n_ids) {
  const LengthsRun run =
      run_against(bench::sim::SimOptions{},
                  {"--dataset", "random-ids", "--endpoint", "completions", "--input-len", "1000"});
  expect_every_prompt(run, 1000, 1000);
}

TEST(TokenLengths, a_server_without_tokenize_stops_the_run_in_one_line_before_any_request) {
  const LengthsRun run = run_against(llama2_server(bench::sim::TokenizeDialect::none),
                                     {"--tokenizer", "server", "--quiet"});
  EXPECT_EQ(run.result.exit_code, 3);
  EXPECT_TRUE(run.served.empty());
  EXPECT_EQ(std::count(run.result.err.begin(), run.result.err.end(), '\n'), 1) << run.result.err;
  EXPECT_NE(run.result.err.find("has no /tokenize"), std::string::npos) << run.result.err;
}

TEST(TokenLengths, random_ids_on_chat_is_refused_before_anything_is_sent) {
  const LengthsRun run = run_against(bench::sim::SimOptions{}, {"--dataset", "random-ids"});
  EXPECT_EQ(run.result.exit_code, 2) << run.result.err;
  EXPECT_TRUE(run.served.empty());
  EXPECT_NE(run.result.err.find("--endpoint completions"), std::string::npos) << run.result.err;
}

TEST(TokenLengths, template_flag_without_a_tokenizer_is_refused_before_anything_is_sent) {
  const LengthsRun run = run_against(bench::sim::SimOptions{}, {"--input-len-includes-template"});
  EXPECT_EQ(run.result.exit_code, 2) << run.result.err;
  EXPECT_TRUE(run.served.empty());
}

TEST(TokenLengths, a_tokenizer_file_that_cannot_be_read_is_refused_before_anything_is_sent) {
  const LengthsRun run =
      run_against(bench::sim::SimOptions{}, {"--tokenizer", "/nonexistent.json"});
  EXPECT_EQ(run.result.exit_code, 2) << run.result.err;
  EXPECT_TRUE(run.served.empty());
}

TEST(TokenLengths, results_show_the_unit_the_template_and_no_mismatch_when_lengths_hold) {
  const LengthsRun run = run_against(
      llama2_server(bench::sim::TokenizeDialect::vllm),
      {"--tokenizer", "server", "--input-len", "100", "--ignore-eos", "--output-format", "json"});
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const json results = json::parse(run.result.out);
  EXPECT_EQ(results["input_len_unit"], "tokens");
  EXPECT_EQ(results["chat_template_tokens"], 3.0);
  EXPECT_EQ(results["expected_prompt_tokens"], 103.0);
  EXPECT_EQ(results["input_len_mismatch"], false);
  EXPECT_EQ(results["output_len_mismatch"], false);
}

// The server's tokenizer made the prompts before the point's clock: the results say how many
// requests that sent to the server under test and how long it took, none went while the point
// ran, and the content tokens it counted.
TEST(TokenLengths, results_count_the_tokenize_requests_made_ahead_of_the_run) {
  const LengthsRun run =
      run_against(llama2_server(bench::sim::TokenizeDialect::vllm),
                  {"--tokenizer", "server", "--input-len", "100", "--output-format", "json"});
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const json results = json::parse(run.result.out);
  ASSERT_TRUE(results["tokenize_requests_ahead"].is_number()) << results;
  EXPECT_GE(results["tokenize_requests_ahead"].get<std::int64_t>(), 6);  // one a prompt at least
  EXPECT_GE(results["prompts_ahead_s"].get<double>(), 0.0);
  EXPECT_EQ(results["server_tokenize_requests"], 0);
  EXPECT_EQ(results["mean_client_prompt_tokens"], 100.0);
  EXPECT_NE(run.result.err.find("bench: prompts: 6 made ahead in "), std::string::npos)
      << run.result.err;

  const LengthsRun words =
      run_against(bench::sim::SimOptions{},
                  {"--tokenizer", "words", "--input-len", "10", "--output-format", "json"});
  ASSERT_EQ(words.result.exit_code, 0) << words.result.err;
  const json word_results = json::parse(words.result.out);
  EXPECT_TRUE(word_results["server_tokenize_requests"].is_null());
  EXPECT_TRUE(word_results["tokenize_requests_ahead"].is_null());
  EXPECT_TRUE(word_results["mean_client_prompt_tokens"].is_null());
}

// A warm-up by time leaves the requests unknown ahead (as a --duration run does): their
// prompts are made as the point runs, and those /tokenize requests are counted apart.
TEST(TokenLengths, results_count_the_tokenize_requests_made_during_the_run) {
  const LengthsRun run = run_against(llama2_server(bench::sim::TokenizeDialect::vllm),
                                     {"--tokenizer", "server", "--input-len", "20",
                                      "--warmup-duration", "0.1s", "--output-format", "json"});
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const json results = json::parse(run.result.out);
  EXPECT_TRUE(results["tokenize_requests_ahead"].is_null());
  EXPECT_GE(results["server_tokenize_requests"].get<std::int64_t>(), 1);
}

// The server's tokenizer is not asked to count outputs (a request per response, to the server
// under test): without usage its runs keep the labelled chunk estimate.
TEST(TokenLengths, the_server_tokenizer_leaves_output_without_usage_to_the_estimate) {
  bench::sim::SimOptions options = llama2_server(bench::sim::TokenizeDialect::vllm);
  options.send_usage = false;
  const LengthsRun run = run_against(options, {"--tokenizer", "server", "--endpoint", "completions",
                                               "--input-len", "10", "--output-format", "json"});
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  for (const json& line : run.saved) EXPECT_EQ(line["completion_token_source"], "chunks_estimate");
  EXPECT_EQ(json::parse(run.result.out)["token_count_source"]["output"], "chunks_estimate");
}

// Without a tokenizer the template goes uncounted: the server's count is 30% over the words
// asked, and the run says so.
TEST(TokenLengths, an_uncounted_template_is_flagged_as_an_input_mismatch) {
  const LengthsRun run =
      run_against(llama2_server(bench::sim::TokenizeDialect::vllm),
                  {"--tokenizer", "words", "--input-len", "10", "--output-format", "json"});
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  const json results = json::parse(run.result.out);
  EXPECT_EQ(results["input_len_unit"], "words");
  EXPECT_EQ(results["input_len_mismatch"], true);
  EXPECT_NE(run.result.err.find("warning: input_len_mismatch"), std::string::npos)
      << run.result.err;
}

// "Requested" is what was sent: --extra-body's max_tokens replaces --output-len in the body,
// and so in every record and in the results.
TEST(TokenLengths, extra_body_max_tokens_is_the_requested_output_length) {
  const LengthsRun run =
      run_against(bench::sim::SimOptions{}, {"--extra-body", R"({"max_tokens":5})", "--output-len",
                                             "20", "--input-len", "10", "--output-format", "json"});
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  ASSERT_EQ(run.saved.size(), 6u);
  for (const json& line : run.saved) EXPECT_EQ(line["requested_output_len"], 5) << line;
  for (const json& line : run.served) EXPECT_EQ(line["completion_tokens"], 5) << line;
  const json results = json::parse(run.result.out);
  EXPECT_EQ(results["mean_requested_output_len"], 5.0);
  EXPECT_EQ(results["config"]["output_len"], 5);
}

}  // namespace
