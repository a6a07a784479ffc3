#include "bench/sim/metrics_exposition.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace bench::sim {
namespace {

// A label value as the exposition format escapes it: backslash, double quote and newline.
std::string escape_label_value(std::string_view value) {
  std::string escaped;
  for (char c : value) {
    if (c == '\\' || c == '"') {
      escaped += '\\';
      escaped += c;
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

// Shortest round-trip spelling, as Python's repr of a float (prometheus_client's floatToGoString).
std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

void add_header(std::string& out, std::string_view name, std::string_view type,
                std::string_view help) {
  out += "# HELP " + std::string(name) + " " + std::string(help) + "\n";
  out += "# TYPE " + std::string(name) + " " + std::string(type) + "\n";
}

void add_metric(std::string& out, std::string_view name, std::string_view type,
                std::string_view help, const std::string& labels, double value) {
  add_header(out, name, type, help);
  out += std::string(name) + labels + " " + number_text(value) + "\n";
}

void add_histogram(std::string& out, std::string_view name, std::string_view help,
                   const std::string& model_label, const SimHistogram& histogram) {
  add_header(out, name, "histogram", help);
  const std::string base(name);
  for (std::size_t i = 0; i <= histogram.upper_bounds().size(); ++i) {
    const std::string le = i < histogram.upper_bounds().size()
                               ? number_text(histogram.upper_bounds()[i])
                               : std::string("+Inf");
    out += base + "_bucket{" + model_label + ",le=\"" + le + "\"} " +
           number_text(static_cast<double>(histogram.cumulative(i))) + "\n";
  }
  out += base + "_count{" + model_label + "} " +
         number_text(static_cast<double>(histogram.count())) + "\n";
  out += base + "_sum{" + model_label + "} " + number_text(histogram.sum()) + "\n";
}

}  // namespace

SimHistogram::SimHistogram(std::vector<double> upper_bounds)
    : upper_bounds_(std::move(upper_bounds)), in_bucket_(upper_bounds_.size() + 1, 0) {}

void SimHistogram::observe(double value) {
  const auto bucket = std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value);
  ++in_bucket_[static_cast<std::size_t>(bucket - upper_bounds_.begin())];
  ++count_;
  sum_ += value;
}

std::int64_t SimHistogram::cumulative(std::size_t i) const {
  std::int64_t total = 0;
  for (std::size_t b = 0; b <= i && b < in_bucket_.size(); ++b) total += in_bucket_[b];
  return total;
}

std::vector<double> vllm_ttft_buckets_s() {
  return {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
          1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
}

std::vector<double> vllm_e2e_buckets_s() {
  return {0.3,  0.5,  0.8,  1.0,  1.5,   2.0,   2.5,   5.0,   10.0,   15.0,  20.0,
          30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
}

std::vector<double> vllm_itl_buckets_s() {
  return {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,  0.3,  0.4, 0.5,
          0.75, 1.0,   2.5,  5.0,   7.5, 10.0, 20.0, 40.0, 80.0};
}

std::optional<MetricsFamily> parse_metrics_family(std::string_view word) {
  if (word == "vllm") return MetricsFamily::vllm;
  if (word == "sglang") return MetricsFamily::sglang;
  if (word == "llamacpp") return MetricsFamily::llamacpp;
  return std::nullopt;
}

std::string_view metrics_family_name(MetricsFamily family) {
  switch (family) {
    case MetricsFamily::vllm: return "vllm";
    case MetricsFamily::sglang: return "sglang";
    case MetricsFamily::llamacpp: return "llamacpp";
  }
  return "vllm";
}

std::string vllm_exposition(const SimCounts& counts, std::string_view model) {
  const std::string model_label = "model_name=\"" + escape_label_value(model) + "\"";
  const std::string labels = "{" + model_label + "}";
  std::string out;
  add_metric(out, "vllm:num_requests_running", "gauge",
             "Number of requests in model execution batches.", labels,
             static_cast<double>(counts.requests_running));
  add_metric(out, "vllm:num_requests_waiting", "gauge",
             "Number of requests waiting to be processed.", labels,
             static_cast<double>(counts.requests_waiting));
  if (counts.kv_cache_usage) {
    add_metric(out, "vllm:kv_cache_usage_perc", "gauge",
               "KV-cache usage. 1 means 100 percent usage.", labels, *counts.kv_cache_usage);
  }
  add_metric(out, "vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.",
             labels, static_cast<double>(counts.prompt_tokens));
  add_metric(out, "vllm:generation_tokens_total", "counter",
             "Number of generation tokens processed.", labels,
             static_cast<double>(counts.generation_tokens));
  add_metric(out, "vllm:request_success_total", "counter",
             "Count of successfully processed requests.", labels,
             static_cast<double>(counts.requests_succeeded));
  add_histogram(out, "vllm:time_to_first_token_seconds",
                "Histogram of time to first token in seconds.", model_label, counts.ttft_seconds);
  add_histogram(out, "vllm:e2e_request_latency_seconds",
                "Histogram of e2e request latency in seconds.", model_label, counts.e2e_seconds);
  add_histogram(out, "vllm:inter_token_latency_seconds",
                "Histogram of inter-token latency in seconds.", model_label, counts.itl_seconds);
  add_histogram(out, "vllm:request_time_per_output_token_seconds",
                "Histogram of time_per_output_token_seconds per request.", model_label,
                counts.tpot_seconds);
  add_histogram(out, "vllm:request_queue_time_seconds",
                "Histogram of time spent in WAITING phase for request.", model_label,
                counts.queue_time_seconds);
  return out;
}

std::string sglang_exposition(const SimCounts& counts, std::string_view model) {
  const std::string model_label = "model_name=\"" + escape_label_value(model) + "\"";
  const std::string labels = "{" + model_label + "}";
  std::string out;
  add_metric(out, "sglang:num_running_reqs", "gauge", "The number of running requests.", labels,
             static_cast<double>(counts.requests_running));
  add_metric(out, "sglang:num_queue_reqs", "gauge", "The number of requests in the waiting queue.",
             labels, static_cast<double>(counts.requests_waiting));
  if (counts.kv_cache_usage) {
    add_metric(out, "sglang:token_usage", "gauge", "The token usage.", labels,
               *counts.kv_cache_usage);
  }
  add_metric(out, "sglang:prompt_tokens_total", "counter", "Number of prefill tokens processed.",
             labels, static_cast<double>(counts.prompt_tokens));
  add_metric(out, "sglang:generation_tokens_total", "counter",
             "Number of generation tokens processed.", labels,
             static_cast<double>(counts.generation_tokens));
  add_histogram(out, "sglang:time_to_first_token_seconds",
                "Histogram of time to first token in seconds.", model_label, counts.ttft_seconds);
  add_histogram(out, "sglang:e2e_request_latency_seconds",
                "Histogram of End-to-end request latency in seconds", model_label,
                counts.e2e_seconds);
  add_histogram(out, "sglang:inter_token_latency_seconds",
                "Histogram of inter-token latency in seconds.", model_label, counts.itl_seconds);
  add_histogram(out, "sglang:time_per_output_token_seconds",
                "Histogram of time per output token in seconds.", model_label, counts.tpot_seconds);
  add_histogram(out, "sglang:queue_time_seconds", "Histogram of queueing time in seconds.",
                model_label, counts.queue_time_seconds);
  return out;
}

std::string llamacpp_exposition(const SimCounts& counts) {
  std::string out;
  add_metric(out, "llamacpp:prompt_tokens_total", "counter", "Number of prompt tokens processed.",
             "", static_cast<double>(counts.prompt_tokens));
  add_metric(out, "llamacpp:tokens_predicted_total", "counter",
             "Number of generation tokens processed.", "",
             static_cast<double>(counts.generation_tokens));
  if (counts.kv_cache_usage) {
    add_metric(out, "llamacpp:kv_cache_usage_ratio", "gauge",
               "KV-cache usage. 1 means 100 percent usage.", "", *counts.kv_cache_usage);
  }
  add_metric(out, "llamacpp:requests_processing", "gauge", "Number of requests processing.", "",
             static_cast<double>(counts.requests_running));
  add_metric(out, "llamacpp:requests_deferred", "gauge", "Number of requests deferred.", "",
             static_cast<double>(counts.requests_waiting));
  return out;
}

std::string exposition(const SimCounts& counts, std::string_view model, MetricsFamily family) {
  switch (family) {
    case MetricsFamily::sglang: return sglang_exposition(counts, model);
    case MetricsFamily::llamacpp: return llamacpp_exposition(counts);
    case MetricsFamily::vllm: break;
  }
  return vllm_exposition(counts, model);
}

}  // namespace bench::sim
