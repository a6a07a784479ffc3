#pragma once
// What vLLM's and SGLang's result writers (vllm_result.cpp, sglang_result.cpp) both write.
#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"

namespace bench::results {

/// max_output_tokens_per_s (a float, as vLLM's np.max of a float array) and
/// max_concurrent_requests (an int) from one_second_peaks(); left out when it is nullopt.
void add_peaks(nlohmann::ordered_json& out, const metrics::RunSummary& summary);

}  // namespace bench::results
