// StreamRenderer: every fault kind and dialect quirk, rendered, de-chunked and read back by
// bench's own StreamReader (whole, byte by byte, and split at every point), so the simulator's
// faults are exactly the ones the client is built to classify.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/request_record.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/sim/stream_renderer.hpp"

namespace {

using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::sim::FaultPlan;
using bench::sim::StreamCut;
using bench::sim::StreamRenderer;
using bench::sim::StreamSetup;
using Next = StreamRenderer::Next;

StreamSetup setup(bool chat, std::int64_t tokens) {
  StreamSetup s;
  s.shape.chat = chat;
  s.shape.id = chat ? "chatcmpl-7" : "cmpl-7";
  s.shape.model_json = "\"m\"";
  s.shape.created = 1700000000;
  s.text_seed = 7;
  s.prompt_tokens = 12;
  s.target_tokens = tokens;
  s.include_usage = true;
  return s;
}

struct Rendered {
  std::string head;         // the HTTP response head
  std::string body;         // the SSE bytes, de-chunked
  bool body_ended = false;  // the last (zero-size) HTTP chunk was sent
  std::vector<StreamRenderer::Step> steps;
  std::int64_t sent_tokens = 0;
};

// Decodes HTTP/1.1 chunked transfer coding; stops at the last chunk or at the end of the bytes.
void dechunk(std::string_view bytes, Rendered& rendered) {
  while (!bytes.empty()) {
    const std::size_t line_end = bytes.find("\r\n");
    ASSERT_NE(line_end, std::string_view::npos);
    const std::size_t size = std::stoul(std::string(bytes.substr(0, line_end)), nullptr, 16);
    bytes.remove_prefix(line_end + 2);
    if (size == 0) {
      rendered.body_ended = true;
      EXPECT_EQ(bytes, "\r\n");
      return;
    }
    rendered.body.append(bytes.substr(0, size));
    EXPECT_EQ(bytes.substr(size, 2), "\r\n");
    bytes.remove_prefix(size + 2);
  }
}

// Feeds tokens `per_call` at a time, as a generation model would, until the renderer is done.
Rendered render(StreamSetup s, std::int64_t per_call = 1) {
  StreamRenderer renderer(std::move(s));
  std::string out;
  renderer.begin(out);
  Rendered rendered;
  while (rendered.steps.empty() || (rendered.steps.back().next != Next::finished &&
                                    rendered.steps.back().next != Next::reset)) {
    const StreamRenderer::Step step = renderer.on_tokens(per_call, out);
    // A step that asks the server to act always carries the chunk it acts after.
    if (step.next != Next::more) {
      EXPECT_TRUE(step.text_chunk);
    }
    if (step.text_chunk) {
      EXPECT_GT(step.chunk_tokens, 0);
    }
    rendered.steps.push_back(step);
    if (rendered.steps.size() > 10'000) {
      ADD_FAILURE() << "the renderer never finished";
      break;
    }
  }
  const std::size_t head_end = out.find("\r\n\r\n");
  rendered.head = out.substr(0, head_end + 4);
  dechunk(std::string_view(out).substr(head_end + 4), rendered);
  rendered.sent_tokens = renderer.sent_tokens();
  return rendered;
}

// bench's reader over the body, delivered in pieces cut at `splits` (byte offsets).
RequestRecord read_back(const std::string& body, const std::vector<std::size_t>& splits,
                        ErrorClass transport = ErrorClass::none) {
  RequestRecord record;
  bench::protocol::StreamReader reader;
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream; charset=utf-8");
  std::size_t at = 0;
  std::int64_t stamp = 1;
  for (std::size_t split : splits) {
    if (!reader.on_body(std::string_view(body).substr(at, split - at), stamp++)) break;
    at = split;
  }
  if (at < body.size()) reader.on_body(std::string_view(body).substr(at), stamp);
  bench::protocol::TransportEnd end;
  end.error = transport;
  reader.finish(end);
  return record;
}

// The same reading, whole, byte by byte and split in two at every offset, must agree.
RequestRecord read_every_way(const std::string& body, ErrorClass transport = ErrorClass::none) {
  const RequestRecord whole = read_back(body, {}, transport);
  std::vector<std::size_t> bytes;
  for (std::size_t i = 1; i < body.size(); ++i) bytes.push_back(i);
  const RequestRecord by_byte = read_back(body, bytes, transport);
  EXPECT_EQ(by_byte.error, whole.error);
  EXPECT_EQ(by_byte.text_chunk_ns.size(), whole.text_chunk_ns.size());
  EXPECT_EQ(by_byte.completion_tokens, whole.completion_tokens);
  for (std::size_t split = 1; split < body.size(); ++split) {
    const RequestRecord two = read_back(body, {split}, transport);
    EXPECT_EQ(two.error, whole.error) << "split at " << split;
    EXPECT_EQ(two.completion_tokens, whole.completion_tokens) << "split at " << split;
  }
  return whole;
}

std::vector<nlohmann::json> data_events(const std::string& body) {
  std::vector<nlohmann::json> events;
  std::size_t at = 0;
  while ((at = body.find("data: ", at)) != std::string::npos) {
    const std::size_t end = body.find_first_of("\r\n", at);
    events.push_back(nlohmann::json::parse(body.substr(at + 6, end - at - 6), nullptr, false));
    at = end;
  }
  return events;
}

TEST(StreamRenderer, APlainChatStreamIsVllmShapedAndReadsBackWhole) {
  const Rendered r = render(setup(true, 5));
  EXPECT_NE(r.head.find("Transfer-Encoding: chunked"), std::string::npos);
  EXPECT_EQ(r.head.find("Keep-Alive:"), std::string::npos);
  EXPECT_TRUE(r.body_ended);
  EXPECT_EQ(r.steps.back().outcome, "ok");
  const RequestRecord record = read_every_way(r.body);
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.text_chunk_ns.size(), 5u);
  EXPECT_EQ(record.completion_tokens, 5);
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
  EXPECT_EQ(record.finish_reason, "length");
  EXPECT_TRUE(record.saw_done);
  const auto events = data_events(r.body);
  EXPECT_EQ(events.front()["choices"][0]["delta"]["role"], "assistant");
  EXPECT_TRUE(events[events.size() - 2]["choices"].empty());  // the usage chunk
}

TEST(StreamRenderer, CutsStrikeAtTheChunkCarryingHalfTheTokensRoundedUp) {
  for (std::int64_t tokens = 1; tokens <= 7; ++tokens) {
    StreamSetup s = setup(false, tokens);
    s.plan.cut = StreamCut::truncate;
    const Rendered r = render(s);
    EXPECT_EQ(r.sent_tokens, (tokens + 1) / 2) << tokens << " tokens";
  }
}

TEST(StreamRenderer, TruncateEndsTheBodyCleanlyWithNeitherFinishReasonNorDone) {
  StreamSetup s = setup(true, 8);
  s.plan.cut = StreamCut::truncate;
  const Rendered r = render(s);
  EXPECT_TRUE(r.body_ended);
  EXPECT_EQ(r.steps.back().next, Next::finished);
  EXPECT_EQ(r.steps.back().outcome, "truncated");
  EXPECT_EQ(r.body.find("[DONE]"), std::string::npos);
  EXPECT_EQ(r.body.find("\"finish_reason\":\"length\""), std::string::npos);
  const RequestRecord record = read_every_way(r.body);
  EXPECT_EQ(record.error, ErrorClass::truncated);
  EXPECT_EQ(record.text_chunk_ns.size(), 4u);
}

TEST(StreamRenderer, ResetStopsMidStreamWithoutEndingTheBody) {
  StreamSetup s = setup(false, 10);
  s.plan.cut = StreamCut::reset;
  const Rendered r = render(s);
  EXPECT_EQ(r.steps.back().next, Next::reset);
  EXPECT_EQ(r.steps.back().outcome, "reset");
  EXPECT_FALSE(r.body_ended);  // the server resets the connection after these bytes
  EXPECT_EQ(r.sent_tokens, 5);
  EXPECT_EQ(r.body.find("[DONE]"), std::string::npos);
}

TEST(StreamRenderer, AStreamErrorIsAnErrorObjectFollowedByDone) {
  StreamSetup s = setup(true, 6);
  s.plan.cut = StreamCut::stream_error;
  const Rendered r = render(s);
  EXPECT_EQ(r.steps.back().outcome, "stream_error");
  const RequestRecord record = read_every_way(r.body);
  EXPECT_EQ(record.error, ErrorClass::stream_error);
  EXPECT_NE(record.error_message.find("simulated error"), std::string::npos);
  EXPECT_NE(r.body.find("data: [DONE]"), std::string::npos);
}

TEST(StreamRenderer, AMalformedEventComesJustBeforeTheFaultPointsChunk) {
  StreamSetup s = setup(false, 6);
  s.plan.malformed_json = true;
  const Rendered r = render(s);
  EXPECT_EQ(r.steps.back().outcome, "ok");  // the server goes on; the client gives up
  const RequestRecord record = read_every_way(r.body);
  EXPECT_EQ(record.error, ErrorClass::malformed_json);
  EXPECT_EQ(record.text_chunk_ns.size(), 2u);  // tokens 1 and 2 came before it
}

TEST(StreamRenderer, AStallIsAskedForAtTheFaultPointAndTheStreamThenGoesOn) {
  StreamSetup s = setup(false, 6);
  s.plan.stall = true;
  const std::vector<StreamRenderer::Step> steps = render(s).steps;
  ASSERT_EQ(steps.size(), 6u);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Next expected = i == 2 ? Next::stall : i == 5 ? Next::finished : Next::more;
    EXPECT_EQ(steps[i].next, expected) << "token " << i + 1;
  }
}

TEST(StreamRenderer, WithoutUsageThereIsNoUsageChunkAndNoPerChunkUsage) {
  StreamSetup s = setup(false, 4);
  s.continuous_usage = true;
  s.plan.no_usage = true;
  const Rendered r = render(s);
  EXPECT_EQ(r.body.find("\"prompt_tokens\""), std::string::npos);
  const RequestRecord record = read_every_way(r.body);
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.completion_token_source, TokenSource::chunks);
  EXPECT_EQ(record.completion_tokens, 4);
}

TEST(StreamRenderer, SeveralTokensPerChunkAreHeldBackAndCountedExactlyByPerChunkUsage) {
  StreamSetup s = setup(false, 10);
  s.continuous_usage = true;
  s.plan.tokens_per_chunk = 3;
  const Rendered r = render(s);
  const RequestRecord record = read_every_way(r.body);
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.text_chunk_tokens, (std::vector<std::int32_t>{3, 3, 3, 1}));
  EXPECT_EQ(record.completion_tokens, 10);
}

TEST(StreamRenderer, TokensArrivingSeveralAtATimeAreNeitherLostNorDuplicated) {
  StreamSetup s = setup(true, 11);
  s.continuous_usage = true;
  s.plan.tokens_per_chunk = 4;
  // As the fixed model with 3 tokens per step: 3 (held), 6 (sent), 9 (held), 11 (the end).
  const Rendered r = render(s, /*per_call=*/3);
  EXPECT_EQ(r.sent_tokens, 11);
  const RequestRecord record = read_every_way(r.body);
  EXPECT_EQ(record.completion_tokens, 11);
  EXPECT_EQ(record.text_chunk_tokens, (std::vector<std::int32_t>{6, 5}));
}

TEST(StreamRenderer, CrlfLinesAndCommentsReadTheSameAsPlainOnes) {
  StreamSetup s = setup(true, 5);
  s.plan.crlf = true;
  s.plan.comments = true;
  const Rendered r = render(s);
  EXPECT_EQ(r.body.find(": keep-alive\r\n\r\ndata: "), 0u);  // before the first event
  for (std::size_t at = r.body.find('\n'); at != std::string::npos;
       at = r.body.find('\n', at + 1)) {
    EXPECT_EQ(r.body[at - 1], '\r') << "a bare LF at " << at;
  }
  const RequestRecord record = read_every_way(r.body);
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.text_chunk_ns.size(), 5u);
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
}

TEST(StreamRenderer, LlamaCppDialectPutsUsageOnTheLastChunkSkipsTheRoleAndClosesAnyway) {
  StreamSetup s = setup(true, 4);
  s.include_usage = false;  // llama.cpp sends usage even unasked
  s.usage_on_last_chunk = true;
  s.no_role_chunk = true;
  s.close_after_stream = true;
  StreamRenderer renderer(s);
  EXPECT_TRUE(renderer.closes_connection());
  const Rendered r = render(s);
  EXPECT_NE(r.head.find("Connection: keep-alive\r\nKeep-Alive: timeout=5, max=100"),
            std::string::npos);
  const auto events = data_events(r.body);
  ASSERT_EQ(events.size(), 5u);  // four text chunks and [DONE]: no role, no usage chunk
  EXPECT_FALSE(events.front()["choices"][0]["delta"].contains("role"));
  EXPECT_EQ(events[3]["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(events[3]["usage"]["completion_tokens"], 4);
  EXPECT_TRUE(events[2]["usage"].is_null());
  const RequestRecord record = read_every_way(r.body);
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
}

}  // namespace

namespace {

// --- reasoning mode ----------------------------------------------------------------------------

TEST(StreamRendererReasoning, SendsReasoningDeltasFirstThenTheAnswerWithTheCountInUsage) {
  StreamSetup s = setup(true, 7);
  s.reasoning_tokens = 4;
  const Rendered r = render(s);
  const RequestRecord record = read_every_way(r.body);
  ASSERT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.completion_tokens, 7);
  EXPECT_EQ(record.reasoning_chunks, 4);
  EXPECT_EQ(record.reasoning_tokens, 4);
  EXPECT_EQ(record.reasoning_token_source, TokenSource::usage);
  EXPECT_EQ(record.answer_tokens(), 3);
  EXPECT_EQ(record.first_answer_ns, record.text_chunk_ns.at(4));
  // SGLang's shape: reasoning_content with a null content, then content alone.
  const auto events = data_events(r.body);
  EXPECT_TRUE(events.at(1)["choices"][0]["delta"]["content"].is_null());
  EXPECT_TRUE(events.at(1)["choices"][0]["delta"]["reasoning_content"].is_string());
  EXPECT_FALSE(events.at(5)["choices"][0]["delta"].contains("reasoning_content"));
  EXPECT_EQ(events[events.size() - 2]["usage"]["completion_tokens_details"]["reasoning_tokens"], 4);
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    if (r.steps[i].text_chunk) {
      EXPECT_EQ(r.steps[i].answer_chunk, i >= 4) << i;
    }
  }
}

TEST(StreamRendererReasoning, AChunkCrossingIntoTheAnswerCarriesBoth) {
  StreamSetup s = setup(true, 6);
  s.reasoning_tokens = 2;
  s.shape.reasoning_field = bench::sim::ReasoningField::reasoning;  // newer vLLM
  s.plan.tokens_per_chunk = 3;
  const Rendered r = render(s);
  const RequestRecord record = read_every_way(r.body);
  ASSERT_EQ(record.text_chunk_ns.size(), 2u);
  EXPECT_EQ(record.reasoning_chunks, 1);
  EXPECT_EQ(record.first_answer_ns, record.text_chunk_ns.front());
  EXPECT_EQ(record.reasoning_tokens, 2);
  // Each token is one word after a space: 2 reasoning words, then 1 answer word.
  const auto events = data_events(r.body);
  const auto words = [](const nlohmann::json& text) {
    const std::string value = text.get<std::string>();
    return std::count(value.begin(), value.end(), ' ');
  };
  EXPECT_EQ(words(events.at(1)["choices"][0]["delta"]["reasoning"]), 2);
  EXPECT_EQ(words(events.at(1)["choices"][0]["delta"]["content"]), 1);
}

TEST(StreamRendererReasoning, ReasoningLongerThanTheOutputLeavesNoAnswer) {
  StreamSetup s = setup(true, 3);
  s.reasoning_tokens = 10;
  const Rendered r = render(s);
  const RequestRecord record = read_every_way(r.body);
  EXPECT_EQ(record.reasoning_tokens, 3);
  EXPECT_EQ(record.answer_tokens(), 0);
  EXPECT_EQ(record.first_answer_ns, -1);
}

TEST(StreamRendererReasoning, CompletionsAndPlainStreamsSayNothingOfReasoning) {
  StreamSetup completions = setup(false, 4);
  completions.reasoning_tokens = 2;  // reasoning is a chat delta: completions stay plain
  const Rendered r = render(completions);
  EXPECT_EQ(r.body.find("reasoning"), std::string::npos);
  const RequestRecord record = read_every_way(render(setup(true, 4)).body);
  EXPECT_FALSE(record.reasoned());
  EXPECT_EQ(record.reasoning_token_source, TokenSource::none);
}

}  // namespace

namespace {

// --- tool calls --------------------------------------------------------------------------------

// The arguments of call 0, put together from every fragment, as a client assembles them.
std::string assembled_arguments(const std::string& body) {
  std::string arguments;
  for (const nlohmann::json& event : data_events(body)) {
    if (!event.is_object() || !event.contains("choices") || event["choices"].empty()) continue;
    const nlohmann::json& delta = event["choices"][0]["delta"];
    if (!delta.contains("tool_calls")) continue;
    const nlohmann::json& function = delta["tool_calls"][0]["function"];
    arguments += function.value("arguments", std::string());
  }
  return arguments;
}

TEST(StreamRendererToolCalls, StreamsOneCallNameFirstThenArgumentsThatParse) {
  StreamSetup s = setup(true, 6);
  s.tool_name = "get_weather";
  s.stopped_by_length = false;
  const Rendered r = render(s);
  const RequestRecord record = read_every_way(r.body);
  ASSERT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.completion_tokens, 6);
  EXPECT_EQ(record.tool_call_chunks, 6);
  EXPECT_EQ(record.tool_call_names, std::vector<std::string>{"get_weather"});
  EXPECT_EQ(record.tool_call_tokens, 6);
  EXPECT_EQ(record.tool_call_token_source, TokenSource::usage);
  EXPECT_EQ(record.first_token_ns, record.text_chunk_ns.front());
  EXPECT_EQ(record.first_answer_ns, -1);
  EXPECT_EQ(record.finish_reason, "tool_calls");
  // vLLM's first fragment: id, type, index and the name, no arguments key.
  const auto events = data_events(r.body);
  const nlohmann::json& first = events.at(1)["choices"][0]["delta"]["tool_calls"][0];
  EXPECT_EQ(first["type"], "function");
  EXPECT_EQ(first["index"], 0);
  EXPECT_TRUE(first["id"].is_string());
  EXPECT_EQ(first["function"]["name"], "get_weather");
  EXPECT_FALSE(first["function"].contains("arguments"));
  const nlohmann::json arguments =
      nlohmann::json::parse(assembled_arguments(r.body), nullptr, false);
  ASSERT_TRUE(arguments.is_object()) << assembled_arguments(r.body);
  const std::string words = arguments["text"].get<std::string>();
  EXPECT_EQ(std::count(words.begin(), words.end(), ' '), 4);  // five words, one a token
  for (const StreamRenderer::Step& step : r.steps) {
    if (step.text_chunk) {
      EXPECT_TRUE(step.tool_call_chunk);
      EXPECT_FALSE(step.answer_chunk);
    }
  }
}

TEST(StreamRendererToolCalls, ReasoningFirstThenTheCallCountedApart) {
  StreamSetup s = setup(true, 8);
  s.tool_name = "search";
  s.reasoning_tokens = 3;
  s.plan.tokens_per_chunk = 2;  // a chunk crosses from reasoning into the call
  const Rendered r = render(s);
  const RequestRecord record = read_every_way(r.body);
  ASSERT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.completion_tokens, 8);
  EXPECT_EQ(record.reasoning_tokens, 3);
  EXPECT_EQ(record.tool_call_tokens, 5);
  EXPECT_EQ(record.tool_call_names, std::vector<std::string>{"search"});
  EXPECT_EQ(record.finish_reason, "length");
  EXPECT_TRUE(nlohmann::json::parse(assembled_arguments(r.body), nullptr, false).is_object());
}

TEST(StreamRendererToolCalls, CompletionsNeverCallTools) {
  StreamSetup s = setup(false, 4);
  s.tool_name = "f";
  const Rendered r = render(s);
  EXPECT_EQ(r.body.find("tool_calls"), std::string::npos);
}

}  // namespace
