// The simulator's whole (non-streamed) bodies, read back by bench's own StreamReader as a
// "stream": false request reads them: the same answer a stream would carry, in OpenAI's shapes.
#include "bench/sim/whole_response.hpp"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/metrics/request_record.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/util/fnv1a.hpp"
#include "bench/util/words.hpp"

namespace {

using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::protocol::Delivery;
using bench::protocol::Endpoint;
using bench::protocol::StreamReader;
using bench::sim::WholeAnswer;
using bench::sim::WholeBody;
using nlohmann::json;

WholeAnswer whole_answer(bool chat, std::int64_t tokens) {
  WholeAnswer answer;
  answer.shape.chat = chat;
  answer.shape.id = chat ? "chatcmpl-9" : "cmpl-9";
  answer.shape.model_json = bench::sim::json_string("m");
  answer.shape.created = 1700000000;
  answer.words = {bench::sim::SimAnswers::random, 9, {}, 0};
  answer.tokens = tokens;
  answer.prompt_tokens = 11;
  return answer;
}

// The body as bench reads a non-streamed answer of `endpoint`; `reader` keeps the answer text.
RequestRecord read_whole(const WholeBody& body, Endpoint endpoint, StreamReader& reader) {
  RequestRecord record;
  reader.read_as(endpoint);
  reader.keep_answer_text(true);
  reader.keep_reasoning_text(true);
  reader.begin(&record, Delivery::whole_body);
  reader.on_headers(200, "application/json");
  reader.on_body(body.json, 1000);
  reader.finish({bench::metrics::ErrorClass::none, "", 2000});
  return record;
}

TEST(WholeResponse, ACompletionIsTheTextOfItsTokensWithUsageAndTheCacheSplit) {
  WholeAnswer answer = whole_answer(false, 5);
  answer.cached_prompt_tokens = 4;
  answer.stopped_by_length = false;
  const WholeBody body = bench::sim::whole_response_body(answer);
  const json parsed = json::parse(body.json);
  EXPECT_EQ(parsed["object"], "text_completion");
  EXPECT_EQ(parsed["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(parsed["usage"]["prompt_tokens_details"]["cached_tokens"], 4);
  StreamReader reader;
  const RequestRecord record = read_whole(body, Endpoint::completions, reader);
  ASSERT_TRUE(record.ok()) << record.error_message;
  EXPECT_FALSE(record.streamed);
  EXPECT_EQ(record.completion_tokens, 5);
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
  EXPECT_EQ(record.cached_prompt_tokens, 4);
  EXPECT_EQ(bench::util::count_words(reader.answer_text()), 5);
  bench::util::Fnv1a64 hash;
  hash.add(reader.answer_text());
  EXPECT_EQ(body.answer_hash, hash.value());  // the truth log's reply_hash of what bench kept
}

TEST(WholeResponse, AReasoningChatAnswerSplitsItsTokensAsTheStreamWould) {
  WholeAnswer answer = whole_answer(true, 7);
  answer.reasoning_tokens = 3;
  answer.words.answer_start = 3;
  const WholeBody body = bench::sim::whole_response_body(answer);
  const json message = json::parse(body.json)["choices"][0]["message"];
  EXPECT_EQ(message["role"], "assistant");
  EXPECT_EQ(bench::util::count_words(message["reasoning_content"].get<std::string>()), 3);
  EXPECT_EQ(bench::util::count_words(message["content"].get<std::string>()), 4);
  StreamReader reader;
  const RequestRecord record = read_whole(body, Endpoint::chat, reader);
  ASSERT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.reasoning_tokens, 3);
  EXPECT_EQ(record.reasoning_token_source, TokenSource::usage);
  EXPECT_EQ(record.answer_tokens(), 4);
  EXPECT_EQ(record.finish_reason, "length");
  EXPECT_EQ(reader.kept_reasoning_text(), message["reasoning_content"]);
  EXPECT_EQ(reader.answer_text(), message["content"]);
}

TEST(WholeResponse, AToolCallIsOneWholeCallWithArgumentsThatParse) {
  WholeAnswer answer = whole_answer(true, 6);
  answer.tool_name = "get_weather";
  answer.stopped_by_length = false;
  const WholeBody body = bench::sim::whole_response_body(answer);
  const json choice = json::parse(body.json)["choices"][0];
  EXPECT_EQ(choice["finish_reason"], "tool_calls");
  EXPECT_TRUE(choice["message"]["content"].is_null());
  StreamReader reader;
  const RequestRecord record = read_whole(body, Endpoint::chat, reader);
  ASSERT_TRUE(record.ok()) << record.error_message;
  ASSERT_EQ(reader.tool_calls().size(), 1u);
  EXPECT_EQ(reader.tool_calls()[0].name, "get_weather");
  EXPECT_EQ(reader.tool_calls()[0].id, "chatcmpl-tool-chatcmpl-9");
  // The name is the call's first token, the other 5 the words of its arguments.
  const json arguments = json::parse(reader.tool_calls()[0].arguments);
  EXPECT_EQ(bench::util::count_words(arguments["text"].get<std::string>()), 5);
  EXPECT_EQ(record.tool_call_tokens, 6);  // no content: every token went to the call (usage)
  EXPECT_EQ(record.tool_call_token_source, TokenSource::usage);
  EXPECT_TRUE(reader.answer_text().empty());
}

TEST(WholeResponse, AResponsesAnswerIsTheResponseObjectItsStreamWouldEndWith) {
  WholeAnswer answer = whole_answer(true, 6);
  answer.shape.responses = true;
  answer.shape.id = "resp-9";
  answer.reasoning_tokens = 2;
  answer.words.answer_start = 2;
  const WholeBody body = bench::sim::whole_response_body(answer);
  const json parsed = json::parse(body.json);
  EXPECT_EQ(parsed["object"], "response");
  EXPECT_EQ(parsed["status"], "incomplete");  // cut by its length
  ASSERT_EQ(parsed["output"].size(), 2u);
  EXPECT_EQ(parsed["output"][0]["type"], "reasoning");
  EXPECT_EQ(parsed["output"][1]["type"], "message");
  StreamReader reader;
  const RequestRecord record = read_whole(body, Endpoint::responses, reader);
  ASSERT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.completion_tokens, 6);
  EXPECT_EQ(record.prompt_tokens, 11);
  EXPECT_EQ(record.reasoning_tokens, 2);
  EXPECT_EQ(record.finish_reason, "length");
  EXPECT_EQ(record.response_id, "resp-9");
  EXPECT_EQ(bench::util::count_words(reader.answer_text()), 4);
}

}  // namespace
