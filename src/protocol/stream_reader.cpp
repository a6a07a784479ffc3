#include "bench/protocol/stream_reader.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <utility>

#include "bench/protocol/chunk_scanner.hpp"
#include "bench/protocol/context_overflow.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/util/text.hpp"

namespace bench::protocol {

namespace {

using metrics::ErrorClass;
using metrics::TokenSource;

// A non-200 body is read for its error message only; more than this is never needed.
constexpr std::size_t kMaxErrorBodyBytes = 64 << 10;

// A refusal's class by its status; a 4xx whose body says the prompt outgrew the model's context
// is a context overflow, counted apart.
ErrorClass class_of_status(long http_status, std::string_view body) {
  if (http_status == 429) return ErrorClass::rate_limited;
  if (http_status >= 400 && http_status <= 499) {
    return is_context_overflow(body) ? ErrorClass::context_overflow : ErrorClass::http_4xx;
  }
  if (http_status >= 500 && http_status <= 599) return ErrorClass::http_5xx;
  return ErrorClass::http_other;
}

std::string http_error_message(long http_status, std::string_view body) {
  std::string message = "HTTP " + std::to_string(http_status);
  const std::string server_message = error_message_from_body(body);
  if (!server_message.empty()) message += ": " + server_message;
  return message;
}

// Whether a body that is not an event stream is one whole answer: a JSON object with OpenAI's
// "choices" (chat.completion, text_completion) or a Responses API "output": the server ignored
// "stream": true. Only the body's start is kept, so a long answer is told by its head.
bool is_whole_answer(std::string_view body) {
  const std::size_t start = body.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || body[start] != '{') return false;
  return body.find("\"choices\"") != std::string_view::npos ||
         body.find("\"output\"") != std::string_view::npos;
}

// Media types compare case-insensitively and may carry parameters ("; charset=utf-8").
bool is_event_stream(std::string_view content_type) {
  content_type = content_type.substr(0, content_type.find(';'));
  while (!content_type.empty() && (content_type.front() == ' ' || content_type.front() == '\t')) {
    content_type.remove_prefix(1);
  }
  while (!content_type.empty() && (content_type.back() == ' ' || content_type.back() == '\t')) {
    content_type.remove_suffix(1);
  }
  constexpr std::string_view kEventStream = "text/event-stream";
  return content_type.size() == kEventStream.size() &&
         std::equal(content_type.begin(), content_type.end(), kEventStream.begin(),
                    [](char a, char b) { return util::ascii_lower(a) == b; });
}

void append_capped(std::string& buffer, std::string_view bytes, std::size_t cap) {
  if (buffer.size() < cap) buffer.append(bytes.substr(0, cap - buffer.size()));
}

}  // namespace

StreamReader::StreamReader(StreamLimits limits, const tokenizer::Tokenizer* output_counter)
    : limits_(limits),
      output_counter_(output_counter),
      parser_(sse::Limits{limits.max_line_bytes, limits.max_event_bytes}) {}

void StreamReader::begin(metrics::RequestRecord* record, Delivery delivery) {
  record_ = record;
  delivery_ = delivery;
  if (record_ != nullptr) record_->streamed = delivery == Delivery::stream;
  parser_.reset();
  whole_body_.clear();
  current_arrival_ns_ = 0;
  body_bytes_ = 0;
  error_body_.clear();
  generated_text_.clear();
  reasoning_text_.clear();
  tool_call_text_.clear();
  answer_text_.clear();
  tool_calls_.clear();
  tool_call_indexes_.clear();
  kept_reasoning_text_.clear();
  usage_reasoning_tokens_.reset();
  data_events_ = 0;
  text_units_ = 0;
  answered_ = false;
  last_cumulative_completion_tokens_ = 0;
  cached_tokens_.reset();
  timings_prompt_n_.reset();
  timings_cache_n_.reset();
  per_chunk_usage_ = true;
  streaming_ = false;
  headers_seen_ = false;
  event_stream_type_ = false;
  content_type_.clear();
}

void StreamReader::on_headers(long http_status, std::string_view content_type) {
  if (record_ == nullptr) return;
  headers_seen_ = true;
  record_->http_status = http_status;
  streaming_ = http_status == 200;
  content_type_.assign(content_type);
  event_stream_type_ = is_event_stream(content_type);
}

bool StreamReader::on_body(std::string_view bytes, std::int64_t arrival_ns) {
  if (record_ == nullptr || record_->error != ErrorClass::none) return false;
  body_bytes_ += static_cast<std::int64_t>(bytes.size());

  if (!streaming_) {
    // An error response: keep the start of its body for the message, and stop reading one
    // that runs past the response cap without losing the status it already told us.
    append_capped(error_body_, bytes, kMaxErrorBodyBytes);
    if (static_cast<std::size_t>(body_bytes_) > limits_.max_response_bytes) {
      const long status = record_->http_status;
      fail(class_of_status(status, error_body_), http_error_message(status, error_body_));
      return false;
    }
    return true;
  }

  if (static_cast<std::size_t>(body_bytes_) > limits_.max_response_bytes) {
    fail(ErrorClass::malformed_sse,
         "response exceeded " + std::to_string(limits_.max_response_bytes) + " bytes");
    return false;
  }
  if (delivery_ == Delivery::whole_body) {
    whole_body_.append(bytes);  // one JSON object, read whole when the response ends
    return true;
  }
  // A 200 that is not labelled as an event stream is parsed as one anyway (some servers get the
  // header wrong); its start is kept in case it turns out to hold no event at all.
  if (!event_stream_type_) append_capped(error_body_, bytes, kMaxErrorBodyBytes);

  current_arrival_ns_ = arrival_ns;
  switch (parser_.feed(bytes, *this)) {
    case sse::Status::ok: return true;
    case sse::Status::stopped: return false;  // on_event already recorded why
    case sse::Status::line_too_long:
      fail(ErrorClass::malformed_sse,
           "SSE line longer than " + std::to_string(limits_.max_line_bytes) + " bytes");
      return false;
    case sse::Status::event_too_big:
      fail(ErrorClass::malformed_sse,
           "SSE event larger than " + std::to_string(limits_.max_event_bytes) + " bytes");
      return false;
  }
  return false;
}

bool StreamReader::on_event(const sse::Event& event) {
  metrics::RequestRecord& record = *record_;
  // Whatever follows [DONE] is not part of the response.
  if (record.saw_done) return true;
  if (event.type == "error") {
    const std::string message = error_message_from_body(event.data);
    fail(ErrorClass::stream_error, message.empty() ? "error event" : message);
    return false;
  }
  // Chat and completions chunks come as the default "message" type: other named events are not
  // theirs. An endpoint whose events name their type reads them all.
  if (event.type != "message" && !endpoint_->named_events) return true;

  ++data_events_;
  // One Chunk reused for every event: its strings keep their capacity, so the hot path does not
  // allocate per chunk (docs/performance.md).
  Chunk& chunk = chunk_;
  endpoint_->interpret(event.data, chunk);
  switch (chunk.kind) {
    case Chunk::Kind::done: record.saw_done = true; return true;
    case Chunk::Kind::error: fail(ErrorClass::stream_error, chunk.error_message); return false;
    case Chunk::Kind::malformed:
    case Chunk::Kind::truncated:  // an event's interpreter never says it; a whole body's does
      fail(ErrorClass::malformed_json, chunk.error_message);
      return false;
    case Chunk::Kind::data: break;
  }

  if (chunk.has_choice) stamp_choice_chunk();
  if (chunk.has_text() || chunk.has_tool_call()) record_text_chunk(chunk);
  record_chunk_fields(chunk);
  return true;
}

// Every chunk with a choice, text or not: the times another client's rules start and end on.
void StreamReader::stamp_choice_chunk() {
  metrics::RequestRecord& record = *record_;
  if (record.first_choice_ns < 0) record.first_choice_ns = current_arrival_ns_;
  record.last_choice_ns = current_arrival_ns_;
  ++record.choice_chunks;
}

void StreamReader::record_text_chunk(const Chunk& chunk) {
  stamp_text_chunk(chunk);
  keep_text(chunk);
}

// A streamed chunk's times, and its tokens where per-chunk usage says them.
void StreamReader::stamp_text_chunk(const Chunk& chunk) {
  metrics::RequestRecord& record = *record_;
  // First token rule: the first chunk with generated tokens (text, reasoning or a tool-call
  // delta); role-only or empty deltas are not.
  if (record.text_chunk_ns.empty()) record.first_token_ns = current_arrival_ns_;
  if (record.first_answer_ns < 0 && chunk.has_answer()) {
    record.first_answer_ns = current_arrival_ns_;
  }
  record.text_chunk_ns.push_back(current_arrival_ns_);
  // Per-chunk usage (vLLM continuous_usage_stats) is cumulative: the chunk's own tokens are
  // the difference. Kept only while every text chunk has it and it grows with each (a chunk
  // that carries text carries a token), so the counts stay exact: Ollama's completions give
  // every chunk a usage of zeros, which is no count.
  if (per_chunk_usage_ && chunk.completion_tokens &&
      *chunk.completion_tokens > last_cumulative_completion_tokens_ &&
      *chunk.completion_tokens - last_cumulative_completion_tokens_ <=
          std::numeric_limits<std::int32_t>::max()) {
    record.text_chunk_tokens.push_back(
        static_cast<std::int32_t>(*chunk.completion_tokens - last_cumulative_completion_tokens_));
  } else if (per_chunk_usage_) {
    per_chunk_usage_ = false;
    record.text_chunk_tokens.clear();
  }
}

// What a chunk carrying generated tokens (streamed, or a whole body's one answer) says besides
// its time: its text, reasoning and tool calls, kept for counting and for the caller.
void StreamReader::keep_text(const Chunk& chunk) {
  metrics::RequestRecord& record = *record_;
  ++text_units_;
  if (chunk.has_answer()) answered_ = true;
  record.text_bytes += static_cast<std::int64_t>(chunk.text.size());
  if (chunk.has_reasoning()) ++record.reasoning_chunks;
  if (chunk.has_tool_call()) {
    ++record.tool_call_chunks;
    record.tool_call_names.insert(record.tool_call_names.end(), chunk.tool_call_names.begin(),
                                  chunk.tool_call_names.end());
  }
  if (output_counter_ != nullptr && record.completion_token_source != TokenSource::usage) {
    append_capped(generated_text_, chunk.text, limits_.max_response_bytes);
    append_capped(generated_text_, chunk.tool_call_text, limits_.max_response_bytes);
  }
  if (output_counter_ != nullptr && chunk.has_tool_call()) {
    append_capped(tool_call_text_, chunk.tool_call_text, limits_.max_response_bytes);
  }
  if (output_counter_ != nullptr && chunk.has_reasoning() && !usage_reasoning_tokens_) {
    append_capped(reasoning_text_, chunk.reasoning(), limits_.max_response_bytes);
  }
  if (keep_answer_text_) {
    append_capped(answer_text_, chunk.answer(), limits_.max_response_bytes);
    for (const Chunk::ToolCallFragment& fragment : chunk.tool_call_fragments) {
      keep_tool_call_fragment(fragment);
    }
  }
  if (keep_reasoning_text_) {
    append_capped(kept_reasoning_text_, chunk.reasoning(), limits_.max_response_bytes);
  }
}

// Token counts, cache figures, finish reason and id, whichever chunk carries them.
void StreamReader::record_chunk_fields(const Chunk& chunk) {
  metrics::RequestRecord& record = *record_;
  if (chunk.completion_tokens) {
    last_cumulative_completion_tokens_ = *chunk.completion_tokens;
    record.completion_tokens = *chunk.completion_tokens;
    record.completion_token_source = TokenSource::usage;
    generated_text_.clear();  // usage wins: the text will not be counted
  }
  if (chunk.reasoning_tokens) {
    usage_reasoning_tokens_ = chunk.reasoning_tokens;
    reasoning_text_.clear();
  }
  if (chunk.prompt_tokens) {
    record.prompt_tokens = *chunk.prompt_tokens;
    record.prompt_token_source = TokenSource::usage;
  }
  if (chunk.cached_tokens) cached_tokens_ = chunk.cached_tokens;
  if (chunk.timings_prompt_n) timings_prompt_n_ = chunk.timings_prompt_n;
  if (chunk.timings_cache_n) timings_cache_n_ = chunk.timings_cache_n;
  if (!chunk.finish_reason.empty()) record.finish_reason = chunk.finish_reason;
  if (record.response_id.empty() && !chunk.id.empty()) record.response_id = chunk.id;
}

void StreamReader::on_comment(std::string_view /*text*/) {
  // Comments are keep-alives (": ping"); the parser counts them, and they never carry a token.
}

void StreamReader::fail(metrics::ErrorClass error, std::string message) {
  if (record_->error != ErrorClass::none) return;  // the first failure is the one that counts
  record_->error = error;
  record_->error_message = std::move(message);
}

void StreamReader::finish(const TransportEnd& end) {
  if (record_ == nullptr) return;
  metrics::RequestRecord& record = *record_;
  record.end_ns = end.end_ns;
  const bool stream = delivery_ == Delivery::stream;
  const bool discarded_partial_event = stream && streaming_ && parser_.finish();
  if (!failed_before_answer(end)) {
    if (stream) {
      judge_stream_end(discarded_partial_event);
    } else {
      read_whole_body();
    }
  }

  if (!per_chunk_usage_) record.text_chunk_tokens.clear();
  settle_cached_prompt_tokens();
  settle_completion_tokens();
  settle_reasoning_tokens();
  settle_tool_call_tokens();
}

// The failures that leave no answer to judge, either delivery's: one already found while
// reading (a stream error, malformed data, a cap), the transport's, no response, an HTTP error.
// True when the request failed so.
bool StreamReader::failed_before_answer(const TransportEnd& end) {
  const metrics::RequestRecord& record = *record_;
  if (record.error != ErrorClass::none) return true;
  if (end.error != ErrorClass::none) {
    // A transport failure stays a failure even after finish_reason or [DONE]: the response did
    // not arrive whole.
    fail(end.error, end.message);
  } else if (!headers_seen_) {
    fail(ErrorClass::transport, "the transfer ended without an HTTP response");
  } else if (!streaming_) {
    fail(class_of_status(record.http_status, error_body_),
         http_error_message(record.http_status, error_body_));
  }
  return record.error != ErrorClass::none;
}

// A 200 stream that ended: complete with a finish_reason or [DONE], else what it lacked.
void StreamReader::judge_stream_end(bool discarded_partial_event) {
  const metrics::RequestRecord& record = *record_;
  const bool finished = !record.finish_reason.empty() || record.saw_done;
  if (!event_stream_type_ && data_events_ == 0 && is_whole_answer(error_body_)) {
    fail(ErrorClass::malformed_sse,
         "the server ignored \"stream\": true and answered one whole JSON completion "
         "(Content-Type '" +
             content_type_ + "'): TTFT and ITL need a stream; --no-stream reads whole answers");
  } else if (!event_stream_type_ && data_events_ == 0) {
    std::string message = "expected text/event-stream, got Content-Type '" + content_type_ + "'";
    const std::string body_message = error_message_from_body(error_body_);
    if (!body_message.empty()) message += ": " + body_message;
    fail(ErrorClass::malformed_sse, std::move(message));
  } else if (!finished) {
    fail(ErrorClass::truncated,
         discarded_partial_event ? "stream ended inside an event, without finish_reason or [DONE]"
                                 : "stream ended without finish_reason or [DONE]");
  }
}

// A 200 whole body ("stream": false): one JSON object, read by the endpoint's whole-body
// interpreter as the one chunk of the answer, its errors classed as a stream's events' are (an
// error object as stream_error, JSON that is not as malformed_json, JSON cut short as truncated).
void StreamReader::read_whole_body() {
  Chunk& chunk = chunk_;
  endpoint_->interpret_whole(whole_body_, chunk);
  switch (chunk.kind) {
    case Chunk::Kind::error: fail(ErrorClass::stream_error, chunk.error_message); return;
    case Chunk::Kind::truncated: fail(ErrorClass::truncated, chunk.error_message); return;
    case Chunk::Kind::malformed:
      fail(ErrorClass::malformed_json,
           event_stream_type_ ? "the server streamed (Content-Type text/event-stream) though "
                                "\"stream\": false was sent"
                              : chunk.error_message);
      return;
    case Chunk::Kind::done:
    case Chunk::Kind::data: break;
  }
  if (chunk.has_text() || chunk.has_tool_call()) keep_text(chunk);
  record_chunk_fields(chunk);
}

// Without usage the completion length is the output counter's count of the streamed text, or
// else the number of text chunks (an estimate; a whole body is one); each labelled with its
// source. It is never taken from the requested length.
void StreamReader::settle_completion_tokens() {
  metrics::RequestRecord& record = *record_;
  if (!record.ok() || record.completion_token_source != TokenSource::none) return;
  if (output_counter_ != nullptr) {
    // This runs inside the transport's callbacks, which nothing may throw through: a text the
    // tokenizer refuses falls back to the estimate.
    try {
      record.completion_tokens = static_cast<std::int64_t>(output_counter_->count(generated_text_));
      record.completion_token_source = TokenSource::tokenizer;
    } catch (const std::exception&) {
      record.completion_token_source = TokenSource::none;
    }
    generated_text_.clear();
  }
  if (record.completion_token_source == TokenSource::none) {
    record.completion_tokens = text_units_;
    record.completion_token_source = TokenSource::chunks;
  }
}

// The completion's reasoning part, by the completion's own rule: usage's reasoning_tokens, else
// the output counter on the reasoning text, else the number of chunks that carried reasoning (an
// estimate). A count above completion_tokens is not believed: usage's is then set aside, and a
// local count is capped (a local tokenizer or the chunk rule against the server's total).
void StreamReader::settle_reasoning_tokens() {
  metrics::RequestRecord& record = *record_;
  const std::int64_t completion = record.completion_tokens;
  const auto fits = [completion](std::int64_t tokens) { return tokens <= completion; };
  if (!record.ok() || completion < 0) return;
  if (usage_reasoning_tokens_ && fits(*usage_reasoning_tokens_)) {
    record.reasoning_tokens = *usage_reasoning_tokens_;
    record.reasoning_token_source = TokenSource::usage;
    return;
  }
  if (record.reasoning_chunks == 0) return;  // no reasoning shown, none said: 0, source none
  record.reasoning_token_source = TokenSource::chunks;
  record.reasoning_tokens = record.reasoning_chunks;
  if (output_counter_ != nullptr && !reasoning_text_.empty()) {
    // Inside the transport's callbacks: a text the tokenizer refuses keeps the chunk estimate.
    try {
      record.reasoning_tokens = static_cast<std::int64_t>(output_counter_->count(reasoning_text_));
      record.reasoning_token_source = TokenSource::tokenizer;
    } catch (const std::exception&) {
      // the chunk estimate stands
    }
  }
  reasoning_text_.clear();
  record.reasoning_tokens = std::min(record.reasoning_tokens, completion);
}

// Joins a fragment to its call. OpenAI's streaming shape gives each call an "index", its id and
// name on the first fragment and argument text on the later ones (vLLM's serving_chat.py sends
// the same); a server that sends no index streams one call at a time, so a fragment without one
// belongs to the last call unless it brings a new id. Argument text is bounded by the cap.
void StreamReader::keep_tool_call_fragment(const Chunk::ToolCallFragment& fragment) {
  const std::int64_t index = fragment.index.value_or(-1);
  StreamedToolCall* call = nullptr;
  if (index >= 0) {
    const auto found = std::find(tool_call_indexes_.begin(), tool_call_indexes_.end(), index);
    if (found != tool_call_indexes_.end()) {
      call = &tool_calls_[static_cast<std::size_t>(found - tool_call_indexes_.begin())];
    }
  } else if (!tool_calls_.empty() &&
             (fragment.id.empty() || fragment.id == tool_calls_.back().id)) {
    call = &tool_calls_.back();
  }
  if (call == nullptr) {
    call = &tool_calls_.emplace_back();
    tool_call_indexes_.push_back(index);
  }
  if (call->id.empty()) call->id = fragment.id;
  call->name += fragment.name;
  append_capped(call->arguments, fragment.arguments, limits_.max_response_bytes);
}

// The completion's tool-call part. No server's usage breaks it out, but an answer that carried
// no content spent every token that was not reasoning on its calls (their markup included, which
// the server's tool parser hides): usage's completion_tokens less the reasoning tokens, when both
// come from usage. Otherwise the output counter on the calls' names and arguments, else one token
// per tool-call chunk (an estimate); capped at what reasoning left of completion_tokens.
void StreamReader::settle_tool_call_tokens() {
  metrics::RequestRecord& record = *record_;
  const std::int64_t room = record.completion_tokens - record.reasoning_tokens;
  if (!record.ok() || record.completion_tokens < 0 || !record.called_tools()) {
    tool_call_text_.clear();
    return;
  }
  const bool reasoning_from_usage = record.reasoning_token_source == TokenSource::usage ||
                                    record.reasoning_token_source == TokenSource::none;
  if (!answered_ && record.completion_token_source == TokenSource::usage && reasoning_from_usage) {
    record.tool_call_tokens = room;
    record.tool_call_token_source = TokenSource::usage;
    tool_call_text_.clear();
    return;
  }
  record.tool_call_tokens = record.tool_call_chunks;
  record.tool_call_token_source = TokenSource::chunks;
  if (output_counter_ != nullptr && !tool_call_text_.empty()) {
    // Inside the transport's callbacks: a text the tokenizer refuses keeps the chunk estimate.
    try {
      record.tool_call_tokens = static_cast<std::int64_t>(output_counter_->count(tool_call_text_));
      record.tool_call_token_source = TokenSource::tokenizer;
    } catch (const std::exception&) {
      // the chunk estimate stands
    }
  }
  tool_call_text_.clear();
  record.tool_call_tokens = std::max<std::int64_t>(0, std::min(record.tool_call_tokens, room));
}

// The prompt's split into cached and computed tokens, from the most direct statement the stream
// made: the OpenAI usage detail, then llama.cpp's cache_n, then its prompt_n (the tokens it
// prefilled; the rest of prompt_tokens, BOS included, came from its cache). A count that
// contradicts prompt_tokens is not believed: the split stays unknown.
void StreamReader::settle_cached_prompt_tokens() {
  metrics::RequestRecord& record = *record_;
  const std::int64_t prompt = record.prompt_tokens;
  const auto fits = [prompt](std::int64_t cached) { return prompt < 0 || cached <= prompt; };
  if (cached_tokens_ && fits(*cached_tokens_)) {
    record.cached_prompt_tokens = *cached_tokens_;
    record.cached_prompt_token_source = metrics::CachedTokenSource::usage_details;
  } else if (timings_cache_n_ && fits(*timings_cache_n_)) {
    record.cached_prompt_tokens = *timings_cache_n_;
    record.cached_prompt_token_source = metrics::CachedTokenSource::timings_cache_n;
  } else if (timings_prompt_n_ && prompt >= 0 && *timings_prompt_n_ <= prompt) {
    record.cached_prompt_tokens = prompt - *timings_prompt_n_;
    record.cached_prompt_token_source = metrics::CachedTokenSource::timings_prompt_n;
  }
}

}  // namespace bench::protocol
