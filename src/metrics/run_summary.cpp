#include "bench/metrics/run_summary.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "bench/metrics/request_latency.hpp"
#include "bench/util/clock.hpp"

namespace bench::metrics {
namespace {

// A mean that is unknown, not 0, over no values.
std::optional<double> known_mean(double sum, std::int64_t count) {
  if (count <= 0) return std::nullopt;
  return sum / static_cast<double>(count);
}

double per_second(double amount, double duration_s) {
  return duration_s > 0 ? amount / duration_s : 0.0;
}

void record_error(std::map<ErrorClass, ErrorSummary>& errors, const RequestRecord& record) {
  ErrorSummary& summary = errors[record.error];
  ++summary.count;
  const std::string& message = record.error_message;
  if (message.empty() || summary.samples.size() >= kMaxErrorSamples) return;
  if (std::find(summary.samples.begin(), summary.samples.end(), message) == summary.samples.end()) {
    summary.samples.push_back(message);
  }
}

// Whether some text chunk of a successful request carried other than exactly one token (a whole
// body has no chunks to tell).
bool chunks_differ(const RequestRecord& record) {
  if (!record.streamed) return false;
  const auto chunks = static_cast<std::int64_t>(record.text_chunk_ns.size());
  if (counted_tokens(record) && record.completion_tokens != chunks) {
    return true;
  }
  return std::any_of(record.text_chunk_tokens.begin(), record.text_chunk_tokens.end(),
                     [](std::int32_t tokens) { return tokens != 1; });
}

// Appends one request's chunk gaps to `icl_ms` and its token gaps to `itl_ms`
// (request_latency.hpp); true when the ITL values were estimated.
bool add_chunk_gaps(const RequestRecord& record, LatencyDistribution& icl_ms,
                    LatencyDistribution& itl_ms) {
  return visit_token_gaps(
      record, [&](double gap_ms) { icl_ms.add(gap_ms); },
      [&](double value_ms, std::uint64_t times) { itl_ms.add(value_ms, times); });
}

// The percentiles CDF plots are drawn from: every integer percentile, and 99.9 for the tail.
RunSummary::Cdf cdf_of(LatencyDistribution& values) {
  if (values.count() == 0) return {};
  std::vector<double> percentiles;
  for (int p = 0; p <= 100; ++p) {
    if (p == 100) percentiles.push_back(99.9);
    percentiles.push_back(p);
  }
  return values.cdf(percentiles);
}

bool meets(const Slo& slo, double ttft_ms, std::optional<double> tpot_ms, double e2e_ms) {
  if (slo.ttft_ms && ttft_ms > *slo.ttft_ms) return false;
  // vLLM's goodput: a request without a TPOT (one token) passes the TPOT objective.
  if (slo.tpot_ms && tpot_ms && *tpot_ms > *slo.tpot_ms) return false;
  if (slo.e2e_ms && e2e_ms > *slo.e2e_ms) return false;
  return true;
}

}  // namespace

RunAccumulator::RunAccumulator(SummaryOptions options, std::shared_ptr<SampleBudget> budget)
    : options_(options),
      budget_(budget ? std::move(budget) : std::make_shared<SampleBudget>(options.sample_budget)),
      first_start_ns_(std::numeric_limits<std::int64_t>::max()),
      last_end_ns_(std::numeric_limits<std::int64_t>::min()),
      timeline_(options.origin_ns),
      steady_log_(budget_) {
  // Only the shared budget limits them: no distribution has a budget of its own.
  constexpr std::size_t kNoOwnLimit = std::numeric_limits<std::size_t>::max();
  for (LatencyDistribution* values : distributions()) {
    *values = LatencyDistribution(kNoOwnLimit, budget_);
  }
}

RunAccumulator::AllDistributions RunAccumulator::distributions() {
  return {&ttft_ms_,
          &itl_ms_,
          &icl_ms_,
          &tpot_ms_,
          &e2e_ms_,
          &schedule_lag_ms_,
          &client_lag_ms_,
          &ttft_from_intended_ms_,
          &e2e_from_intended_ms_,
          &connect_ms_,
          &ttfa_ms_,
          &ttfb_ms_,
          &ttst_ms_};
}

// The one list above, read only (the shard state writes them in its order).
std::array<const LatencyDistribution*, kAccumulatorDistributions.size()>
RunAccumulator::distributions() const {
  const AllDistributions all = const_cast<RunAccumulator*>(this)->distributions();
  std::array<const LatencyDistribution*, kAccumulatorDistributions.size()> out{};
  std::copy(all.begin(), all.end(), out.begin());
  return out;
}

void RunAccumulator::add(const RequestRecord& record) {
  RunSummary& summary = counts_;
  if (record.warmup) {
    ++summary.warmup_requests;
    return;
  }
  add_sent(record);
  if (!record.ok()) {
    if (record.cancelled()) {
      ++summary.cancelled;
    } else {
      ++summary.failed;
    }
    record_error(summary.errors, record);
    return;
  }
  ++summary.completed;
  if (!record.streamed) ++summary.not_streamed;
  add_tokens(record);
  add_latencies(record);
  // Chunks vs tokens.
  summary.total_text_chunks += static_cast<std::int64_t>(record.text_chunk_ns.size());
  if (!record.text_chunk_tokens.empty()) ++summary.requests_with_per_chunk_usage;
  if (chunks_differ(record)) summary.chunks_differ_from_tokens = true;
  if (add_chunk_gaps(record, icl_ms_, itl_ms_)) summary.itl_estimated = true;
}

// What every measured request counts for, however it ended: load, lag and connections.
void RunAccumulator::add_sent(const RequestRecord& record) {
  RunSummary& summary = counts_;
  ++summary.sent;
  sums_.sent_input_sum += static_cast<double>(record.requested_input_len);
  sums_.sent_output_sum += static_cast<double>(record.requested_output_len);
  timeline_.add(record);
  first_start_ns_ = std::min(first_start_ns_, record.start_ns);
  last_end_ns_ = std::max(last_end_ns_, record.end_ns);
  schedule_lag_ms_.add(ns_to_ms(record.start_ns - record.intended_start_ns));
  client_lag_ms_.add(ns_to_ms(record.start_ns - record.intended_start_ns - record.slot_wait_ns));
  summary.connection_retries += record.connection_retries;
  if (record.new_connection) {
    ++summary.connections_opened;
    if (record.connect_ns >= 0) connect_ms_.add(ns_to_ms(record.connect_ns));
  }
  if (!record.cancelled()) sums_.busy_ns += record.end_ns - record.start_ns;
}

// Token counts of a completed request and where they came from; never the requested length.
void RunAccumulator::add_tokens(const RequestRecord& record) {
  RunSummary& summary = counts_;
  if (record.completion_tokens >= 0) {
    summary.total_output_tokens += record.completion_tokens;
    sums_.completion_tokens_sum += static_cast<double>(record.completion_tokens);
    ++sums_.completion_tokens_known;
  }
  if (record.completion_token_source == TokenSource::usage) ++summary.output_tokens_from_usage;
  if (record.completion_token_source == TokenSource::tokenizer) {
    ++summary.output_tokens_from_tokenizer;
  }
  if (record.completion_token_source == TokenSource::chunks) ++summary.output_tokens_from_chunks;
  if (record.prompt_tokens >= 0) {
    summary.total_input_tokens += record.prompt_tokens;
    sums_.prompt_tokens_sum += static_cast<double>(record.prompt_tokens);
    ++sums_.prompt_tokens_known;
    if (record.prompt_token_source == TokenSource::usage) ++summary.input_tokens_from_usage;
  } else {
    ++summary.input_tokens_unknown;
  }
  if (record.client_prompt_tokens >= 0) {
    sums_.client_prompt_tokens_sum += static_cast<double>(record.client_prompt_tokens);
    ++sums_.client_prompt_tokens_known;
  }
  summary.input_split.add(record);
  summary.reasoning.add(record);
  summary.tool_calls.add(record);
  sums_.requested_input_sum += static_cast<double>(record.requested_input_len);
  sums_.requested_output_sum += static_cast<double>(record.requested_output_len);
}

// TTFT, TPOT and E2E of a completed request (plain and from the intended start), and goodput.
void RunAccumulator::add_latencies(const RequestRecord& record) {
  const RequestLatency latency = request_latency(record);
  e2e_ms_.add(latency.e2e_ms);
  e2e_from_intended_ms_.add(ns_to_ms(record.end_ns - record.intended_start_ns));
  if (latency.ttfb_ms) ttfb_ms_.add(*latency.ttfb_ms);
  if (latency.ttft_ms) {
    ttft_ms_.add(*latency.ttft_ms);
    ttft_from_intended_ms_.add(ns_to_ms(record.first_token_ns - record.intended_start_ns));
  }
  if (latency.ttfa_ms) ttfa_ms_.add(*latency.ttfa_ms);
  if (latency.ttst_ms) ttst_ms_.add(*latency.ttst_ms);
  if (latency.tpot_ms) tpot_ms_.add(*latency.tpot_ms);
  // No text at all, or a whole body (not streamed): the user saw nothing before the end, so the
  // SLO's TTFT is the E2E.
  const double slo_ttft_ms = latency.ttft_ms.value_or(latency.e2e_ms);
  steady_log_.add(record.start_ns, record.end_ns, latency.ttft_ms, latency.tpot_ms, latency.e2e_ms);
  if (options_.slo.any() && meets(options_.slo, slo_ttft_ms, latency.tpot_ms, latency.e2e_ms)) {
    ++counts_.good_requests;
  }
}

void RunAccumulator::merge(RunAccumulator&& other) {
  RunSummary& to = counts_;
  const RunSummary& from = other.counts_;
  visit_counters([](const char*, std::int64_t& into, std::int64_t more) { into += more; }, to,
                 from);
  to.chunks_differ_from_tokens = to.chunks_differ_from_tokens || from.chunks_differ_from_tokens;
  to.itl_estimated = to.itl_estimated || from.itl_estimated;
  for (const auto& [error, errors] : from.errors) {
    ErrorSummary& into = to.errors[error];
    into.count += errors.count;
    for (const std::string& sample : errors.samples) {
      if (into.samples.size() >= kMaxErrorSamples) break;
      if (std::find(into.samples.begin(), into.samples.end(), sample) == into.samples.end()) {
        into.samples.push_back(sample);
      }
    }
  }
  const AllDistributions into = distributions();
  const AllDistributions more = other.distributions();
  for (std::size_t i = 0; i < into.size(); ++i) into[i]->merge(*more[i]);
  first_start_ns_ = std::min(first_start_ns_, other.first_start_ns_);
  last_end_ns_ = std::max(last_end_ns_, other.last_end_ns_);
  sums_ += other.sums_;
  steady_times_kept_ = steady_times_kept_ && other.steady_times_kept_;
  timeline_.merge(other.timeline_);
  steady_log_.merge(std::move(other.steady_log_));
}

namespace {

// The throughputs, each of its own kind, over the run's duration (0 without one).
void summarize_rates(RunSummary& summary, const RunSums& sums, bool goodput_measured) {
  const double duration_s = summary.duration_s;
  summary.request_throughput = per_second(static_cast<double>(summary.completed), duration_s);
  summary.input_throughput =
      per_second(static_cast<double>(summary.total_input_tokens), duration_s);
  summary.output_throughput =
      per_second(static_cast<double>(summary.total_output_tokens), duration_s);
  summary.total_throughput = summary.input_throughput + summary.output_throughput;
  summary.computed_input_throughput =
      per_second(static_cast<double>(summary.input_split.computed_tokens), duration_s);
  summary.cached_input_throughput =
      per_second(static_cast<double>(summary.input_split.cached_tokens), duration_s);
  summary.achieved_concurrency = per_second(ns_to_s(sums.busy_ns), duration_s);
  summary.reasoning_output_throughput =
      per_second(static_cast<double>(summary.reasoning.reasoning_tokens), duration_s);
  summary.answer_output_throughput =
      per_second(static_cast<double>(summary.reasoning.answer_tokens), duration_s);
  summary.tool_call_output_throughput =
      per_second(static_cast<double>(summary.tool_calls.tool_call_tokens), duration_s);
  summary.goodput_measured = goodput_measured;
  summary.goodput = per_second(static_cast<double>(summary.good_requests), duration_s);
}

// The means over the requests, each over those whose count is known.
void summarize_means(RunSummary& summary, const RunSums& sums) {
  // Requested lengths beside the server's counts are over the same (completed) requests; with
  // none completed, what was asked is still known from what was sent.
  const bool any_completed = summary.completed > 0;
  summary.mean_requested_input_len = any_completed
                                         ? known_mean(sums.requested_input_sum, summary.completed)
                                         : known_mean(sums.sent_input_sum, summary.sent);
  summary.mean_requested_output_len = any_completed
                                          ? known_mean(sums.requested_output_sum, summary.completed)
                                          : known_mean(sums.sent_output_sum, summary.sent);
  summary.mean_completion_tokens =
      known_mean(sums.completion_tokens_sum, sums.completion_tokens_known);
  summary.mean_prompt_tokens = known_mean(sums.prompt_tokens_sum, sums.prompt_tokens_known);
  summary.mean_client_prompt_tokens =
      known_mean(sums.client_prompt_tokens_sum, sums.client_prompt_tokens_known);
  summary.prompt_counts_paired = summary.completed > 0 &&
                                 sums.prompt_tokens_known == summary.completed &&
                                 sums.client_prompt_tokens_known == summary.completed;
}

}  // namespace

Distribution RunAccumulator::summarize_asked(LatencyDistribution& values) const {
  Distribution d = values.summarize();
  if (d.count > 0 && !options_.asked_percentiles.empty()) {
    d.asked = values.cdf(options_.asked_percentiles);
  }
  return d;
}

void RunAccumulator::summarize_latencies(RunSummary& summary) {
  summary.ttft_ms = summarize_asked(ttft_ms_);
  summary.itl_ms = summarize_asked(itl_ms_);
  summary.icl_ms = summarize_asked(icl_ms_);
  summary.tpot_ms = summarize_asked(tpot_ms_);
  summary.median_output_per_user = tpot_ms_.reciprocal_percentile(1000.0, 50);
  summary.p10_output_per_user = tpot_ms_.reciprocal_percentile(1000.0, 10);
  summary.e2e_ms = summarize_asked(e2e_ms_);
  summary.schedule_lag_ms = schedule_lag_ms_.summarize();
  summary.client_lag_ms = client_lag_ms_.summarize();
  summary.ttft_from_intended_ms = ttft_from_intended_ms_.summarize();
  summary.e2e_from_intended_ms = e2e_from_intended_ms_.summarize();
  summary.connect_ms = connect_ms_.summarize();
  summary.ttfa_ms = ttfa_ms_.summarize();
  summary.ttfb_ms = ttfb_ms_.summarize();
  summary.ttst_ms = ttst_ms_.summarize();
  summary.latency_sample_budget = budget_->limit();
  summary.latency_samples_exact = true;
  for (const LatencyDistribution* values : distributions()) {
    summary.latency_samples_exact = summary.latency_samples_exact && values->exact();
  }
  summary.ttft_cdf_ms = cdf_of(ttft_ms_);
  summary.itl_cdf_ms = cdf_of(itl_ms_);
  summary.tpot_cdf_ms = cdf_of(tpot_ms_);
  summary.e2e_cdf_ms = cdf_of(e2e_ms_);
}

RunSummary RunAccumulator::summarize() {
  RunSummary summary = counts_;
  if (summary.sent > 0 && last_end_ns_ > first_start_ns_) {
    summary.duration_s = ns_to_s(last_end_ns_ - first_start_ns_);
  }
  summarize_rates(summary, sums_, options_.slo.any());
  summarize_latencies(summary);
  summarize_means(summary, sums_);
  summary.timeline_bucket_s = ns_to_s(timeline_.bucket_width_ns(options_.timeline_bucket_ns));
  summary.timeline = timeline_.buckets(options_.timeline_bucket_ns);
  summary.timeline_start_ns = timeline_.start_ns();
  summary.steady_state = timeline_.steady_state(options_.target_in_flight);
  if (summary.steady_state.found) {
    summary.steady_latencies =
        steady_latencies(summary.steady_state, summary.completed, summary.steady_latency_gap);
  }
  return summary;
}

// The latencies of the requests inside `window`, or nullopt with `gap` saying why not.
std::optional<SteadyLatencies> RunAccumulator::steady_latencies(const SteadyState& window,
                                                                std::int64_t completed,
                                                                SteadyLatencyGap& gap) const {
  if (!steady_times_kept_) {
    gap = SteadyLatencyGap::merged;
    return std::nullopt;
  }
  std::optional<SteadyLatencies> inside = steady_log_.within(window.from_ns, window.to_ns);
  if (!inside) {
    gap = SteadyLatencyGap::budget_ran_out;
    return std::nullopt;
  }
  if (inside->requests == 0) {
    gap = SteadyLatencyGap::none_inside;
    return std::nullopt;
  }
  // A window shorter than most requests holds only those that fit in it, the short ones:
  // no steady state worth the name (a closed loop of 1.25 waves), so no latencies from it.
  if (inside->requests * 2 < completed) {
    gap = SteadyLatencyGap::few_inside;
    return std::nullopt;
  }
  gap = SteadyLatencyGap::none;
  return inside;
}

RunSummary summarize_run(std::span<const RequestRecord> records, SummaryOptions options) {
  RunAccumulator accumulator(options);
  for (const RequestRecord& record : records) accumulator.add(record);
  return accumulator.summarize();
}

}  // namespace bench::metrics
