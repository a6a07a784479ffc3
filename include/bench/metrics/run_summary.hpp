#pragma once
// Every figure a run reports, computed from its RequestRecords by the definitions in
// docs/metrics.md. Warm-up requests are excluded from all of it.
// Records are added one by one as requests end (RunAccumulator), so a run need not keep them.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bench/metrics/accumulator_distributions.hpp"
#include "bench/metrics/agent_trees.hpp"
#include "bench/metrics/input_split.hpp"
#include "bench/metrics/latency_distribution.hpp"
#include "bench/metrics/multi_turn.hpp"
#include "bench/metrics/percentile.hpp"
#include "bench/metrics/reasoning_split.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/metrics/run_sums.hpp"
#include "bench/metrics/sample_budget.hpp"
#include "bench/metrics/steady_latency.hpp"
#include "bench/metrics/timeline.hpp"
#include "bench/metrics/tool_call_split.hpp"

namespace bench::metrics {

struct ErrorSummary {
  std::int64_t count = 0;
  std::vector<std::string> samples;  // up to kMaxErrorSamples distinct messages
};
inline constexpr std::size_t kMaxErrorSamples = 3;

struct RunSummary {
  // Counts over the measured phase. sent == completed + failed + cancelled.
  std::int64_t sent = 0;
  std::int64_t completed = 0;           // ended without error
  std::int64_t failed = 0;              // ended in an error class other than cancelled
  std::int64_t cancelled = 0;           // stopped by bench itself
  std::int64_t warmup_requests = 0;     // excluded from everything below
  std::int64_t connections_opened = 0;  // measured requests that opened a new connection
  // Resends of measured requests whose reused connection the server had closed before answering.
  std::int64_t connection_retries = 0;
  // Of the completed, those sent with "stream": false (RequestRecord::streamed): in E2E, the
  // token counts and the throughputs, in no TTFT, ITL, ICL, TPOT or TTFA, which are the
  // streamed ones' only (and none at all when this equals completed).
  std::int64_t not_streamed = 0;
  /// Completed requests whose answer was streamed: those the token-timing figures are over.
  std::int64_t completed_streamed() const { return completed - not_streamed; }

  // first measured request sent -> last measured request finished, seconds.
  double duration_s = 0;

  // Sums over successful requests. Sources: how many successful requests took their count
  // from usage, from the run's tokenizer on the streamed text (no usage), or from the chunk
  // count (an estimate).
  std::int64_t total_input_tokens = 0;
  std::int64_t total_output_tokens = 0;
  std::int64_t input_tokens_from_usage = 0;   // requests whose prompt_tokens came from usage
  std::int64_t output_tokens_from_usage = 0;  // requests whose completion_tokens came from usage
  std::int64_t output_tokens_from_tokenizer = 0;  // completion_tokens counted by --tokenizer
  std::int64_t output_tokens_from_chunks = 0;     // requests whose completion_tokens are estimates
  std::int64_t input_tokens_unknown = 0;  // successful requests with no prompt_tokens at all
  // total_input_tokens (and every input figure) is a count only when no request's was unknown;
  // otherwise it is reported as unknown, never as a partial sum.
  bool input_tokens_known() const { return input_tokens_unknown == 0; }

  // total_input_tokens split into computed and cached where the server said (input_split.hpp).
  InputTokenSplit input_split;

  double request_throughput = 0;  // successful requests / duration, req/s
  double input_throughput = 0;    // total_input_tokens / duration, input tok/s
  double output_throughput = 0;   // total_output_tokens / duration, output tok/s
  double total_throughput = 0;    // input + output, tok/s
  // input_split's computed and cached sums / duration, input tok/s; they cover only the
  // disclosing requests (input_split.disclosure()), and are unknown, not 0, when it is none.
  double computed_input_throughput = 0;
  double cached_input_throughput = 0;
  double achieved_concurrency = 0;  // sum(E2E of measured requests) / duration (Little's law)

  // total_output_tokens split into reasoning and answer (reasoning_split.hpp); reported only
  // when reasoning.any(). Their throughputs are parts of output_throughput, output tok/s.
  ReasoningSplit reasoning;
  // --multi-turn: figures by turn index and by session (multi_turn.hpp); nullopt otherwise.
  std::optional<MultiTurnSummary> multi_turn;
  // A replayed agent trace (--trace-format weka): the cache ceiling, the trees and subagents,
  // the requests by agent (agent_trees.hpp); nullopt for every other run.
  std::optional<AgentTreeSummary> agent_trees;
  double reasoning_output_throughput = 0;  // reasoning.reasoning_tokens / duration
  double answer_output_throughput = 0;     // reasoning.answer_tokens / duration
  // The part of total_output_tokens spent on tool calls (tool_call_split.hpp); reported only
  // when tool_calls.any(). Its throughput is part of output_throughput, output tok/s.
  ToolCallSplit tool_calls;
  double tool_call_output_throughput = 0;  // tool_calls.tool_call_tokens / duration

  // Latency distributions in milliseconds, over successful requests.
  Distribution ttft_ms;  // request start -> first token (text, reasoning or tool-call delta)
  Distribution ttfa_ms;  // request start -> first chunk carrying answer text (not reasoning)
  Distribution itl_ms;   // gaps between tokens (chunk gaps split over the chunk's tokens)
  Distribution icl_ms;   // gaps between successive text-carrying chunks
  Distribution tpot_ms;  // (E2E - TTFT) / (completion_tokens - 1), requests with >= 2 tokens
  // Output tok/s per user, 1000 / each of those requests' TPOT: the median and the p10 (the
  // rate 90% of them beat) of the rates themselves (LatencyDistribution::reciprocal_percentile);
  // nullopt when no request had a TPOT. Efficiency (results/efficiency.hpp) reports them.
  std::optional<double> median_output_per_user;
  std::optional<double> p10_output_per_user;
  Distribution e2e_ms;           // request start -> end of stream
  Distribution schedule_lag_ms;  // actual send - intended send, all measured requests
  Distribution client_lag_ms;    // the part of it that was bench's own delay, not a wait for a
                                 // concurrency slot: high values mean the client is saturated
  Distribution connect_ms;       // time to connect, over measured requests that opened one
  Distribution ttft_from_intended_ms;  // TTFT measured from the intended send time
  Distribution e2e_from_intended_ms;   // E2E measured from the intended send time
  Distribution ttfb_ms;  // request start -> response headers (time to first byte), successful
  // First token-carrying chunk -> second (AIPerf's time to second token), over completed requests
  // with two or more such chunks.
  Distribution ttst_ms;
  // The raw values the distributions above could keep together (sample_budget.hpp), and
  // whether all of them fit: if not, the percentiles of those that did not are from a
  // histogram, within Histogram::kMaxRelativeError of the exact ones.
  std::uint64_t latency_sample_budget = 0;
  bool latency_samples_exact = true;

  // Chunks vs tokens. When they differ the ITL is split per token, exactly where per-chunk
  // usage is known, otherwise by the estimate completion_tokens / chunks (itl_estimated).
  std::int64_t total_text_chunks = 0;  // text-carrying chunks of successful requests
  bool chunks_differ_from_tokens = false;
  bool itl_estimated = false;  // some ITL values came from the per-request estimate
  std::int64_t requests_with_per_chunk_usage = 0;

  // Input length asked for vs what the server counted (mean over successful requests). The
  // requested lengths are known from what was sent: with no successful request they are the
  // mean over every measured request sent, and nullopt only when none was sent. The server's
  // counts are nullopt when it reported none: a mean of no values is unknown, never 0.
  std::optional<double> mean_requested_input_len;
  std::optional<double> mean_prompt_tokens;
  // The prompts' content tokens as the run's tokenizer counted what was sent (--tokenizer,
  // random-ids), over the successful requests it counted; nullopt when it counted none.
  std::optional<double> mean_client_prompt_tokens;
  // Both means above are over the same requests: every completed request had the server's
  // prompt_tokens and the tokenizer's count, so their difference is the input beyond the text
  // (images, the chat template) of those requests. False with none completed.
  bool prompt_counts_paired = false;
  std::optional<double> mean_requested_output_len;
  std::optional<double> mean_completion_tokens;

  std::map<ErrorClass, ErrorSummary> errors;  // failed and cancelled requests by class

  // Goodput (vLLM's --goodput): completed requests meeting every given SLO, per second.
  bool goodput_measured = false;  // false when no SLO was given
  std::int64_t good_requests = 0;
  double goodput = 0;  // good_requests / duration, req/s

  // Value at each percentile (0, 1, ..., 99, 99.9, 100) of four distributions, for CDF plots.
  using Cdf = std::vector<std::pair<double, double>>;
  Cdf ttft_cdf_ms, itl_cdf_ms, tpot_cdf_ms, e2e_cdf_ms;

  // Buckets of the measured phase: per second, wider for a run past kMaxBuckets seconds.
  std::vector<TimelineBucket> timeline;
  double timeline_bucket_s = 1.0;      // their width
  std::int64_t timeline_start_ns = 0;  // the first bucket's start on the records' clock
  SteadyState steady_state;
  // Latencies of the requests inside the steady-state window (steady_latency.hpp); nullopt
  // when there is no window, no completed request or under half of them fit in it (too short
  // to be a steady state), the raw-value budget ran out before the run ended, or the figures
  // were merged from shards (which keep no request's times). Which one is steady_latency_gap.
  std::optional<SteadyLatencies> steady_latencies;
  SteadyLatencyGap steady_latency_gap = SteadyLatencyGap::no_window;
};

/// RunSummary's counters, by name, over one summary or several at once (visit("sent", a.sent,
/// b.sent) with two): the one list RunAccumulator::merge, a shard's saved state and its reading
/// (results/shard_state.cpp) go through. A new counter is its member above, where it is
/// counted, and one line here; merging, saving and reading it follow.
template <typename Visit, typename... Summaries>
void visit_counters(Visit&& field, Summaries&... s) {
  field("sent", s.sent...);
  field("completed", s.completed...);
  field("failed", s.failed...);
  field("cancelled", s.cancelled...);
  field("warmup_requests", s.warmup_requests...);
  field("connections_opened", s.connections_opened...);
  field("connection_retries", s.connection_retries...);
  field("not_streamed", s.not_streamed...);
  field("total_input_tokens", s.total_input_tokens...);
  field("total_output_tokens", s.total_output_tokens...);
  field("input_tokens_from_usage", s.input_tokens_from_usage...);
  field("output_tokens_from_usage", s.output_tokens_from_usage...);
  field("output_tokens_from_tokenizer", s.output_tokens_from_tokenizer...);
  field("output_tokens_from_chunks", s.output_tokens_from_chunks...);
  field("input_tokens_unknown", s.input_tokens_unknown...);
  field("total_text_chunks", s.total_text_chunks...);
  field("requests_with_per_chunk_usage", s.requests_with_per_chunk_usage...);
  field("good_requests", s.good_requests...);
  field("split_requests", s.input_split.requests...);
  field("split_disclosing_requests", s.input_split.disclosing_requests...);
  field("split_computed_tokens", s.input_split.computed_tokens...);
  field("split_cached_tokens", s.input_split.cached_tokens...);
  field("split_unknown_tokens", s.input_split.unknown_split_tokens...);
  field("reasoning_counted_requests", s.reasoning.requests...);
  field("reasoning_requests", s.reasoning.reasoning_requests...);
  field("reasoning_tokens", s.reasoning.reasoning_tokens...);
  field("answer_tokens", s.reasoning.answer_tokens...);
  field("reasoning_from_usage", s.reasoning.from_usage...);
  field("reasoning_from_tokenizer", s.reasoning.from_tokenizer...);
  field("reasoning_from_chunks", s.reasoning.from_chunks...);
  field("tool_call_counted_requests", s.tool_calls.requests...);
  field("tool_call_output_tokens", s.tool_calls.output_tokens...);
  field("tool_call_requests", s.tool_calls.tool_call_requests...);
  field("tool_calls", s.tool_calls.tool_calls...);
  field("tool_call_tokens", s.tool_calls.tool_call_tokens...);
  field("tool_calls_from_usage", s.tool_calls.from_usage...);
  field("tool_calls_from_tokenizer", s.tool_calls.from_tokenizer...);
  field("tool_calls_from_chunks", s.tool_calls.from_chunks...);
}

/// Service-level objectives a request must meet to count towards goodput, in milliseconds.
struct Slo {
  std::optional<double> ttft_ms;
  std::optional<double> tpot_ms;
  std::optional<double> e2e_ms;
  bool any() const { return ttft_ms || tpot_ms || e2e_ms; }
};

struct SummaryOptions {
  std::int64_t origin_ns = 0;         // time 0 of the timeline: the measured phase's start
  std::int64_t target_in_flight = 0;  // closed-loop concurrency; 0 = open loop (peak in flight)
  // The timeline's bucket width; doubled as often as needed to keep at most
  // kMaxTimelineBuckets buckets (timeline.hpp), so a run of any length has a bounded timeline.
  std::int64_t timeline_bucket_ns = 1'000'000'000;
  Slo slo;
  std::uint64_t sample_budget = SampleBudget::kDefaultValues;  // raw latency values, all together
  // Percentiles (0..100) beyond the fixed ones, for vLLM's --metric-percentiles: each of TTFT,
  // ITL, ICL, TPOT and E2E gets them in Distribution::asked. Not kept in a shard's saved state.
  std::vector<double> asked_percentiles;
};

struct AccumulatorState;  // accumulator_state.hpp

/// Folds request records into the run's figures, one record at a time, in any order.
class RunAccumulator {
 public:
  /// `budget`: the raw-value budget shared with the accumulators of the other client threads;
  /// null makes one of options.sample_budget values for this accumulator alone.
  explicit RunAccumulator(SummaryOptions options = {},
                          std::shared_ptr<SampleBudget> budget = nullptr);
  void add(const RequestRecord& record);
  /// Adds everything another accumulator (of another client thread) has seen.
  void merge(RunAccumulator&& other);
  /// The figures so far. Sorts the collected samples; adding more afterwards is allowed.
  RunSummary summarize();

  /// Everything it holds as plain data, to be saved and merged elsewhere (a shard's results).
  AccumulatorState state() const;
  /// The accumulator `state` describes, its times moved `shift_ns` later (onto the clock of
  /// the shards it is merged with). Its distributions hold what they were given, with no
  /// budget; one it is merged into applies its own. nullopt when a part is invalid.
  static std::optional<RunAccumulator> from_state(const AccumulatorState& state,
                                                  std::int64_t shift_ns);

 private:
  void add_sent(const RequestRecord& record);
  void add_tokens(const RequestRecord& record);
  void add_latencies(const RequestRecord& record);
  void summarize_latencies(RunSummary& summary);  // the distributions and their CDFs
  // values.summarize(), with options_.asked_percentiles filled in.
  Distribution summarize_asked(LatencyDistribution& values) const;
  std::optional<SteadyLatencies> steady_latencies(const SteadyState& window, std::int64_t completed,
                                                  SteadyLatencyGap& gap) const;
  // Every distribution below, in one order (kAccumulatorDistributions'): the constructor,
  // merge(), state() and from_state() go through it, so a new one is its member and its entry.
  using AllDistributions = std::array<LatencyDistribution*, kAccumulatorDistributions.size()>;
  AllDistributions distributions();
  // The same, read only.
  std::array<const LatencyDistribution*, kAccumulatorDistributions.size()> distributions() const;

  SummaryOptions options_;
  std::shared_ptr<SampleBudget> budget_;
  RunSummary counts_;  // the counters and sums; distributions are filled by summarize()
  // Exact while they fit their budget, a mergeable histogram beyond it (latency_distribution.hpp),
  // so a run of a million requests does not keep a sample per token.
  LatencyDistribution ttft_ms_, itl_ms_, icl_ms_, tpot_ms_, e2e_ms_;
  LatencyDistribution schedule_lag_ms_, client_lag_ms_, ttft_from_intended_ms_,
      e2e_from_intended_ms_;
  LatencyDistribution connect_ms_;
  LatencyDistribution ttfa_ms_;
  LatencyDistribution ttfb_ms_;
  LatencyDistribution ttst_ms_;
  std::int64_t first_start_ns_;
  std::int64_t last_end_ns_;
  RunSums sums_;  // beside counts_: what the means and Little's law divide (run_sums.hpp)
  // False once it holds figures restored from a shard's state, which keeps no request's times:
  // its steady-state latencies cannot be known.
  bool steady_times_kept_ = true;
  Timeline timeline_;
  SteadyLatencyLog steady_log_;
};

/// All records at once: the same figures as adding each to a RunAccumulator.
RunSummary summarize_run(std::span<const RequestRecord> records, SummaryOptions options = {});

}  // namespace bench::metrics
