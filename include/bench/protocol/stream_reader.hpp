#pragma once
// Turns one HTTP response, as it arrives, into a RequestRecord: feeds the body to the SSE
// parser, interprets each data event, stamps text-carrying chunks with the arrival time of the
// read they came in, takes token counts from `usage`, and classifies how the request ended.
// A request sent with "stream": false is read as one whole JSON body instead (Delivery), chosen
// request by request at begin().
//
// First token rule (docs/metrics.md, TTFT): the first chunk carrying generated tokens: content,
// reasoning or a tool-call delta (a function name or argument text), whichever comes first. A
// role-only or empty chunk does not count, as in SGLang's bench_serving and unlike
// vLLM's chat client (vllm/benchmarks/lib/endpoint_request_func.py).
// First answer rule (TTFA): the first chunk carrying answer text (content), reasoning aside.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/request_record.hpp"
#include "bench/protocol/endpoint.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/sse/parser.hpp"
#include "bench/tokenizer/tokenizer.hpp"

namespace bench::protocol {

struct StreamLimits {
  std::size_t max_line_bytes = 1 << 20;       // one SSE line
  std::size_t max_event_bytes = 1 << 20;      // one SSE event's data
  std::size_t max_response_bytes = 64 << 20;  // one whole response body
};

/// How a response's answer arrives: as an event stream ("stream": true), each text chunk timed
/// as it comes; or as one whole JSON body ("stream": false, RequestOptions::stream), read at its
/// end by the endpoint's whole-body interpreter: no first token time and no chunk times, only
/// the end's.
enum class Delivery { stream, whole_body };

/// One tool call of an answer, whole: its fragments joined (StreamReader::tool_calls).
struct StreamedToolCall {
  std::string id;         // the "id" its first fragment carried; empty when none did
  std::string name;       // function.name
  std::string arguments;  // function.arguments, every fragment's in order
  bool operator==(const StreamedToolCall&) const = default;
};

/// How the transport ended the transfer, as the engine reports it.
struct TransportEnd {
  metrics::ErrorClass error = metrics::ErrorClass::none;  // none = the body ended normally
  std::string message;                                    // the transport's message
  std::int64_t end_ns = 0;                                // run-relative end time
};

class StreamReader final : private sse::Sink {
 public:
  /// `output_counter`, when given (a --tokenizer file; it outlives the reader), counts the
  /// output of a response that carried no usage: the reader keeps the streamed text until usage
  /// appears and encodes it once, at the end. Null: such a response's count is the chunk
  /// estimate.
  explicit StreamReader(StreamLimits limits = {},
                        const tokenizer::Tokenizer* output_counter = nullptr);

  /// Reads `endpoint`'s stream from now on, by its table row's event interpreter (endpoint.hpp).
  /// Chat's until set; chat and completions share one interpreter.
  void read_as(Endpoint endpoint) { endpoint_ = &endpoint_spec(endpoint); }

  /// Starts a new response for `record` (which must outlive the response), delivered as
  /// `delivery` says (what the request's body asked: RequestOptions::stream); sets
  /// record->streamed. Clears all state.
  void begin(metrics::RequestRecord* record, Delivery delivery = Delivery::stream);

  /// The HTTP status and Content-Type, once headers are complete.
  void on_headers(long http_status, std::string_view content_type);

  /// Body bytes of one read, stamped once (run-relative ns). Returns false when the request
  /// must be aborted now (a stream error, malformed data, a size cap); the record then already
  /// holds its error class.
  bool on_body(std::string_view bytes, std::int64_t arrival_ns);

  /// Ends the response: sets end_ns, the error class (transport error, HTTP status, stream
  /// error, malformed data, truncated stream) and the token counts and their source. A whole
  /// body is read here: its answer, usage and errors, classified as a stream's would be.
  void finish(const TransportEnd& end);

  /// Multi-turn: keep the answer text (content, not reasoning) of every response, as streamed,
  /// for the next turn's history. Off by default: nothing else needs the text.
  void keep_answer_text(bool keep) { keep_answer_text_ = keep; }
  /// The answer text of the current response so far (empty unless kept).
  const std::string& answer_text() const { return answer_text_; }
  /// The tool calls of the current response so far, each joined from its fragments (kept with
  /// the answer text, empty otherwise): a fragment with an "index" adds to the call of that
  /// index (OpenAI's streaming shape); one without adds to the last call, or starts one when it
  /// carries a new id.
  const std::vector<StreamedToolCall>& tool_calls() const { return tool_calls_; }
  /// The answer check: keep the reasoning text too, as streamed. Off by default.
  void keep_reasoning_text(bool keep) { keep_reasoning_text_ = keep; }
  /// The reasoning text of the current response so far (empty unless kept).
  const std::string& kept_reasoning_text() const { return kept_reasoning_text_; }

 private:
  bool on_event(const sse::Event& event) override;
  void stamp_choice_chunk();
  void record_text_chunk(const Chunk& chunk);
  void stamp_text_chunk(const Chunk& chunk);
  void keep_text(const Chunk& chunk);
  void record_chunk_fields(const Chunk& chunk);
  bool failed_before_answer(const TransportEnd& end);
  void judge_stream_end(bool discarded_partial_event);
  void read_whole_body();
  void on_comment(std::string_view text) override;
  void fail(metrics::ErrorClass error, std::string message);
  void settle_cached_prompt_tokens();
  void settle_completion_tokens();
  void settle_reasoning_tokens();
  void settle_tool_call_tokens();
  void keep_tool_call_fragment(const Chunk::ToolCallFragment& fragment);

  StreamLimits limits_;
  const tokenizer::Tokenizer* output_counter_;  // counts output without usage; may be null
  const EndpointSpec* endpoint_ = &endpoint_spec(Endpoint::chat);  // the stream's reader
  Delivery delivery_ = Delivery::stream;                           // this response's
  sse::Parser parser_;
  std::string whole_body_;  // Delivery::whole_body: the 200 body so far, bounded by the cap
  Chunk chunk_;             // the event being interpreted, reused
  metrics::RequestRecord* record_ = nullptr;
  std::int64_t current_arrival_ns_ = 0;  // stamp of the read being parsed
  std::int64_t body_bytes_ = 0;
  std::string error_body_;  // non-200 body, kept up to a small cap
  // The generated text so far, kept only while it may be counted: an output counter is given
  // and no usage has come yet. Bounded by the response cap.
  std::string generated_text_;
  // The reasoning text so far, kept the same way until usage gives reasoning_tokens.
  std::string reasoning_text_;
  std::optional<std::int64_t> usage_reasoning_tokens_;  // the latest the stream said
  // The tool calls' names and arguments so far, kept only while an output counter may count them.
  std::string tool_call_text_;
  bool keep_answer_text_ = false;
  std::string answer_text_;  // keep_answer_text_: the answer streamed so far, bounded by the cap
  std::vector<StreamedToolCall> tool_calls_;     // keep_answer_text_: the calls streamed so far
  std::vector<std::int64_t> tool_call_indexes_;  // tool_calls_[k]'s "index"; -1 when it had none
  bool keep_reasoning_text_ = false;
  std::string kept_reasoning_text_;  // keep_reasoning_text_: the same of the reasoning
  std::int64_t data_events_ = 0;
  // Chunks (a whole body: its one answer) that carried generated tokens, and whether one carried
  // answer text (not reasoning, not a tool call).
  std::int64_t text_units_ = 0;
  bool answered_ = false;
  std::int64_t last_cumulative_completion_tokens_ = 0;  // for per-chunk usage deltas
  // What the stream said of the prompt cache, the latest of each; settled in finish().
  std::optional<std::int64_t> cached_tokens_, timings_prompt_n_, timings_cache_n_;
  bool per_chunk_usage_ = true;     // every text chunk so far carried usage
  bool streaming_ = false;          // status 200: body is an event stream
  bool headers_seen_ = false;       // on_headers was called for this response
  bool event_stream_type_ = false;  // Content-Type is text/event-stream
  std::string content_type_;        // as sent, for the message when it is not SSE
};

}  // namespace bench::protocol
