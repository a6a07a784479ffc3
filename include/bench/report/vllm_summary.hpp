#pragma once
// vLLM's "Serving Benchmark Result" block, for the scripts that scrape vLLM's stdout (vLLM's
// benchmarks/auto_tune/auto_tune.sh greps "Request throughput (req/s):", "P99 E2EL (ms):" and
// "Request goodput (req/s):").
#include <string>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/peer_results.hpp"
#include "bench/results/writer.hpp"

namespace bench::report {

/// The block vLLM's vllm/benchmarks/serve.py prints after a run, from bench's figures: its
/// labels and layout (a 40-column label, the value), its metrics and percentiles as
/// --percentile-metrics and --metric-percentiles ask, the same figures vLLM's result file
/// holds (results/peer_results.hpp). A line whose figure bench does not know is left out;
/// each token count says where it came from after the number. Ends with a newline.
std::string render_vllm_summary(const metrics::RunSummary& summary,
                                const results::RunContext& context,
                                const results::PeerResultOptions& options);

}  // namespace bench::report
