// vLLM's "Serving Benchmark Result" block: the lines vLLM's benchmarks/auto_tune/auto_tune.sh
// greps ("Request throughput (req/s):", "P99 E2EL (ms):", "Request goodput (req/s):") with
// vLLM's labels and layout (vllm/benchmarks/serve.py: "{:<40} {:<10.2f}"), a source beside
// every token count, and no line for a figure bench did not measure.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>

#include "bench/report/vllm_summary.hpp"

namespace {

using bench::metrics::Distribution;
using bench::metrics::RunSummary;
using bench::results::PeerResultOptions;
using bench::results::RunContext;

Distribution vllm_block_distribution(double median) {
  Distribution d;
  d.count = 4;
  d.mean = median;
  d.median = median;
  d.p90 = median * 2;
  d.p95 = median * 2;
  d.p99 = median * 3;
  d.max = median * 3;
  return d;
}

RunSummary vllm_block_summary() {
  RunSummary s;
  s.sent = s.completed = 4;
  s.duration_s = 2;
  s.total_input_tokens = 400;
  s.total_output_tokens = 40;
  s.input_tokens_from_usage = s.output_tokens_from_usage = 4;
  s.request_throughput = 2;
  s.output_throughput = 20;
  s.total_throughput = 220;
  s.ttft_ms = vllm_block_distribution(50);
  s.tpot_ms = vllm_block_distribution(10);
  s.itl_ms = vllm_block_distribution(5);
  s.icl_ms = vllm_block_distribution(10);
  s.e2e_ms = vllm_block_distribution(150);
  return s;
}

RunContext vllm_block_context() {
  RunContext c;
  c.endpoint = "chat";
  c.concurrency = 4;
  c.request_rate = std::numeric_limits<double>::infinity();
  return c;
}

// The block's line that starts with `label`; empty when none does.
std::string vllm_block_line(const std::string& block, const std::string& label) {
  std::istringstream lines(block);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(label, 0) == 0) return line;
  }
  return {};
}

TEST(VllmSummary, keeps_vllms_labels_and_layout_for_the_scraped_lines) {
  PeerResultOptions options;
  options.percentile_metrics = {"ttft", "tpot", "itl", "e2el"};
  const std::string block =
      bench::report::render_vllm_summary(vllm_block_summary(), vllm_block_context(), options);
  EXPECT_EQ(block.substr(0, 51), "============ Serving Benchmark Result ============\n");
  EXPECT_EQ(vllm_block_line(block, "Request throughput (req/s):"),
            "Request throughput (req/s):              2.00      ");
  EXPECT_EQ(vllm_block_line(block, "P99 E2EL (ms):"),
            "P99 E2EL (ms):                           450.00    ");
  EXPECT_EQ(vllm_block_line(block, "Mean ITL (ms):"),
            "Mean ITL (ms):                           10.00     ");  // per chunk, as vLLM's
  EXPECT_EQ(vllm_block_line(block, "Successful requests:"),
            "Successful requests:                     4         ");
  EXPECT_EQ(vllm_block_line(block, "Maximum request concurrency:"),
            "Maximum request concurrency:             4         ");
  EXPECT_EQ(vllm_block_line(block, "---"), "---------------Time to First Token----------------");
  EXPECT_EQ(block.substr(block.size() - 51), std::string(50, '=') + "\n");
  EXPECT_EQ(vllm_block_line(block, "Request goodput (req/s):"), "");        // no --goodput
  EXPECT_EQ(vllm_block_line(block, "Request rate configured (RPS):"), "");  // unlimited
}

TEST(VllmSummary, says_where_each_token_count_came_from) {
  const std::string block =
      bench::report::render_vllm_summary(vllm_block_summary(), vllm_block_context(), {});
  EXPECT_EQ(vllm_block_line(block, "Total input tokens:"),
            "Total input tokens:                      400        (from server usage)");
  EXPECT_EQ(vllm_block_line(block, "Total generated tokens:"),
            "Total generated tokens:                  40         (from server usage)");
}

TEST(VllmSummary, prints_goodput_only_when_measured_and_leaves_out_unknown_figures) {
  RunSummary summary = vllm_block_summary();
  summary.goodput_measured = true;
  summary.goodput = 1.5;
  summary.input_tokens_unknown = 4;  // the server sent no prompt_tokens
  summary.tpot_ms = {};
  const std::string block = bench::report::render_vllm_summary(summary, vllm_block_context(), {});
  EXPECT_EQ(vllm_block_line(block, "Request goodput (req/s):"),
            "Request goodput (req/s):                 1.50      ");
  EXPECT_EQ(vllm_block_line(block, "Total input tokens:"), "");
  EXPECT_EQ(vllm_block_line(block, "Total token throughput (tok/s):"), "");
  EXPECT_EQ(vllm_block_line(block, "Mean TPOT (ms):"), "");
  EXPECT_NE(vllm_block_line(block, "P99 TTFT (ms):"), "");
  EXPECT_EQ(vllm_block_line(block, "P99 E2EL (ms):"), "");  // e2el not asked (vLLM's default)
}

}  // namespace
