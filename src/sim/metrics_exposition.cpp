#include "bench/sim/metrics_exposition.hpp"

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

void add_metric(std::string& out, std::string_view name, std::string_view type,
                std::string_view help, const std::string& labels, std::int64_t value) {
  out += "# HELP " + std::string(name) + " " + std::string(help) + "\n";
  out += "# TYPE " + std::string(name) + " " + std::string(type) + "\n";
  out += std::string(name) + labels + " " + std::to_string(value) + ".0\n";
}

}  // namespace

std::string vllm_exposition(const SimCounts& counts, std::string_view model) {
  const std::string labels = "{model_name=\"" + escape_label_value(model) + "\"}";
  std::string out;
  add_metric(out, "vllm:num_requests_running", "gauge",
             "Number of requests in model execution batches.", labels, counts.requests_running);
  add_metric(out, "vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.",
             labels, counts.prompt_tokens);
  add_metric(out, "vllm:generation_tokens_total", "counter",
             "Number of generation tokens processed.", labels, counts.generation_tokens);
  add_metric(out, "vllm:request_success_total", "counter",
             "Count of successfully processed requests.", labels, counts.requests_succeeded);
  return out;
}

}  // namespace bench::sim
