#pragma once
// Parsers for the flag values CLI11's validators cannot express. Each throws UsageError with a
// one-line message naming the flag and the value it refused.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/run_summary.hpp"

namespace bench::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// "90", "90s", "1.5m", "2h", "500ms" -> seconds (> 0). A bare number is seconds.
double parse_duration_s(std::string_view flag, std::string_view text);

/// "1,8,64" -> {1, 8, 64}: whole numbers in [min, max], at least one.
std::vector<std::int64_t> parse_count_list(std::string_view flag, std::string_view text,
                                           std::int64_t min, std::int64_t max);

/// "1,4.5,inf" -> {1, 4.5, inf}: requests per second, > 0; "inf" means no rate limit.
std::vector<double> parse_rate_list(std::string_view flag, std::string_view text);

/// "0,0.5,0.9" -> {0, 0.5, 0.9}: shares in [0, 1), at least one.
std::vector<double> parse_share_list(std::string_view flag, std::string_view text);

/// vLLM's --goodput syntax: "ttft:300", "tpot:50", "e2el:2000" (milliseconds), one per token.
metrics::Slo parse_goodput(std::string_view flag, const std::vector<std::string>& tokens);

/// "60s" style text for a duration in seconds, for messages and results.
std::string format_duration(double seconds);

}  // namespace bench::cli
