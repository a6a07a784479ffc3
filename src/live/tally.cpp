#include "bench/live/tally.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "bench/metrics/percentile.hpp"
#include "bench/util/clock.hpp"

namespace bench::live {

namespace {

// Latency buckets, seconds: from a loopback TTFT (1 ms) to a long reasoning answer (5 min),
// denser where TTFT, ITL and TPOT usually fall.
std::vector<double> latency_bounds() {
  return {0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05,
          0.075, 0.1,    0.15,  0.2,    0.3,  0.5,   0.75, 1,    1.5,  2,
          3,     5,      7.5,   10,     15,   20,    30,   60,   120,  300};
}

// Tokens per request: OpenTelemetry's bounds for gen_ai.client.token.usage (GenAI semantic
// conventions, "Metric: gen_ai.client.token.usage": ExplicitBucketBoundaries 1, 4, 16, ...).
std::vector<double> token_bounds() {
  return {1,     4,     16,     64,      256,     1024,     4096,
          16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864};
}

std::size_t at(Latency latency) { return static_cast<std::size_t>(latency); }

void count(RequestCounts& counts, Outcome outcome) {
  switch (outcome) {
    case Outcome::completed: ++counts.completed; break;
    case Outcome::failed: ++counts.failed; break;
    case Outcome::cancelled: ++counts.cancelled; break;
  }
}

// Percentile p of `values` by percentile.hpp's definition, in linear time: the two ranks it
// interpolates between, put in their sorted places (nth_element, then the least above), are all
// percentile_sorted reads. The window's values are too many to sort at every publish.
double percentile_of(std::vector<double>& values, double p) {
  const double h = static_cast<double>(values.size() - 1) * std::clamp(p, 0.0, 100.0) / 100.0;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const auto at = values.begin() + static_cast<std::ptrdiff_t>(lo);
  std::nth_element(values.begin(), at, values.end());
  if (lo + 1 < values.size()) std::iter_swap(at + 1, std::min_element(at + 1, values.end()));
  return metrics::percentile_sorted(values, p);
}

}  // namespace

Tally::Tally(double window_s) : window_s_(window_s) {
  for (Buckets& buckets : latency_seconds_) buckets = Buckets(latency_bounds());
  for (Buckets& buckets : tokens_per_request_) buckets = Buckets(token_bounds());
}

void Tally::begin_point(std::int64_t now_ns) {
  point_start_ns_ = now_ns;
  for (auto& values : window_) values.clear();
  window_tokens_.clear();
  window_figures_ = {};
}

void Tally::add(const Sample& sample) {
  count(sample.warmup ? warmup_ : measured_, sample.outcome);
  if (sample.warmup || sample.outcome != Outcome::completed) return;
  // Tokens as RunAccumulator::add_tokens counts them: known counts of completed requests.
  if (sample.input_tokens >= 0) {
    tokens_.input += sample.input_tokens;
    tokens_per_request_[0].add(static_cast<double>(sample.input_tokens));
    if (sample.computed_input_tokens >= 0) {
      tokens_.input_cached += sample.cached_input_tokens;
      tokens_.input_computed += sample.computed_input_tokens;
    } else {
      tokens_.input_split_unknown += sample.input_tokens;
    }
  } else {
    ++tokens_.requests_input_unknown;
  }
  if (sample.output_tokens >= 0) {
    tokens_.output += sample.output_tokens;
    tokens_per_request_[1].add(static_cast<double>(sample.output_tokens));
  } else {
    ++tokens_.requests_output_unknown;
  }
  tokens_.output_reasoning += sample.reasoning_tokens;
  tokens_.output_tool_call += sample.tool_call_tokens;
  window_tokens_.push_back({sample.ended_ns, std::max<std::int64_t>(0, sample.input_tokens),
                            std::max<std::int64_t>(0, sample.output_tokens)});
  add_latency(Latency::e2e, sample.ended_ns, sample.e2e_ms, 1);
  if (sample.ttft_ms) add_latency(Latency::ttft, sample.ended_ns, *sample.ttft_ms, 1);
  if (sample.tpot_ms) add_latency(Latency::tpot, sample.ended_ns, *sample.tpot_ms, 1);
  for (const auto& [value_ms, times] : sample.itl_ms) {
    add_latency(Latency::itl, sample.ended_ns, value_ms, times);
  }
}

void Tally::add_latency(Latency latency, std::int64_t ended_ns, double value_ms,
                        std::uint64_t times) {
  latency_seconds_[at(latency)].add(ms_to_s(value_ms), times);
  std::deque<Timed>& values = window_[at(latency)];
  // More copies than the window keeps would only be dropped again.
  const std::uint64_t kept = std::min<std::uint64_t>(times, kWindowCap);
  for (std::uint64_t i = 0; i < kept; ++i) values.push_back({ended_ns, value_ms});
}

void Tally::trim(std::int64_t now_ns) {
  const auto oldest_ns = now_ns - s_to_ns_truncated(window_s_);
  for (auto& values : window_) {
    while (!values.empty() && values.front().ended_ns < oldest_ns) values.pop_front();
  }
  while (!window_tokens_.empty() && window_tokens_.front().ended_ns < oldest_ns) {
    window_tokens_.pop_front();
  }
}

void Tally::window_percentiles() {
  std::vector<double> scratch;  // the window's values, partly ordered
  for (Latency latency : kLatencies) {
    std::deque<Timed>& values = window_[at(latency)];
    WindowFigures& figures = window_figures_[at(latency)];
    figures = WindowFigures{};
    figures.capped = values.size() > kWindowCap;
    while (values.size() > kWindowCap) values.pop_front();
    figures.values = values.size();
    if (values.empty()) continue;
    scratch.clear();
    for (const Timed& value : values) scratch.push_back(value.value);
    for (std::size_t k = 0; k < kWindowPercentiles.size(); ++k) {
      figures.percentiles[k] = percentile_of(scratch, kWindowPercentiles[k]);
    }
  }
}

void Tally::fill(Snapshot& snapshot, std::int64_t now_ns, bool percentiles) {
  trim(now_ns);
  snapshot.measured = measured_;
  snapshot.warmup = warmup_;
  snapshot.tokens = tokens_;
  snapshot.latency_seconds = latency_seconds_;
  snapshot.tokens_per_request = tokens_per_request_;
  snapshot.window_s = window_s_;
  snapshot.window_span_s =
      std::min(window_s_, ns_to_s(std::max<std::int64_t>(0, now_ns - point_start_ns_)));
  if (percentiles) window_percentiles();
  snapshot.window = window_figures_;
  snapshot.window_input_tokens = 0;
  snapshot.window_output_tokens = 0;
  for (const TimedTokens& tokens : window_tokens_) {
    snapshot.window_input_tokens += tokens.input;
    snapshot.window_output_tokens += tokens.output;
  }
}

}  // namespace bench::live
