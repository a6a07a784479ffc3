// Request bodies for both endpoints, and what each kind of streamed data payload means.
#include "bench/protocol/openai.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/sse/parser.hpp"
#include "run_process.hpp"

namespace {

using bench::protocol::asks_per_chunk_usage;
using bench::protocol::build_request_body;
using bench::protocol::Chunk;
using bench::protocol::Endpoint;
using bench::protocol::interpret_chunk;
using bench::protocol::RequestOptions;
using nlohmann::json;

json body_of(const RequestOptions& options, std::string_view prompt) {
  return json::parse(build_request_body(options, prompt));
}

TEST(EndpointNames, NameAndPath) {
  EXPECT_EQ(bench::protocol::endpoint_name(Endpoint::chat), "chat");
  EXPECT_EQ(bench::protocol::endpoint_name(Endpoint::completions), "completions");
  EXPECT_EQ(bench::protocol::endpoint_path(Endpoint::chat), "/v1/chat/completions");
  EXPECT_EQ(bench::protocol::endpoint_path(Endpoint::completions), "/v1/completions");
}

TEST(BuildRequestBody, ChatSendsOneUserMessage) {
  RequestOptions options;
  options.endpoint = Endpoint::chat;
  options.model = "m";
  options.max_tokens = 64;
  const json body = body_of(options, "Hello \"world\"\n");
  const json expected = {
      {"model", "m"},
      {"messages", json::array({{{"role", "user"}, {"content", "Hello \"world\"\n"}}})},
      {"max_tokens", 64},
      {"stream", true},
      {"stream_options", {{"include_usage", true}}},
  };
  EXPECT_EQ(body, expected);
}

TEST(BuildRequestBody, CompletionsSendsPrompt) {
  RequestOptions options;
  options.endpoint = Endpoint::completions;
  options.model = "m";
  options.max_tokens = 7;
  const json body = body_of(options, "Once upon");
  const json expected = {
      {"model", "m"},
      {"prompt", "Once upon"},
      {"max_tokens", 7},
      {"stream", true},
      {"stream_options", {{"include_usage", true}}},
  };
  EXPECT_EQ(body, expected);
}

TEST(BuildRequestBody, SendsIgnoreEosAndTemperatureOnlyWhenSet) {
  RequestOptions options;
  json body = body_of(options, "p");
  EXPECT_FALSE(body.contains("ignore_eos"));
  EXPECT_FALSE(body.contains("temperature"));

  options.ignore_eos = true;
  options.temperature = 0.0;
  body = body_of(options, "p");
  EXPECT_EQ(body["ignore_eos"], true);
  EXPECT_EQ(body["temperature"], 0.0);
}

TEST(BuildRequestBody, AsksForContinuousUsageWhenRequested) {
  RequestOptions options;
  options.continuous_usage_stats = true;
  const json body = body_of(options, "p");
  EXPECT_EQ(body["stream_options"],
            (json{{"include_usage", true}, {"continuous_usage_stats", true}}));
}

TEST(BuildRequestBody, ExtraBodyOverridesAndMerges) {
  RequestOptions options;
  options.model = "m";
  options.max_tokens = 10;
  options.extra_body = json::parse(R"({
      "max_tokens": 99,
      "top_k": 5,
      "stream_options": {"continuous_usage_stats": true},
      "model": null
  })");
  const json body = body_of(options, "p");
  EXPECT_EQ(body["max_tokens"], 99);
  EXPECT_EQ(body["top_k"], 5);
  // RFC 7386: objects merge key by key, and null removes a key.
  EXPECT_EQ(body["stream_options"],
            (json{{"include_usage", true}, {"continuous_usage_stats", true}}));
  EXPECT_FALSE(body.contains("model"));
  EXPECT_EQ(body["stream"], true);
}

TEST(BuildRequestBody, NotStreamedSendsStreamFalseAndNoStreamOptions) {
  for (const Endpoint endpoint : {Endpoint::chat, Endpoint::completions}) {
    RequestOptions options;
    options.endpoint = endpoint;
    options.model = "m";
    options.stream = false;
    options.continuous_usage_stats = true;  // a stream's option: not sent without one
    const json body = body_of(options, "p");
    EXPECT_EQ(body["stream"], false);
    EXPECT_FALSE(body.contains("stream_options"));
    EXPECT_FALSE(asks_per_chunk_usage(options));
  }
}

TEST(BuildRequestBody, NotStreamedStillMergesTheExtraBody) {
  RequestOptions options;
  options.stream = false;
  options.max_tokens = 10;
  options.extra_body = json::parse(R"({"max_tokens": 99, "top_k": 5, "seed": null})");
  const json body = body_of(options, "p");
  EXPECT_EQ(body["max_tokens"], 99);
  EXPECT_EQ(body["top_k"], 5);
  EXPECT_FALSE(body.contains("seed"));
  EXPECT_EQ(body["stream"], false);
  EXPECT_FALSE(body.contains("stream_options"));
}

TEST(AsksPerChunkUsage, SaysWhatTheBodySendsOnceExtraBodyIsMerged) {
  RequestOptions options;
  EXPECT_FALSE(asks_per_chunk_usage(options));
  options.continuous_usage_stats = true;
  EXPECT_TRUE(asks_per_chunk_usage(options));
  options.extra_body = json::parse(R"({"stream_options": null})");
  EXPECT_FALSE(asks_per_chunk_usage(options));
  options.extra_body = json::parse(R"({"stream_options": {"continuous_usage_stats": false}})");
  EXPECT_FALSE(asks_per_chunk_usage(options));
  options.continuous_usage_stats = false;
  options.extra_body = json::parse(R"({"stream_options": {"continuous_usage_stats": true}})");
  EXPECT_TRUE(asks_per_chunk_usage(options));
}

TEST(BuildRequestBody, ReplacesInvalidUtf8InPromptInsteadOfThrowing) {
  RequestOptions options;
  options.endpoint = Endpoint::completions;
  std::string body;
  ASSERT_NO_THROW(body = build_request_body(options,
                                            "a\xFF"
                                            "b"));
  EXPECT_EQ(json::parse(body)["prompt"],
            "a\xEF\xBF\xBD"
            "b");
}

TEST(InterpretChunk, RecognisesDoneSentinel) {
  EXPECT_EQ(interpret_chunk("[DONE]").kind, Chunk::Kind::done);
  EXPECT_EQ(interpret_chunk(" [DONE]\r\n").kind, Chunk::Kind::done);
  EXPECT_EQ(interpret_chunk("[DONE]x").kind, Chunk::Kind::malformed);
  EXPECT_EQ(interpret_chunk("[done]").kind, Chunk::Kind::malformed);
}

TEST(InterpretChunk, ReadsErrorObjectMessage) {
  const Chunk chunk = interpret_chunk(
      R"({"error":{"object":"error","message":"The engine is overloaded","code":500}})");
  EXPECT_EQ(chunk.kind, Chunk::Kind::error);
  EXPECT_EQ(chunk.error_message, "The engine is overloaded");
  EXPECT_FALSE(chunk.has_text());
}

TEST(InterpretChunk, ReadsErrorString) {
  const Chunk chunk = interpret_chunk(R"({"error":"boom"})");
  EXPECT_EQ(chunk.kind, Chunk::Kind::error);
  EXPECT_EQ(chunk.error_message, "boom");
}

TEST(InterpretChunk, ErrorWithoutMessageStillSaysSomething) {
  const Chunk chunk = interpret_chunk(R"({"error":{"code":503}})");
  EXPECT_EQ(chunk.kind, Chunk::Kind::error);
  EXPECT_NE(chunk.error_message.find("503"), std::string::npos);
}

TEST(InterpretChunk, FlagsNonJsonAndNonObjectAsMalformed) {
  for (std::string_view data : {"", "{", "hello", "{\"choices\":[", "[1,2]", "42", "\"text\"",
                                "null", "{\"a\":\"\xFF\"}"}) {
    SCOPED_TRACE(std::string(data));
    Chunk chunk;
    ASSERT_NO_THROW(chunk = interpret_chunk(data));
    EXPECT_EQ(chunk.kind, Chunk::Kind::malformed);
    EXPECT_FALSE(chunk.error_message.empty());
  }
}

TEST(InterpretChunk, ReadsCompletionsText) {
  const Chunk chunk =
      interpret_chunk(R"({"choices":[{"index":0,"text":" The","finish_reason":null}]})");
  EXPECT_EQ(chunk.kind, Chunk::Kind::data);
  EXPECT_EQ(chunk.text, " The");
  EXPECT_EQ(chunk.finish_reason, "");
  EXPECT_FALSE(chunk.prompt_tokens);
  EXPECT_FALSE(chunk.completion_tokens);
}

TEST(InterpretChunk, RoleOnlyDeltaCarriesNoText) {
  const Chunk chunk = interpret_chunk(
      R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"usage":null})");
  EXPECT_EQ(chunk.kind, Chunk::Kind::data);
  EXPECT_FALSE(chunk.has_text());
  EXPECT_FALSE(chunk.completion_tokens);
}

TEST(InterpretChunk, NullContentIsNoText) {
  const Chunk chunk = interpret_chunk(
      R"({"choices":[{"delta":{"role":null,"content":null,"reasoning_content":null}}]})");
  EXPECT_EQ(chunk.kind, Chunk::Kind::data);
  EXPECT_FALSE(chunk.has_text());
  EXPECT_EQ(interpret_chunk(R"({"choices":[{"text":null}]})").text, "");
}

TEST(InterpretChunk, ReasoningComesBeforeContent) {
  EXPECT_EQ(interpret_chunk(R"({"choices":[{"delta":{"reasoning_content":"Let"}}]})").text, "Let");
  EXPECT_EQ(interpret_chunk(R"({"choices":[{"delta":{"reasoning":"Hm"}}]})").text, "Hm");
  EXPECT_EQ(
      interpret_chunk(R"({"choices":[{"delta":{"content":"Yes","reasoning_content":"So. "}}]})")
          .text,
      "So. Yes");
  // A server that sends both spellings of the same reasoning is not counted twice.
  EXPECT_EQ(
      interpret_chunk(R"({"choices":[{"delta":{"reasoning_content":"a","reasoning":"a"}}]})").text,
      "a");
}

TEST(InterpretChunk, SplitsReasoningFromTheAnswer) {
  const Chunk both =
      interpret_chunk(R"({"choices":[{"delta":{"content":"Yes","reasoning_content":"So. "}}]})");
  EXPECT_EQ(both.reasoning(), "So. ");
  EXPECT_EQ(both.answer(), "Yes");
  EXPECT_TRUE(both.has_reasoning());
  EXPECT_TRUE(both.has_answer());
  const Chunk newer_vllm = interpret_chunk(R"({"choices":[{"delta":{"reasoning":"Hm"}}]})");
  EXPECT_EQ(newer_vllm.reasoning(), "Hm");
  EXPECT_FALSE(newer_vllm.has_answer());
  const Chunk plain = interpret_chunk(R"({"choices":[{"delta":{"content":"a"}}]})");
  EXPECT_FALSE(plain.has_reasoning());
  EXPECT_EQ(plain.answer(), "a");
  // A completion's text is answer, even beside a (stray) reasoning delta.
  const Chunk completion =
      interpret_chunk(R"({"choices":[{"text":"t","delta":{"reasoning":"r"}}]})");
  EXPECT_EQ(completion.reasoning(), "r");
  EXPECT_EQ(completion.answer(), "t");
}

TEST(InterpretChunk, ReadsReasoningTokensFromCompletionTokensDetails) {
  const Chunk chunk =
      interpret_chunk(R"({"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":50,)"
                      R"("completion_tokens_details":{"reasoning_tokens":42,"audio_tokens":0}}})");
  EXPECT_EQ(chunk.completion_tokens, 50);
  EXPECT_EQ(chunk.reasoning_tokens, 42);
  EXPECT_FALSE(interpret_chunk(R"({"usage":{"completion_tokens_details":null}})").reasoning_tokens);
  EXPECT_FALSE(interpret_chunk(R"({"usage":{"completion_tokens":3}})").reasoning_tokens);
}

TEST(InterpretChunk, ReadsFinishReasonOnlyWhenString) {
  EXPECT_EQ(interpret_chunk(R"({"choices":[{"delta":{},"finish_reason":"length"}]})").finish_reason,
            "length");
  EXPECT_EQ(interpret_chunk(R"({"choices":[{"delta":{},"finish_reason":null}]})").finish_reason,
            "");
  EXPECT_EQ(interpret_chunk(R"({"choices":[{"delta":{},"finish_reason":3}]})").finish_reason, "");
}

TEST(InterpretChunk, ReadsUsageOnlyChunk) {
  const Chunk chunk = interpret_chunk(
      R"({"id":"c","choices":[],"usage":{"prompt_tokens":12,"total_tokens":19,"completion_tokens":7}})");
  EXPECT_EQ(chunk.kind, Chunk::Kind::data);
  EXPECT_FALSE(chunk.has_text());
  EXPECT_EQ(chunk.prompt_tokens, 12);
  EXPECT_EQ(chunk.completion_tokens, 7);
}

TEST(InterpretChunk, ReadsUsageRidingOnFinishChunk) {
  // llama.cpp: usage on the last content chunk, with an empty delta and finish_reason.
  const Chunk chunk = interpret_chunk(
      R"({"choices":[{"finish_reason":"length","index":0,"delta":{}}],"usage":{"completion_tokens":16,"prompt_tokens":14,"total_tokens":30},"timings":{"prompt_n":14}})");
  EXPECT_FALSE(chunk.has_text());
  EXPECT_EQ(chunk.finish_reason, "length");
  EXPECT_EQ(chunk.prompt_tokens, 14);
  EXPECT_EQ(chunk.completion_tokens, 16);
}

TEST(InterpretChunk, IgnoresNullOrOddUsage) {
  EXPECT_FALSE(interpret_chunk(R"({"choices":[],"usage":null})").completion_tokens);
  const Chunk chunk =
      interpret_chunk(R"({"choices":[],"usage":{"prompt_tokens":"12","completion_tokens":-3}})");
  EXPECT_FALSE(chunk.prompt_tokens);
  EXPECT_FALSE(chunk.completion_tokens);
  EXPECT_EQ(
      interpret_chunk(R"({"choices":[],"usage":{"completion_tokens":4.0}})").completion_tokens, 4);
}

TEST(InterpretChunk, SurvivesOddShapes) {
  for (std::string_view data :
       {R"({})", R"({"choices":null})", R"({"choices":{}})", R"({"choices":[null]})",
        R"({"choices":[{"delta":"x"}]})", R"({"choices":[{"text":5}]})", R"({"error":null})",
        R"({"choices":[{"delta":{"content":["a"]}}]})"}) {
    SCOPED_TRACE(std::string(data));
    Chunk chunk;
    ASSERT_NO_THROW(chunk = interpret_chunk(data));
    EXPECT_EQ(chunk.kind, Chunk::Kind::data);
    EXPECT_FALSE(chunk.has_text());
  }
}

TEST(ErrorMessageFromBody, ReadsTheUsualShapes) {
  using bench::protocol::error_message_from_body;
  EXPECT_EQ(
      error_message_from_body(
          R"({"error":{"code":500,"message":"Unsupported param: echo","type":"server_error"}})"),
      "Unsupported param: echo");
  EXPECT_EQ(error_message_from_body(R"({"error":"bad"})"), "bad");
  EXPECT_EQ(error_message_from_body(R"({"object":"error","message":"no such model"})"),
            "no such model");
  EXPECT_EQ(error_message_from_body(R"({"detail":"Not Found"})"), "Not Found");
  EXPECT_EQ(error_message_from_body(R"({"detail":[{"loc":["body"],"msg":"field required"}]})"),
            "field required");
}

TEST(ErrorMessageFromBody, FallsBackToTheBodyCutShort) {
  using bench::protocol::error_message_from_body;
  EXPECT_EQ(error_message_from_body("  Bad Gateway\n"), "Bad Gateway");
  EXPECT_EQ(error_message_from_body(""), "");
  const std::string long_body(1000, 'x');
  EXPECT_EQ(error_message_from_body(long_body), std::string(200, 'x'));
  // Never cut inside a character, and nothing that would break a JSON report.
  const std::string message = error_message_from_body(std::string(199, 'a') + "\xC3\xA9");
  EXPECT_EQ(message, std::string(199, 'a'));
  EXPECT_EQ(error_message_from_body("<html>\xFF\x01</html>"), "<html>\xEF\xBF\xBD </html>");
}

TEST(FirstModelId, ReadsTheFirstModel) {
  using bench::protocol::first_model_id;
  EXPECT_EQ(
      first_model_id(R"({"object":"list","data":[{"id":"llama","object":"model"},{"id":"b"}]})"),
      "llama");
  EXPECT_EQ(first_model_id(R"({"object":"list","data":[]})"), std::nullopt);
  EXPECT_EQ(first_model_id(R"({"data":[{"object":"model"}]})"), std::nullopt);
  EXPECT_EQ(first_model_id("not json"), std::nullopt);
  EXPECT_EQ(first_model_id(R"([{"id":"x"}])"), std::nullopt);
}

// --- reference transcripts --------------------------------------------------------------------

using bench::testing::read_file;

class CollectText final : public bench::sse::Sink {
 public:
  bool on_event(const bench::sse::Event& event) override {
    const Chunk chunk = interpret_chunk(event.data);
    if (chunk.has_text() || chunk.has_tool_call()) ++text_chunks;  // chunks of tokens
    text += chunk.text;
    if (chunk.has_tool_call()) ++tool_call_chunks;
    tool_call_names.insert(tool_call_names.end(), chunk.tool_call_names.begin(),
                           chunk.tool_call_names.end());
    reasoning += chunk.reasoning();
    answer += chunk.answer();
    if (chunk.has_reasoning()) ++reasoning_chunks;
    return true;
  }
  std::string text;
  std::string reasoning, answer;
  int text_chunks = 0;
  int reasoning_chunks = 0;
  int tool_call_chunks = 0;
  std::vector<std::string> tool_call_names;
};

TEST(InterpretChunkReference, TranscriptsYieldTheExpectedText) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(BENCH_REFERENCE_DIR)) {
    if (entry.path().extension() != ".sse") continue;
    SCOPED_TRACE(entry.path().filename().string());
    std::filesystem::path expected_path = entry.path();
    expected_path.replace_extension(".expected.json");
    const json expected = json::parse(read_file(expected_path));

    bench::sse::Parser parser;
    CollectText sink;
    parser.feed(read_file(entry.path()), sink);
    EXPECT_EQ(sink.text, expected["text"].get<std::string>());
    EXPECT_EQ(sink.text_chunks, expected["text_chunks"].get<int>());
    // A stream without reasoning is all answer.
    EXPECT_EQ(sink.reasoning, expected.value("reasoning_text", ""));
    EXPECT_EQ(sink.answer, expected.value("content_text", expected["text"].get<std::string>()));
    EXPECT_EQ(sink.reasoning_chunks, expected.value("reasoning_text_chunks", 0));
    EXPECT_EQ(sink.tool_call_chunks, expected.value("tool_call_chunks", 0));
    EXPECT_EQ(sink.tool_call_names, expected.value("tool_call_names", std::vector<std::string>{}));
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

}  // namespace

namespace {

TEST(InterpretChunk, ReadsTheResponseIdWhenItIsAString) {
  EXPECT_EQ(bench::protocol::interpret_chunk(R"({"id":"cmpl-9","choices":[]})").id, "cmpl-9");
  EXPECT_EQ(bench::protocol::interpret_chunk(R"({"id":9,"choices":[]})").id, "");
  EXPECT_EQ(bench::protocol::interpret_chunk(R"({"choices":[]})").id, "");
}

}  // namespace

namespace {

TEST(BuildRequestBody, SendsADatasetsMessagesAsTheyAre) {
  bench::protocol::RequestOptions options;
  options.model = "m";
  options.max_tokens = 5;
  const nlohmann::json messages = nlohmann::json::parse(
      R"([{"role":"system","content":"be brief"},{"role":"user","content":"hi"},)"
      R"({"role":"assistant","content":"hello"},{"role":"user","content":"and?"}])");
  const nlohmann::json body =
      nlohmann::json::parse(bench::protocol::build_chat_request_body(options, messages));
  EXPECT_EQ(body["messages"], messages);
  EXPECT_EQ(body["model"], "m");
  EXPECT_EQ(body["max_tokens"], 5);
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
  EXPECT_FALSE(body.contains("prompt"));
}

}  // namespace

namespace {

// A hostile server's error value nested 200,000 levels deep (about 400 KB, under the 1 MiB line
// cap) used to overflow the stack when rendered for the report.
TEST(InterpretChunk, SurvivesAnErrorValueNestedFarTooDeep) {
  constexpr int kDepth = 200'000;
  const std::string data =
      R"({"error":)" + std::string(kDepth, '[') + std::string(kDepth, ']') + "}";
  const bench::protocol::Chunk chunk = bench::protocol::interpret_chunk(data);
  EXPECT_EQ(chunk.kind, bench::protocol::Chunk::Kind::error);
  EXPECT_EQ(chunk.error_message, "error value nested more than 64 levels deep");
  const std::string body =
      R"({"error":)" + std::string(kDepth, '[') + std::string(kDepth, ']') + "}";
  EXPECT_EQ(bench::protocol::error_message_from_body(body),
            "error value nested more than 64 levels deep");
}

}  // namespace
