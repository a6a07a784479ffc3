#pragma once
// What bench knows about one request when it has ended: the raw material every metric is
// computed from, and what --save-requests writes one line of.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/metrics/error_class.hpp"

namespace bench::metrics {

/// Where a token count came from. Never the requested length.
enum class TokenSource {
  none,       // nothing is known (e.g. the request failed before any chunk)
  usage,      // the server's `usage` object
  tokenizer,  // the run's tokenizer (--tokenizer) on the streamed text: exact for that tokenizer
  chunks,     // the number of text-carrying chunks: an estimate, labelled as one
};

std::string_view token_source_name(TokenSource source);
/// The source of a sum over requests counted `usage`, `tokenizer` and `chunks` times:
/// token_source_name of the one used, or "mixed" when several were (usage when none was).
std::string_view token_sources_label(std::int64_t usage, std::int64_t tokenizer,
                                     std::int64_t chunks);
/// Adds one to the count of `source` among `usage`, `tokenizer` and `chunks` (none: nothing):
/// how a sum over requests keeps the counts token_sources_label reads.
void count_token_source(TokenSource source, std::int64_t& usage, std::int64_t& tokenizer,
                        std::int64_t& chunks);

/// Where the count of prompt tokens served by the server's prefix cache came from.
enum class CachedTokenSource {
  none,              // the server did not say: the split of the prompt is unknown
  usage_details,     // usage.prompt_tokens_details.cached_tokens (vLLM, SGLang, OpenAI)
  timings_cache_n,   // llama.cpp's final-chunk timings.cache_n (newer builds)
  timings_prompt_n,  // llama.cpp's timings.prompt_n (tokens prefilled): prompt_tokens - prompt_n
};

std::string_view cached_token_source_name(CachedTokenSource source);

struct RequestRecord {
  std::uint64_t index = 0;  // position in the workload (0-based, warm-up requests included)
  bool warmup = false;      // warm-up requests are recorded but excluded from every metric
  // --multi-turn: the request's session and its turn in it (0-based); -1 otherwise.
  std::int64_t session = -1;
  std::int64_t turn = -1;
  // --multi-turn: the session's branch the turn belongs to (--fan-out; 0 without); -1 otherwise.
  std::int64_t branch = -1;

  // Sent with "stream": true and read as an event stream. False: "stream": false, the answer one
  // whole JSON body (--no-stream, or the request's own choice), so it has no first token and no
  // chunk times (first_token_ns, first_answer_ns -1, text_chunk_ns empty) and enters no TTFT,
  // ITL, TPOT or TTFA: only its E2E, its tokens and the throughputs.
  bool streamed = true;

  // All times are steady-clock nanoseconds relative to the run's epoch (see RunTimes).
  std::int64_t intended_start_ns = 0;  // when the schedule wanted the request sent
  // Open loop with a concurrency cap: how long after its intended start the request waited for
  // a free slot (0 in a closed loop, where the intended start is the moment a slot freed). The
  // rest of start - intended_start is the client's own lag.
  std::int64_t slot_wait_ns = 0;
  std::int64_t start_ns = 0;  // when bench handed the request to the transport
  // First chunk carrying generated tokens (content, reasoning or a tool-call delta); -1 if none.
  std::int64_t first_token_ns = -1;
  // First chunk carrying answer text (content, or a completion's text; not reasoning): the end
  // of TTFA, time to first answer token. -1 if none. Equal to first_token_ns without reasoning.
  std::int64_t first_answer_ns = -1;
  std::int64_t end_ns = 0;  // end of stream (or failure)
  // A streamed chat or completions answer's chunks whose choices[0] is an object, whatever they
  // carry (a role-only delta, a finish reason alone): the first and the last arrival and how
  // many. These are the times vLLM's benchmark client stamps: its TTFT ends at the first, its
  // E2E at the last, and its ITL has a gap before each after the first (peer_view/). -1, -1, 0
  // when none arrived (another endpoint, a whole body).
  std::int64_t first_choice_ns = -1;
  std::int64_t last_choice_ns = -1;
  std::int64_t choice_chunks = 0;

  // Arrival time of every chunk carrying generated tokens (text, reasoning or a tool-call delta),
  // in order (first_token_ns is the first entry).
  std::vector<std::int64_t> text_chunk_ns;
  // Tokens carried by each text chunk when the server said so exactly (per-chunk usage, e.g.
  // vLLM's continuous_usage_stats); empty when unknown. Same length as text_chunk_ns when set.
  std::vector<std::int32_t> text_chunk_tokens;

  std::int64_t prompt_tokens = -1;      // -1 when unknown
  std::int64_t completion_tokens = -1;  // -1 when unknown
  TokenSource prompt_token_source = TokenSource::none;
  TokenSource completion_token_source = TokenSource::none;
  // Reasoning (delta.reasoning_content or delta.reasoning): the text chunks that carried some,
  // and the tokens of completion_tokens spent on it, from usage.completion_tokens_details
  // .reasoning_tokens, else counted as completion_tokens is (tokenizer, else reasoning chunks).
  // A stream that showed no reasoning and whose usage said nothing of it has 0, source none.
  std::int64_t reasoning_chunks = 0;
  std::int64_t reasoning_tokens = 0;
  TokenSource reasoning_token_source = TokenSource::none;
  // Tool calls (delta.tool_calls): the chunks that carried a fragment of one, the calls started
  // (a fragment naming its function starts a call) and their names, and the tokens of
  // completion_tokens spent on them. No server's usage breaks them out: when the answer streamed
  // no content they are usage's completion_tokens less reasoning_tokens (source usage), else
  // counted on their text (tokenizer) or one per tool-call chunk (chunks, an estimate).
  std::int64_t tool_call_chunks = 0;
  std::vector<std::string> tool_call_names;
  std::int64_t tool_call_tokens = 0;
  TokenSource tool_call_token_source = TokenSource::none;
  // Prompt tokens the server's prefix cache served rather than computed; -1 when unknown (never
  // 0 for "not said"). The computed (prefilled) part is prompt_tokens - cached_prompt_tokens.
  std::int64_t cached_prompt_tokens = -1;
  CachedTokenSource cached_prompt_token_source = CachedTokenSource::none;
  // A replayed agent trace's request (--trace-format weka): the prompt tokens its blocks share
  // with what was sent before, which a server caching whole blocks without limit could serve
  // (workload/agent_history.hpp's ceiling); -1 for every other request.
  std::int64_t cache_ceiling_tokens = -1;
  std::int64_t requested_input_len = 0;  // prompt length the workload asked for, in words
                                         // (tokens with --tokenizer)
  // The prompt's content tokens as the run's tokenizer counted the text sent (--tokenizer);
  // -1 without one. Beside prompt_tokens (the server's count) it shows the template's share.
  std::int64_t client_prompt_tokens = -1;
  std::int64_t requested_output_len = 0;  // max_tokens sent

  std::string finish_reason;  // as sent by the server ("stop", "length", ...); empty if none
  std::string response_id;    // the "id" of the first chunk that had one: ties the request to the
                              // server's logs (and to the simulator's truth log)
  // W3C trace context sent with the request (traceparent): the trace's id (32 hex digits) and
  // bench's span in it (16); empty when none was sent (--no-traceparent).
  std::string trace_id;
  std::string span_id;
  bool saw_done = false;        // the stream ended with data: [DONE]
  std::int64_t text_bytes = 0;  // bytes of generated text received (content + reasoning)

  // Connection: a new one belongs in TTFT (the user waits for it too) but is reported apart, so a
  // server that closes every connection (llama.cpp) or accepts slowly is seen for what it is.
  bool new_connection = false;  // this request opened a connection rather than reusing one
  // Times it was sent again on a new connection because the server had closed the reused one
  // before answering (engine::TransferEnd::connection_retries); timed from its first attempt.
  std::int64_t connection_retries = 0;
  std::int64_t connect_ns = -1;  // time to connect, when it opened one; -1 otherwise
  // Time to response headers: start -> the response's first byte (status line and headers),
  // when one came; -1 otherwise. Beside TTFT it tells admission (the server answering at all)
  // from prefill (its first token).
  std::int64_t response_headers_ns = -1;

  ErrorClass error = ErrorClass::none;
  long http_status = 0;       // 0 when no response arrived
  std::string error_message;  // the server's message or the transport's, for the report

  bool ok() const { return error == ErrorClass::none; }
  /// Prompt tokens the server computed (prefilled): prompt_tokens - cached_prompt_tokens when
  /// both are known, else -1.
  std::int64_t computed_prompt_tokens() const {
    return prompt_tokens >= 0 && cached_prompt_tokens >= 0 ? prompt_tokens - cached_prompt_tokens
                                                           : -1;
  }
  bool cancelled() const { return error == ErrorClass::cancelled; }
  /// The model reasoned: it streamed reasoning text, or its usage counted reasoning tokens.
  bool reasoned() const { return reasoning_chunks > 0 || reasoning_tokens > 0; }
  /// The answer was (or held) a tool call.
  bool called_tools() const { return tool_call_chunks > 0; }
  std::int64_t tool_calls() const { return static_cast<std::int64_t>(tool_call_names.size()); }
  /// Completion tokens that were not reasoning: completion_tokens - reasoning_tokens, or -1
  /// when completion_tokens is unknown.
  std::int64_t answer_tokens() const {
    return completion_tokens >= 0 ? completion_tokens - reasoning_tokens : -1;
  }
};

}  // namespace bench::metrics
