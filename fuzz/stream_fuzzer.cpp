// libFuzzer target over everything a server's bytes reach: the SSE parser, chunk
// interpretation (the scanner and the nlohmann DOM path) and StreamReader, under ASan+UBSan.
// scripts/fuzz builds and runs it.
//
// Input: one flags byte, one count byte k, k piece sizes, then the response body:
//   flags bits 0-1: HTTP status (0, 1: 200; 2: 500; 3: 429)
//         bit 2:    Content-Type application/json instead of text/event-stream
//         bit 3:    the transfer ends in a transport error
//         bits 4-5: size caps (default 1 MiB lines; 64 B; 8 B; 1 KiB), small enough to be hit
//         bit 6:    read as an API of named events instead of chat's and completions': the
//                   Responses API when the count byte k is even, Anthropic's Messages API
//                   when it is odd
//         bit 7:    read as one whole JSON body (a request sent with "stream": false,
//                   Delivery::whole_body) instead of a stream
//   piece i is (size byte + 1) bytes long; what remains after the last is one more piece.
//
// Each input runs on a 512 KiB stack, so recursion that a 1 MiB line could drive deep enough to
// overflow a thread's 8 MiB shows up within the 64 KiB inputs scripts/fuzz allows.
//
// Besides "no crash, no leak, no undefined behaviour", it checks, and aborts on a violation:
// - the scanner agrees with the DOM path on every data payload it reads (and on the body
//   itself taken as one payload), for chat's and completions' streams (the Responses and
//   Messages APIs' events are read by a full parse, with no scanner to compare);
// - the body fed in pieces gives the same RequestRecord as the body fed whole (every read
//   stamped alike), unless it is longer than the response cap;
// - the record is consistent: first_token_ns is the first text chunk's stamp, per-chunk token
//   counts match the text chunks, every text chunk but a tool-call delta brings a byte, a
//   streamed success saw finish_reason or [DONE] on a 200, a whole body has no chunk times,
//   every success has a token count with its source, a failure has a message.
#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/request_record.hpp"
#include "bench/protocol/chunk_scanner.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/sse/parser.hpp"

namespace {

using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::protocol::Chunk;

constexpr std::size_t kMaxInputBytes = 1 << 20;
constexpr std::size_t kStackBytes = 512 << 10;
constexpr std::int64_t kStampNs = 1000;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "stream_fuzzer: %s\n%.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

void require(bool condition, const char* what, std::string_view detail = {}) {
  if (!condition) fail(what, detail);
}

bool same_chunk(const Chunk& a, const Chunk& b) {
  return a.kind == b.kind && a.text == b.text && a.reasoning_size == b.reasoning_size &&
         a.reasoning_tokens == b.reasoning_tokens && a.finish_reason == b.finish_reason &&
         a.id == b.id && a.prompt_tokens == b.prompt_tokens &&
         a.completion_tokens == b.completion_tokens && a.error_message == b.error_message &&
         a.cached_tokens == b.cached_tokens && a.timings_prompt_n == b.timings_prompt_n &&
         a.timings_cache_n == b.timings_cache_n && a.tool_call_text == b.tool_call_text &&
         a.tool_call_names == b.tool_call_names;
}

void compare_scanner_with_dom(std::string_view data) {
  Chunk scanned;
  // A payload the scanner gives up on goes the DOM way in interpret_chunk: nothing to compare.
  if (!bench::protocol::scan_chunk(data, scanned)) return;
  require(same_chunk(scanned, bench::protocol::interpret_chunk_dom(data)),
          "the scanner and the DOM path disagree on this payload", data);
}

class ComparingSink final : public bench::sse::Sink {
 public:
  bool on_event(const bench::sse::Event& event) override {
    compare_scanner_with_dom(event.data);
    return true;
  }
};

struct Setup {
  long http_status = 200;
  std::string_view content_type = "text/event-stream";
  bool transport_error = false;
  bool named = false;  // an API of named events: `endpoint`, not chat's interpreter
  bench::protocol::Endpoint endpoint = bench::protocol::Endpoint::chat;
  bool whole = false;
  bench::protocol::StreamLimits limits;
};

Setup setup_of(std::uint8_t flags, std::uint8_t count) {
  Setup setup;
  constexpr long kStatuses[] = {200, 200, 500, 429};
  setup.http_status = kStatuses[flags & 3];
  if ((flags & 4) != 0) setup.content_type = "application/json";
  setup.transport_error = (flags & 8) != 0;
  setup.named = (flags & 64) != 0;
  if (setup.named) {
    setup.endpoint =
        count % 2 == 0 ? bench::protocol::Endpoint::responses : bench::protocol::Endpoint::messages;
  }
  setup.whole = (flags & 128) != 0;
  switch ((flags >> 4) & 3) {
    case 1: setup.limits = {64, 64, 4096}; break;
    case 2: setup.limits = {8, 8, 256}; break;
    case 3: setup.limits = {1024, 1024, 65536}; break;
    default: break;  // StreamReader's defaults
  }
  return setup;
}

RequestRecord read_response(const Setup& setup, const std::vector<std::string_view>& pieces) {
  RequestRecord record;
  bench::protocol::StreamReader reader(setup.limits);
  if (setup.named) reader.read_as(setup.endpoint);
  reader.begin(&record, setup.whole ? bench::protocol::Delivery::whole_body
                                    : bench::protocol::Delivery::stream);
  reader.on_headers(setup.http_status, setup.content_type);
  for (std::string_view piece : pieces) {
    if (!reader.on_body(piece, kStampNs)) break;
  }
  bench::protocol::TransportEnd end;
  if (setup.transport_error)
    end = {ErrorClass::transport, "connection reset by fuzzer", 2000};
  else
    end.end_ns = 2000;
  reader.finish(end);
  return record;
}

void check_consistent(const RequestRecord& r) {
  require(r.first_token_ns == (r.text_chunk_ns.empty() ? -1 : r.text_chunk_ns.front()),
          "first_token_ns is not the first text chunk's stamp");
  require(r.text_chunk_tokens.empty() || r.text_chunk_tokens.size() == r.text_chunk_ns.size(),
          "per-chunk token counts do not match the text chunks");
  // A tool-call delta may carry no text (its first fragment is often the name alone), so only
  // the other chunks promise a byte each.
  require(r.text_bytes >= static_cast<std::int64_t>(r.text_chunk_ns.size()) - r.tool_call_chunks,
          "fewer text bytes than text chunks without a tool call");
  // A whole body is its answer's one chunk, untimed.
  const std::int64_t chunks =
      r.streamed ? static_cast<std::int64_t>(r.text_chunk_ns.size()) : std::int64_t{1};
  require(r.tool_call_chunks <= chunks, "more tool-call chunks than chunks with generated tokens");
  require(r.first_answer_ns == -1 || r.first_answer_ns >= r.first_token_ns,
          "an answer before the first token");
  require(r.reasoning_chunks <= chunks, "more reasoning chunks than text chunks");
  if (r.ok()) {
    require(r.http_status == 200, "a success without HTTP 200");
    require(!r.streamed || !r.finish_reason.empty() || r.saw_done,
            "a streamed success without finish_reason or [DONE]");
    require(r.completion_token_source != TokenSource::none && r.completion_tokens >= 0,
            "a success without a completion token count");
    require(r.reasoning_tokens >= 0 && r.answer_tokens() >= 0,
            "reasoning tokens outside the completion's");
  }
  // The prompt's split is all or nothing, and never more cached than the prompt.
  if (r.cached_prompt_tokens >= 0 && r.prompt_tokens >= 0) {
    require(r.cached_prompt_tokens <= r.prompt_tokens, "more cached than prompt tokens");
  }
  require((r.cached_prompt_tokens >= 0) ==
              (r.cached_prompt_token_source != bench::metrics::CachedTokenSource::none),
          "a cached token count without its source, or a source without a count");
  if (!r.ok()) require(!r.error_message.empty(), "a failure without a message");
  require(r.streamed || (r.text_chunk_ns.empty() && r.first_answer_ns == -1),
          "a whole body with chunk times");
}

std::string describe(const RequestRecord& r) {
  std::string text = "error=" + std::to_string(static_cast<int>(r.error)) + " message='" +
                     r.error_message + "' chunks=" + std::to_string(r.text_chunk_ns.size()) +
                     " tokens=" + std::to_string(r.text_chunk_tokens.size()) +
                     " completion=" + std::to_string(r.completion_tokens) +
                     " prompt=" + std::to_string(r.prompt_tokens) + " finish='" + r.finish_reason +
                     "' id='" + r.response_id + "' done=" + std::to_string(r.saw_done) +
                     " bytes=" + std::to_string(r.text_bytes);
  return text;
}

bool same_record(const RequestRecord& a, const RequestRecord& b) {
  return a.error == b.error && a.error_message == b.error_message &&
         a.first_token_ns == b.first_token_ns && a.text_chunk_ns == b.text_chunk_ns &&
         a.text_chunk_tokens == b.text_chunk_tokens && a.prompt_tokens == b.prompt_tokens &&
         a.completion_tokens == b.completion_tokens &&
         a.cached_prompt_tokens == b.cached_prompt_tokens &&
         a.cached_prompt_token_source == b.cached_prompt_token_source &&
         a.prompt_token_source == b.prompt_token_source &&
         a.completion_token_source == b.completion_token_source &&
         a.finish_reason == b.finish_reason && a.response_id == b.response_id &&
         a.saw_done == b.saw_done && a.text_bytes == b.text_bytes &&
         a.http_status == b.http_status && a.end_ns == b.end_ns &&
         a.first_answer_ns == b.first_answer_ns && a.reasoning_chunks == b.reasoning_chunks &&
         a.reasoning_tokens == b.reasoning_tokens &&
         a.reasoning_token_source == b.reasoning_token_source;
}

void check_input(const std::uint8_t* data, std::size_t size) {
  const Setup setup = setup_of(data[0], data[1]);
  const std::size_t piece_count = data[1];
  std::size_t at = 2;
  std::vector<std::size_t> piece_sizes;
  for (std::size_t i = 0; i < piece_count && at < size; ++i) piece_sizes.push_back(data[at++] + 1u);
  const std::string_view body(reinterpret_cast<const char*>(data) + at, size - at);

  std::vector<std::string_view> pieces;
  std::size_t offset = 0;
  for (std::size_t piece_size : piece_sizes) {
    if (offset >= body.size()) break;
    pieces.push_back(body.substr(offset, piece_size));
    offset += pieces.back().size();
  }
  if (offset < body.size()) pieces.push_back(body.substr(offset));

  // The scanner against the DOM path, on the body as one payload and on every event in it.
  if (!setup.named) {
    compare_scanner_with_dom(body);
    bench::sse::Parser parser(
        bench::sse::Limits{setup.limits.max_line_bytes, setup.limits.max_event_bytes});
    ComparingSink sink;
    for (std::string_view piece : pieces) {
      if (parser.feed(piece, sink) != bench::sse::Status::ok) break;
    }
  }

  // StreamReader, whole and in pieces.
  const RequestRecord whole = read_response(setup, {body});
  const RequestRecord split = read_response(setup, pieces);
  check_consistent(whole);
  check_consistent(split);
  // Past the response cap, the whole read fails before parsing anything and the split one after
  // parsing its first pieces: they may rightly differ.
  if (body.size() <= setup.limits.max_response_bytes) {
    require(same_record(whole, split), "whole and split reads give different records",
            describe(whole) + "\n" + describe(split));
  }
}

struct Input {
  const std::uint8_t* data;
  std::size_t size;
};

void* check_input_on_this_thread(void* input) {
  const auto* in = static_cast<const Input*>(input);
  check_input(in->data, in->size);
  return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || size > kMaxInputBytes) return 0;
  // On a stack as much smaller than a thread's 8 MiB as -max_len (64 KiB) is than the 1 MiB
  // line cap, so that recursion as deep as the largest accepted line allows overflows here too.
  Input input{data, size};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kStackBytes);
  pthread_t thread;
  if (pthread_create(&thread, &attributes, check_input_on_this_thread, &input) != 0) {
    fail("cannot start the checking thread");
  }
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
  return 0;
}
