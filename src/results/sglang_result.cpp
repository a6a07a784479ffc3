// SGLang's --output-file line (python/sglang/benchmark/serving.py, the result dict it appends
// as one JSON line per run), from bench's figures and their catalogues.

#include "bench/results/latency_figures.hpp"
#include "bench/results/peer_results.hpp"
#include "peer_figures.hpp"
#include "run_figures.hpp"

namespace bench::results {
namespace {

using nlohmann::ordered_json;

// The run's figures under SGLang's names, which are bench's own (run_figures.hpp), in SGLang's
// order. SGLang's total_input_text_tokens, total_input_vision_tokens and
// total_output_tokens_retokenized are left out: bench does not split the input by modality
// here, nor retokenize the output.
constexpr std::string_view kSglangScalars[] = {
    "duration",           "completed",        "total_input_tokens", "total_output_tokens",
    "request_throughput", "input_throughput", "output_throughput",  "total_throughput"};

// SGLang's distributions and statistics, in its order.
constexpr std::string_view kSglangDistributions[] = {"e2e_latency", "ttft", "tpot", "itl"};
constexpr double kSglangPercentiles[] = {90, 95, 99};

void add_sglang_figure(ordered_json& out, std::string_view key, const FigureInput& input) {
  if (const RunFigure* figure = run_figure(key))
    out[std::string(key)] = ordered_json(figure->value(input));
}

// SGLang's arguments: what bench was asked. Its --random-range-ratio means another range than
// bench's --range-ratio (docs/results.md), so it is left out rather than mislabelled.
void add_sglang_arguments(ordered_json& out, const RunContext& context,
                          const PeerResultOptions& options) {
  out["tag"] = options.label.empty() ? ordered_json(nullptr) : ordered_json(options.label);
  out["backend"] = vllm_backend(options, context.endpoint);
  out["dataset_name"] = context.config.value("dataset", std::string());
  out["request_rate"] = peer_rate(context.request_rate);
  out["max_concurrency"] =
      context.concurrency ? ordered_json(*context.concurrency) : ordered_json(nullptr);
  const auto sharegpt = context.config.find("sharegpt_output_len");
  out["sharegpt_output_len"] =
      sharegpt != context.config.end() ? ordered_json(*sharegpt) : ordered_json(nullptr);
  out["random_input_len"] = context.input_len;
  out["random_output_len"] = context.output_len;
  out["server_info"] = nullptr;  // SGLang asks its own server's /get_server_info; bench does not
}

void add_sglang_distributions(ordered_json& out, const metrics::RunSummary& summary) {
  for (std::string_view name : kSglangDistributions) {
    const LatencyFigure* figure = peer_figure(&LatencyFigure::sglang, name);
    if (figure == nullptr || !is_known(*figure, summary)) continue;  // never null under *_ms
    add_peer_statistics(out, name, summary.*figure->values, kSglangPercentiles);
  }
}

}  // namespace

ordered_json sglang_result_line(const metrics::RunSummary& summary, const RunContext& context,
                                const PeerResultOptions& options) {
  ordered_json out = ordered_json::object();
  add_sglang_arguments(out, context, options);
  const FigureInput input{summary, context, summary.input_tokens_known()};
  for (std::string_view key : kSglangScalars) add_sglang_figure(out, key, input);
  add_sglang_distributions(out, summary);
  add_sglang_figure(out, "concurrency", input);
  out["accept_length"] = nullptr;  // speculative decoding's, from the server: not measured
  add_peaks(out, summary);
  return out;
}

}  // namespace bench::results
