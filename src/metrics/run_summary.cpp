#include "bench/metrics/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace bench::metrics {
namespace {

double ns_to_ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

double mean_of(double sum, std::int64_t count) {
  return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

double per_second(double amount, double duration_s) {
  return duration_s > 0 ? amount / duration_s : 0.0;
}

void record_error(std::map<ErrorClass, ErrorSummary>& errors, const RequestRecord& record) {
  ErrorSummary& summary = errors[record.error];
  ++summary.count;
  const std::string& message = record.error_message;
  if (message.empty() || summary.samples.size() >= kMaxErrorSamples) return;
  if (std::find(summary.samples.begin(), summary.samples.end(), message) ==
      summary.samples.end()) {
    summary.samples.push_back(message);
  }
}

void push_repeated(std::vector<double>& values, double value, std::int64_t times) {
  values.insert(values.end(), static_cast<std::size_t>(times), value);
}

// Whether some text chunk of a successful request carried other than exactly one token.
bool chunks_differ(const RequestRecord& record) {
  const auto chunks = static_cast<std::int64_t>(record.text_chunk_ns.size());
  if (record.completion_token_source == TokenSource::usage && record.completion_tokens != chunks) {
    return true;
  }
  return std::any_of(record.text_chunk_tokens.begin(), record.text_chunk_tokens.end(),
                     [](std::int32_t tokens) { return tokens != 1; });
}

// Appends one request's chunk gaps to `icl_ms` and its token gaps to `itl_ms` (mission.md,
// "ITL"): a chunk carrying k tokens contributes k values of gap / k, where k is exact from
// per-chunk usage, else estimated as completion_tokens / chunks. Returns true when the estimate
// was used. The first chunk has no preceding gap: its wait is the TTFT.
bool add_chunk_gaps(const RequestRecord& record, std::vector<double>& icl_ms,
                    std::vector<double>& itl_ms) {
  const std::vector<std::int64_t>& arrivals = record.text_chunk_ns;
  const std::size_t chunks = arrivals.size();
  if (chunks < 2) return false;

  const bool exact = record.text_chunk_tokens.size() == chunks;
  const bool estimate = !exact && record.completion_token_source == TokenSource::usage &&
                        record.completion_tokens > static_cast<std::int64_t>(chunks);
  const double tokens_per_chunk =
      estimate ? static_cast<double>(record.completion_tokens) / static_cast<double>(chunks) : 1;
  const std::int64_t estimated_values = std::max<std::int64_t>(1, std::llround(tokens_per_chunk));

  for (std::size_t i = 1; i < chunks; ++i) {
    const double gap_ms = ns_to_ms(arrivals[i] - arrivals[i - 1]);
    icl_ms.push_back(gap_ms);
    if (exact) {
      const std::int32_t tokens = record.text_chunk_tokens[i];
      // A chunk reported with no tokens still ended a wait: keep its gap as one value.
      if (tokens <= 0) {
        itl_ms.push_back(gap_ms);
      } else {
        push_repeated(itl_ms, gap_ms / tokens, tokens);
      }
    } else if (estimate) {
      push_repeated(itl_ms, gap_ms / tokens_per_chunk, estimated_values);
    } else {
      itl_ms.push_back(gap_ms);
    }
  }
  return estimate;
}

}  // namespace

RunSummary summarize_run(std::span<const RequestRecord> records) {
  RunSummary summary;

  std::vector<double> ttft_ms, itl_ms, icl_ms, tpot_ms, e2e_ms;
  std::vector<double> schedule_lag_ms, ttft_from_intended_ms, e2e_from_intended_ms, connect_ms;

  std::int64_t first_start_ns = std::numeric_limits<std::int64_t>::max();
  std::int64_t last_end_ns = std::numeric_limits<std::int64_t>::min();
  std::int64_t busy_ns = 0;  // sum of E2E of measured, non-cancelled requests

  double requested_input_sum = 0, requested_output_sum = 0;
  double completion_tokens_sum = 0, prompt_tokens_sum = 0;
  std::int64_t completion_tokens_known = 0, prompt_tokens_known = 0;

  for (const RequestRecord& record : records) {
    if (record.warmup) {
      ++summary.warmup_requests;
      continue;
    }
    ++summary.sent;
    first_start_ns = std::min(first_start_ns, record.start_ns);
    last_end_ns = std::max(last_end_ns, record.end_ns);
    schedule_lag_ms.push_back(ns_to_ms(record.start_ns - record.intended_start_ns));
    if (record.new_connection) {
      ++summary.connections_opened;
      if (record.connect_ns >= 0) connect_ms.push_back(ns_to_ms(record.connect_ns));
    }
    if (!record.cancelled()) busy_ns += record.end_ns - record.start_ns;

    if (!record.ok()) {
      if (record.cancelled()) {
        ++summary.cancelled;
      } else {
        ++summary.failed;
      }
      record_error(summary.errors, record);
      continue;
    }

    ++summary.completed;

    // Token counts and where they came from; never the requested length.
    if (record.completion_tokens >= 0) {
      summary.total_output_tokens += record.completion_tokens;
      completion_tokens_sum += static_cast<double>(record.completion_tokens);
      ++completion_tokens_known;
    }
    if (record.completion_token_source == TokenSource::usage) ++summary.output_tokens_from_usage;
    if (record.completion_token_source == TokenSource::chunks) ++summary.output_tokens_from_chunks;
    if (record.prompt_tokens >= 0) {
      summary.total_input_tokens += record.prompt_tokens;
      prompt_tokens_sum += static_cast<double>(record.prompt_tokens);
      ++prompt_tokens_known;
      if (record.prompt_token_source == TokenSource::usage) ++summary.input_tokens_from_usage;
    } else {
      ++summary.input_tokens_unknown;
    }
    requested_input_sum += static_cast<double>(record.requested_input_len);
    requested_output_sum += static_cast<double>(record.requested_output_len);

    // Latencies.
    const std::int64_t e2e_ns = record.end_ns - record.start_ns;
    e2e_ms.push_back(ns_to_ms(e2e_ns));
    e2e_from_intended_ms.push_back(ns_to_ms(record.end_ns - record.intended_start_ns));
    if (record.first_token_ns >= 0) {
      const std::int64_t ttft_ns = record.first_token_ns - record.start_ns;
      ttft_ms.push_back(ns_to_ms(ttft_ns));
      ttft_from_intended_ms.push_back(ns_to_ms(record.first_token_ns - record.intended_start_ns));
      if (record.completion_tokens >= 2) {
        tpot_ms.push_back(ns_to_ms(e2e_ns - ttft_ns) /
                          static_cast<double>(record.completion_tokens - 1));
      }
    }

    // Chunks vs tokens.
    summary.total_text_chunks += static_cast<std::int64_t>(record.text_chunk_ns.size());
    if (!record.text_chunk_tokens.empty()) ++summary.requests_with_per_chunk_usage;
    if (chunks_differ(record)) summary.chunks_differ_from_tokens = true;
    if (add_chunk_gaps(record, icl_ms, itl_ms)) summary.itl_estimated = true;
  }

  if (summary.sent > 0 && last_end_ns > first_start_ns) {
    summary.duration_s = static_cast<double>(last_end_ns - first_start_ns) / 1e9;
  }
  const double duration_s = summary.duration_s;
  summary.request_throughput = per_second(static_cast<double>(summary.completed), duration_s);
  summary.input_throughput = per_second(static_cast<double>(summary.total_input_tokens), duration_s);
  summary.output_throughput =
      per_second(static_cast<double>(summary.total_output_tokens), duration_s);
  summary.total_throughput = summary.input_throughput + summary.output_throughput;
  summary.achieved_concurrency = per_second(static_cast<double>(busy_ns) / 1e9, duration_s);

  summary.ttft_ms = summarize(ttft_ms);
  summary.itl_ms = summarize(itl_ms);
  summary.icl_ms = summarize(icl_ms);
  summary.tpot_ms = summarize(tpot_ms);
  summary.e2e_ms = summarize(e2e_ms);
  summary.schedule_lag_ms = summarize(schedule_lag_ms);
  summary.connect_ms = summarize(connect_ms);
  summary.ttft_from_intended_ms = summarize(ttft_from_intended_ms);
  summary.e2e_from_intended_ms = summarize(e2e_from_intended_ms);

  summary.mean_requested_input_len = mean_of(requested_input_sum, summary.completed);
  summary.mean_requested_output_len = mean_of(requested_output_sum, summary.completed);
  summary.mean_completion_tokens = mean_of(completion_tokens_sum, completion_tokens_known);
  summary.mean_prompt_tokens = mean_of(prompt_tokens_sum, prompt_tokens_known);
  return summary;
}

}  // namespace bench::metrics
