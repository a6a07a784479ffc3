// The Messages API unit: its request body (chat's history in Anthropic's shapes), what each
// stream event means (the usage trap: input_tokens excludes the cache's reads and writes; the
// output in message_delta is cumulative), its key header, and StreamReader over the reference
// streams in tests/data/reference/messages (fed whole and byte by byte).
#include "bench/protocol/messages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "bench/protocol/endpoint.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "reference_streams.hpp"
#include "run_process.hpp"

namespace messages_test {

using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::protocol::Chunk;
using bench::protocol::Endpoint;
using bench::protocol::interpret_messages_event;
using bench::protocol::RequestOptions;
using nlohmann::json;

RequestOptions messages_options() {
  RequestOptions options;
  options.endpoint = Endpoint::messages;
  options.model = "claude";
  options.max_tokens = 16;
  return options;
}

TEST(MessagesBody, SendsMaxTokensAlwaysAndThePromptAsAUserTurn) {
  const json body = json::parse(bench::protocol::messages_prompt_body(messages_options(), "Hi"));
  EXPECT_EQ(body["model"], "claude");
  EXPECT_EQ(body["max_tokens"], 16);
  EXPECT_EQ(body["stream"], true);
  EXPECT_FALSE(body.contains("stream_options"));
  EXPECT_FALSE(body.contains("system"));
  EXPECT_EQ(body["messages"],
            json::parse(R"([{"role":"user","content":[{"type":"text","text":"Hi"}]}])"));
}

TEST(MessagesBody, SendsChatsHistoryInAnthropicsShapes) {
  const json history = json::parse(R"([
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Weather in Paris?"},
    {"role": "assistant", "content": "Checking.", "tool_calls": [{"id": "call_1", "type": "function",
      "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
    {"role": "user", "content": [{"type": "text", "text": "And this?"},
      {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]}
  ])");
  const json body =
      json::parse(bench::protocol::messages_messages_body(messages_options(), history));
  EXPECT_EQ(body["system"], "Be brief.");  // top level, not a message
  const json& turns = body["messages"];
  ASSERT_EQ(turns.size(), 3u);
  EXPECT_EQ(turns[0]["role"], "user");
  EXPECT_EQ(turns[1]["role"], "assistant");
  EXPECT_EQ(turns[1]["content"][1], json::parse(R"({"type":"tool_use","id":"call_1",
      "name":"get_weather","input":{"city":"Paris"}})"));
  // The tool's answer and the next user words are one user turn: roles alternate.
  EXPECT_EQ(turns[2]["role"], "user");
  EXPECT_EQ(turns[2]["content"][0],
            json::parse(R"({"type":"tool_result","tool_use_id":"call_1","content":"18 C"})"));
  EXPECT_EQ(turns[2]["content"][2]["source"],
            json::parse(R"({"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="})"));
}

TEST(MessagesBody, SendsToolsWithTheirInputSchemaAndChoicesInItsWords) {
  RequestOptions options = messages_options();
  options.tools = json::parse(R"([{"type":"function","function":{"name":"f","description":"d",
      "parameters":{"type":"object"}}}])");
  options.tool_choice = "required";
  const json body = json::parse(bench::protocol::messages_prompt_body(options, "x"));
  EXPECT_EQ(body["tools"][0],
            json::parse(R"({"name":"f","description":"d","input_schema":{"type":"object"}})"));
  EXPECT_EQ(body["tool_choice"], json::parse(R"({"type":"any"})"));
}

TEST(MessagesEndpoint, TheKeyGoesAsXApiKeyWithTheVersionHeader) {
  EXPECT_EQ(bench::protocol::endpoint_headers(Endpoint::messages, "sk-ant-1"),
            (std::vector<std::string>{"x-api-key: sk-ant-1", "anthropic-version: 2023-06-01"}));
  EXPECT_EQ(bench::protocol::endpoint_headers(Endpoint::chat, "sk-1"),
            (std::vector<std::string>{"Authorization: Bearer sk-1"}));
  EXPECT_EQ(bench::protocol::endpoint_headers(Endpoint::chat, ""), std::vector<std::string>{});
  EXPECT_EQ(bench::protocol::endpoint_path(Endpoint::messages), "/v1/messages");
}

Chunk interpreted(std::string_view data) {
  Chunk chunk;
  interpret_messages_event(data, chunk);
  return chunk;
}

TEST(MessagesEvents, ThePromptCountsTheCachesReadsAndWrites) {
  const Chunk start = interpreted(
      R"({"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":25,)"
      R"("cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":1}}})");
  EXPECT_EQ(start.id, "msg_1");
  EXPECT_EQ(start.prompt_tokens, 1125);
  EXPECT_EQ(start.cached_tokens, 1000);
  EXPECT_FALSE(start.completion_tokens.has_value());  // the output comes with message_delta
}

TEST(MessagesEvents, TheOutputInMessageDeltaIsCumulativeAndTheStopIsChats) {
  const Chunk end = interpreted(
      R"({"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":40}})");
  EXPECT_EQ(end.completion_tokens, 40);
  EXPECT_EQ(end.finish_reason, "length");
  EXPECT_EQ(
      interpreted(R"({"type":"message_delta","delta":{"stop_reason":"end_turn"}})").finish_reason,
      "stop");
}

TEST(MessagesEvents, DeltasAreTextReasoningOrToolArguments) {
  const Chunk text = interpreted(
      R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}})");
  EXPECT_EQ(text.text, "Hi");
  EXPECT_EQ(text.reasoning_size, 0u);
  const Chunk thinking = interpreted(
      R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hm"}})");
  EXPECT_EQ(thinking.reasoning(), "Hm");
  const Chunk signature = interpreted(
      R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"x"}})");
  EXPECT_FALSE(signature.has_text());
  const Chunk arguments = interpreted(
      R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}})");
  EXPECT_EQ(arguments.tool_call_text, "{\"a\"");
  ASSERT_EQ(arguments.tool_call_fragments.size(), 1u);
  EXPECT_EQ(arguments.tool_call_fragments[0].index, 2);
  const Chunk error =
      interpreted(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})");
  EXPECT_EQ(error.kind, Chunk::Kind::error);
  EXPECT_EQ(error.error_message, "Overloaded");
  EXPECT_EQ(interpreted("{\"type\":").kind, Chunk::Kind::malformed);
}

TEST(MessagesBody, AWholeMessageIsReadAsTheStreamIs) {
  Chunk chunk;
  bench::protocol::interpret_messages_body(
      R"({"id":"msg_2","type":"message","role":"assistant","content":[)"
      R"({"type":"thinking","thinking":"Hm."},{"type":"text","text":"Yes."},)"
      R"({"type":"tool_use","id":"toolu_1","name":"f","input":{"a":1}}],)"
      R"("stop_reason":"tool_use","usage":{"input_tokens":5,"cache_read_input_tokens":3,)"
      R"("output_tokens":9}})",
      chunk);
  EXPECT_EQ(chunk.kind, Chunk::Kind::data);
  EXPECT_EQ(chunk.reasoning(), "Hm.");
  EXPECT_EQ(chunk.text, "Hm.Yes.");
  EXPECT_EQ(chunk.prompt_tokens, 8);
  EXPECT_EQ(chunk.cached_tokens, 3);
  EXPECT_EQ(chunk.completion_tokens, 9);
  EXPECT_EQ(chunk.finish_reason, "tool_calls");
  ASSERT_EQ(chunk.tool_call_fragments.size(), 1u);
  EXPECT_EQ(chunk.tool_call_fragments[0].id, "toolu_1");
  EXPECT_EQ(chunk.tool_call_fragments[0].arguments, R"({"a":1})");
}

// --- the reference streams --------------------------------------------------------------------

const std::filesystem::path kDir = std::filesystem::path(BENCH_REFERENCE_DIR) / "messages";

std::vector<std::string> stream_names() { return bench::testing::sse_stream_names(kDir); }

RequestRecord read_stream(const std::vector<std::string_view>& pieces) {
  return bench::testing::read_reference_stream(Endpoint::messages, pieces);
}

void check(const RequestRecord& record, const json& expected) {
  EXPECT_EQ(record.text_chunk_ns.size(), expected["text_chunks"].get<std::size_t>());
  if (expected.contains("error")) {
    EXPECT_EQ(record.error, ErrorClass::stream_error);
    EXPECT_EQ(record.error_message, expected["error_message"].get<std::string>());
    return;
  }
  EXPECT_EQ(record.error, ErrorClass::none) << record.error_message;
  EXPECT_EQ(record.text_bytes,
            static_cast<std::int64_t>(expected["text"].get<std::string>().size()));
  EXPECT_EQ(record.finish_reason, expected["finish_reason"].get<std::string>());
  EXPECT_EQ(record.prompt_tokens, expected["prompt_tokens"].get<std::int64_t>());
  EXPECT_EQ(record.completion_tokens, expected["completion_tokens"].get<std::int64_t>());
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
  EXPECT_EQ(record.cached_prompt_tokens, expected["prompt_tokens_cached"].get<std::int64_t>());
  EXPECT_EQ(record.reasoning_chunks, expected.value("reasoning_text_chunks", 0));
  EXPECT_EQ(record.tool_call_chunks, expected.value("tool_call_chunks", 0));
  EXPECT_EQ(record.tool_call_names, expected.value("tool_call_names", std::vector<std::string>{}));
}

TEST(MessagesReference, EveryStreamReadsAsExpectedWholeAndByteByByte) {
  const std::vector<std::string> names = stream_names();
  ASSERT_GE(names.size(), 5u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const std::string body = bench::testing::read_file(kDir / (name + ".sse"));
    const json expected = json::parse(bench::testing::read_file(kDir / (name + ".expected.json")));
    check(read_stream({body}), expected);
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < body.size(); ++i)
      bytes.push_back(std::string_view(body).substr(i, 1));
    check(read_stream(bytes), expected);
  }
}

}  // namespace messages_test
