// The Responses API unit: its request body, what each stream event means, and StreamReader over
// the reference streams in tests/data/reference/responses (fed whole, byte by byte and split
// at every offset).
#include "bench/protocol/responses.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "bench/protocol/endpoint.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/sse/parser.hpp"
#include "reference_streams.hpp"
#include "run_process.hpp"

namespace {

using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::protocol::Chunk;
using bench::protocol::Endpoint;
using bench::protocol::interpret_responses_event;
using bench::protocol::RequestOptions;
using nlohmann::json;

RequestOptions responses_options() {
  RequestOptions options;
  options.endpoint = Endpoint::responses;
  options.model = "m";
  options.max_tokens = 16;
  return options;
}

TEST(ResponsesBody, SendsInputMessagesAndMaxOutputTokens) {
  const json body =
      json::parse(bench::protocol::build_request_body(responses_options(), "Hello \"you\""));
  const json expected = {
      {"model", "m"},
      {"input", json::array({{{"role", "user"}, {"content", "Hello \"you\""}}})},
      {"max_output_tokens", 16},
      {"stream", true},
  };
  EXPECT_EQ(body, expected);
}

TEST(ResponsesBody, NotStreamedAsksForTheWholeResponseObject) {
  RequestOptions options = responses_options();
  options.stream = false;
  EXPECT_EQ(json::parse(bench::protocol::build_request_body(options, "x"))["stream"], false);
}

TEST(ResponsesBody, SendsChatsToolsAndFormatInTheResponsesShapes) {
  RequestOptions options = responses_options();
  options.tools = json::parse(
      R"([{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}])");
  options.tool_choice = bench::protocol::tool_choice_value("get_weather");
  options.response_format = json::parse(
      R"({"type":"json_schema","json_schema":{"name":"w","schema":{"type":"object"}}})");
  options.ignore_eos = true;
  options.extra_body = {{"reasoning", {{"effort", "low"}}}};
  const json body = json::parse(bench::protocol::build_request_body(options, "hi"));
  EXPECT_EQ(body["tools"], json::parse(R"([{"type":"function","name":"get_weather",)"
                                       R"("parameters":{"type":"object"}}])"));
  EXPECT_EQ(body["tool_choice"], json::parse(R"({"type":"function","name":"get_weather"})"));
  EXPECT_EQ(body["text"]["format"],
            json::parse(R"({"type":"json_schema","name":"w","schema":{"type":"object"}})"));
  EXPECT_EQ(body["ignore_eos"], true);  // vLLM's ResponsesRequest takes it
  EXPECT_EQ(body["reasoning"]["effort"], "low");
  EXPECT_FALSE(body.contains("stream_options"));  // usage always ends a Responses stream
  EXPECT_FALSE(bench::protocol::asks_per_chunk_usage(options));
}

TEST(ResponsesBody, SendsADatasetsMessagesAsItsInput) {
  const json messages =
      json::parse(R"([{"role":"system","content":"s"},{"role":"user","content":"u"}])");
  const json body =
      json::parse(bench::protocol::build_chat_request_body(responses_options(), messages));
  EXPECT_EQ(body["input"], messages);
  EXPECT_FALSE(body.contains("messages"));
}

// Chat's content parts in the Responses API's names (its input content reference): text is
// input_text, an image_url part an input_image whose image_url is the URL itself.
TEST(ResponsesBody, SendsImagePartsAsInputImages) {
  const json messages =
      json::parse(R"([{"role":"user","content":[{"type":"text","text":"what is it?"},)"
                  R"({"type":"image_url","image_url":{"url":"data:image/png;base64,iVBO"}}]}])");
  const json body =
      json::parse(bench::protocol::build_chat_request_body(responses_options(), messages));
  EXPECT_EQ(body["input"], json::parse(R"([{"role":"user","content":[)"
                                       R"({"type":"input_text","text":"what is it?"},)"
                                       R"({"type":"input_image","image_url":)"
                                       R"("data:image/png;base64,iVBO"}]}])"));
}

// An agent's history as the Responses API's input items (its reference): the reply's calls as
// function_call items after its text, each result a function_call_output naming its call_id.
TEST(ResponsesBody, SendsAHistorysToolCallsAndResultsAsInputItems) {
  const json messages = json::parse(
      R"([{"role":"user","content":"task"},)"
      R"({"role":"assistant","content":"looking","tool_calls":[)"
      R"({"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"p\":1}"}},)"
      R"({"id":"call_2","type":"function","function":{"name":"ls","arguments":"{}"}}]},)"
      R"({"role":"tool","tool_call_id":"call_1","content":"one"},)"
      R"({"role":"tool","tool_call_id":"call_2","content":"two"},)"
      R"({"role":"assistant","content":null,"tool_calls":[)"
      R"({"id":"call_3","type":"function","function":{"name":"read","arguments":"{}"}}]},)"
      R"({"role":"tool","tool_call_id":"call_3","content":"three"}])");
  const json body =
      json::parse(bench::protocol::build_chat_request_body(responses_options(), messages));
  EXPECT_EQ(
      body["input"],
      json::parse(R"([{"role":"user","content":"task"},)"
                  R"({"role":"assistant","content":"looking"},)"
                  R"({"type":"function_call","call_id":"call_1","name":"read",)"
                  R"("arguments":"{\"p\":1}"},)"
                  R"({"type":"function_call","call_id":"call_2","name":"ls","arguments":"{}"},)"
                  R"({"type":"function_call_output","call_id":"call_1","output":"one"},)"
                  R"({"type":"function_call_output","call_id":"call_2","output":"two"},)"
                  R"({"type":"function_call","call_id":"call_3","name":"read",)"
                  R"("arguments":"{}"},)"
                  R"({"type":"function_call_output","call_id":"call_3","output":"three"}])"));
}

Chunk interpreted(std::string_view data) {
  Chunk chunk;
  chunk.text = "left over";  // a reused chunk: nothing of the last event may stay
  chunk.finish_reason = "stop";
  interpret_responses_event(data, chunk);
  return chunk;
}

TEST(ResponsesEvents, DeltasCarryAnswerReasoningAndToolCallTokens) {
  const Chunk text =
      interpreted(R"({"type":"response.output_text.delta","item_id":"m","output_index":0,)"
                  R"("content_index":0,"delta":" hi","sequence_number":4})");
  EXPECT_EQ(text.answer(), " hi");
  EXPECT_FALSE(text.has_reasoning());
  EXPECT_TRUE(text.finish_reason.empty());
  const Chunk reasoning =
      interpreted(R"({"type":"response.reasoning_text.delta","item_id":"r","delta":"think"})");
  EXPECT_EQ(reasoning.reasoning(), "think");
  EXPECT_FALSE(reasoning.has_answer());
  const Chunk summary = interpreted(
      R"({"type":"response.reasoning_summary_text.delta","item_id":"r","delta":"sum"})");
  EXPECT_EQ(summary.reasoning(), "sum");
  const Chunk arguments = interpreted(
      R"({"type":"response.function_call_arguments.delta","item_id":"f","delta":"{\"a"})");
  EXPECT_EQ(arguments.tool_call_text, "{\"a");
  EXPECT_FALSE(arguments.has_text());
}

TEST(ResponsesEvents, AFunctionCallItemStartsACallByItsName) {
  const Chunk call = interpreted(
      R"({"type":"response.output_item.added","output_index":0,"item":{"type":"function_call",)"
      R"("id":"fc_1","call_id":"call_1","name":"get_weather","arguments":""}})");
  EXPECT_TRUE(call.has_tool_call());
  EXPECT_EQ(call.tool_call_names, std::vector<std::string>{"get_weather"});
  // A message or reasoning item carries no token yet, as chat's role chunk.
  const Chunk message = interpreted(
      R"({"type":"response.output_item.added","output_index":0,"item":{"type":"message",)"
      R"("id":"msg_1","role":"assistant","content":[]}})");
  EXPECT_FALSE(message.has_tool_call());
  EXPECT_FALSE(message.has_text());
}

TEST(ResponsesEvents, TheFinalResponseCarriesUsageAndTheEnd) {
  const Chunk done = interpreted(
      R"({"type":"response.completed","response":{"id":"resp_1","status":"completed",)"
      R"("output":[],"usage":{"input_tokens":30,"input_tokens_details":{"cached_tokens":16},)"
      R"("output_tokens":9,"output_tokens_details":{"reasoning_tokens":4},"total_tokens":39}}})");
  EXPECT_EQ(done.kind, Chunk::Kind::data);
  EXPECT_EQ(done.id, "resp_1");
  EXPECT_EQ(done.prompt_tokens, 30);
  EXPECT_EQ(done.cached_tokens, 16);
  EXPECT_EQ(done.completion_tokens, 9);
  EXPECT_EQ(done.reasoning_tokens, 4);
  EXPECT_EQ(done.finish_reason, "stop");
  const Chunk cut = interpreted(
      R"({"type":"response.incomplete","response":{"id":"resp_2","status":"incomplete",)"
      R"("incomplete_details":{"reason":"max_output_tokens"},"usage":null}})");
  EXPECT_EQ(cut.finish_reason, "length");
  EXPECT_EQ(cut.completion_tokens, std::nullopt);
  // The first events name the response but say nothing else.
  const Chunk created = interpreted(
      R"({"type":"response.created","response":{"id":"resp_3","status":"in_progress"}})");
  EXPECT_EQ(created.id, "resp_3");
  EXPECT_TRUE(created.finish_reason.empty());
  EXPECT_EQ(created.completion_tokens, std::nullopt);
}

TEST(ResponsesEvents, FailuresAndNonsenseAreErrorsAndMalformedData) {
  const Chunk failed =
      interpreted(R"({"type":"response.failed","response":{"id":"r","status":"failed",)"
                  R"("error":{"code":"server_error","message":"engine died"}}})");
  EXPECT_EQ(failed.kind, Chunk::Kind::error);
  EXPECT_EQ(failed.error_message, "engine died");
  const Chunk error = interpreted(R"({"type":"error","code":"x","message":"bad thing"})");
  EXPECT_EQ(error.kind, Chunk::Kind::error);
  EXPECT_EQ(error.error_message, "bad thing");
  EXPECT_EQ(interpreted("{\"type\":").kind, Chunk::Kind::malformed);
  EXPECT_EQ(interpreted("[1]").kind, Chunk::Kind::malformed);
  EXPECT_EQ(interpreted("[DONE]").kind, Chunk::Kind::done);
}

// --- the reference streams --------------------------------------------------------------------

const std::filesystem::path kDir = std::filesystem::path(BENCH_REFERENCE_DIR) / "responses";

std::vector<std::string> stream_names() { return bench::testing::sse_stream_names(kDir); }

// One reader per stream, fed `pieces`.
RequestRecord read_stream(const std::vector<std::string_view>& pieces) {
  return bench::testing::read_reference_stream(Endpoint::responses, pieces);
}

void check(const RequestRecord& record, const json& expected) {
  EXPECT_EQ(record.error, ErrorClass::none) << record.error_message;
  EXPECT_EQ(record.text_chunk_ns.size(), expected["text_chunks"].get<std::size_t>());
  EXPECT_EQ(record.text_bytes,
            static_cast<std::int64_t>(expected["text"].get<std::string>().size()));
  EXPECT_EQ(record.finish_reason, expected["finish_reason"].get<std::string>());
  EXPECT_EQ(record.prompt_tokens, expected["prompt_tokens"].get<std::int64_t>());
  EXPECT_EQ(record.completion_tokens, expected["completion_tokens"].get<std::int64_t>());
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
  EXPECT_EQ(record.cached_prompt_tokens, expected["prompt_tokens_cached"].get<std::int64_t>());
  EXPECT_EQ(record.reasoning_chunks, expected.value("reasoning_text_chunks", 0));
  EXPECT_EQ(record.reasoning_tokens, expected.value("reasoning_tokens", 0));
  EXPECT_EQ(record.tool_call_chunks, expected.value("tool_call_chunks", 0));
  EXPECT_EQ(record.tool_call_names, expected.value("tool_call_names", std::vector<std::string>{}));
  if (expected.contains("tool_call_tokens")) {
    EXPECT_EQ(record.tool_call_tokens, expected["tool_call_tokens"].get<std::int64_t>());
  }
}

// A session answers a streamed function call by the call_id its item carried, with the
// arguments its deltas streamed, as it answers chat's tool-call deltas.
TEST(ResponsesReference, AFunctionCallIsKeptWithItsCallIdAndArguments) {
  const std::string body = bench::testing::read_file(kDir / "openai-function-call.sse");
  RequestRecord record;
  bench::protocol::StreamReader reader;
  reader.read_as(Endpoint::responses);
  reader.keep_answer_text(true);
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream");
  for (std::size_t i = 0; i < body.size(); ++i) reader.on_body(body.substr(i, 1), 1000);
  reader.finish({ErrorClass::none, "", 1'000'000});
  ASSERT_EQ(reader.tool_calls().size(), 1u);
  EXPECT_EQ(reader.tool_calls()[0].id, "call_unLAR8MvFNptuiZK6K6HCy5k");
  EXPECT_EQ(reader.tool_calls()[0].name, "get_weather");
  EXPECT_EQ(json::parse(reader.tool_calls()[0].arguments)["location"], "Paris, France");
}

TEST(ResponsesReference, EveryStreamWholeAndSplitAtEveryOffset) {
  const std::vector<std::string> names = stream_names();
  ASSERT_GE(names.size(), 4u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const std::string body = bench::testing::read_file(kDir / (name + ".sse"));
    const json expected = json::parse(bench::testing::read_file(kDir / (name + ".expected.json")));
    check(read_stream({body}), expected);
    for (std::size_t split = 1; split < body.size(); ++split) {
      const std::string_view whole = body;
      const RequestRecord record = read_stream({whole.substr(0, split), whole.substr(split)});
      ASSERT_EQ(record.text_chunk_ns.size(), expected["text_chunks"].get<std::size_t>())
          << "split at " << split;
      ASSERT_EQ(record.finish_reason, expected["finish_reason"].get<std::string>());
    }
  }
}

// Byte by byte, read k stamped (k + 1) * 1000: the first token is the read that completed the
// event at first_text_chunk_index, and the first answer the one at first_answer_chunk_index.
TEST(ResponsesReference, FirstTokenIsTheFirstDeltaOrCallByteByByte) {
  for (const std::string& name : stream_names()) {
    SCOPED_TRACE(name);
    const std::string body = bench::testing::read_file(kDir / (name + ".sse"));
    const json expected = json::parse(bench::testing::read_file(kDir / (name + ".expected.json")));
    struct Offsets final : bench::sse::Sink {
      bool on_event(const bench::sse::Event&) override {
        at.push_back(current);
        return true;
      }
      std::vector<std::size_t> at;
      std::size_t current = 0;
    } events;
    bench::sse::Parser parser;
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < body.size(); ++i) {
      events.current = i;
      parser.feed(std::string_view(body).substr(i, 1), events);
      bytes.push_back(std::string_view(body).substr(i, 1));
    }
    const RequestRecord record = read_stream(bytes);
    check(record, expected);
    const auto stamp_of = [&](const char* key) {
      return static_cast<std::int64_t>(events.at.at(expected[key].get<std::size_t>()) + 1) * 1000;
    };
    EXPECT_EQ(record.first_token_ns, stamp_of("first_text_chunk_index"));
    if (expected.contains("first_answer_chunk_index")) {
      EXPECT_EQ(record.first_answer_ns, stamp_of("first_answer_chunk_index"));
    }
  }
}

}  // namespace
