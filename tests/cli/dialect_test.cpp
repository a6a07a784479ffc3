// vLLM's and SGLang's command lines read with their meanings and defaults (cli/dialect.hpp,
// issue 45): which dialect a line is in, and what each peer flag and default becomes. Facts from
// vLLM vllm/benchmarks/serve.py, datasets/datasets.py and SGLang
// python/sglang/benchmark/serving.py.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/cli/options.hpp"
#include "bench/workload/dataset.hpp"
#include "parse_run_options.hpp"

namespace dialect_test {

using bench::cli::Dialect;
using bench::protocol::Endpoint;
using bench::testing::parse_args;
using bench::testing::parse_run_options;
using bench::workload::DatasetKind;
using bench::workload::RangeRule;

// The ranges a run's random lengths are drawn from (the run plan copies the lengths into the
// dataset's options; the rule and ratios are the dataset's).
bench::workload::LengthRange input_range(const bench::cli::RunOptions& run) {
  bench::workload::DatasetOptions dataset = run.dataset;
  dataset.input_len = run.input_len;
  return bench::workload::input_length_range(dataset);
}

bench::workload::LengthRange output_range(const bench::cli::RunOptions& run) {
  bench::workload::DatasetOptions dataset = run.dataset;
  dataset.output_len = run.output_len;
  return bench::workload::output_length_range(dataset);
}

bool said(const bench::cli::RunOptions& run, const std::string& words) {
  for (const std::string& note : run.dialect_notes) {
    if (note.find(words) != std::string::npos) return true;
  }
  return false;
}

std::string usage_error(std::vector<std::string> args) {
  const bench::cli::ParseResult parsed = parse_args(std::move(args));
  EXPECT_TRUE(parsed.exit_code.has_value());
  return parsed.message;
}

TEST(Dialect, BenchsOwnFlagsKeepBenchsDefaults) {
  const auto run = parse_run_options({"--input-len", "64"});
  EXPECT_EQ(run.dialect, Dialect::bench);
  EXPECT_TRUE(run.dialect_notes.empty());
  EXPECT_TRUE(run.base_urls.empty());  // the embedded server
  EXPECT_EQ(run.endpoint, Endpoint::chat);
  EXPECT_EQ(run.concurrency, std::vector<std::int64_t>{64});
  EXPECT_FALSE(run.ignore_eos);
}

TEST(Dialect, AVllmLineTakesVllmsDefaults) {
  const auto run =
      parse_run_options({"--backend", "openai", "--model", "m", "--dataset-name", "random",
                         "--random-input-len", "100", "--num-prompts", "40"});
  EXPECT_EQ(run.dialect, Dialect::vllm);
  EXPECT_TRUE(said(run, "reading this command line as vLLM's (--backend openai)"));
  EXPECT_EQ(run.base_urls, std::vector<std::string>{"http://127.0.0.1:8000"});
  EXPECT_EQ(run.endpoint, Endpoint::completions);
  EXPECT_EQ(run.dataset.kind, DatasetKind::random);
  EXPECT_EQ(run.input_len, 100);
  EXPECT_EQ(run.output_len, 128);
  EXPECT_TRUE(run.ignore_eos);  // vLLM's random dataset
  EXPECT_FALSE(run.temperature.has_value());
  EXPECT_EQ(run.concurrency, std::vector<std::int64_t>{40});  // every request at once
  EXPECT_EQ(run.warmup_requests, 0);
  ASSERT_EQ(run.peer_defaults_not_taken.size(), 1U);
  EXPECT_NE(run.peer_defaults_not_taken[0].find("--seed"), std::string::npos);
}

TEST(Dialect, AnSglangLineTakesSglangsDefaults) {
  const auto run = parse_run_options({"--backend", "sglang-oai-chat", "--dataset-name", "random",
                                      "--random-input", "1024", "--num-prompt", "10"});
  EXPECT_EQ(run.dialect, Dialect::sglang);
  EXPECT_EQ(run.base_urls, std::vector<std::string>{"http://127.0.0.1:30000"});
  EXPECT_EQ(run.endpoint, Endpoint::chat);
  EXPECT_EQ(run.num_prompts, 10);
  EXPECT_TRUE(run.num_prompts_given);
  EXPECT_EQ(run.output_len, 1024);  // SGLang's --random-output-len default
  EXPECT_TRUE(run.ignore_eos);
  ASSERT_TRUE(run.temperature.has_value());
  EXPECT_EQ(*run.temperature, 0.0);
  // SGLang's one warm-up request is not taken: bench's would share the measured slots.
  EXPECT_EQ(run.warmup_requests, 0);
  ASSERT_EQ(run.peer_defaults_not_taken.size(), 2U);
  EXPECT_NE(run.peer_defaults_not_taken[0].find("--warmup-requests"), std::string::npos);
  // SGLang's default ratio 0: lengths uniform in [1, L].
  EXPECT_EQ(run.dataset.range_rule, RangeRule::below);
  const auto inputs = input_range(run);
  EXPECT_EQ(inputs.low, 1);
  EXPECT_EQ(inputs.high, 1024);
}

TEST(Dialect, SglangsRangeRatioSpreadsBelowTheLength) {
  const auto run =
      parse_run_options({"--backend", "sglang", "--dataset-name", "random", "--random-input-len",
                         "1000", "--random-output-len", "200", "--random-range-ratio", "0.5"});
  const auto inputs = input_range(run);
  const auto outputs = output_range(run);
  EXPECT_EQ(inputs.low, 500);
  EXPECT_EQ(inputs.high, 1000);
  EXPECT_EQ(outputs.low, 100);
  EXPECT_EQ(outputs.high, 200);
}

TEST(Dialect, VllmsRangeRatioTakesOneRatioOrOnePerLength) {
  const auto one = parse_run_options(
      {"--dataset-name", "random", "--random-input-len", "1000", "--random-range-ratio", "0.2"});
  EXPECT_EQ(input_range(one).low, 800);
  EXPECT_EQ(input_range(one).high, 1200);
  const auto two = parse_run_options({"--dataset-name", "random", "--random-input-len", "1000",
                                      "--random-output-len", "100", "--random-range-ratio",
                                      R"({"input": 0.1, "output": 0.5})"});
  EXPECT_EQ(input_range(two).low, 900);
  EXPECT_EQ(output_range(two).low, 50);
  EXPECT_EQ(output_range(two).high, 150);
  EXPECT_NE(usage_error({"--dataset-name", "random", "--random-range-ratio", "1.5"})
                .find("--random-range-ratio: '1.5' is not a ratio"),
            std::string::npos);
}

TEST(Dialect, VllmsPrefixLenIsASharedPrefixBeforeEachPrompt) {
  const auto run = parse_run_options(
      {"--dataset-name", "random", "--random-input-len", "300", "--random-prefix-len", "100"});
  EXPECT_EQ(run.input_len, 400);
  ASSERT_EQ(run.dataset.prefix_shares.size(), 1U);
  EXPECT_DOUBLE_EQ(run.dataset.prefix_shares[0], 0.25);
}

TEST(Dialect, GeneratedSharedPrefixTakesTheGspFlagsAndDefaults) {
  const auto run = parse_run_options({"--dataset-name", "generated-shared-prefix",
                                      "--gsp-num-groups", "4", "--gsp-question-len", "32"});
  EXPECT_EQ(run.dialect, Dialect::sglang);
  EXPECT_EQ(run.dataset.kind, DatasetKind::shared_prefix);
  EXPECT_EQ(run.dataset.prefix_groups, 4);
  EXPECT_EQ(run.dataset.questions_per_group, 16);
  EXPECT_EQ(run.dataset.prefix_len, 2048);
  EXPECT_EQ(run.input_len, 32);
  EXPECT_EQ(run.output_len, 256);
  EXPECT_EQ(run.num_prompts, 64);                             // every question once
  EXPECT_EQ(run.concurrency, std::vector<std::int64_t>{64});  // all at once
}

TEST(Dialect, TheServerIsTheFlagsOrThePeersDefault) {
  EXPECT_EQ(parse_run_options({"--dataset-name", "random", "--host", "10.0.0.2", "--port", "9000"})
                .base_urls,
            std::vector<std::string>{"http://10.0.0.2:9000"});
  EXPECT_EQ(
      parse_run_options({"--backend", "vllm", "--dialect", "sglang", "--dataset-name", "random"})
          .base_urls,
      std::vector<std::string>{"http://127.0.0.1:8000"});  // SGLang's port for vLLM
  const auto beside = parse_run_options(
      {"--dataset-name", "random", "--base-url", "http://127.0.0.1:7000", "--port", "9000"});
  EXPECT_EQ(beside.base_urls, std::vector<std::string>{"http://127.0.0.1:7000"});
  EXPECT_TRUE(said(beside, "--host, --port: not read beside --base-url"));
}

TEST(Dialect, VllmsEndpointPathChoosesTheEndpoint) {
  const auto run =
      parse_run_options({"--endpoint", "/v1/chat/completions", "--backend", "openai-chat"});
  EXPECT_EQ(run.dialect, Dialect::vllm);
  EXPECT_EQ(run.endpoint, Endpoint::chat);
  EXPECT_NE(usage_error({"--endpoint", "/v1/chat/completions", "--backend", "openai"})
                .find("--backend openai sends to /v1/completions, not --endpoint "
                      "/v1/chat/completions"),
            std::string::npos);
}

TEST(Dialect, AGivenConcurrencyOrRateIsKept) {
  const auto capped = parse_run_options({"--dataset-name", "random", "--max-concurrency", "8"});
  EXPECT_EQ(capped.concurrency, std::vector<std::int64_t>{8});
  const auto open = parse_run_options({"--dataset-name", "random", "--request-rate", "4"});
  EXPECT_FALSE(open.concurrency_given);
  EXPECT_EQ(open.request_rates, std::vector<double>{4.0});
}

TEST(Dialect, SglangsDisableStreamSendsWholeAnswersAndSaysWhatItCannotTime) {
  const auto run =
      parse_run_options({"--backend", "sglang", "--disable-stream", "--dataset-name", "random"});
  EXPECT_EQ(run.dialect, Dialect::sglang);
  EXPECT_TRUE(run.no_stream);
  EXPECT_TRUE(said(run, "--disable-stream: \"stream\": false (bench's --no-stream)"));
  EXPECT_TRUE(said(run, "bench no TTFT, ITL or TPOT"));
  EXPECT_FALSE(parse_run_options({"--backend", "sglang", "--dataset-name", "random"}).no_stream);
}

TEST(Dialect, MixedOrUnsupportedLinesAreRefusedInOneLine) {
  EXPECT_NE(
      usage_error({"--random-prefix-len", "4", "--gsp-num-groups", "2"}).find("add --dialect"),
      std::string::npos);
  EXPECT_NE(usage_error({"--dataset-name", "sonnet"}).find("not a dataset bench has"),
            std::string::npos);
  EXPECT_NE(usage_error({"--random-input-len", "5", "--input-len", "6"})
                .find("--random-input-len and --input-len: both set the same thing"),
            std::string::npos);
  EXPECT_NE(usage_error({"--backend", "sglang"}).find("needs --dataset-path FILE"),
            std::string::npos);  // SGLang's default dataset, which it would download
}

TEST(Dialect, ThePeersSamplingFlagsGoInTheBody) {
  const auto run = parse_run_options({"--dataset-name", "random", "--top-p", "0.9", "--top-k", "10",
                                      "--extra-body", R"({"top_k": 5})"});
  const auto body = nlohmann::json::parse(run.extra_body);
  EXPECT_EQ(body["top_p"], 0.9);
  EXPECT_EQ(body["top_k"], 5);  // --extra-body's keys win, as vLLM merges it last
}

TEST(Dialect, ThePeersResultFilesFollowTheDialect) {
  const auto sglang = parse_run_options({"--backend", "sglang-oai", "--dataset-name", "random",
                                         "--tag", "night", "--output-file", "x.jsonl"});
  EXPECT_TRUE(sglang.output.peer_results.sglang_output_file);
  EXPECT_FALSE(sglang.output.peer_results.vllm_summary);
  EXPECT_EQ(sglang.output.peer_results.label, "night");
  EXPECT_EQ(sglang.output.peer_results.backend, "sglang-oai");
  const auto vllm = parse_run_options({"--dataset-name", "random"});
  EXPECT_TRUE(vllm.output.peer_results.vllm_summary);
  EXPECT_FALSE(vllm.output.peer_results.sglang_output_file);
  const auto own = parse_run_options({"--output-file", "x.json"});
  EXPECT_FALSE(own.output.peer_results.vllm_summary || own.output.peer_results.sglang_output_file);
}

TEST(Dialect, TheResultsConfigSaysTheDialectOnlyForAPeersLine) {
  EXPECT_FALSE(bench::cli::options_to_json(parse_run_options({})).contains("dialect"));
  const auto config = bench::cli::options_to_json(parse_run_options({"--dataset-name", "random"}));
  EXPECT_EQ(config["dialect"], "vllm");
  ASSERT_TRUE(config["peer_defaults_not_taken"].is_array());
  EXPECT_EQ(config["peer_defaults_not_taken"].size(), 1U);
}

}  // namespace dialect_test
