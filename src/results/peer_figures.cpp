// The figures vLLM's and SGLang's files share that bench keeps in another shape
// (peer_results.hpp).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "bench/results/latency_figures.hpp"
#include "bench/results/peer_results.hpp"
#include "peer_figures.hpp"

namespace bench::results {

std::optional<double> asked_percentile(const metrics::Distribution& d, double p) {
  if (d.count <= 0) return std::nullopt;
  for (const auto& [percentile, value] : d.asked) {
    if (percentile == p) return value;
  }
  if (p == 50) return d.median;
  if (p == 90) return d.p90;
  if (p == 95) return d.p95;
  if (p == 99) return d.p99;
  return std::nullopt;
}

std::optional<OneSecondPeaks> one_second_peaks(const metrics::RunSummary& summary) {
  if (summary.timeline.empty() || summary.timeline_bucket_s != 1.0) return std::nullopt;
  OneSecondPeaks peaks;
  std::int64_t in_flight_before = 0;
  for (const metrics::TimelineBucket& bucket : summary.timeline) {
    peaks.output_tokens = std::max(peaks.output_tokens, bucket.output_tokens);
    peaks.active_requests = std::max(peaks.active_requests, in_flight_before + bucket.started);
    in_flight_before = bucket.in_flight;
  }
  return peaks;
}

nlohmann::ordered_json peer_rate(double rate) {
  return std::isfinite(rate) ? nlohmann::ordered_json(rate) : nlohmann::ordered_json("inf");
}

void add_peer_statistics(nlohmann::ordered_json& out, std::string_view name,
                         const metrics::Distribution& d, std::span<const double> percentiles) {
  out[distribution_key("mean", name)] = d.mean;
  out[distribution_key("median", name)] = d.median;
  out[distribution_key("std", name)] = d.std;
  for (const double p : percentiles) {
    if (const std::optional<double> value = asked_percentile(d, p)) {
      // Appended, not "p" + word: GCC 12's -O3 -Wrestrict misreads that operator+.
      std::string stat = "p";
      stat += vllm_percentile_word(p);
      out[distribution_key(stat, name)] = *value;
    }
  }
}

void add_peaks(nlohmann::ordered_json& out, const metrics::RunSummary& summary) {
  if (const std::optional<OneSecondPeaks> peaks = one_second_peaks(summary)) {
    out["max_output_tokens_per_s"] = static_cast<double>(peaks->output_tokens);
    out["max_concurrent_requests"] = peaks->active_requests;
  }
}

}  // namespace bench::results
