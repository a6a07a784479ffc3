#include "bench/server_metrics/snapshot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace bench::server_metrics {
namespace {

// The latency histograms a Snapshot and a Delta carry, and the name a note gives each.
struct HistogramField {
  std::optional<Histogram> Snapshot::*in_snapshot;
  std::optional<Histogram> Delta::*in_delta;
  std::string_view what;
};

constexpr std::array<HistogramField, 5> kHistograms = {{
    {&Snapshot::ttft_seconds, &Delta::ttft_seconds, "TTFT"},
    {&Snapshot::e2e_seconds, &Delta::e2e_seconds, "E2E"},
    {&Snapshot::itl_seconds, &Delta::itl_seconds, "ITL"},
    {&Snapshot::tpot_seconds, &Delta::tpot_seconds, "TPOT"},
    {&Snapshot::queue_time_seconds, &Delta::queue_time_seconds, "queue time"},
}};

// A counter only grows while its server runs; one that went down was reset by a restart, and
// the window's growth is then unknown rather than negative or guessed.
std::optional<double> counter_growth(const std::optional<double>& before,
                                     const std::optional<double>& after, std::string_view what,
                                     std::vector<std::string>& notes) {
  if (!before && !after) return std::nullopt;
  if (!before || !after) {
    notes.push_back(std::string(what) + ": exposed in only one of the two scrapes");
    return std::nullopt;
  }
  if (*after < *before) {
    notes.push_back(std::string(what) +
                    ": the counter went down between the scrapes (did the "
                    "server restart?)");
    return std::nullopt;
  }
  return *after - *before;
}

std::optional<Histogram> histogram_growth(const std::optional<Histogram>& before,
                                          const std::optional<Histogram>& after,
                                          std::string_view what, std::vector<std::string>& notes) {
  if (!before && !after) return std::nullopt;
  if (!before || !after) {
    notes.push_back(std::string(what) + ": exposed in only one of the two scrapes");
    return std::nullopt;
  }
  if (before->buckets.size() != after->buckets.size()) {
    notes.push_back(std::string(what) + ": the buckets changed between the scrapes");
    return std::nullopt;
  }
  Histogram growth;
  growth.count = after->count - before->count;
  growth.sum = after->sum - before->sum;
  bool went_down = growth.count < 0;
  for (std::size_t i = 0; i < after->buckets.size(); ++i) {
    const Bucket& old_bucket = before->buckets[i];
    const Bucket& new_bucket = after->buckets[i];
    if (old_bucket.upper_bound != new_bucket.upper_bound) {
      notes.push_back(std::string(what) + ": the buckets changed between the scrapes");
      return std::nullopt;
    }
    went_down = went_down || new_bucket.count < old_bucket.count;
    growth.buckets.push_back({new_bucket.upper_bound, new_bucket.count - old_bucket.count});
  }
  if (went_down) {
    notes.push_back(std::string(what) +
                    ": the histogram went down between the scrapes (did the "
                    "server restart?)");
    return std::nullopt;
  }
  return growth;
}

std::optional<double> sum_counter(const std::vector<Delta>& deltas,
                                  std::optional<double> Delta::*field) {
  double total = 0;
  for (const Delta& delta : deltas) {
    if (!(delta.*field)) return std::nullopt;
    total += *(delta.*field);
  }
  return total;
}

std::optional<Histogram> sum_histogram(const std::vector<Delta>& deltas,
                                       std::optional<Histogram> Delta::*field,
                                       std::string_view what, std::vector<std::string>& notes) {
  std::optional<Histogram> total;
  for (const Delta& delta : deltas) {
    const std::optional<Histogram>& part = delta.*field;
    if (!part) return std::nullopt;
    if (!total) {
      total = part;
      continue;
    }
    if (part->buckets.size() != total->buckets.size()) {
      notes.push_back(std::string(what) + ": the servers' buckets differ, so they are not added");
      return std::nullopt;
    }
    for (std::size_t i = 0; i < part->buckets.size(); ++i) {
      if (part->buckets[i].upper_bound != total->buckets[i].upper_bound) {
        notes.push_back(std::string(what) + ": the servers' buckets differ, so they are not added");
        return std::nullopt;
      }
      total->buckets[i].count += part->buckets[i].count;
    }
    total->count += part->count;
    total->sum += part->sum;
  }
  return total;
}

// A gauge of several servers: the mean of those that expose it.
std::optional<double> mean_gauge(const std::vector<Delta>& deltas,
                                 std::optional<double> Delta::*field) {
  double total = 0;
  std::size_t known = 0;
  for (const Delta& delta : deltas) {
    if (!(delta.*field)) continue;
    total += *(delta.*field);
    ++known;
  }
  if (known == 0) return std::nullopt;
  return total / static_cast<double>(known);
}

// A target that exposes GPU series and no serving engine's (a DCGM or AMD exporter beside the
// server): its GPUs count, its absent token counters do not make the servers' sums unknown.
bool is_gpu_exporter(const Delta& delta) {
  return delta.family == ServerFamily::unknown && delta.gpu_energy_series.has_value() &&
         !delta.prompt_tokens && !delta.generation_tokens && !delta.requests_succeeded;
}

// The GPUs' energy and power over the targets that expose them (a node's exporter, or a server
// that does); unknown when none does, and a note when only some do.
void sum_gpu_figures(const std::vector<Delta>& deltas, Delta& total) {
  std::vector<Delta> exposing;
  for (const Delta& delta : deltas) {
    if (delta.gpu_energy_series) exposing.push_back(delta);
  }
  if (exposing.empty()) return;
  total.gpu_energy_joules = sum_counter(exposing, &Delta::gpu_energy_joules);
  total.gpu_power_watts = sum_counter(exposing, &Delta::gpu_power_watts);
  total.gpu_energy_series = sum_counter(exposing, &Delta::gpu_energy_series);
  if (exposing.size() < deltas.size()) {
    total.notes.push_back("GPU energy from " + std::to_string(exposing.size()) + " of the " +
                          std::to_string(deltas.size()) +
                          " metrics targets (the others expose no GPU energy counter)");
  }
}

}  // namespace

Delta sum_of(const std::vector<Delta>& deltas) {
  Delta total;
  if (deltas.empty()) return total;
  std::vector<Delta> servers;
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    for (const std::string& note : deltas[i].notes) {
      total.notes.push_back("server " + std::to_string(i + 1) + ": " + note);
    }
    if (!is_gpu_exporter(deltas[i])) servers.push_back(deltas[i]);
  }
  sum_gpu_figures(deltas, total);
  if (servers.empty()) return total;  // GPU exporters only: no engine's figures to add
  total.family = servers.front().family;
  for (const Delta& server : servers) {
    if (server.family != total.family) total.family = ServerFamily::unknown;
  }
  total.prompt_tokens = sum_counter(servers, &Delta::prompt_tokens);
  total.generation_tokens = sum_counter(servers, &Delta::generation_tokens);
  total.prefix_cache_hit_tokens = sum_counter(servers, &Delta::prefix_cache_hit_tokens);
  total.prefix_cache_query_tokens = sum_counter(servers, &Delta::prefix_cache_query_tokens);
  total.preemptions = sum_counter(servers, &Delta::preemptions);
  total.requests_succeeded = sum_counter(servers, &Delta::requests_succeeded);
  for (const HistogramField& field : kHistograms) {
    total.*field.in_delta = sum_histogram(servers, field.in_delta, field.what, total.notes);
  }
  total.spec_draft_tokens = sum_counter(servers, &Delta::spec_draft_tokens);
  total.spec_accepted_tokens = sum_counter(servers, &Delta::spec_accepted_tokens);
  total.spec_accept_length = mean_gauge(servers, &Delta::spec_accept_length);
  total.spec_accept_rate = mean_gauge(servers, &Delta::spec_accept_rate);
  total.prefix_cache_hit_ratio = mean_gauge(servers, &Delta::prefix_cache_hit_ratio);
  return total;
}

Delta delta_between(const Snapshot& before, const Snapshot& after) {
  Delta delta;
  delta.family = after.family;
  if (before.family != after.family) {
    delta.notes.push_back("the server's family changed between the scrapes (" +
                          std::string(to_string(before.family)) + ", then " +
                          std::string(to_string(after.family)) + ")");
    return delta;
  }
  auto& notes = delta.notes;
  delta.prompt_tokens =
      counter_growth(before.prompt_tokens, after.prompt_tokens, "prompt tokens", notes);
  delta.generation_tokens =
      counter_growth(before.generation_tokens, after.generation_tokens, "generation tokens", notes);
  delta.prefix_cache_hit_tokens = counter_growth(
      before.prefix_cache_hit_tokens, after.prefix_cache_hit_tokens, "prefix-cache hits", notes);
  delta.prefix_cache_query_tokens =
      counter_growth(before.prefix_cache_query_tokens, after.prefix_cache_query_tokens,
                     "prefix-cache queries", notes);
  delta.preemptions = counter_growth(before.preemptions, after.preemptions, "preemptions", notes);
  delta.requests_succeeded = counter_growth(before.requests_succeeded, after.requests_succeeded,
                                            "requests succeeded", notes);
  for (const HistogramField& field : kHistograms) {
    delta.*field.in_delta =
        histogram_growth(before.*field.in_snapshot, after.*field.in_snapshot, field.what, notes);
  }
  delta.spec_draft_tokens = counter_growth(before.spec_draft_tokens, after.spec_draft_tokens,
                                           "speculative draft tokens", notes);
  delta.spec_accepted_tokens =
      counter_growth(before.spec_accepted_tokens, after.spec_accepted_tokens,
                     "speculative accepted tokens", notes);
  delta.spec_accept_length = after.spec_accept_length;
  delta.spec_accept_rate = after.spec_accept_rate;
  delta.prefix_cache_hit_ratio = after.prefix_cache_hit_ratio;
  delta.gpu_energy_joules =
      counter_growth(before.gpu_energy_joules, after.gpu_energy_joules, "GPU energy", notes);
  if (delta.gpu_energy_joules && before.gpu_energy_series != after.gpu_energy_series) {
    notes.push_back("GPU energy: the GPUs exposed changed between the scrapes");
    delta.gpu_energy_joules.reset();
  }
  delta.gpu_power_watts = after.gpu_power_watts;
  delta.gpu_energy_series = after.gpu_energy_series;
  return delta;
}

// The rank p/100 * count, located in the first bucket whose cumulative count reaches it; the
// bucket below it gives the lower bound (0 below the first, as Prometheus's histogram_quantile
// assumes for positive observations).
std::optional<BucketRange> percentile_range(const Histogram& histogram, double percentile) {
  if (histogram.buckets.empty()) return std::nullopt;
  const double total = histogram.buckets.back().count;
  if (!(total > 0)) return std::nullopt;
  const double clamped = std::clamp(percentile, 0.0, 100.0);
  const double rank = std::max(clamped / 100 * total, 0.0);
  double lower = 0;
  for (const Bucket& bucket : histogram.buckets) {
    if (bucket.count >= rank && bucket.count > 0) return BucketRange{lower, bucket.upper_bound};
    lower = bucket.upper_bound;
  }
  return BucketRange{lower, histogram.buckets.back().upper_bound};
}

std::optional<double> spec_acceptance_rate(const Delta& delta) {
  if (delta.spec_draft_tokens && delta.spec_accepted_tokens) {
    if (!(*delta.spec_draft_tokens > 0)) return std::nullopt;
    return *delta.spec_accepted_tokens / *delta.spec_draft_tokens;
  }
  if (delta.spec_accept_rate && std::isfinite(*delta.spec_accept_rate)) {
    return *delta.spec_accept_rate;
  }
  return std::nullopt;
}

}  // namespace bench::server_metrics
