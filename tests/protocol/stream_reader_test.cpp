// StreamReader over the reference transcripts (fed whole, byte by byte and split at every
// offset, with a new arrival stamp per read), and how it classifies the ways a request can end.
#include "bench/protocol/stream_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "bench/sse/parser.hpp"
#include "bench/tokenizer/tokenizer.hpp"
#include "reference_streams.hpp"
#include "run_process.hpp"

namespace {

using bench::metrics::CachedTokenSource;
using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::protocol::StreamLimits;
using bench::protocol::StreamReader;
using bench::protocol::TransportEnd;
using nlohmann::json;

constexpr std::int64_t kStampStep = 1000;  // read k (0-based) arrives at (k + 1) * kStampStep
constexpr std::int64_t kEndNs = 999'999'999;

// Runs one response through a reader: one read per piece, each stamped later than the last.
RequestRecord run(const std::vector<std::string_view>& pieces, long status = 200,
                  std::string_view content_type = "text/event-stream", StreamLimits limits = {},
                  TransportEnd end = {ErrorClass::none, "", kEndNs}) {
  RequestRecord record;
  StreamReader reader(limits);
  reader.begin(&record);
  reader.on_headers(status, content_type);
  std::int64_t stamp = 0;
  for (std::string_view piece : pieces) {
    stamp += kStampStep;
    if (!reader.on_body(piece, stamp)) break;
  }
  reader.finish(end);
  return record;
}

RequestRecord run_whole(std::string_view body, long status = 200,
                        std::string_view content_type = "text/event-stream",
                        StreamLimits limits = {}) {
  return run({body}, status, content_type, limits);
}

using bench::testing::read_file;

// --- reference transcripts --------------------------------------------------------------------

// Byte offset at which each data event of `body` is dispatched (the byte that ends its blank
// line), found with the SSE parser fed one byte at a time.
std::vector<std::size_t> dispatch_offsets(std::string_view body) {
  struct OffsetSink final : bench::sse::Sink {
    bool on_event(const bench::sse::Event&) override {
      offsets.push_back(current);
      return true;
    }
    std::vector<std::size_t> offsets;
    std::size_t current = 0;
  } sink;
  bench::sse::Parser parser;
  for (std::size_t i = 0; i < body.size(); ++i) {
    sink.current = i;
    parser.feed(body.substr(i, 1), sink);
  }
  return sink.offsets;
}

struct Transcript {
  std::string name;
  std::string body;
  json expected;
};

std::vector<std::string> transcript_names() {
  return bench::testing::sse_stream_names(BENCH_REFERENCE_DIR);
}

Transcript load(const std::string& name) {
  const std::filesystem::path dir = BENCH_REFERENCE_DIR;
  return {name, read_file(dir / (name + ".sse")),
          json::parse(read_file(dir / (name + ".expected.json")))};
}

// Every expectation of NAME.expected.json, checked on one run. `first_text_stamp` is the stamp
// of the read that completed the first text-carrying event, or -1 when not known.
void check_against_expected(const RequestRecord& record, const json& expected,
                            std::int64_t first_text_stamp) {
  const std::string text = expected["text"].get<std::string>();
  const auto text_chunks = expected["text_chunks"].get<std::size_t>();
  EXPECT_EQ(record.text_chunk_ns.size(), text_chunks);
  EXPECT_EQ(record.text_bytes, static_cast<std::int64_t>(text.size()));
  EXPECT_TRUE(std::is_sorted(record.text_chunk_ns.begin(), record.text_chunk_ns.end()));
  if (!record.text_chunk_ns.empty()) {
    EXPECT_EQ(record.first_token_ns, record.text_chunk_ns.front());
  }
  if (first_text_stamp >= 0) {
    EXPECT_EQ(record.first_token_ns, first_text_stamp);
  }

  const std::string outcome = expected.value("outcome", "");
  if (outcome.empty()) {
    EXPECT_EQ(record.error, ErrorClass::none) << record.error_message;
  } else if (outcome == "stream_error") {
    EXPECT_EQ(record.error, ErrorClass::stream_error);
    EXPECT_EQ(record.error_message, expected.value("error", ""));
  } else if (outcome == "truncated") {
    EXPECT_EQ(record.error, ErrorClass::truncated);
    EXPECT_FALSE(record.error_message.empty());
  } else {
    ADD_FAILURE() << "unknown outcome " << outcome;
  }
  EXPECT_EQ(record.finish_reason, expected.value("finish_reason", ""));
  EXPECT_EQ(record.end_ns, kEndNs);

  const json prompt = expected.value("prompt_tokens", json());
  if (prompt.is_number()) {
    EXPECT_EQ(record.prompt_tokens, prompt.get<std::int64_t>());
    EXPECT_EQ(record.prompt_token_source, TokenSource::usage);
  } else {
    EXPECT_EQ(record.prompt_tokens, -1);
    EXPECT_EQ(record.prompt_token_source, TokenSource::none);
  }
  const json completion = expected.value("completion_tokens", json());
  if (completion.is_number()) {
    EXPECT_EQ(record.completion_tokens, completion.get<std::int64_t>());
    EXPECT_EQ(record.completion_token_source, TokenSource::usage);
  } else if (outcome.empty()) {
    // No usage on a success: the count is the number of text chunks, labelled an estimate.
    EXPECT_EQ(record.completion_tokens, static_cast<std::int64_t>(text_chunks));
    EXPECT_EQ(record.completion_token_source, TokenSource::chunks);
  } else {
    EXPECT_EQ(record.completion_token_source, TokenSource::none);
  }

  // The prompt's split: only the captures of a cached and an uncached prompt say it.
  if (expected.contains("prompt_tokens_cached")) {
    EXPECT_EQ(record.cached_prompt_tokens, expected["prompt_tokens_cached"].get<std::int64_t>());
    EXPECT_EQ(record.computed_prompt_tokens(),
              expected["prompt_tokens_computed"].get<std::int64_t>());
    EXPECT_EQ(bench::metrics::cached_token_source_name(record.cached_prompt_token_source),
              expected.value("prompt_cache_source", "timings_prompt_n"));
  } else {
    EXPECT_EQ(record.cached_prompt_tokens, -1);
    EXPECT_EQ(record.computed_prompt_tokens(), -1);
    EXPECT_EQ(record.cached_prompt_token_source, CachedTokenSource::none);
  }

  if (expected.contains("tokens_per_chunk")) {
    EXPECT_EQ(record.text_chunk_tokens, expected["tokens_per_chunk"].get<std::vector<int>>());
  } else {
    EXPECT_TRUE(record.text_chunk_tokens.empty());
  }

  // Reasoning: none of these streams has usage's reasoning_tokens, so a success counts the
  // reasoning chunks (an estimate) and the answer is the rest of completion_tokens.
  const auto reasoning_chunks = expected.value("reasoning_text_chunks", std::int64_t{0});
  EXPECT_EQ(record.reasoning_chunks, reasoning_chunks);
  EXPECT_EQ(record.reasoned(), reasoning_chunks > 0);
  if (reasoning_chunks == 0) {
    if (!text.empty()) {
      EXPECT_EQ(record.first_answer_ns, record.first_token_ns);
    }
    EXPECT_EQ(record.reasoning_tokens, 0);
    EXPECT_EQ(bench::metrics::token_source_name(record.reasoning_token_source),
              expected.value("reasoning_token_source", "none"));
  } else if (outcome.empty()) {
    EXPECT_EQ(record.reasoning_tokens, reasoning_chunks);
    EXPECT_EQ(record.reasoning_token_source, TokenSource::chunks);
    EXPECT_EQ(record.answer_tokens(), record.completion_tokens - reasoning_chunks);
  }

  // Tool calls: the chunks that carried a fragment, the calls' names, and (on a success) their
  // tokens. An answer of tool calls alone has no first answer token (TTFA), only a first token.
  const auto tool_call_chunks = expected.value("tool_call_chunks", std::int64_t{0});
  EXPECT_EQ(record.tool_call_chunks, tool_call_chunks);
  EXPECT_EQ(record.tool_call_names, expected.value("tool_call_names", std::vector<std::string>{}));
  if (text.empty()) {
    EXPECT_EQ(record.first_answer_ns, -1);
  }
  if (tool_call_chunks == 0 || !outcome.empty()) {
    EXPECT_EQ(record.tool_call_tokens, 0);
  } else {
    EXPECT_EQ(record.tool_call_tokens, expected["tool_call_tokens"].get<std::int64_t>());
    EXPECT_EQ(bench::metrics::token_source_name(record.tool_call_token_source),
              expected["tool_call_token_source"].get<std::string>());
  }
}

class StreamReaderTranscript : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    transcript_ = load(GetParam());
    ASSERT_FALSE(transcript_.body.empty());
    if (transcript_.expected.contains("first_text_chunk_index")) {
      const std::vector<std::size_t> offsets = dispatch_offsets(transcript_.body);
      const auto index = transcript_.expected["first_text_chunk_index"].get<std::size_t>();
      ASSERT_LT(index, offsets.size());
      first_text_offset_ = static_cast<std::int64_t>(offsets[index]);
    }
  }

  Transcript transcript_;
  std::int64_t first_text_offset_ = -1;  // byte that completes the first text event
};

TEST_P(StreamReaderTranscript, MatchesExpectedWhenFedWhole) {
  const RequestRecord record = run_whole(transcript_.body);
  check_against_expected(record, transcript_.expected, first_text_offset_ < 0 ? -1 : kStampStep);
}

TEST_P(StreamReaderTranscript, MatchesExpectedWhenFedByteByByte) {
  const std::string_view body = transcript_.body;
  std::vector<std::string_view> pieces;
  for (std::size_t i = 0; i < body.size(); ++i) pieces.push_back(body.substr(i, 1));
  const RequestRecord record = run(pieces);
  check_against_expected(record, transcript_.expected,
                         first_text_offset_ < 0 ? -1 : (first_text_offset_ + 1) * kStampStep);
  // One read per byte: every text chunk has a stamp of its own.
  EXPECT_EQ(std::adjacent_find(record.text_chunk_ns.begin(), record.text_chunk_ns.end()),
            record.text_chunk_ns.end());
}

TEST_P(StreamReaderTranscript, MatchesExpectedWhenSplitAtEveryOffset) {
  const std::string_view body = transcript_.body;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    SCOPED_TRACE("split at " + std::to_string(i));
    const RequestRecord record = run({body.substr(0, i), body.substr(i)});
    std::int64_t first_stamp = -1;
    if (first_text_offset_ >= 0) {
      first_stamp = first_text_offset_ < static_cast<std::int64_t>(i) ? kStampStep : 2 * kStampStep;
    }
    check_against_expected(record, transcript_.expected, first_stamp);
    if (HasFailure()) return;  // one split's report is enough
  }
}

INSTANTIATE_TEST_SUITE_P(Reference, StreamReaderTranscript, testing::ValuesIn(transcript_names()),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(StreamReaderReference, TranscriptsArePresent) {
  EXPECT_GE(transcript_names().size(), 12u) << "reference transcripts missing";
}

// The reasoning reference stream, one read per byte: TTFT ends at the first reasoning delta,
// TTFA at the first content delta, and completion_tokens (5) split into 2 reasoning (one per
// reasoning chunk, labelled an estimate) and 3 answer tokens.
TEST(StreamReaderReasoning, ReferenceStreamGivesTtftBeforeTtfaAndTheTokenSplit) {
  const Transcript transcript = load("sglang-style-chat-reasoning");
  const std::vector<std::size_t> offsets = dispatch_offsets(transcript.body);
  const auto first_text = transcript.expected["first_text_chunk_index"].get<std::size_t>();
  const auto first_answer = transcript.expected["first_answer_chunk_index"].get<std::size_t>();
  ASSERT_LT(first_answer, offsets.size());
  const std::string_view body = transcript.body;
  std::vector<std::string_view> pieces;
  for (std::size_t i = 0; i < body.size(); ++i) pieces.push_back(body.substr(i, 1));

  const RequestRecord record = run(pieces);
  ASSERT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.first_token_ns, static_cast<std::int64_t>(offsets[first_text] + 1) * kStampStep);
  EXPECT_EQ(record.first_answer_ns,
            static_cast<std::int64_t>(offsets[first_answer] + 1) * kStampStep);
  EXPECT_LT(record.first_token_ns, record.first_answer_ns);
  EXPECT_EQ(record.completion_tokens, 5);
  EXPECT_EQ(record.reasoning_tokens, 2);
  EXPECT_EQ(record.reasoning_token_source, TokenSource::chunks);
  EXPECT_EQ(record.answer_tokens(), 3);
}

constexpr std::string_view kReasoningWithUsage =
    "data: {\"choices\":[{\"delta\":{\"reasoning\":\"ab\"}}]}\n\n"
    "data: {\"choices\":[{\"delta\":{\"reasoning\":\"cd\",\"content\":\"e\"},"
    "\"finish_reason\":\"stop\"}]}\n\n"
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":9,"
    "\"completion_tokens_details\":{\"reasoning_tokens\":7}}}\n\n"
    "data: [DONE]\n\n";

TEST(StreamReaderReasoning, TakesReasoningTokensFromUsage) {
  const RequestRecord record = run({kReasoningWithUsage});
  EXPECT_EQ(record.reasoning_chunks, 2);
  EXPECT_EQ(record.reasoning_tokens, 7);
  EXPECT_EQ(record.reasoning_token_source, TokenSource::usage);
  EXPECT_EQ(record.answer_tokens(), 2);
  // The second chunk carries both: it ends TTFA.
  EXPECT_EQ(record.first_answer_ns, record.text_chunk_ns.at(1));
}

TEST(StreamReaderReasoning, DoesNotBelieveMoreReasoningThanCompletionTokens) {
  const RequestRecord record =
      run({"data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"a\"}}]}\n\n"
           "data: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}],"
           "\"usage\":{\"completion_tokens\":2,\"completion_tokens_details\":"
           "{\"reasoning_tokens\":5}}}\n\n"});
  EXPECT_EQ(record.reasoning_tokens, 1);  // the chunk count, not usage's 5 of 2
  EXPECT_EQ(record.reasoning_token_source, TokenSource::chunks);
  EXPECT_EQ(record.answer_tokens(), 1);
}

TEST(StreamReaderReasoning, KeepsTheAnswerAndTheReasoningTextApartWhenAsked) {
  // The answer check judges what a model said, reasoning included.
  RequestRecord record;
  StreamReader reader;
  reader.keep_answer_text(true);
  reader.keep_reasoning_text(true);
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream");
  reader.on_body(
      "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"Count \"}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"reasoning\":\"up.\",\"content\":\"1,\"}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\" 2\"}}]}\n\n",
      kStampStep);
  EXPECT_EQ(reader.kept_reasoning_text(), "Count up.");
  EXPECT_EQ(reader.answer_text(), "1, 2");
  reader.begin(&record);  // a new response starts with nothing kept
  EXPECT_EQ(reader.kept_reasoning_text(), "");
}

// OpenAI's shape (index, the id and name first, then argument fragments), two calls interleaved,
// and a server's stream without indexes (one call at a time, a new id starting the next).
TEST(StreamReaderToolCalls, JoinsEachCallsFragmentsByIndexOrId) {
  RequestRecord record;
  StreamReader reader;
  reader.keep_answer_text(true);
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream");
  const std::string body =
      R"(data: {"choices":[{"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,)"
      R"("id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]}}]})"
      "\n\n"
      R"(data: {"choices":[{"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function",)"
      R"("function":{"name":"get_time","arguments":"{\"tz\""}}]}}]})"
      "\n\n"
      R"(data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\"")"
      R"(}}]}}]})"
      "\n\n"
      R"(data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":": \"Oslo\"}"}},)"
      R"({"index":1,"function":{"arguments":": \"UTC\"}"}}]},"finish_reason":"tool_calls"}]})"
      "\n\ndata: [DONE]\n\n";
  ASSERT_TRUE(reader.on_body(body, kStampStep));
  reader.finish({ErrorClass::none, "", kEndNs});
  ASSERT_TRUE(record.ok()) << record.error_message;
  using bench::protocol::StreamedToolCall;
  EXPECT_EQ(reader.tool_calls(),
            (std::vector<StreamedToolCall>{{"call_a", "get_weather", R"({"city": "Oslo"})"},
                                           {"call_b", "get_time", R"({"tz": "UTC"})"}}));
  EXPECT_EQ(reader.answer_text(), "");

  record = RequestRecord{};
  reader.begin(&record);  // the next response starts with none
  reader.on_headers(200, "text/event-stream");
  EXPECT_TRUE(reader.tool_calls().empty());
  const std::string no_index =
      R"(data: {"choices":[{"delta":{"tool_calls":[{"id":"x1","function":{"name":"f"}}]}}]})"
      "\n\n"
      R"(data: {"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"{}"}}]}}]})"
      "\n\n"
      R"(data: {"choices":[{"delta":{"tool_calls":[{"id":"x2","function":{"name":"g"}}]}}]})"
      "\n\n"
      R"(data: {"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"[]"}}]},)"
      R"("finish_reason":"tool_calls"}]})"
      "\n\n";
  ASSERT_TRUE(reader.on_body(no_index, kStampStep));
  reader.finish({ErrorClass::none, "", kEndNs});
  EXPECT_EQ(reader.tool_calls(),
            (std::vector<StreamedToolCall>{{"x1", "f", "{}"}, {"x2", "g", "[]"}}));
}

TEST(StreamReaderToolCalls, KeepsNoCallsUnlessAsked) {
  RequestRecord record;
  StreamReader reader;
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream");
  ASSERT_TRUE(reader.on_body(
      R"(data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f"}}]},)"
      R"("finish_reason":"tool_calls"}]})"
      "\n\n",
      kStampStep));
  reader.finish({ErrorClass::none, "", kEndNs});
  EXPECT_TRUE(record.ok());
  EXPECT_TRUE(reader.tool_calls().empty());
}

TEST(StreamReaderReasoning, UsageCanSayReasoningTheStreamDidNotShow) {
  // OpenAI's reasoning models stream no reasoning text but count its tokens.
  const RequestRecord record =
      run({"data: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}],"
           "\"usage\":{\"completion_tokens\":30,\"completion_tokens_details\":"
           "{\"reasoning_tokens\":29}}}\n\n"});
  EXPECT_TRUE(record.reasoned());
  EXPECT_EQ(record.reasoning_chunks, 0);
  EXPECT_EQ(record.reasoning_tokens, 29);
  EXPECT_EQ(record.first_answer_ns, record.first_token_ns);
}

// --- classification ---------------------------------------------------------------------------

constexpr std::string_view kTwoChunks =
    "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":null}]}\n\n"
    "data: {\"choices\":[{\"text\":\"bc\",\"finish_reason\":\"stop\"}]}\n\n"
    "data: [DONE]\n\n";

TEST(StreamReader, CountsTextChunksAsTokensWhenThereIsNoUsage) {
  const RequestRecord record = run({kTwoChunks});
  EXPECT_TRUE(record.ok());
  EXPECT_EQ(record.http_status, 200);
  EXPECT_TRUE(record.saw_done);
  EXPECT_EQ(record.completion_tokens, 2);
  EXPECT_EQ(record.completion_token_source, TokenSource::chunks);
  EXPECT_EQ(record.prompt_tokens, -1);
  EXPECT_EQ(record.prompt_token_source, TokenSource::none);
  EXPECT_EQ(record.text_bytes, 3);
  EXPECT_TRUE(record.text_chunk_tokens.empty());
}

// A tokenizer for the reader's counting: one token per byte, and what it was asked to count.
class ByteCounter final : public bench::tokenizer::Tokenizer {
 public:
  std::vector<bench::tokenizer::TokenId> encode(std::string_view text) const override {
    counted.emplace_back(text);
    return std::vector<bench::tokenizer::TokenId>(text.size(), 0);
  }
  std::string decode(const std::vector<bench::tokenizer::TokenId>&) const override { return {}; }
  const std::vector<std::string>& special_tokens() const override { return none_; }
  const std::string& description() const override { return none_.front(); }
  mutable std::vector<std::string> counted;

 private:
  std::vector<std::string> none_{"bytes"};
};

RequestRecord run_counted(const std::vector<std::string_view>& pieces, const ByteCounter& counter,
                          TransportEnd end = {ErrorClass::none, "", kEndNs}) {
  RequestRecord record;
  StreamReader reader({}, &counter);
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream");
  for (std::string_view piece : pieces) {
    if (!reader.on_body(piece, kStampStep)) break;
  }
  reader.finish(end);
  return record;
}

TEST(StreamReader, CountsTheStreamedTextWithTheTokenizerWhenThereIsNoUsage) {
  const std::string_view body = kTwoChunks;
  for (std::size_t split = 0; split <= body.size(); ++split) {
    ByteCounter counter;
    const RequestRecord record = run_counted({body.substr(0, split), body.substr(split)}, counter);
    EXPECT_TRUE(record.ok()) << split;
    EXPECT_EQ(record.completion_tokens, 3) << split;  // "a" + "bc", not the 2 chunks
    EXPECT_EQ(record.completion_token_source, TokenSource::tokenizer) << split;
    EXPECT_EQ(counter.counted, std::vector<std::string>{"abc"}) << split;  // once, at the end
  }
}

TEST(StreamReaderReasoning, CountsTheReasoningTextWithTheTokenizerWhenUsageDoesNotSay) {
  ByteCounter counter;
  const RequestRecord record = run_counted(
      {"data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"abc\"}}]}\n\n"
       "data: {\"choices\":[{\"delta\":{\"content\":\"de\"},\"finish_reason\":\"stop\"}]}"
       "\n\n"
       "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":4}}\n\n"},
      counter);
  EXPECT_EQ(record.completion_tokens, 4);
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
  EXPECT_EQ(record.reasoning_tokens, 3);  // "abc", by the tokenizer
  EXPECT_EQ(record.reasoning_token_source, TokenSource::tokenizer);
  EXPECT_EQ(record.answer_tokens(), 1);
}

TEST(StreamReader, UsageWinsOverTheTokenizer) {
  ByteCounter counter;
  const RequestRecord record = run_counted(
      {"data: {\"choices\":[{\"text\":\"abcdef\",\"finish_reason\":\"stop\"}]}\n\n"
       "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":2}}\n\n"
       "data: [DONE]\n\n"},
      counter);
  EXPECT_EQ(record.completion_tokens, 2);
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
  EXPECT_TRUE(counter.counted.empty());
}

TEST(StreamReader, DoesNotCountAFailedResponse) {
  ByteCounter counter;
  const RequestRecord record =
      run_counted({"data: {\"choices\":[{\"text\":\"abc\"}]}\n\n"}, counter);
  EXPECT_EQ(record.error, ErrorClass::truncated);
  EXPECT_EQ(record.completion_token_source, TokenSource::none);
  EXPECT_TRUE(counter.counted.empty());
}

TEST(StreamReader, CountsEachResponsesOwnTextOnly) {
  ByteCounter counter;
  StreamReader reader({}, &counter);
  RequestRecord first, second;
  for (RequestRecord* record : {&first, &second}) {
    reader.begin(record);
    reader.on_headers(200, "text/event-stream");
    reader.on_body(kTwoChunks, kStampStep);
    reader.finish({ErrorClass::none, "", kEndNs});
  }
  EXPECT_EQ(second.completion_tokens, 3);
  EXPECT_EQ(counter.counted, (std::vector<std::string>{"abc", "abc"}));
}

TEST(StreamReader, StampsEachChunkWithItsRead) {
  const std::string_view body = kTwoChunks;
  const std::size_t second = body.find("data: {\"choices\":[{\"text\":\"bc\"");
  const RequestRecord record = run({body.substr(0, second), body.substr(second)});
  EXPECT_EQ(record.first_token_ns, kStampStep);
  EXPECT_EQ(record.text_chunk_ns, (std::vector<std::int64_t>{kStampStep, 2 * kStampStep}));
}

TEST(StreamReader, RoleOnlyChunkIsNotTheFirstToken) {
  const RequestRecord record = run(
      {"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
       "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\n"});
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.first_token_ns, 2 * kStampStep);
  EXPECT_EQ(record.text_chunk_ns.size(), 1u);
}

TEST(StreamReader, ReportsHttp500WithTheServersMessage) {
  const RequestRecord record = run({R"({"error":{"code":500,"message":"Unsupported param: )",
                                    R"(echo","type":"server_error"}})"},
                                   500, "application/json; charset=utf-8");
  EXPECT_EQ(record.error, ErrorClass::http_5xx);
  EXPECT_EQ(record.http_status, 500);
  EXPECT_EQ(record.error_message, "HTTP 500: Unsupported param: echo");
  EXPECT_EQ(record.completion_token_source, TokenSource::none);
  EXPECT_EQ(record.first_token_ns, -1);
}

TEST(StreamReader, ClassifiesHttpStatuses) {
  EXPECT_EQ(run_whole("slow down", 429, "text/plain").error, ErrorClass::rate_limited);
  EXPECT_EQ(run_whole("slow down", 429, "text/plain").error_message, "HTTP 429: slow down");
  EXPECT_EQ(run_whole(R"({"detail":"Not Found"})", 404, "application/json").error,
            ErrorClass::http_4xx);
  EXPECT_EQ(run_whole("", 503, "").error, ErrorClass::http_5xx);
  EXPECT_EQ(run_whole("", 503, "").error_message, "HTTP 503");
  EXPECT_EQ(run_whole("", 302, "").error, ErrorClass::http_other);
}

TEST(StreamReader, CountsA4xxThatSaysTheContextOverflowedApart) {
  const std::string_view vllm =
      R"({"object":"error","message":"This model's maximum context length is 32768 tokens. )"
      R"(However, your request has 40000 input tokens.","type":"BadRequestError","code":400})";
  const RequestRecord overflow = run_whole(vllm, 400, "application/json");
  EXPECT_EQ(overflow.error, ErrorClass::context_overflow);
  EXPECT_EQ(overflow.http_status, 400);
  EXPECT_EQ(overflow.error_message.rfind("HTTP 400: This model's maximum context length", 0), 0u)
      << overflow.error_message;
  EXPECT_EQ(run_whole(vllm, 413, "application/json").error, ErrorClass::context_overflow);
  // The same words in a 5xx are the server's failure, not a refusal of the request.
  EXPECT_EQ(run_whole(vllm, 500, "application/json").error, ErrorClass::http_5xx);
  EXPECT_EQ(run_whole(R"({"error":{"message":"bad temperature"}})", 400, "application/json").error,
            ErrorClass::http_4xx);
}

TEST(StreamReader, NonStreamBodyIsNotParsedAsEvents) {
  // An error body that happens to look like SSE is still an HTTP error.
  const RequestRecord record = run_whole(kTwoChunks, 500, "text/event-stream");
  EXPECT_EQ(record.error, ErrorClass::http_5xx);
  EXPECT_TRUE(record.text_chunk_ns.empty());
}

TEST(StreamReader, FailsResponseLargerThanCap) {
  StreamLimits limits;
  limits.max_response_bytes = 100;
  const std::string_view body = kTwoChunks;  // 117 bytes
  const RequestRecord record =
      run({body.substr(0, 60), body.substr(60)}, 200, "text/event-stream", limits);
  EXPECT_EQ(record.error, ErrorClass::malformed_sse);
  EXPECT_EQ(record.error_message, "response exceeded 100 bytes");
  EXPECT_EQ(record.text_chunk_ns.size(), 1u);
}

TEST(StreamReader, OnBodyAsksToAbortOnceFailed) {
  StreamLimits limits;
  limits.max_line_bytes = 16;
  RequestRecord record;
  StreamReader reader(limits);
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream");
  EXPECT_FALSE(reader.on_body(kTwoChunks, 1));
  EXPECT_FALSE(reader.on_body("data: [DONE]\n\n", 2));
  reader.finish({ErrorClass::transport, "write error", 3});
  EXPECT_EQ(record.error, ErrorClass::malformed_sse);
  EXPECT_EQ(record.error_message, "SSE line longer than 16 bytes");
  EXPECT_EQ(record.end_ns, 3);
}

TEST(StreamReader, FailsEventLargerThanCap) {
  StreamLimits limits;
  limits.max_event_bytes = 20;
  const RequestRecord record = run_whole(kTwoChunks, 200, "text/event-stream", limits);
  EXPECT_EQ(record.error, ErrorClass::malformed_sse);
  EXPECT_EQ(record.error_message, "SSE event larger than 20 bytes");
}

TEST(StreamReader, FailsOnMalformedJson) {
  const RequestRecord record = run_whole("data: {\"choices\":[\n\ndata: [DONE]\n\n");
  EXPECT_EQ(record.error, ErrorClass::malformed_json);
  EXPECT_FALSE(record.saw_done);
  EXPECT_FALSE(record.error_message.empty());
}

TEST(StreamReader, ErrorInsideStreamIsStreamError) {
  const RequestRecord record = run_whole(
      "data: {\"choices\":[{\"text\":\"x\"}]}\n\n"
      "data: {\"error\":\"boom\"}\n\n"
      "data: {\"choices\":[{\"text\":\"y\",\"finish_reason\":\"stop\"}]}\n\n");
  EXPECT_EQ(record.error, ErrorClass::stream_error);
  EXPECT_EQ(record.error_message, "boom");
  EXPECT_EQ(record.text_chunk_ns.size(), 1u);
  EXPECT_EQ(record.completion_token_source, TokenSource::none);
}

TEST(StreamReader, ErrorTypedEventIsStreamError) {
  const RequestRecord record =
      run_whole("event: error\ndata: {\"message\":\"overloaded\"}\n\ndata: [DONE]\n\n");
  EXPECT_EQ(record.error, ErrorClass::stream_error);
  EXPECT_EQ(record.error_message, "overloaded");
}

TEST(StreamReader, IgnoresOtherEventTypesCommentsAndEventsAfterDone) {
  const RequestRecord record = run_whole(
      ": ping\n\n"
      "event: progress\ndata: {\"error\":\"not ours\"}\n\n"
      "data: {\"choices\":[{\"text\":\"x\",\"finish_reason\":\"stop\"}]}\n\n"
      "data: [DONE]\n\n"
      "data: not json\n\n"
      "data: {\"choices\":[{\"text\":\"late\"}]}\n\n");
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.text_chunk_ns.size(), 1u);
  EXPECT_EQ(record.finish_reason, "stop");
}

TEST(StreamReader, StreamWithoutFinishReasonOrDoneIsTruncated) {
  const RequestRecord record = run_whole("data: {\"choices\":[{\"text\":\"x\"}]}\n\n");
  EXPECT_EQ(record.error, ErrorClass::truncated);
  EXPECT_EQ(record.error_message, "stream ended without finish_reason or [DONE]");

  const RequestRecord partial =
      run_whole("data: {\"choices\":[{\"text\":\"x\"}]}\n\ndata: {\"choices\"");
  EXPECT_EQ(partial.error, ErrorClass::truncated);
  EXPECT_NE(partial.error_message.find("inside an event"), std::string::npos);
}

TEST(StreamReader, EitherFinishReasonOrDoneCompletesTheStream) {
  EXPECT_TRUE(
      run_whole("data: {\"choices\":[{\"text\":\"x\",\"finish_reason\":\"length\"}]}\n\n").ok());
  EXPECT_TRUE(run_whole("data: {\"choices\":[{\"text\":\"x\"}]}\n\ndata: [DONE]\n\n").ok());
}

TEST(StreamReader, TransportErrorWinsEvenAfterFinishReason) {
  const RequestRecord record =
      run({"data: {\"choices\":[{\"text\":\"x\",\"finish_reason\":\"stop\"}]}\n\n"}, 200,
          "text/event-stream", {}, {ErrorClass::stall, "no data for 5 s", 42});
  EXPECT_EQ(record.error, ErrorClass::stall);
  EXPECT_EQ(record.error_message, "no data for 5 s");
  EXPECT_EQ(record.end_ns, 42);
}

TEST(StreamReader, TransportErrorBeforeHeadersKeepsItsClass) {
  RequestRecord record;
  StreamReader reader;
  reader.begin(&record);
  reader.finish({ErrorClass::connect_refused, "Connection refused", 7});
  EXPECT_EQ(record.error, ErrorClass::connect_refused);
  EXPECT_EQ(record.http_status, 0);
  EXPECT_EQ(record.completion_token_source, TokenSource::none);
}

TEST(StreamReader, NonEventStreamWithoutEventsIsMalformedSse) {
  const RequestRecord record =
      run_whole(R"({"choices":[{"message":{"content":"hi"}}]})", 200, "application/json");
  EXPECT_EQ(record.error, ErrorClass::malformed_sse);
  EXPECT_NE(record.error_message.find("application/json"), std::string::npos);
}

TEST(StreamReader, AcceptsEventStreamContentTypeInAnyCaseAndWithParameters) {
  EXPECT_TRUE(run_whole(kTwoChunks, 200, "Text/Event-Stream; charset=utf-8").ok());
  // A stream mislabelled by the server is still read as one.
  EXPECT_TRUE(run_whole(kTwoChunks, 200, "text/plain").ok());
}

TEST(StreamReader, PerChunkUsageGivesTokensPerChunk) {
  const RequestRecord record = run_whole(
      "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}],"
      "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":0}}\n\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"ab\"}}],"
      "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":2}}\n\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"c\"},\"finish_reason\":\"stop\"}],"
      "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":3}}\n\n"
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":3}}\n\n"
      "data: [DONE]\n\n");
  EXPECT_TRUE(record.ok());
  EXPECT_EQ(record.text_chunk_tokens, (std::vector<std::int32_t>{2, 1}));
  EXPECT_EQ(record.completion_tokens, 3);
  EXPECT_EQ(record.prompt_tokens, 4);
}

TEST(StreamReader, DropsPerChunkTokensWhenAnyTextChunkLacksUsage) {
  const RequestRecord record = run_whole(
      "data: {\"choices\":[{\"text\":\"a\"}],\"usage\":{\"completion_tokens\":1}}\n\n"
      "data: {\"choices\":[{\"text\":\"b\"}]}\n\n"
      "data: {\"choices\":[{\"text\":\"c\",\"finish_reason\":\"stop\"}],"
      "\"usage\":{\"completion_tokens\":3}}\n\n");
  EXPECT_TRUE(record.ok());
  EXPECT_TRUE(record.text_chunk_tokens.empty());
  EXPECT_EQ(record.completion_tokens, 3);
  EXPECT_EQ(record.completion_token_source, TokenSource::usage);
}

TEST(StreamReader, BeginResetsStateForTheNextResponse) {
  StreamReader reader;
  RequestRecord first;
  reader.begin(&first);
  reader.on_headers(200, "text/event-stream");
  reader.on_body(
      "data: {\"choices\":[{\"text\":\"x\"}],\"usage\":{\"completion_tokens\":5}}\n\n"
      "data: {\"choices\":[{\"te",
      1);
  reader.finish({ErrorClass::transport, "reset", 2});

  RequestRecord second;
  reader.begin(&second);
  reader.on_headers(200, "text/event-stream");
  reader.on_body(
      "data: {\"choices\":[{\"text\":\"y\",\"finish_reason\":\"stop\"}],"
      "\"usage\":{\"completion_tokens\":1}}\n\n",
      3);
  reader.finish({ErrorClass::none, "", 4});
  EXPECT_TRUE(second.ok()) << second.error_message;
  EXPECT_EQ(second.text_chunk_tokens, (std::vector<std::int32_t>{1}));
  EXPECT_EQ(second.first_token_ns, 3);
  EXPECT_EQ(first.error, ErrorClass::transport);
}

}  // namespace

namespace {

TEST(StreamReader, RecordsTheFirstResponseIdOfTheStream) {
  const RequestRecord record = run_whole(
      "data: {\"choices\":[{\"text\":\"a\"}]}\n\n"
      "data: {\"id\":\"cmpl-7\",\"choices\":[{\"text\":\"b\"}]}\n\n"
      "data: {\"id\":\"cmpl-other\",\"choices\":[{\"text\":\"c\",\"finish_reason\":\"stop\"}]}\n\n"
      "data: [DONE]\n\n");
  EXPECT_TRUE(record.ok()) << record.error_message;
  EXPECT_EQ(record.response_id, "cmpl-7");
}

}  // namespace

namespace {

// --- the prompt cache's share ---------------------------------------------------------------

// vLLM with --enable-prompt-tokens-details (and SGLang, OpenAI): the final usage chunk says how
// many prompt tokens the prefix cache served.
constexpr std::string_view kVllmCachedUsage =
    "data: {\"id\":\"cmpl-1\",\"choices\":[{\"index\":0,\"text\":\"Hi\",\"finish_reason\":null}],"
    "\"usage\":null}\n\n"
    "data: {\"id\":\"cmpl-1\",\"choices\":[{\"index\":0,\"text\":\"!\",\"finish_reason\":"
    "\"length\"}],\"usage\":null}\n\n"
    "data: {\"id\":\"cmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":300,"
    "\"total_tokens\":302,\"completion_tokens\":2,\"prompt_tokens_details\":"
    "{\"cached_tokens\":256}}}\n\n"
    "data: [DONE]\n\n";

TEST(StreamReader, ReadsCachedTokensFromUsageDetailsAtEverySplit) {
  const std::string_view body = kVllmCachedUsage;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    SCOPED_TRACE("split at " + std::to_string(i));
    const RequestRecord record = run({body.substr(0, i), body.substr(i)});
    ASSERT_TRUE(record.ok()) << record.error_message;
    EXPECT_EQ(record.prompt_tokens, 300);
    EXPECT_EQ(record.cached_prompt_tokens, 256);
    EXPECT_EQ(record.computed_prompt_tokens(), 44);
    EXPECT_EQ(record.cached_prompt_token_source, CachedTokenSource::usage_details);
    if (HasFailure()) return;
  }
}

TEST(StreamReader, ZeroCachedTokensIsKnownNotUnknown) {
  const RequestRecord record = run_whole(
      "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"stop\"}],\"usage\":"
      "{\"prompt_tokens\":7,\"completion_tokens\":1,\"prompt_tokens_details\":"
      "{\"cached_tokens\":0}}}\n\n");
  EXPECT_EQ(record.cached_prompt_tokens, 0);
  EXPECT_EQ(record.computed_prompt_tokens(), 7);
  EXPECT_EQ(record.cached_prompt_token_source, CachedTokenSource::usage_details);
}

TEST(StreamReader, NullOrMissingPromptTokensDetailsLeavesTheSplitUnknown) {
  // vLLM without --enable-prompt-tokens-details sends "prompt_tokens_details": null.
  for (const std::string_view details :
       {std::string_view(",\"prompt_tokens_details\":null"), std::string_view(""),
        std::string_view(",\"prompt_tokens_details\":{}")}) {
    const std::string body =
        "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"stop\"}],\"usage\":"
        "{\"prompt_tokens\":7,\"completion_tokens\":1" +
        std::string(details) + "}}\n\n";
    const RequestRecord record = run_whole(body);
    EXPECT_TRUE(record.ok());
    EXPECT_EQ(record.cached_prompt_tokens, -1) << body;
    EXPECT_EQ(record.computed_prompt_tokens(), -1);
    EXPECT_EQ(record.cached_prompt_token_source, CachedTokenSource::none);
  }
}

TEST(StreamReader, PrefersLlamaCppCacheNToPromptN) {
  const RequestRecord record = run_whole(
      "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"length\"}],\"usage\":"
      "{\"prompt_tokens\":201,\"completion_tokens\":1},\"timings\":{\"cache_n\":200,"
      "\"prompt_n\":1,\"prompt_ms\":3.2}}\n\ndata: [DONE]\n\n");
  EXPECT_EQ(record.cached_prompt_tokens, 200);
  EXPECT_EQ(record.computed_prompt_tokens(), 1);
  EXPECT_EQ(record.cached_prompt_token_source, CachedTokenSource::timings_cache_n);
}

TEST(StreamReader, DoesNotBelieveACachedCountAbovePromptTokens) {
  const RequestRecord record = run_whole(
      "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"length\"}],\"usage\":"
      "{\"prompt_tokens\":10,\"completion_tokens\":1,\"prompt_tokens_details\":"
      "{\"cached_tokens\":11}},\"timings\":{\"prompt_n\":12}}\n\n");
  EXPECT_EQ(record.cached_prompt_tokens, -1);
  EXPECT_EQ(record.cached_prompt_token_source, CachedTokenSource::none);
}

TEST(StreamReader, PromptNWithoutPromptTokensLeavesTheSplitUnknown) {
  const RequestRecord record = run_whole(
      "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"length\"}],"
      "\"timings\":{\"prompt_n\":12}}\n\n");
  EXPECT_EQ(record.prompt_tokens, -1);
  EXPECT_EQ(record.cached_prompt_tokens, -1);
}

TEST(StreamReader, BeginForgetsThePreviousResponsesCacheFigures) {
  StreamReader reader;
  RequestRecord first;
  reader.begin(&first);
  reader.on_headers(200, "text/event-stream");
  reader.on_body(kVllmCachedUsage, 1);
  reader.finish({ErrorClass::none, "", 2});
  ASSERT_EQ(first.cached_prompt_tokens, 256);

  RequestRecord second;
  reader.begin(&second);
  reader.on_headers(200, "text/event-stream");
  reader.on_body(
      "data: {\"choices\":[{\"text\":\"y\",\"finish_reason\":\"stop\"}],"
      "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n",
      3);
  reader.finish({ErrorClass::none, "", 4});
  EXPECT_EQ(second.cached_prompt_tokens, -1);
  EXPECT_EQ(second.cached_prompt_token_source, CachedTokenSource::none);
}

}  // namespace

namespace {

// --- tool calls --------------------------------------------------------------------------------

constexpr std::string_view kContentThenToolCall =
    "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
    "data: {\"choices\":[{\"delta\":{\"content\":\"Let me look.\"}}]}\n\n"
    "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":"
    "\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
    "\"{}\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":9}}\n\n"
    "data: [DONE]\n\n";

// With content beside the call, usage cannot tell the call's part: the tokenizer counts its
// name and arguments ("lookup{}", 8 bytes), and without one each tool-call chunk is one token.
TEST(StreamReaderToolCalls, ContentBesideACallIsCountedApartByTokenizerElseChunks) {
  ByteCounter counter;
  const RequestRecord counted = run_counted({kContentThenToolCall}, counter);
  ASSERT_TRUE(counted.ok()) << counted.error_message;
  EXPECT_EQ(counted.completion_tokens, 9);
  EXPECT_EQ(counted.tool_call_tokens, 8);
  EXPECT_EQ(counted.tool_call_token_source, TokenSource::tokenizer);
  EXPECT_EQ(counted.tool_call_names, std::vector<std::string>{"lookup"});
  const RequestRecord estimated = run({kContentThenToolCall});
  EXPECT_EQ(estimated.tool_call_chunks, 2);
  EXPECT_EQ(estimated.tool_call_tokens, 2);
  EXPECT_EQ(estimated.tool_call_token_source, TokenSource::chunks);
  EXPECT_EQ(estimated.text_chunk_ns.size(), 3u);  // the content chunk and two of the call
  EXPECT_EQ(estimated.first_answer_ns, estimated.first_token_ns);
}

// Without usage, the completion itself is counted over the call's chunks (or text), so a
// tool-call-only answer never reports 0 output tokens.
TEST(StreamReaderToolCalls, WithoutUsageTheCallsChunksAreTheOutputEstimate) {
  const std::string body =
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":"
      "{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
      "\":1}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n";
  const RequestRecord estimated = run({body});
  ASSERT_TRUE(estimated.ok()) << estimated.error_message;
  EXPECT_EQ(estimated.completion_tokens, 2);
  EXPECT_EQ(estimated.completion_token_source, TokenSource::chunks);
  EXPECT_EQ(estimated.tool_call_tokens, 2);
  EXPECT_EQ(estimated.tool_call_token_source, TokenSource::chunks);
  ByteCounter counter;
  const RequestRecord counted = run_counted({body}, counter);
  EXPECT_EQ(counted.completion_tokens, 8);  // f{"a":1}, by the tokenizer
  EXPECT_EQ(counted.completion_token_source, TokenSource::tokenizer);
  EXPECT_EQ(counted.tool_call_tokens, 8);
}

}  // namespace
