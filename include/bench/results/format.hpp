#pragma once
// The results format's vocabulary, owned here and nowhere else: the schema version, the kinds
// of results object, the shared key names, how an unlimited rate and an unknown figure are
// written and read, and how a figure is printed in one-line messages. The results module's
// writer (writer.hpp) writes results files; report, gate, compare and merge read them only
// through this module, so a key or a spelling changes in one place.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bench::results {

/// "schema_version" of every results file this bench writes, and the newest it reads.
inline constexpr int kSchemaVersion = 1;

/// What a results object holds: one run, a sweep's points, a search's probes (`bench search`,
/// read as a sweep). merged is reserved: `bench merge` writes the kind of its shards (run or
/// sweep) with a "merged" object beside it, and no bench writes "kind": "merged" yet.
enum class Kind { run, sweep, search, merged };

/// "run", "sweep", "search", "merged": the value of "kind".
std::string_view kind_name(Kind kind);

/// The kind named `name`, or nullopt for any other text.
std::optional<Kind> parse_kind(std::string_view name);

/// Key names shared by writer and readers.
namespace key {
inline constexpr std::string_view schema_version = "schema_version";
inline constexpr std::string_view bench_version = "bench_version";
inline constexpr std::string_view kind = "kind";
inline constexpr std::string_view sweep = "sweep";  // {"variable", "values"}
inline constexpr std::string_view variable = "variable";
inline constexpr std::string_view values = "values";
inline constexpr std::string_view points = "points";  // a sweep's run objects
// --repeat N: a repeated point's summary ({count, confidence, interval, figures}) and its
// repeats' own run objects (results/repeats.hpp).
inline constexpr std::string_view repeats = "repeats";
inline constexpr std::string_view repeat_runs = "repeat_runs";
// A run's identity and counts ([Which requests count] in docs/metrics.md).
inline constexpr std::string_view started_at = "started_at";  // ISO 8601 UTC, a label only
inline constexpr std::string_view base_url = "base_url";
inline constexpr std::string_view embedded_server = "embedded_server";
inline constexpr std::string_view model = "model";
inline constexpr std::string_view duration = "duration";  // the measured phase, seconds
inline constexpr std::string_view sent = "sent";
inline constexpr std::string_view completed = "completed";
inline constexpr std::string_view failed = "failed";
inline constexpr std::string_view cancelled = "cancelled";
// Of the completed, those sent with "stream": false (--no-stream): no TTFT, ITL or TPOT of
// theirs; those distributions are the streamed ones' (null when this equals completed).
inline constexpr std::string_view requests_not_streamed = "requests_not_streamed";
// The throughputs, each of its own kind: output and input tok/s, total (input + output) tok/s,
// completed requests/s.
inline constexpr std::string_view input_throughput = "input_throughput";
inline constexpr std::string_view total_throughput = "total_throughput";
inline constexpr std::string_view request_throughput = "request_throughput";
// Means over the completed requests of the tokens the server counted (usage), null when unknown.
inline constexpr std::string_view mean_prompt_tokens = "mean_prompt_tokens";
inline constexpr std::string_view mean_completion_tokens = "mean_completion_tokens";
// {ttft_ms, itl_ms, tpot_ms, e2e_latency_ms}: [[percentile, value], ...] at 0, 1, ..., 99, 99.9,
// 100 (the CDF of metrics/run_summary.hpp).
inline constexpr std::string_view distributions = "distributions";
inline constexpr std::string_view request_rate = "request_rate";
inline constexpr std::string_view max_concurrency = "max_concurrency";
inline constexpr std::string_view output_throughput = "output_throughput";
inline constexpr std::string_view token_count_source = "token_count_source";
inline constexpr std::string_view config = "config";
inline constexpr std::string_view definitions = "definitions";
// The input tokens split into computed (prefilled) and cached (served by the server's prefix
// cache), from usage.prompt_tokens_details.cached_tokens; null when not every request said.
inline constexpr std::string_view total_computed_input_tokens = "total_computed_input_tokens";
inline constexpr std::string_view total_cached_input_tokens = "total_cached_input_tokens";
inline constexpr std::string_view computed_input_throughput = "computed_input_throughput";
inline constexpr std::string_view cached_input_throughput = "cached_input_throughput";
inline constexpr std::string_view cached_input_share = "cached_input_share";  // 0..1
// --prefix-share S: the share of each prompt (of each session's first turn) that every request
// of the point shares, a system prompt bench sends: the cache-hit share a warm prefix cache
// would give, as asked (0..1). cached_input_share is what the server's cache served. Also a
// sweep's variable ("prefix_share") when a list of shares is given.
inline constexpr std::string_view prefix_share = "prefix_share";
// Whether that system prompt was sent once before the point was measured (app/run/
// prime_prefix.hpp); written with a share above 0 only.
inline constexpr std::string_view prefix_primed = "prefix_primed";
inline constexpr std::string_view input_split_disclosure = "input_split_disclosure";
inline constexpr std::string_view input_split_disclosing_requests =
    "input_split_disclosing_requests";
inline constexpr std::string_view reused_prompts = "reused_prompts";  // --reuse-prompts
// The workload's prompts share prefixes on purpose: a shared-prefix dataset, or a trace whose
// hash ids repeat. Written so that `bench merge` knows it without re-reading the dataset.
inline constexpr std::string_view prompts_share_prefixes = "prompts_share_prefixes";
// In "steady_state": why its latencies are null ("none_inside", "few_inside",
// "budget_ran_out", "merged": metrics::SteadyLatencyGap); null when they are known.
inline constexpr std::string_view steady_latency_unknown = "latency_unknown";
inline constexpr std::string_view warnings = "warnings";  // the run's warnings, one line each
// {"budget": raw values kept at most, all distributions together (--latency-sample-budget);
//  "exact": every value was kept (else some percentiles are from histograms);
//  "max_relative_error": the bound on those percentiles' error, 0 when exact}
inline constexpr std::string_view latency_samples = "latency_samples";
inline constexpr std::string_view sample_budget = "budget";
inline constexpr std::string_view samples_exact = "exact";
inline constexpr std::string_view max_relative_error = "max_relative_error";
// Reasoning models: the output split into reasoning and answer tokens, their output tok/s (TTFA is
// a row of latency_figures.hpp). Null, never 0, when no request reasoned;
// requests_with_reasoning is a count (0 then). token_count_source.reasoning says how the
// reasoning tokens were known ("usage", "tokenizer", "chunks_estimate", "mixed"; null).
inline constexpr std::string_view requests_with_reasoning = "requests_with_reasoning";
inline constexpr std::string_view total_reasoning_tokens = "total_reasoning_tokens";
inline constexpr std::string_view total_answer_tokens = "total_answer_tokens";
inline constexpr std::string_view reasoning_output_throughput = "reasoning_output_throughput";
inline constexpr std::string_view answer_output_throughput = "answer_output_throughput";
inline constexpr std::string_view mean_reasoning_tokens = "mean_reasoning_tokens";
inline constexpr std::string_view mean_answer_tokens = "mean_answer_tokens";
inline constexpr std::string_view reasoning_token_source = "reasoning";  // in token_count_source
// Tool calls (delta.tool_calls): the output tokens spent on them, their share of the output, their
// output tok/s, the calls made, and the mean tool-call tokens of a calling request. Null, never 0,
// when no request called a tool; requests_with_tool_calls is a count (0 then).
// token_count_source.tool_calls says how the tokens were known ("usage": completion less
// reasoning of answers that streamed no content; "tokenizer", "chunks_estimate", "mixed"; null).
inline constexpr std::string_view requests_with_tool_calls = "requests_with_tool_calls";
inline constexpr std::string_view total_tool_calls = "total_tool_calls";
inline constexpr std::string_view total_tool_call_tokens = "total_tool_call_tokens";
inline constexpr std::string_view tool_call_output_share = "tool_call_output_share";  // 0..1
inline constexpr std::string_view tool_call_output_throughput = "tool_call_output_throughput";
inline constexpr std::string_view mean_tool_call_tokens = "mean_tool_call_tokens";
inline constexpr std::string_view tool_call_token_source = "tool_calls";  // in token_count_source
// --server-metrics with polls: on each timeline bucket, the mean of the server's gauge readings
// taken in it (null where none was); the sum over several servers, the fullest one's KV usage.
inline constexpr std::string_view server_requests_running = "server_requests_running";
inline constexpr std::string_view server_requests_waiting = "server_requests_waiting";
inline constexpr std::string_view server_kv_cache_usage = "server_kv_cache_usage";  // 0..1
// --multi-turn: the section {"by_turn": [{"turn" (1-based), "requests", "completed",
// "{mean,median,p99}_ttft_ms" (null without a completed turn), "mean_input_tokens",
// "mean_cached_input_tokens", "mean_computed_input_tokens" (null when unknown)}], "by_context":
// [{"context_tokens_low", "context_tokens_high", "completed", "{mean,median,p99}_ttft_ms",
// "mean_input_tokens", "mean_cached_input_tokens"}], "sessions_started", "sessions_completed",
// "sessions_failed", "sessions_unfinished", "turns_completed",
// "{mean,median,p99}_session_duration_ms" (completed sessions; null without one), and a shard's
// "shard_state" (results/shard_state.hpp)}, and its options under "config".
inline constexpr std::string_view multi_turn = "multi_turn";
inline constexpr std::string_view by_turn = "by_turn";
inline constexpr std::string_view turn = "turn";
inline constexpr std::string_view turn_requests = "requests";
inline constexpr std::string_view turn_completed = "completed";
inline constexpr std::string_view mean_input_tokens = "mean_input_tokens";
inline constexpr std::string_view mean_cached_input_tokens = "mean_cached_input_tokens";
inline constexpr std::string_view mean_computed_input_tokens = "mean_computed_input_tokens";
inline constexpr std::string_view by_context = "by_context";
inline constexpr std::string_view context_tokens_low = "context_tokens_low";
inline constexpr std::string_view context_tokens_high = "context_tokens_high";
inline constexpr std::string_view sessions_started = "sessions_started";
inline constexpr std::string_view sessions_completed = "sessions_completed";
inline constexpr std::string_view sessions_failed = "sessions_failed";
inline constexpr std::string_view sessions_unfinished = "sessions_unfinished";
inline constexpr std::string_view turns_completed = "turns_completed";
inline constexpr std::string_view session_duration = "session_duration";  // distribution name
// A replayed agent trace (--trace-format weka; results/agent_trace_section.hpp), only then: the
// section {"valid", "validity", "context_overflows", "responses", "cache_ceiling": {"requests",
// "prompt_tokens", "ceiling_tokens", "ceiling_share", "disclosing_requests", "cached_tokens",
// "cached_share", "gap_share", "gap_tokens"}, "trees": {"count", "{stat}_turns",
// "{stat}_output_throughput", "{stat}_input_throughput"}, "subagents": {"count",
// "{stat}_duration_ms", "{stat}_turns", "{stat}_output_throughput"}, "root_requests" and
// "subagent_requests": {"requests", "completed", "output_tokens", "{median,p99}_ttft_ms"},
// "p90_interactivity", "computed_input_throughput_per_gpu"}; {stat} is mean, min, median, p90,
// p99, max, each null without a value. Its figures' definitions join "definitions" then.
inline constexpr std::string_view agent_trace = "agent_trace";
inline constexpr std::string_view agent_valid = "valid";
inline constexpr std::string_view agent_validity = "validity";  // why valid is what it is
inline constexpr std::string_view context_overflows = "context_overflows";
inline constexpr std::string_view responses = "responses";
inline constexpr std::string_view cache_ceiling = "cache_ceiling";
inline constexpr std::string_view ceiling_requests = "requests";
inline constexpr std::string_view ceiling_prompt_tokens = "prompt_tokens";
inline constexpr std::string_view ceiling_tokens = "ceiling_tokens";
inline constexpr std::string_view ceiling_share = "ceiling_share";
inline constexpr std::string_view disclosing_requests = "disclosing_requests";
inline constexpr std::string_view cached_tokens = "cached_tokens";
inline constexpr std::string_view cached_share = "cached_share";
inline constexpr std::string_view gap_share = "gap_share";
inline constexpr std::string_view gap_tokens = "gap_tokens";
inline constexpr std::string_view trees = "trees";
inline constexpr std::string_view subagents = "subagents";
inline constexpr std::string_view agent_count = "count";
inline constexpr std::string_view agent_turns = "turns";
inline constexpr std::string_view agent_duration_ms = "duration_ms";
inline constexpr std::string_view root_requests = "root_requests";
inline constexpr std::string_view subagent_requests = "subagent_requests";
inline constexpr std::string_view role_requests = "requests";
inline constexpr std::string_view role_completed = "completed";
inline constexpr std::string_view role_output_tokens = "output_tokens";
inline constexpr std::string_view p90_interactivity = "p90_interactivity";
inline constexpr std::string_view computed_input_throughput_per_gpu =
    "computed_input_throughput_per_gpu";
// The self-check's verdicts (app/client_verdict.hpp): the client's own work made it late; its
// host ran it late. Each a bool of its own, so a check on one is not set off by the other.
// The efficiency figures (results/efficiency.hpp), each named by its kind. --gpus and
// --gpu-hour-price are recorded under "config" as "gpus" (a count) and "gpu_hour_price" (USD
// per GPU-hour), null when not given. Per GPU: each token throughput over --gpus, null without
// it (never guessed). Per user: output tokens over each request's decode time (1000 / TPOT ms),
// its median and p10, output tok/s per user. Cost: USD per million tokens of each kind, the GPUs'
// whole cost charged to that kind (needs --gpus and --gpu-hour-price). Energy: the GPUs' energy
// counters' growth over the point (--server-metrics scraping DCGM's
// DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION), in joules, and over output and total tokens; null when
// no counter was scraped, never 0.
inline constexpr std::string_view gpus = "gpus";
inline constexpr std::string_view gpu_hour_price = "gpu_hour_price";
// A command line written for vLLM's or SGLang's client (cli/dialect.hpp), under "config", only
// then: "dialect" ("vllm", "sglang") and the peer's defaults bench did not take, one sentence
// each, e.g. its fixed --seed.
inline constexpr std::string_view dialect = "dialect";
// What the server said it is (app/server/server_identity.hpp): {"family", "version", "model",
// "max_model_len"}, each null when it did not say.
inline constexpr std::string_view server = "server";
inline constexpr std::string_view peer_defaults_not_taken = "peer_defaults_not_taken";
inline constexpr std::string_view output_throughput_per_gpu = "output_throughput_per_gpu";
inline constexpr std::string_view input_throughput_per_gpu = "input_throughput_per_gpu";
inline constexpr std::string_view total_throughput_per_gpu = "total_throughput_per_gpu";
inline constexpr std::string_view median_output_throughput_per_user =
    "median_output_throughput_per_user";
inline constexpr std::string_view p10_output_throughput_per_user = "p10_output_throughput_per_user";
inline constexpr std::string_view usd_per_million_output_tokens = "usd_per_million_output_tokens";
inline constexpr std::string_view usd_per_million_input_tokens = "usd_per_million_input_tokens";
inline constexpr std::string_view usd_per_million_total_tokens = "usd_per_million_total_tokens";
inline constexpr std::string_view gpu_energy_joules = "gpu_energy_joules";
inline constexpr std::string_view joules_per_output_token = "joules_per_output_token";
inline constexpr std::string_view joules_per_total_token = "joules_per_total_token";
inline constexpr std::string_view client_saturated = "client_saturated";
inline constexpr std::string_view host_late = "host_late";
// Images in chat (--images-per-request): in the config, present only with images, the count a
// request, "WxH" and "jpeg"|"png". In a run, the input split over the completed requests whose
// usage and text count are both known (null when none): the mean prompt_tokens of usage, the
// mean text tokens as the tokenizer counted what was sent, and their difference, labelled an
// estimate (it also holds the chat template's tokens).
inline constexpr std::string_view images_per_request = "images_per_request";
inline constexpr std::string_view image_size = "image_size";
inline constexpr std::string_view image_format = "image_format";
// A dataset's own images (jsonl "images"): in the config, present only when its rows name
// some, the image files they name (a file named by two rows counts twice). The input splits
// into text and images as with --images-per-request.
inline constexpr std::string_view dataset_images = "dataset_images";
// {"requests", "mean_input_tokens", "mean_text_tokens", "mean_image_tokens_estimate"}
inline constexpr std::string_view image_input_split = "image_input_split";
inline constexpr std::string_view mean_text_tokens = "mean_text_tokens";
inline constexpr std::string_view mean_image_tokens_estimate = "mean_image_tokens_estimate";
inline constexpr std::string_view image_split_requests = "requests";
}  // namespace key

/// How an unlimited rate (a closed loop) is written: JSON has no infinity.
inline constexpr std::string_view kUnlimited = "inf";

/// A rate in requests/s: the number, or "inf" when unlimited.
nlohmann::json rate_to_json(double rate_per_s);

/// A number, or infinity for "inf" (and "Infinity"/"infinity", which other tools write).
/// nullopt for null, booleans, other strings, objects and arrays.
std::optional<double> number_from_json(const nlohmann::json& value);

/// The number under `object[key]`, read as number_from_json; nullopt when absent.
std::optional<double> number_at(const nlohmann::json& object, std::string_view key);

/// A figure that may be unknown: the number, or null (never 0) when unknown or not finite.
nlohmann::json known_or_null(std::optional<double> value);

/// A measured figure that is always defined (0 with no requests); NaN and infinity, which JSON
/// cannot hold, become 0.
double finite_or_zero(double value);

/// A rate or sweep value as a label: "64", "2.5", "inf".
std::string value_label(double value);

/// A figure as people read it in one-line messages: whole numbers bare, others to 2 decimals
/// (trailing zeros dropped), those under 1 to 3 significant digits.
std::string format_number(double value);

}  // namespace bench::results
