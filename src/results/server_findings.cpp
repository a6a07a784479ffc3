#include "bench/results/server_findings.hpp"

#include <cmath>

#include <fmt/format.h>

#include "bench/results/writer.hpp"

namespace bench::results {
namespace {

// As for the token counts (server_section.cpp): beyond 1% of bench's input tokens, the server's
// prefix-cache hits and bench's cached tokens disagree.
constexpr double kCacheMismatchShare = 0.01;

// A hit-rate gauge (SGLang's cache_hit_rate: python/sglang/srt/metrics/collector.py) describes
// the server's latest prefill batches, read once at the window's end, not the window's tokens:
// only a gap of more than 10 points between it and bench's cached share is a finding.
constexpr double kHitRateTolerance = 0.10;

std::string polls_text(std::size_t count, std::size_t polls) {
  return fmt::format("in {} of {} poll{}", count, polls, polls == 1 ? "" : "s");
}

}  // namespace

std::optional<double> bench_cached_tokens(const metrics::RunSummary& summary) {
  if (summary.input_split.disclosure() != metrics::CacheDisclosure::all) return std::nullopt;
  return static_cast<double>(summary.input_split.cached_tokens);
}

std::optional<double> bench_cached_share(const metrics::RunSummary& summary) {
  if (!bench_cached_tokens(summary)) return std::nullopt;
  return cached_input_share(summary.input_split);
}

std::optional<std::string> hit_rate_finding(const server_metrics::Delta& delta,
                                            const metrics::RunSummary& summary) {
  const std::optional<double> share = bench_cached_share(summary);
  if (!delta.prefix_cache_hit_ratio || !share) return std::nullopt;
  if (!(std::abs(*delta.prefix_cache_hit_ratio - *share) > kHitRateTolerance)) return std::nullopt;
  return fmt::format(
      "WARNING: the server's prefix-cache hit rate (a gauge of its latest prefill batches, read "
      "after the last request) was {:.1f}%, bench's responses said {:.1f}% of input tokens were "
      "cached: more than {:.0f} points apart; others share the server, the last batches were "
      "unlike the run, or its usage does not say what its cache served",
      *delta.prefix_cache_hit_ratio * 100, *share * 100, kHitRateTolerance * 100);
}

std::vector<std::string> prefix_cache_findings(const server_metrics::Delta& delta,
                                               const metrics::RunSummary& summary,
                                               bool sharing_intended) {
  std::vector<std::string> findings;
  if (auto finding = hit_rate_finding(delta, summary)) findings.push_back(std::move(*finding));
  if (!delta.prefix_cache_hit_tokens) return findings;
  const double hits = *delta.prefix_cache_hit_tokens;
  if (const auto cached = bench_cached_tokens(summary)) {
    const double input = static_cast<double>(summary.total_input_tokens);
    if (std::abs(hits - *cached) > kCacheMismatchShare * input && hits != *cached) {
      findings.push_back(fmt::format(
          "WARNING: the server's prefix cache hit {:.0f} prompt tokens, bench's responses said "
          "{:.0f} were cached: others share the server, or its usage does not say what its "
          "cache served",
          hits, *cached));
    }
    return findings;  // agreeing: the client's own cached share (cache_report.cpp) says the rest
  }
  if (!delta.prefix_cache_query_tokens || !(*delta.prefix_cache_query_tokens > 0)) {
    return findings;
  }
  const double share = hits / *delta.prefix_cache_query_tokens;
  if (share > kCachedShareWarning && !sharing_intended) {
    findings.push_back(fmt::format(
        "WARNING: the server's prefix cache served {:.1f}% of the prompt tokens it looked up, on "
        "a workload not meant to share prefixes (bench's responses did not say which were "
        "cached): input tok/s and TTFT measure the cache, not prefill, or others share the server",
        share * 100));
  } else {
    findings.push_back(fmt::format(
        "Note: bench's responses did not say their cached tokens; the server's prefix cache "
        "served {:.1f}% of the prompt tokens it looked up",
        share * 100));
  }
  return findings;
}

// A request crossing a scrape can make one poll see more at the server than bench had in
// flight; two or more such polls are a finding, one alone a note.
std::vector<std::string> queue_findings(const server_metrics::QueueCounts& queue,
                                        std::string_view who) {
  std::vector<std::string> findings;
  const auto others = [&](std::size_t count, std::string_view what) {
    if (count == 0) return;
    findings.push_back(fmt::format("{}: {} {}: others share the {}",
                                   count >= 2 ? "WARNING" : "Note", polls_text(count, queue.polls),
                                   what, who));
  };
  others(queue.beyond_bench,
         fmt::format("the {} held more requests (running + waiting) than bench had in flight, "
                     "some of them waiting",
                     who));
  others(queue.bench_idle,
         fmt::format("requests waited at the {} while bench had none in flight", who));
  if (queue.server_queues > 0) {
    findings.push_back(fmt::format(
        "Note: {} some of bench's requests waited at the {} (its batch was full): their TTFT "
        "includes the wait",
        polls_text(queue.server_queues, queue.polls), who));
  }
  return findings;
}

nlohmann::json queue_json(const server_metrics::QueueCounts& queue) {
  return {{"polls", queue.polls},
          {"bench_requests_waiting", queue.server_queues},
          {"beyond_bench", queue.beyond_bench},
          {"while_bench_idle", queue.bench_idle}};
}

}  // namespace bench::results
