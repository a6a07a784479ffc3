// vLLM's "Serving Benchmark Result" block (vllm/benchmarks/serve.py, benchmark(): its print
// calls and process_one_metric), laid out as vLLM's format strings lay it out.
#include "bench/report/vllm_summary.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "bench/results/latency_figures.hpp"
#include "text_writer.hpp"

namespace bench::report {
namespace {

using metrics::RunSummary;

// vLLM's words for each metric of results::vllm_metric_names(): its label and its section's
// title.
struct VllmMetricWords {
  std::string_view name;    // "ttft"
  std::string_view label;   // "TTFT"
  std::string_view header;  // "Time to First Token"
};
constexpr VllmMetricWords kVllmMetricWords[] = {
    {"ttft", "TTFT", "Time to First Token"},
    {"tpot", "TPOT", "Time per Output Token (excl. 1st token)"},
    {"itl", "ITL", "Inter-token Latency"},
    {"e2el", "E2EL", "End-to-end Latency"}};

class VllmBlock {
 public:
  // "{:<40} {:<10}": vLLM's line, label left in 40 columns, the value left in 10.
  void count(std::string_view label, std::int64_t value, std::string_view source = {}) {
    line(label, fmt::format("{:<10}", value), source);
  }
  // "{:<40} {:<10.2f}".
  void number(std::string_view label, double value) {
    line(label, fmt::format("{:<10.2f}", value), {});
  }
  // "{s:{c}^{n}}" with n = 50.
  void rule(std::string_view title, char fill) {
    const std::size_t pad = title.size() < 50 ? 50 - title.size() : 0;
    text_.append(pad / 2, fill);
    text_ += title;
    text_.append(pad - pad / 2, fill);
    text_ += '\n';
  }
  std::string take() { return std::move(text_); }

 private:
  void line(std::string_view label, const std::string& value, std::string_view source) {
    fmt::format_to(std::back_inserter(text_), "{:<40} {}", label, value);
    if (!source.empty()) fmt::format_to(std::back_inserter(text_), " ({})", source);
    text_ += '\n';
  }
  std::string text_;
};

void write_counts(VllmBlock& block, const RunSummary& s, const results::RunContext& context) {
  block.rule(" Serving Benchmark Result ", '=');
  block.count("Successful requests:", s.completed);
  block.count("Failed requests:", s.failed);
  if (context.concurrency) block.count("Maximum request concurrency:", *context.concurrency);
  if (std::isfinite(context.request_rate)) {
    block.number("Request rate configured (RPS):", context.request_rate);
  }
  block.number("Benchmark duration (s):", s.duration_s);
  if (s.input_tokens_known()) {
    block.count("Total input tokens:", s.total_input_tokens, text::input_source(s));
  }
  block.count("Total generated tokens:", s.total_output_tokens, text::output_source(s));
}

void write_throughputs(VllmBlock& block, const RunSummary& s) {
  block.number("Request throughput (req/s):", s.request_throughput);
  if (s.goodput_measured) block.number("Request goodput (req/s):", s.goodput);
  block.number("Output token throughput (tok/s):", s.output_throughput);
  if (const auto peaks = results::one_second_peaks(s)) {
    block.number("Peak output token throughput (tok/s):",
                 static_cast<double>(peaks->output_tokens));
    block.number("Peak concurrent requests:", static_cast<double>(peaks->active_requests));
  }
  if (s.input_tokens_known()) block.number("Total token throughput (tok/s):", s.total_throughput);
}

// process_one_metric: a section per asked metric, its mean, median and each asked percentile
// (vLLM prints no std).
void write_metric(VllmBlock& block, const RunSummary& s, const VllmMetricWords& words,
                  const results::PeerResultOptions& options) {
  const auto& asked = options.percentile_metrics;
  if (std::find(asked.begin(), asked.end(), words.name) == asked.end()) return;
  const results::LatencyFigure* figure =
      results::peer_figure(&results::LatencyFigure::vllm, words.name);
  if (figure == nullptr || !results::is_known(*figure, s)) return;
  const metrics::Distribution& d = s.*figure->values;
  block.rule(words.header, '-');
  block.number(fmt::format("Mean {} (ms):", words.label), d.mean);
  block.number(fmt::format("Median {} (ms):", words.label), d.median);
  for (double p : options.metric_percentiles) {
    if (const std::optional<double> value = results::asked_percentile(d, p)) {
      block.number(fmt::format("P{} {} (ms):", results::vllm_percentile_word(p), words.label),
                   *value);
    }
  }
}

}  // namespace

std::string render_vllm_summary(const RunSummary& summary, const results::RunContext& context,
                                const results::PeerResultOptions& options) {
  VllmBlock block;
  write_counts(block, summary, context);
  write_throughputs(block, summary);
  for (std::string_view name : results::vllm_metric_names()) {
    const auto* words = std::find_if(std::begin(kVllmMetricWords), std::end(kVllmMetricWords),
                                     [name](const VllmMetricWords& w) { return w.name == name; });
    if (words != std::end(kVllmMetricWords)) write_metric(block, summary, *words, options);
  }
  block.rule("", '=');
  return block.take();
}

}  // namespace bench::report
