// The bytes the embedded server sends are read back by bench's own SSE parser and chunk
// interpreter: the simulator speaks exactly the dialect the client is built for.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/metrics/request_record.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/sim/completion_request.hpp"
#include "bench/sim/stream_format.hpp"
#include "bench/util/words.hpp"

namespace {

using namespace bench::sim;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::protocol::Chunk;
using bench::protocol::interpret_chunk;
using bench::util::count_words;
using nlohmann::json;

ResponseShape shape(bool chat, bool crlf = false) {
  ResponseShape s;
  s.chat = chat;
  s.id = chat ? "chatcmpl-3" : "cmpl-3";
  s.model_json = json_string("org/model \"x\"");
  s.created = 1700000000;
  s.crlf = crlf;
  return s;
}

// A whole stream of `tokens` tokens in chunks of `per_chunk`, as the server renders it.
std::string render_stream(const ResponseShape& s, int tokens, int per_chunk, bool usage_chunk,
                          bool continuous) {
  std::string out;
  const Usage none{10, 0};
  if (s.chat) append_role_event(out, s, continuous ? &none : nullptr);
  for (int sent = 0; sent < tokens;) {
    const int k = std::min(per_chunk, tokens - sent);
    std::string text;
    append_token_text(text, 3, sent, k);
    sent += k;
    const Usage usage{10, sent};
    append_text_event(out, s, text, sent == tokens ? "length" : "", continuous ? &usage : nullptr);
  }
  if (usage_chunk) append_usage_event(out, s, Usage{10, tokens});
  append_done_event(out, s);
  return out;
}

// Feeds `body` to bench's StreamReader as one read; `accepted` says whether it read to the end
// (false when the reader stopped at an error).
RequestRecord read_back(const std::string& body, bool* accepted = nullptr) {
  RequestRecord record;
  bench::protocol::StreamReader reader;
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream; charset=utf-8");
  const bool read_all = reader.on_body(body, 1);
  if (accepted != nullptr) {
    *accepted = read_all;
  } else {
    EXPECT_TRUE(read_all);
  }
  reader.finish({});
  return record;
}

TEST(StreamFormat, TokenTextIsOneWordPerToken) {
  std::string text;
  append_token_text(text, 9, 0, 5);
  EXPECT_EQ(count_words(text), 5);
}

TEST(StreamFormat, ACompletionsStreamReadsBackWithItsUsageAndFinishReason) {
  const RequestRecord record = read_back(render_stream(shape(false), 6, 1, true, false));
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.text_chunk_ns.size(), 6u);
  EXPECT_EQ(record.completion_tokens, 6);
  EXPECT_EQ(record.prompt_tokens, 10);
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
  EXPECT_EQ(record.finish_reason, "length");
  EXPECT_TRUE(record.saw_done);
}

TEST(StreamFormat, AChatStreamsRoleChunkIsNotAToken) {
  const std::string body = render_stream(shape(true), 4, 1, true, false);
  const RequestRecord record = read_back(body);
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.text_chunk_ns.size(), 4u);
  const Chunk role = interpret_chunk(body.substr(6, body.find('\n') - 6));
  EXPECT_EQ(role.kind, Chunk::Kind::data);
  EXPECT_FALSE(role.has_text());
}

TEST(StreamFormat, PerChunkUsageGivesEachChunksTokenCount) {
  const RequestRecord record = read_back(render_stream(shape(false), 10, 4, true, true));
  EXPECT_TRUE(record.ok()) << record.error_message;
  ASSERT_EQ(record.text_chunk_tokens.size(), 3u);
  EXPECT_EQ(record.text_chunk_tokens[0], 4);
  EXPECT_EQ(record.text_chunk_tokens[1], 4);
  EXPECT_EQ(record.text_chunk_tokens[2], 2);
}

TEST(StreamFormat, CrlfLineEndingsReadTheSame) {
  const std::string body = render_stream(shape(true, true), 3, 1, true, false);
  EXPECT_NE(body.find("\r\n\r\n"), std::string::npos);
  EXPECT_TRUE(read_back(body).ok());
}

TEST(StreamFormat, WithoutAUsageChunkTheCountIsAnEstimate) {
  const RequestRecord record = read_back(render_stream(shape(false), 5, 1, false, false));
  EXPECT_TRUE(record.ok());
  EXPECT_EQ(record.completion_token_source, TokenSource::chunks);
}

TEST(StreamFormat, AnErrorEventInsideAStreamIsAStreamError) {
  std::string body;
  append_comment_event(body, shape(false), "ping");
  append_stream_error_event(body, shape(false), "out of \"memory\"");
  bool accepted = true;
  const RequestRecord record = read_back(body, &accepted);
  EXPECT_FALSE(accepted);
  EXPECT_EQ(record.error, bench::metrics::ErrorClass::stream_error);
  EXPECT_EQ(record.error_message, "out of \"memory\"");
}

// Anthropic's stream carries a fault as its named error event, data in its error shape.
TEST(StreamFormat, AMessagesStreamsErrorIsAnthropicsErrorEvent) {
  ResponseShape messages = shape(true);
  messages.messages = true;
  std::string body;
  append_stream_error_event(body, messages, "out of \"memory\"");
  const std::string head = "event: error\ndata: ";
  ASSERT_EQ(body.substr(0, head.size()), head) << body;
  ASSERT_EQ(body.substr(body.size() - 2), "\n\n") << body;
  const json data = json::parse(body.substr(head.size()), nullptr, false);
  EXPECT_EQ(data["type"], "error") << body;
  EXPECT_EQ(data["error"]["type"], "api_error");
  EXPECT_EQ(data["error"]["message"], "out of \"memory\"");
  EXPECT_EQ(anthropic_error_type(529), "overloaded_error");
  EXPECT_EQ(anthropic_error_type(401), "authentication_error");
  EXPECT_EQ(anthropic_error_type(500), "api_error");
}

TEST(StreamFormat, ModelsAndErrorBodiesAreJson) {
  EXPECT_EQ(bench::protocol::first_model_id(models_body("m-1", 0)), "m-1");
  EXPECT_EQ(
      bench::protocol::error_message_from_body(error_body("bad", "invalid_request_error", 400)),
      "bad");
}

TEST(StreamFormat, HttpChunksFrameThePayloadInHex) {
  std::string out;
  append_http_chunk(out, std::string(26, 'x'));
  append_http_chunk(out, "");  // an empty chunk would end the body: never written
  append_last_http_chunk(out);
  EXPECT_EQ(out, "1a\r\n" + std::string(26, 'x') + "\r\n0\r\n\r\n");
}

}  // namespace
