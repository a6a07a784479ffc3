// vLLM's --save-result file (vllm/benchmarks/serve.py: main_async lays out the header keys and
// the file name, benchmark() the figures), from bench's figures and their catalogues.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>

#include "bench/results/latency_figures.hpp"
#include "bench/results/peer_results.hpp"
#include "peer_figures.hpp"
#include "run_figures.hpp"

namespace bench::results {
namespace {

using nlohmann::ordered_json;

// benchmark()'s scalar figures, in the order it writes them.
constexpr std::string_view kVllmScalars[] = {
    "duration",           "completed",           "failed",
    "total_input_tokens", "total_output_tokens", "request_throughput",
    "request_goodput",    "output_throughput",   "total_token_throughput"};

// vLLM's tokenizer_id: --tokenizer, else the model id. bench without a tokenizer counts words,
// so it names none (vLLM writes null when it loads none).
ordered_json vllm_tokenizer_id(const RunContext& context) {
  const auto found = context.config.find("tokenizer");
  if (found == context.config.end() || !found->is_string()) return nullptr;
  const std::string tokenizer = found->get<std::string>();
  return tokenizer == "server" ? context.model : tokenizer;
}

void add_vllm_header(ordered_json& out, const RunContext& context, const PeerResultOptions& options,
                     std::string_view date) {
  const std::string backend = vllm_backend(options, context.endpoint);
  out["date"] = date;
  out["endpoint_type"] = backend;  // vLLM: "for backward compatibility", the backend again
  out["backend"] = backend;
  out["label"] = options.label.empty() ? ordered_json(nullptr) : ordered_json(options.label);
  out["model_id"] = context.model;
  out["tokenizer_id"] = vllm_tokenizer_id(context);
  out["num_prompts"] = context.num_prompts;
  for (const auto& [key, value] : options.metadata) out[key] = value;
  out["request_rate"] = peer_rate(context.request_rate);
  out["burstiness"] = context.config.value("burstiness", 1.0);
  out["max_concurrency"] =
      context.concurrency ? ordered_json(*context.concurrency) : ordered_json(nullptr);
  if (context.ramp_up_strategy != "none") {
    out["ramp_up_strategy"] = context.ramp_up_strategy;
    out["ramp_up_start_rps"] = context.ramp_up_start_rps;
    out["ramp_up_end_rps"] = context.ramp_up_end_rps;
  }
}

void add_vllm_scalars(ordered_json& out, const metrics::RunSummary& summary,
                      const RunContext& context) {
  const FigureInput input{summary, context, summary.input_tokens_known()};
  for (std::string_view name : kVllmScalars) {
    if (const RunFigure* figure = vllm_run_figure(name)) {
      out[std::string(name)] = ordered_json(figure->value(input));
    }
  }
}

// mean/median/std/p{P} of each asked metric, in vLLM's order; a statistic bench does not know
// (no values, or a percentile it was not asked to keep) is left out, never null.
void add_vllm_distributions(ordered_json& out, const metrics::RunSummary& summary,
                            const PeerResultOptions& options) {
  for (std::string_view name : vllm_metric_names()) {
    if (std::find(options.percentile_metrics.begin(), options.percentile_metrics.end(), name) ==
        options.percentile_metrics.end()) {
      continue;
    }
    const LatencyFigure* figure = peer_figure(&LatencyFigure::vllm, name);
    if (figure == nullptr || !is_known(*figure, summary)) continue;
    add_peer_statistics(out, name, summary.*figure->values, options.metric_percentiles);
  }
}

}  // namespace

const std::vector<std::string_view>& vllm_metric_names() {
  // benchmark()'s process_one_metric calls, in order.
  static const std::vector<std::string_view> names = {"ttft", "tpot", "itl", "e2el"};
  return names;
}

std::string vllm_backend(const PeerResultOptions& options, std::string_view endpoint) {
  if (!options.backend.empty()) return options.backend;
  return endpoint == "chat" ? "openai-chat" : "openai";
}

std::string python_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // fmt's shortest round trip is Python's repr but for the ".0" Python keeps on whole numbers.
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string vllm_percentile_word(double percentile) {
  // vLLM: str(int(p)) if int(p) == p else str(p).
  if (percentile == std::floor(percentile)) return fmt::format("{}", std::int64_t(percentile));
  return python_float(percentile);
}

ordered_json vllm_result(const metrics::RunSummary& summary, const RunContext& context,
                         const PeerResultOptions& options, std::string_view date) {
  ordered_json out = ordered_json::object();
  add_vllm_header(out, context, options, date);
  add_vllm_scalars(out, summary, context);
  // The per-request lists (input_lens, ttfts, itls, ...; latencies and queue_times even without
  // --save-detailed) are left out: bench folds each request into its figures as it ends.
  add_peaks(out, summary);
  add_vllm_distributions(out, summary, options);
  return out;
}

std::string vllm_result_path(const RunContext& context, const PeerResultOptions& options,
                             std::string_view date) {
  std::string name = options.result_filename;
  if (name.empty()) {
    const std::string label =
        options.label.empty() ? vllm_backend(options, context.endpoint) : options.label;
    const std::string concurrency =
        context.concurrency ? fmt::format("-concurrency{}", *context.concurrency) : "";
    const std::string model = context.model.substr(context.model.rfind('/') + 1);
    // vLLM's ramp-up rates are whole numbers (argparse type=int).
    const std::string load = context.ramp_up_strategy != "none"
                                 ? fmt::format("ramp-up-{}-{}qps-{}qps", context.ramp_up_strategy,
                                               std::llround(context.ramp_up_start_rps),
                                               std::llround(context.ramp_up_end_rps))
                                 : python_float(context.request_rate) + "qps";
    name = fmt::format("{}-{}{}-{}-{}.json", label, load, concurrency, model, date);
  }
  if (options.result_dir.empty()) return name;
  return (std::filesystem::path(options.result_dir) / name).string();
}

std::string vllm_file_content(const ordered_json& result, bool append,
                              const std::string& existing) {
  // vLLM opens the file "a+" with --append-result and writes a newline first when it is not
  // empty; json.dump writes no newline of its own.
  std::string content = append ? existing : std::string();
  if (!content.empty()) content += "\n";
  return content + result.dump();
}

std::string now_vllm_date() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &local);
  return text;
}

}  // namespace bench::results
