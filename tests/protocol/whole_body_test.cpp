// A non-streamed answer ("stream": false) read by StreamReader as one whole JSON body
// (Delivery::whole_body): its text, reasoning, tool calls, usage and end, and its failures
// classed as a stream's are. Fed whole and split at every offset: only the end reads it.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "bench/protocol/endpoint.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/responses.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/tokenizer/tokenizer.hpp"

namespace {

using bench::metrics::CachedTokenSource;
using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::protocol::Delivery;
using bench::protocol::Endpoint;
using bench::protocol::StreamLimits;
using bench::protocol::StreamReader;
using bench::protocol::TransportEnd;

constexpr std::int64_t kWholeEndNs = 5'000'000;

constexpr std::string_view kChatWhole =
    R"({"id":"chatcmpl-7","object":"chat.completion","created":1,"model":"m","choices":[)"
    R"({"index":0,"message":{"role":"assistant","reasoning_content":"think","content":" Paris"},)"
    R"("logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":)"
    R"(9,"total_tokens":21,"prompt_tokens_details":{"cached_tokens":8},)"
    R"("completion_tokens_details":{"reasoning_tokens":6}}})";

// What the reader makes of `pieces` (one read each) of a 200 whole body of `endpoint`; the
// reader keeps its answer text and tool calls, as a multi-turn run's does.
struct WholeRead {
  RequestRecord record;
  std::string answer;
  std::string reasoning;
  std::vector<bench::protocol::StreamedToolCall> calls;
};

WholeRead read_whole_pieces(const std::vector<std::string_view>& pieces,
                            Endpoint endpoint = Endpoint::chat, long status = 200,
                            std::string_view content_type = "application/json",
                            StreamLimits limits = {},
                            const bench::tokenizer::Tokenizer* counter = nullptr,
                            TransportEnd end = {ErrorClass::none, "", kWholeEndNs}) {
  WholeRead read;
  StreamReader reader(limits, counter);
  reader.read_as(endpoint);
  reader.keep_answer_text(true);
  reader.keep_reasoning_text(true);
  reader.begin(&read.record, Delivery::whole_body);
  reader.on_headers(status, content_type);
  std::int64_t stamp = 0;
  for (std::string_view piece : pieces) {
    stamp += 1000;
    if (!reader.on_body(piece, stamp)) break;
  }
  reader.finish(end);
  read.answer = reader.answer_text();
  read.reasoning = reader.kept_reasoning_text();
  read.calls = reader.tool_calls();
  return read;
}

WholeRead read_whole(std::string_view body, Endpoint endpoint = Endpoint::chat, long status = 200,
                     std::string_view content_type = "application/json") {
  return read_whole_pieces({body}, endpoint, status, content_type);
}

TEST(WholeBody, AChatAnswerHasItsTextUsageAndEndButNoTokenTimes) {
  const std::string_view body = kChatWhole;
  for (std::size_t split = 0; split <= body.size(); ++split) {
    const WholeRead read = read_whole_pieces({body.substr(0, split), body.substr(split)});
    const RequestRecord& record = read.record;
    ASSERT_TRUE(record.ok()) << split << ": " << record.error_message;
    EXPECT_FALSE(record.streamed);
    EXPECT_EQ(record.first_token_ns, -1);
    EXPECT_EQ(record.first_answer_ns, -1);
    EXPECT_TRUE(record.text_chunk_ns.empty());
    EXPECT_EQ(record.end_ns, kWholeEndNs);
    EXPECT_EQ(record.completion_tokens, 9);
    EXPECT_EQ(record.completion_token_source, TokenSource::usage);
    EXPECT_EQ(record.prompt_tokens, 12);
    EXPECT_EQ(record.prompt_token_source, TokenSource::usage);
    EXPECT_EQ(record.cached_prompt_tokens, 8);
    EXPECT_EQ(record.cached_prompt_token_source, CachedTokenSource::usage_details);
    EXPECT_EQ(record.reasoning_tokens, 6);
    EXPECT_EQ(record.reasoning_token_source, TokenSource::usage);
    EXPECT_TRUE(record.reasoned());
    EXPECT_EQ(record.finish_reason, "stop");
    EXPECT_EQ(record.response_id, "chatcmpl-7");
    EXPECT_EQ(record.text_bytes, 11);  // "think" + " Paris"
    EXPECT_EQ(read.answer, " Paris");
    EXPECT_EQ(read.reasoning, "think");
  }
}

TEST(WholeBody, NewerVllmsReasoningFieldIsReadToo) {
  const WholeRead read = read_whole(
      R"({"choices":[{"message":{"reasoning":"hm","content":"ok"},"finish_reason":"stop"}],)"
      R"("usage":{"prompt_tokens":1,"completion_tokens":3}})");
  ASSERT_TRUE(read.record.ok()) << read.record.error_message;
  EXPECT_EQ(read.reasoning, "hm");
  EXPECT_EQ(read.answer, "ok");
}

TEST(WholeBody, ToolCallsAreWholeCallsInTheirOrderEvenWithoutIndexOrId) {
  const WholeRead read = read_whole(
      R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[)"
      R"({"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"x\": 1}"}},)"
      R"({"type":"function","function":{"name":"g","arguments":"{}"}}]},)"
      R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":4,"completion_tokens":10}})");
  const RequestRecord& record = read.record;
  ASSERT_TRUE(record.ok()) << record.error_message;
  ASSERT_EQ(read.calls.size(), 2u);
  EXPECT_EQ(read.calls[0], (bench::protocol::StreamedToolCall{"call_a", "f", R"({"x": 1})"}));
  EXPECT_EQ(read.calls[1], (bench::protocol::StreamedToolCall{"", "g", "{}"}));
  EXPECT_EQ(record.tool_call_names, (std::vector<std::string>{"f", "g"}));
  EXPECT_TRUE(record.called_tools());
  EXPECT_EQ(record.tool_calls(), 2);
  // No content: every completion token went to the calls, by usage.
  EXPECT_EQ(record.tool_call_tokens, 10);
  EXPECT_EQ(record.tool_call_token_source, TokenSource::usage);
  EXPECT_EQ(record.finish_reason, "tool_calls");
  EXPECT_TRUE(read.answer.empty());
}

TEST(WholeBody, ACompletionsAnswerIsItsText) {
  const WholeRead read = read_whole(
      R"({"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":" a b c",)"
      R"("finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":3}})",
      Endpoint::completions);
  ASSERT_TRUE(read.record.ok()) << read.record.error_message;
  EXPECT_EQ(read.answer, " a b c");
  EXPECT_EQ(read.record.completion_tokens, 3);
  EXPECT_EQ(read.record.finish_reason, "length");
  EXPECT_FALSE(read.record.reasoned());
}

// One token a byte, as a tokenizer file would count the answer when usage says nothing.
class LetterCounter final : public bench::tokenizer::Tokenizer {
 public:
  std::vector<bench::tokenizer::TokenId> encode(std::string_view text) const override {
    return std::vector<bench::tokenizer::TokenId>(text.size(), 0);
  }
  std::string decode(const std::vector<bench::tokenizer::TokenId>&) const override { return {}; }
  const std::vector<std::string>& special_tokens() const override { return names_; }
  const std::string& description() const override { return names_.front(); }

 private:
  std::vector<std::string> names_{"letters"};
};

TEST(WholeBody, WithoutUsageTheTokensAreCountedByTheStreamsRuleAndLabelled) {
  constexpr std::string_view kNoUsage =
      R"({"choices":[{"message":{"content":"abcd"},"finish_reason":"stop"}]})";
  const WholeRead estimated = read_whole(kNoUsage);
  ASSERT_TRUE(estimated.record.ok());
  // No tokenizer: the chunk estimate, and a whole body is one chunk (labelled an estimate).
  EXPECT_EQ(estimated.record.completion_tokens, 1);
  EXPECT_EQ(estimated.record.completion_token_source, TokenSource::chunks);
  EXPECT_EQ(estimated.record.prompt_tokens, -1);
  const LetterCounter counter;
  const WholeRead counted =
      read_whole_pieces({kNoUsage}, Endpoint::chat, 200, "application/json", {}, &counter);
  ASSERT_TRUE(counted.record.ok());
  EXPECT_EQ(counted.record.completion_tokens, 4);
  EXPECT_EQ(counted.record.completion_token_source, TokenSource::tokenizer);
}

TEST(WholeBody, FailuresAreClassedAsAStreamsAre) {
  struct Case {
    std::string_view body;
    long status;
    std::string_view content_type;
    ErrorClass error;
    std::string_view message_part;
  };
  const Case cases[] = {
      {R"({"error":{"message":"boom","type":"server_error"}})", 500, "application/json",
       ErrorClass::http_5xx, "HTTP 500: boom"},
      {R"({"error":{"message":"slow down"}})", 429, "application/json", ErrorClass::rate_limited,
       "slow down"},
      {R"({"error":{"message":"engine died"}})", 200, "application/json", ErrorClass::stream_error,
       "engine died"},
      {R"({"choices":[{"message":{"content":"cut)", 200, "application/json", ErrorClass::truncated,
       "ended inside its JSON"},
      {"", 200, "application/json", ErrorClass::truncated, "ended inside its JSON"},
      {"<html>oops</html>", 200, "text/html", ErrorClass::malformed_json, "not JSON: <html>"},
      {"[1, 2]", 200, "application/json", ErrorClass::malformed_json, "not a JSON object"},
      {R"({"object":"list"})", 200, "application/json", ErrorClass::malformed_json, "no choices"},
      {"data: {\"choices\":[]}\n\n", 200, "text/event-stream", ErrorClass::malformed_json,
       "the server streamed"},
  };
  for (const Case& c : cases) {
    const RequestRecord record =
        read_whole(c.body, Endpoint::chat, c.status, c.content_type).record;
    EXPECT_EQ(record.error, c.error) << c.body;
    EXPECT_NE(record.error_message.find(c.message_part), std::string::npos)
        << c.body << " -> " << record.error_message;
    EXPECT_FALSE(record.streamed);
    EXPECT_EQ(record.completion_token_source, TokenSource::none);
  }
}

TEST(WholeBody, ABodyPastTheResponseCapStopsTheRead) {
  StreamLimits limits;
  limits.max_line_bytes = 16;
  limits.max_response_bytes = 32;
  const std::string body =
      R"({"choices":[{"message":{"content":")" + std::string(64, 'x') + "\"}}]}";
  const RequestRecord record =
      read_whole_pieces({body}, Endpoint::chat, 200, "application/json", limits).record;
  EXPECT_EQ(record.error, ErrorClass::malformed_sse);
  EXPECT_NE(record.error_message.find("exceeded 32 bytes"), std::string::npos);
}

TEST(WholeBody, ATransportFailureStaysOneEvenAfterAWholeBody) {
  const RequestRecord record =
      read_whole_pieces({kChatWhole}, Endpoint::chat, 200, "application/json", {}, nullptr,
                        {ErrorClass::transport, "connection reset", kWholeEndNs})
          .record;
  EXPECT_EQ(record.error, ErrorClass::transport);
  EXPECT_EQ(record.error_message, "connection reset");
}

TEST(WholeBody, AResponsesObjectGivesItsOutputItemsInChatsTerms) {
  const WholeRead read = read_whole(
      R"({"id":"resp_1","object":"response","status":"completed","output":[)"
      R"({"type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"hm"}]},)"
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi"}]},)"
      R"({"type":"function_call","call_id":"call_9","name":"f","arguments":"{}"}],)"
      R"("usage":{"input_tokens":5,"input_tokens_details":{"cached_tokens":2},)"
      R"("output_tokens":7,"output_tokens_details":{"reasoning_tokens":3},"total_tokens":12}})",
      Endpoint::responses);
  const RequestRecord& record = read.record;
  ASSERT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(read.reasoning, "hm");
  EXPECT_EQ(read.answer, "Hi");
  ASSERT_EQ(read.calls.size(), 1u);
  EXPECT_EQ(read.calls[0], (bench::protocol::StreamedToolCall{"call_9", "f", "{}"}));
  EXPECT_EQ(record.finish_reason, "tool_calls");
  EXPECT_EQ(record.completion_tokens, 7);
  EXPECT_EQ(record.prompt_tokens, 5);
  EXPECT_EQ(record.cached_prompt_tokens, 2);
  EXPECT_EQ(record.reasoning_tokens, 3);
  EXPECT_EQ(record.response_id, "resp_1");
}

TEST(WholeBody, AResponsesObjectCutByItsLengthOrFailedIsSaidSo) {
  const WholeRead incomplete =
      read_whole(R"({"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},)"
                 R"("output":[{"type":"message","content":[{"type":"output_text","text":"a"}]}],)"
                 R"("usage":{"input_tokens":1,"output_tokens":1}})",
                 Endpoint::responses);
  ASSERT_TRUE(incomplete.record.ok());
  EXPECT_EQ(incomplete.record.finish_reason, "length");
  const RequestRecord failed =
      read_whole(R"({"status":"failed","error":{"message":"overloaded"},"output":[]})",
                 Endpoint::responses)
          .record;
  EXPECT_EQ(failed.error, ErrorClass::stream_error);
  EXPECT_EQ(failed.error_message, "overloaded");
}

TEST(WholeBody, EveryEndpointRowReadsAWholeBody) {
  for (const bench::protocol::EndpointSpec& spec : bench::protocol::endpoints()) {
    ASSERT_NE(spec.interpret_whole, nullptr) << spec.name;
    bench::protocol::Chunk chunk;
    spec.interpret_whole("{", chunk);
    EXPECT_EQ(chunk.kind, bench::protocol::Chunk::Kind::truncated) << spec.name;
  }
}

TEST(WholeBody, TheReaderGoesBackToStreamsForTheNextRequest) {
  StreamReader reader;
  RequestRecord whole;
  reader.begin(&whole, Delivery::whole_body);
  reader.on_headers(200, "application/json");
  reader.on_body(kChatWhole, 1000);
  reader.finish({ErrorClass::none, "", 2000});
  ASSERT_TRUE(whole.ok());
  RequestRecord streamed;
  reader.begin(&streamed);
  reader.on_headers(200, "text/event-stream");
  reader.on_body("data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"stop\"}]}\n\n", 3000);
  reader.finish({ErrorClass::none, "", 4000});
  ASSERT_TRUE(streamed.ok()) << streamed.error_message;
  EXPECT_TRUE(streamed.streamed);
  EXPECT_EQ(streamed.first_token_ns, 3000);
  EXPECT_EQ(streamed.text_chunk_ns.size(), 1u);
}

}  // namespace
