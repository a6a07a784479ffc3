#pragma once
// Settings of the embedded OpenAI-compatible server (`bench serve-sim`, and bench's default
// target when no --base-url is given). Every field says its unit. docs/simulator.md explains
// the profiles, the cost model and every fault.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/sim/metrics_exposition.hpp"
#include "bench/sim/power_model.hpp"
#include "bench/sim/prompt_counter.hpp"
#include "bench/sim/stream_format.hpp"
#include "bench/sim/tokenize_routes.hpp"
#include "bench/tokenizer/tokenizer.hpp"

namespace bench::sim {

/// The continuous-batching engine's parameters, in simulated time (before --time-scale). A
/// profile sets all of them; docs/simulator.md says where each profile's numbers come from.
struct EngineParams {
  std::int64_t max_running_requests = 256;   // sequences in the engine at once (SGLang's flag)
  std::int64_t kv_cache_tokens = 1'000'000;  // KV budget: prompt + output of running requests
  std::int64_t max_batched_tokens = 2048;    // tokens per step: decodes + prefill chunks
  double prefill_us_per_token = 5;           // cost of one prompt token in a step, microseconds
  double step_us = 1000;                     // fixed cost of every step (weights read), us
  double decode_us_per_seq = 10;             // cost of each decoding sequence in a step, us
  double decode_ns_per_context_token = 0;    // attention reading a decoding sequence's KV, ns
  double comm_us_per_step = 0;               // per-step collective latency (TP all-reduces), us
};

/// Flags that override single parameters of the profile (unset = the profile's value).
struct EngineOverrides {
  std::optional<std::int64_t> max_running_requests;
  std::optional<std::int64_t> kv_cache_tokens;
  std::optional<std::int64_t> max_batched_tokens;
  std::optional<double> prefill_us_per_token;
  std::optional<double> step_us;
  std::optional<double> decode_us_per_seq;
  std::optional<double> decode_ns_per_context_token;
  std::optional<double> comm_us_per_step;
};

struct SimOptions {
  std::string host = "127.0.0.1";   // listen address; loopback by default
  std::uint16_t port = 0;           // 0 = pick a free port (read it back from SimServer::port())
  std::string model = "bench-sim";  // the single id served by GET /v1/models
  // Tokens one request may hold (prompt + output), said as max_model_len in GET /v1/models
  // (vLLM's shape) and by /tokenize; a statement only: requests beyond it are still served.
  std::int64_t max_model_len = 1'048'576;
  MetricsFamily metrics_family = MetricsFamily::vllm;  // whose names GET /metrics writes
  // The GPUs' power model behind GET /metrics' DCGM-exporter series (power_model.hpp).
  PowerOptions power;

  // How tokens are timed: "fixed" (every request on its own clock, the three fields below),
  // "firehose" (no delays), or a continuous-batching engine: "tiny", "h100-dense-8b",
  // "pcie-8gpu-moe" (profiles.hpp).
  std::string profile = "fixed";
  double ttft_ms = 50.0;              // fixed: request arrival -> first text chunk, milliseconds
  double tpot_ms = 10.0;              // fixed: time per output token after the first, milliseconds
  std::int32_t tokens_per_chunk = 1;  // fixed, firehose: tokens carried by each chunk (>= 1)
  EngineOverrides engine;             // batching profiles: parameters set by flags
  // The prefix cache (prefix_cache.hpp): on or off; unset = the profile's default (on in
  // h100-dense-8b and pcie-8gpu-moe). Its capacity is the KV budget.
  std::optional<bool> prefix_cache;
  // Simulated time runs this many times faster than real time: every modelled duration (fixed
  // ttft/tpot, every engine step) is divided by it. Fault timings (stall, Retry-After) are real.
  double time_scale = 1.0;
  // Noise of a known size: every completion request waits a time drawn uniformly from
  // [0, 2 x jitter_ms] ms (mean jitter_ms, standard deviation jitter_ms / sqrt(3); simulated
  // time, so divided by time_scale) before the model sees it, drawn from its own seed. 0 = none.
  double jitter_ms = 0.0;

  bool send_usage = true;  // false: never send usage (no usage chunk, no per-chunk usage)
  std::int64_t default_max_tokens = 128;  // output length when the request gives no max_tokens
  // Without ignore_eos a request stops early with this probability per token (0 = never: the
  // output is exactly max_tokens long, as llama.cpp does with random weights).
  double eos_probability = 0.0;
  // What the generated words say (stream_format.hpp): canned answers the answer check's
  // known-answer prompts rightly (and ends there, finish_reason "stop"), random never does.
  SimAnswers answers = SimAnswers::canned;
  std::uint64_t seed = 42;  // drives every random choice (faults, early EOS)

  // A reasoning model: chat answers (streamed or whole) spend their first reasoning_tokens tokens
  // (at most all of them) on reasoning in reasoning_field (deltas, or the whole message's field),
  // then answer, and usage says how many in completion_tokens_details.reasoning_tokens.
  // reasoning_fraction of chat answers (drawn per request from `seed`) reason; the others report
  // 0. 0 tokens = off: no reasoning, no details.
  std::int64_t reasoning_tokens = 0;
  double reasoning_fraction = 1.0;
  ReasoningField reasoning_field = ReasoningField::reasoning_content;
  // Tool calls: this fraction of chat answers whose request carries "tools" (tool_choice not
  // "none"; "required" or a named function always) answer with one tool call instead of text,
  // streamed as vLLM's tool parsers do (the name first, then argument fragments) or whole in
  // message.tool_calls, its tokens in usage.completion_tokens and generated at the same cost as
  // text tokens.
  double tool_call_fraction = 0.0;
  // Images: an image_url part of W x H pixels costs ceil(W/P) x ceil(H/P) prompt tokens, P this
  // (image_tokens.hpp; 14: CLIP ViT-L/14's patches).
  std::int64_t image_patch_px = 14;

  // Faults: each is the fraction of completion requests (0..1) that meet it, drawn per request
  // in arrival order from `seed`. Mid-stream faults strike after half of the output tokens.
  double fail_429_fraction = 0.0;        // HTTP 429 with Retry-After and a JSON error body
  double fail_500_fraction = 0.0;        // HTTP 500 with a JSON error body
  double fail_503_fraction = 0.0;        // HTTP 503 with Retry-After and a JSON error body
  double reset_fraction = 0.0;           // TCP reset mid-stream (SO_LINGER 0, then close)
  double stall_fraction = 0.0;           // no byte for stall_s seconds mid-stream, then the rest
  double stall_s = 5.0;                  // length of each stall, seconds (real time)
  double malformed_json_fraction = 0.0;  // one data event that is not JSON, mid-stream
  double truncate_fraction = 0.0;        // the stream ends mid-way without finish_reason or [DONE]
  double stream_error_fraction = 0.0;    // data: {"error": ...} mid-stream, then [DONE]
  double no_usage_fraction = 0.0;        // no usage at all (as with send_usage = false)
  double multi_token_fraction = 0.0;     // chunks carry multi_token_count tokens each
  std::int32_t multi_token_count = 3;    // tokens per chunk in those responses (>= 2)
  double crlf_fraction = 0.0;            // SSE lines end with CRLF
  double comment_fraction = 0.0;         // an SSE comment (": keep-alive") before every event
  // GET /metrics counts one generation token more than the response carried (a miscounting
  // server, for --server-metrics's cross-check); the response itself is untouched.
  double metrics_miscount_fraction = 0.0;

  // llama.cpp's dialect (server-quirks.md), for every stream when set.
  bool usage_on_last_chunk = false;  // usage rides on the finish_reason chunk, always sent
  bool no_role_chunk = false;        // chat streams open with content, no role-only delta
  bool close_after_stream = false;   // says keep-alive (timeout=5, max=100), closes anyway
  // Refuses a request naming a model other than `model` with vLLM's 404 (serving_engine.py,
  // _check_model: "The model `X` does not exist."); off, the simulator answers for any name.
  bool refuse_unknown_model = false;
  // With close_after_stream: the close comes this long after the stream's last bytes were
  // written, and a request the client sends meanwhile is left unread, so the close resets it
  // (llama.cpp's FIN came 8-90 us after the last chunk). 0: at once.
  std::int64_t close_delay_us = 0;
  // Closes a connection that has carried no request for this long, as servers do with idle
  // keep-alive connections (vLLM's uvicorn: timeout_keep_alive, 5 s). 0: never.
  double keepalive_timeout_s = 0;

  // `serve-sim --replay DIR`: serve this wire recording back (replay_server.hpp) instead of
  // simulating; its recorded times divided by replay_speed. Every other setting is unused then.
  std::string replay_dir;
  double replay_speed = 1.0;

  std::string trace_path;  // when set, a JSONL truth log: one line per request (server times)

  // Tokens (prompt_counter.hpp, tokenize_routes.hpp): which /tokenize dialect is answered, the
  // chat template applied to chat prompts, and the tokenizer that counts (null: the word rule).
  TokenizeDialect tokenize_dialect = TokenizeDialect::vllm;
  ChatTemplate chat_template = ChatTemplate::none;
  std::string tokenizer_path;  // --tokenizer PATH as given; opened into `tokenizer` by the app
  std::shared_ptr<const tokenizer::Tokenizer> tokenizer;
};

/// Opens a tokenizer file for the simulator (serve-sim --tokenizer PATH). Throws
/// tokenizer::TokenizerError naming the file and what is wrong.
using TokenizerFactory =
    std::function<std::shared_ptr<const tokenizer::Tokenizer>(const std::string& path)>;

/// One line saying how the simulator behaves ("profile fixed: ttft 50 ms, tpot 10 ms, ..."),
/// for the banner of `serve-sim` and of a run against the embedded server.
std::string describe(const SimOptions& options);

/// The settings that change what a run against the simulator measures, for the results'
/// "simulator" object: {"profile", "time_scale", "faults": {name: fraction}, "seed",
/// "description"}. `bench compare` warns when two runs' differ.
nlohmann::json settings_json(const SimOptions& options);

}  // namespace bench::sim
