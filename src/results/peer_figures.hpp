#pragma once
// What vLLM's and SGLang's result writers (vllm_result.cpp, sglang_result.cpp) both write.
#include <span>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"

namespace bench::results {

/// A request rate as both peers' files hold it: a number, or "inf" for an unlimited one (JSON has
/// no infinity; vLLM writes the string, SGLang a bare Infinity, which bench does not).
nlohmann::ordered_json peer_rate(double rate);

/// mean_, median_, std_ and p{P}_{name}_ms of `d` for each of `percentiles` (P spelt as vLLM's
/// and SGLang's keys spell it: p99, p99.9), a percentile bench did not keep left out (never null).
void add_peer_statistics(nlohmann::ordered_json& out, std::string_view name,
                         const metrics::Distribution& d, std::span<const double> percentiles);

/// max_output_tokens_per_s (a float, as vLLM's np.max of a float array) and
/// max_concurrent_requests (an int) from one_second_peaks(); left out when it is nullopt.
void add_peaks(nlohmann::ordered_json& out, const metrics::RunSummary& summary);

}  // namespace bench::results
