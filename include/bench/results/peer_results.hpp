#pragma once
// The result files vLLM's and SGLang's benchmark clients write, from bench's figures, so that
// the scripts written for those files read bench's unchanged: vLLM's --save-result JSON
// (vllm/benchmarks/serve.py, main_async and benchmark) and SGLang's --output-file JSONL line
// (python/sglang/benchmark/serving.py). Their key names come from the catalogues
// (latency_figures.hpp, run_figures' vllm_key); this module only lays them out as the peers do.
// A figure bench does not measure is left out, never made up; no key ending in "ms" is ever
// null (SemiAnalysis InferenceX utils/process_result.py reads every such key with float()).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

/// What the peers' result flags asked for (vLLM's --save-result family; SGLang's --output-file
/// as SGLang's line), as given. The defaults are vLLM's.
struct PeerResultOptions {
  bool save_result = false;     // --save-result: write vLLM's result file for each point
  bool save_detailed = false;   // --save-detailed: accepted; bench keeps no per-request lists
  bool append_result = false;   // --append-result: append to the file (vLLM: implies saving)
  std::string result_dir;       // --result-dir; empty = the current directory
  std::string result_filename;  // --result-filename: replaces vLLM's default name
  std::string label;            // --label; empty = the backend
  std::vector<std::pair<std::string, std::string>> metadata;  // --metadata KEY=VALUE, in order
  // --percentile-metrics: vLLM's names (vllm_metric_names()); and --metric-percentiles, 0..100.
  std::vector<std::string> percentile_metrics = {"ttft", "tpot", "itl"};
  std::vector<double> metric_percentiles = {99};
  // --percentile-metrics' names vLLM does not know, which it ignores, and so does bench (said).
  std::vector<std::string> unknown_percentile_metrics;
  // vLLM's or SGLang's --backend as given; empty = from the endpoint (vllm_backend()). The
  // dialect code sets it from the peer's command line.
  std::string backend;
  // The dialect code sets these when the command line is read as a peer's: --output-file then
  // appends SGLang's JSONL line instead of bench's JSON; the text report is followed by vLLM's
  // "Serving Benchmark Result" block (report/vllm_summary.hpp), which vLLM's
  // benchmarks/auto_tune/auto_tune.sh scrapes.
  bool sglang_output_file = false;
  bool vllm_summary = false;
  /// Whether vLLM would write its file (it does for --save-result or --append-result).
  bool writes_vllm_file() const { return save_result || append_result; }
};

/// Percentile `p` of `d`: from its asked percentiles (SummaryOptions::asked_percentiles), or
/// its fixed median/p90/p95/p99; nullopt when bench kept neither (never a made-up value).
std::optional<double> asked_percentile(const metrics::Distribution& d, double p);

/// vLLM's and SGLang's peaks over one-second buckets (their max_output_tokens_per_s and
/// max_concurrent_requests), from bench's timeline.
struct OneSecondPeaks {
  std::int64_t output_tokens = 0;    // the most output tokens arriving in one second
  std::int64_t active_requests = 0;  // the most requests active during one second: in flight
                                     // at its start plus those sent in it
};
/// nullopt when the run has no timeline or its buckets are wider than a second (a long run),
/// which would make them other figures.
std::optional<OneSecondPeaks> one_second_peaks(const metrics::RunSummary& summary);

/// The names --percentile-metrics takes, in the order vLLM writes and prints them.
const std::vector<std::string_view>& vllm_metric_names();

/// The backend vLLM's file names: `options.backend`, or vLLM's name for bench's endpoint
/// ("openai-chat" for chat, "openai" for completions).
std::string vllm_backend(const PeerResultOptions& options, std::string_view endpoint);

/// A float as Python's str() writes it: "10.0", "0.5", "inf", "1e-05".
std::string python_float(double value);

/// "p99", "p99.9": vLLM's spelling of a percentile in a key (whole numbers without ".0").
std::string vllm_percentile_word(double percentile);

/// vLLM's result object of one measured point, keys in vLLM's order (ordered_json keeps it). `date`
/// is vLLM's
/// "%Y%m%d-%H%M%S" in local time (now_vllm_date()).
nlohmann::ordered_json vllm_result(const metrics::RunSummary& summary, const RunContext& context,
                                   const PeerResultOptions& options, std::string_view date);

/// The file vLLM would write it to: --result-filename or vLLM's default name, under
/// --result-dir when given.
std::string vllm_result_path(const RunContext& context, const PeerResultOptions& options,
                             std::string_view date);

/// The new content of a vLLM result file: `result` on one line (Python's json.dump spacing is
/// not needed by any reader; the JSON is the same), after `existing` and a newline when
/// appending to a non-empty file, as vLLM's "a+" mode does.
std::string vllm_file_content(const nlohmann::ordered_json& result, bool append,
                              const std::string& existing);

/// The local time now as vLLM writes it in "date" and the file name: "20261207-193012".
std::string now_vllm_date();

/// SGLang's --output-file line of one point (one JSON object; the caller appends a newline).
/// An unlimited rate is the string "inf", where SGLang writes Python's bare Infinity, which is
/// not JSON: Python's float() reads either.
nlohmann::ordered_json sglang_result_line(const metrics::RunSummary& summary,
                                          const RunContext& context,
                                          const PeerResultOptions& options);

}  // namespace bench::results
