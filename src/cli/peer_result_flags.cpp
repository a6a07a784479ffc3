// vLLM's result-file flags (vllm/benchmarks/serve.py add_cli_args): --save-result and its
// friends, with vLLM's defaults, so a `vllm bench serve` command line writes the file its
// readers expect (results/peer_results.hpp).
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bench/cli/run_flag_groups.hpp"
#include "bench/cli/values.hpp"
#include "bench/results/peer_results.hpp"

namespace bench::cli {
namespace {

// "a,b,c" -> {"a", "b", "c"}, empty parts kept (the callers refuse them).
std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) return parts;
    start = comma + 1;
  }
}

// vLLM reads only the names it knows and ignores the others (InferenceMAX's scripts pass
// "o2el"): so does bench, keeping them aside for the start-up notes to say.
void parse_percentile_metrics(const std::string& text, results::PeerResultOptions& peer) {
  const auto& valid = results::vllm_metric_names();
  peer.percentile_metrics.clear();
  peer.unknown_percentile_metrics.clear();
  for (std::string& metric : split_commas(text)) {
    const bool known = std::find(valid.begin(), valid.end(), metric) != valid.end();
    (known ? peer.percentile_metrics : peer.unknown_percentile_metrics)
        .push_back(std::move(metric));
  }
}

std::vector<double> parse_metric_percentiles(const std::string& text) {
  std::vector<double> percentiles;
  for (const std::string& part : split_commas(text)) {
    std::size_t used = 0;
    double value = NAN;
    try {
      value = std::stod(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size() || !(value >= 0 && value <= 100)) {
      throw UsageError(fmt::format(
          "--metric-percentiles: '{}' is not a percentile from 0 to 100 (e.g. 25,50,99.9)", part));
    }
    percentiles.push_back(value);
  }
  return percentiles;
}

// vLLM's --metadata: each KEY=VALUE split at the first '=', both sides stripped.
std::vector<std::pair<std::string, std::string>> parse_metadata(
    const std::vector<std::string>& items) {
  auto strip = [](std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return std::string();
    return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
  };
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& item : items) {
    const std::size_t equals = item.find('=');
    if (equals == std::string::npos || strip(item.substr(0, equals)).empty()) {
      throw UsageError(fmt::format("--metadata: '{}' is not KEY=VALUE", item));
    }
    pairs.emplace_back(strip(item.substr(0, equals)), strip(item.substr(equals + 1)));
  }
  return pairs;
}

}  // namespace

void add_peer_result_flags(CLI::App& app, results::PeerResultOptions& peer) {
  app.add_flag("--save-result", peer.save_result,
               "Also write vLLM's result file for each run or sweep point (vllm bench serve's "
               "--save-result): vLLM's keys and default name, under --result-dir");
  app.add_flag("--save-detailed", peer.save_detailed,
               "vLLM's: accepted; bench keeps no per-request lists, so the file holds none "
               "(--save-requests writes every request)");
  app.add_flag("--append-result", peer.append_result,
               "Append vLLM's result to the file (a newline, then the JSON), as vLLM does");
  app.add_option("--result-dir", peer.result_dir,
                 "Where vLLM's result file goes (default: the current directory)")
      ->option_text("DIR");
  app.add_option("--result-filename", peer.result_filename,
                 "vLLM's result file's name, instead of "
                 "{label}-{rate}qps[-concurrency{N}]-{model}-{date}.json");
  app.add_option("--label", peer.label,
                 "vLLM's label: leads the result file's name and its \"label\" (default: the "
                 "backend, openai-chat or openai)");
  app.add_option_function<std::vector<std::string>>(
         "--metadata",
         [&peer](const std::vector<std::string>& items) { peer.metadata = parse_metadata(items); },
         "KEY=VALUE ...: extra keys of vLLM's result file, after num_prompts")
      ->expected(0, CLI::detail::expected_max_vector_size)
      ->allow_extra_args()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option_function<std::string>(
      "--percentile-metrics",
      [&peer](const std::string& text) { parse_percentile_metrics(text, peer); },
      "vLLM's: the metrics whose statistics its result file and block hold, of "
      "ttft,tpot,itl,e2el (itl: per-chunk gaps, bench's icl) (default: ttft,tpot,itl)");
  app.add_option_function<std::string>(
      "--metric-percentiles",
      [&peer](const std::string& text) {
        peer.metric_percentiles = parse_metric_percentiles(text);
      },
      "vLLM's: the percentiles of those metrics, e.g. 25,50,99.9 (default: 99)");
}

}  // namespace bench::cli
