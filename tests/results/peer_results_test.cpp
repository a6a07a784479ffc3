// vLLM's --save-result object and file name, and SGLang's --output-file line, as those tools
// write them (vllm/benchmarks/serve.py; python/sglang/benchmark/serving.py): their keys in
// their order, their types, the "inf" rate, vLLM's percentile spelling, and never a null or a
// list under a key ending in "ms" (SemiAnalysis InferenceX utils/process_result.py float()s
// each).
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/results/peer_results.hpp"

namespace {

using bench::metrics::Distribution;
using bench::metrics::RunSummary;
using bench::results::PeerResultOptions;
using bench::results::RunContext;
using nlohmann::ordered_json;

constexpr std::string_view kPeerDate = "20261207-193012";

Distribution peer_distribution(double scale) {
  Distribution d;
  d.count = 10;
  d.mean = 10 * scale;
  d.std = 2 * scale;
  d.median = 9 * scale;
  d.p90 = 14 * scale;
  d.p95 = 15 * scale;
  d.p99 = 19 * scale;
  d.max = 20 * scale;
  d.asked = {{0.1, 1 * scale}, {25, 5 * scale}, {99, 19 * scale}, {99.9, 19.9 * scale}};
  return d;
}

// Two-token chunks: bench's per-token itl (scale 1) is half the chunk gap vLLM calls itl (icl,
// scale 2).
RunSummary peer_summary() {
  RunSummary s;
  s.sent = 12;
  s.completed = 10;
  s.failed = 2;
  s.duration_s = 5;
  s.total_input_tokens = 1000;
  s.total_output_tokens = 500;
  s.input_tokens_from_usage = 10;
  s.output_tokens_from_usage = 10;
  s.request_throughput = 2;
  s.input_throughput = 200;
  s.output_throughput = 100;
  s.total_throughput = 300;
  s.achieved_concurrency = 3.5;
  s.ttft_ms = peer_distribution(10);
  s.itl_ms = peer_distribution(1);
  s.icl_ms = peer_distribution(2);
  s.tpot_ms = peer_distribution(1.5);
  s.e2e_ms = peer_distribution(100);
  s.timeline_bucket_s = 1.0;
  s.timeline = {{.t_s = 0, .width_s = 1, .started = 8, .in_flight = 8, .output_tokens = 40},
                {.t_s = 1, .width_s = 1, .started = 4, .in_flight = 3, .output_tokens = 160},
                {.t_s = 2, .width_s = 1, .started = 0, .in_flight = 0, .output_tokens = 300}};
  return s;
}

RunContext peer_context() {
  RunContext c;
  c.endpoint = "chat";
  c.model = "meta-llama/Llama-3.1-8B-Instruct";
  c.concurrency = 8;
  c.request_rate = std::numeric_limits<double>::infinity();
  c.num_prompts = 10;
  c.input_len = 100;
  c.output_len = 50;
  c.config = {{"burstiness", 1.0},
              {"tokenizer", nullptr},
              {"dataset", "random"},
              {"sharegpt_output_len", nullptr}};
  return c;
}

std::vector<std::string> keys_of(const ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

void expect_no_null_or_list_under_ms(const ordered_json& object) {
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    if (key.size() >= 2 && key.compare(key.size() - 2, 2, "ms") == 0) {
      EXPECT_TRUE(item.value().is_number()) << key << " = " << item.value().dump();
    }
  }
}

TEST(VllmResult, has_vllms_keys_in_vllms_order) {
  PeerResultOptions options;
  options.metadata = {{"gpu", "H100"}};
  const ordered_json result =
      bench::results::vllm_result(peer_summary(), peer_context(), options, kPeerDate);
  const std::vector<std::string> expected = {"date",
                                             "endpoint_type",
                                             "backend",
                                             "label",
                                             "model_id",
                                             "tokenizer_id",
                                             "num_prompts",
                                             "gpu",
                                             "request_rate",
                                             "burstiness",
                                             "max_concurrency",
                                             "duration",
                                             "completed",
                                             "failed",
                                             "total_input_tokens",
                                             "total_output_tokens",
                                             "request_throughput",
                                             "request_goodput",
                                             "output_throughput",
                                             "total_token_throughput",
                                             "max_output_tokens_per_s",
                                             "max_concurrent_requests",
                                             "mean_ttft_ms",
                                             "median_ttft_ms",
                                             "std_ttft_ms",
                                             "p99_ttft_ms",
                                             "mean_tpot_ms",
                                             "median_tpot_ms",
                                             "std_tpot_ms",
                                             "p99_tpot_ms",
                                             "mean_itl_ms",
                                             "median_itl_ms",
                                             "std_itl_ms",
                                             "p99_itl_ms"};
  EXPECT_EQ(keys_of(result), expected);
  EXPECT_EQ(result["date"], kPeerDate);
  EXPECT_EQ(result["backend"], "openai-chat");
  EXPECT_EQ(result["endpoint_type"], "openai-chat");
  EXPECT_TRUE(result["label"].is_null());
  EXPECT_EQ(result["model_id"], "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(result["gpu"], "H100");
  EXPECT_TRUE(result["request_goodput"].is_null());  // vLLM's without --goodput
}

TEST(VllmResult, types_are_vllms) {
  const ordered_json result =
      bench::results::vllm_result(peer_summary(), peer_context(), {}, kPeerDate);
  EXPECT_EQ(result["request_rate"], "inf");
  EXPECT_TRUE(result["max_concurrency"].is_number_integer());
  EXPECT_EQ(result["max_concurrency"], 8);
  EXPECT_TRUE(result["completed"].is_number_integer());
  EXPECT_TRUE(result["total_input_tokens"].is_number_integer());
  EXPECT_TRUE(result["max_output_tokens_per_s"].is_number_float());
  EXPECT_EQ(result["max_output_tokens_per_s"], 300.0);
  EXPECT_EQ(result["max_concurrent_requests"], 12);  // 8 in flight + 4 sent in second 1
  EXPECT_EQ(result["total_token_throughput"], 300.0);
  RunContext limited = peer_context();
  limited.request_rate = 10;
  limited.concurrency.reset();
  const ordered_json open = bench::results::vllm_result(peer_summary(), limited, {}, kPeerDate);
  EXPECT_TRUE(open["request_rate"].is_number());
  EXPECT_EQ(open["request_rate"], 10.0);
  EXPECT_TRUE(open["max_concurrency"].is_null());  // vLLM's without --max-concurrency
}

TEST(VllmResult, itl_is_the_gap_between_chunks_and_e2el_is_end_to_end) {
  PeerResultOptions options;
  options.percentile_metrics = {"itl", "e2el"};
  const ordered_json result =
      bench::results::vllm_result(peer_summary(), peer_context(), options, kPeerDate);
  EXPECT_EQ(result["mean_itl_ms"], 20.0);  // icl's, not the per-token 10
  EXPECT_EQ(result["mean_e2el_ms"], 1000.0);
  EXPECT_FALSE(result.contains("mean_ttft_ms"));
}

TEST(VllmResult, spells_percentiles_as_vllm_does) {
  PeerResultOptions options;
  options.percentile_metrics = {"ttft"};
  options.metric_percentiles = {0.1, 25, 50, 99, 99.9};
  const ordered_json result =
      bench::results::vllm_result(peer_summary(), peer_context(), options, kPeerDate);
  EXPECT_EQ(result["p0.1_ttft_ms"], 10.0);
  EXPECT_EQ(result["p25_ttft_ms"], 50.0);
  EXPECT_EQ(result["p50_ttft_ms"], 90.0);  // the median, kept without asking
  EXPECT_EQ(result["p99_ttft_ms"], 190.0);
  EXPECT_EQ(result["p99.9_ttft_ms"], 199.0);
  EXPECT_FALSE(result.contains("p99.0_ttft_ms"));
}

TEST(VllmResult, leaves_out_what_bench_did_not_measure_never_null_under_ms) {
  RunSummary summary = peer_summary();
  summary.tpot_ms = {};           // no request had two tokens
  summary.e2e_ms.asked = {};      // p75 not kept
  summary.timeline_bucket_s = 2;  // a long run: no one-second peaks
  PeerResultOptions options;
  options.percentile_metrics = {"ttft", "tpot", "itl", "e2el"};
  options.metric_percentiles = {75, 99};
  const ordered_json result =
      bench::results::vllm_result(summary, peer_context(), options, kPeerDate);
  EXPECT_FALSE(result.contains("mean_tpot_ms"));
  EXPECT_FALSE(result.contains("p75_e2el_ms"));
  EXPECT_TRUE(result.contains("p99_e2el_ms"));
  EXPECT_FALSE(result.contains("max_output_tokens_per_s"));
  expect_no_null_or_list_under_ms(result);
  expect_no_null_or_list_under_ms(
      bench::results::vllm_result(RunSummary{}, peer_context(), options, kPeerDate));
}

TEST(VllmResultPath, is_vllms_default_name_or_the_given_one) {
  PeerResultOptions options;
  RunContext context = peer_context();
  EXPECT_EQ(bench::results::vllm_result_path(context, options, kPeerDate),
            "openai-chat-infqps-concurrency8-Llama-3.1-8B-Instruct-20261207-193012.json");
  context.request_rate = 10;
  context.concurrency.reset();
  context.endpoint = "completions";
  options.label = "vllm";
  EXPECT_EQ(bench::results::vllm_result_path(context, options, kPeerDate),
            "vllm-10.0qps-Llama-3.1-8B-Instruct-20261207-193012.json");
  options.result_dir = "out";
  options.result_filename = "x.json";
  EXPECT_EQ(bench::results::vllm_result_path(context, options, kPeerDate), "out/x.json");
}

TEST(VllmFileContent, appends_after_a_newline_as_vllm_does) {
  const ordered_json result = {{"a", 1}};
  EXPECT_EQ(bench::results::vllm_file_content(result, false, "old"), R"({"a":1})");
  EXPECT_EQ(bench::results::vllm_file_content(result, true, ""), R"({"a":1})");
  EXPECT_EQ(bench::results::vllm_file_content(result, true, R"({"a":0})"), "{\"a\":0}\n{\"a\":1}");
}

TEST(PythonFloat, writes_as_python_str_does) {
  EXPECT_EQ(bench::results::python_float(10), "10.0");
  EXPECT_EQ(bench::results::python_float(0.5), "0.5");
  EXPECT_EQ(bench::results::python_float(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(bench::results::vllm_percentile_word(99), "99");
  EXPECT_EQ(bench::results::vllm_percentile_word(99.9), "99.9");
}

TEST(SglangResultLine, has_sglangs_keys_and_strict_json) {
  const ordered_json line = bench::results::sglang_result_line(peer_summary(), peer_context(), {});
  for (std::string_view key : {"tag",
                               "backend",
                               "dataset_name",
                               "request_rate",
                               "max_concurrency",
                               "sharegpt_output_len",
                               "random_input_len",
                               "random_output_len",
                               "server_info",
                               "duration",
                               "completed",
                               "total_input_tokens",
                               "total_output_tokens",
                               "request_throughput",
                               "input_throughput",
                               "output_throughput",
                               "total_throughput",
                               "concurrency",
                               "accept_length",
                               "max_output_tokens_per_s",
                               "max_concurrent_requests"}) {
    EXPECT_TRUE(line.contains(key)) << key;
  }
  for (std::string_view name : {"e2e_latency", "ttft", "tpot", "itl"}) {
    for (std::string_view stat : {"mean", "median", "std", "p90", "p95", "p99"}) {
      EXPECT_TRUE(line[std::string(stat) + "_" + std::string(name) + "_ms"].is_number())
          << stat << " " << name;
    }
  }
  EXPECT_EQ(line["request_rate"], "inf");
  EXPECT_EQ(line["mean_itl_ms"], 20.0);  // per chunk, as SGLang's
  EXPECT_EQ(line["random_input_len"], 100);
  const std::string text = line.dump();
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_TRUE(nlohmann::json::accept(text));  // strict JSON: no bare Infinity
  RunSummary unmeasured = peer_summary();
  unmeasured.tpot_ms = {};
  const ordered_json partial = bench::results::sglang_result_line(unmeasured, peer_context(), {});
  EXPECT_FALSE(partial.contains("mean_tpot_ms"));
  expect_no_null_or_list_under_ms(partial);
}

}  // namespace
