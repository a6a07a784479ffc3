// The chunk scanner against the nlohmann DOM path it replaces on the hot path: on every shape
// below, interpret_chunk (scanner first) gives exactly what interpret_chunk_dom gives, and the
// scanner itself reads the usual server shapes without falling back.
#include "bench/protocol/chunk_scanner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "bench/protocol/openai.hpp"
#include "bench/sse/parser.hpp"
#include "run_process.hpp"

namespace {

using bench::protocol::Chunk;
using bench::protocol::interpret_chunk;
using bench::protocol::interpret_chunk_dom;
using bench::protocol::interpret_chunk_into;
using bench::protocol::scan_chunk;

std::string describe(const Chunk& chunk) {
  const auto count = [](const std::optional<std::int64_t>& value) {
    return value ? std::to_string(*value) : std::string("none");
  };
  return "kind=" + std::to_string(static_cast<int>(chunk.kind)) + " text='" + chunk.text +
         "' reasoning_size=" + std::to_string(chunk.reasoning_size) +
         " reasoning_tokens=" + count(chunk.reasoning_tokens) + " finish='" + chunk.finish_reason +
         "' id='" + chunk.id + "' prompt=" + count(chunk.prompt_tokens) +
         " completion=" + count(chunk.completion_tokens) + " cached=" + count(chunk.cached_tokens) +
         " prompt_n=" + count(chunk.timings_prompt_n) + " cache_n=" + count(chunk.timings_cache_n) +
         " tool_call_text='" + chunk.tool_call_text +
         "' tool_calls=" + std::to_string(chunk.tool_call_names.size()) + " error='" +
         chunk.error_message + "'";
}

bool same(const Chunk& a, const Chunk& b) {
  return a.kind == b.kind && a.text == b.text && a.reasoning_size == b.reasoning_size &&
         a.reasoning_tokens == b.reasoning_tokens && a.finish_reason == b.finish_reason &&
         a.id == b.id && a.prompt_tokens == b.prompt_tokens &&
         a.completion_tokens == b.completion_tokens && a.error_message == b.error_message &&
         a.cached_tokens == b.cached_tokens && a.timings_prompt_n == b.timings_prompt_n &&
         a.timings_cache_n == b.timings_cache_n && a.tool_call_text == b.tool_call_text &&
         a.tool_call_names == b.tool_call_names && a.tool_call_fragments == b.tool_call_fragments;
}

// interpret_chunk and, when it does not give up, the scanner alone agree with the DOM path.
// Returns whether the scanner read the payload itself.
bool expect_same_as_dom(std::string_view data) {
  SCOPED_TRACE("data: " + std::string(data));
  const Chunk dom = interpret_chunk_dom(data);
  const Chunk via_interpret = interpret_chunk(data);
  EXPECT_TRUE(same(via_interpret, dom))
      << "interpret_chunk: " << describe(via_interpret) << "\n            dom: " << describe(dom);
  Chunk scanned;
  const bool read = scan_chunk(data, scanned);
  if (read) {
    EXPECT_TRUE(same(scanned, dom))
        << "scanner: " << describe(scanned) << "\n    dom: " << describe(dom);
  }
  return read;
}

void expect_scanned(std::string_view data) {
  EXPECT_TRUE(expect_same_as_dom(data)) << "the scanner gave up on: " << data;
}

void expect_left_to_dom(std::string_view data) {
  EXPECT_FALSE(expect_same_as_dom(data)) << "the scanner read: " << data;
}

using bench::testing::read_file;

class CollectData final : public bench::sse::Sink {
 public:
  bool on_event(const bench::sse::Event& event) override {
    payloads.emplace_back(event.data);
    return true;
  }
  std::vector<std::string> payloads;
};

// Every data payload of every reference transcript (real llama.cpp captures and the vLLM,
// SGLang and TGI shapes), complete events only.
std::vector<std::string> reference_payloads() {
  std::vector<std::string> payloads;
  for (const auto& entry : std::filesystem::directory_iterator(BENCH_REFERENCE_DIR)) {
    if (entry.path().extension() != ".sse") continue;
    bench::sse::Parser parser;
    CollectData sink;
    parser.feed(read_file(entry.path()), sink);
    payloads.insert(payloads.end(), sink.payloads.begin(), sink.payloads.end());
  }
  return payloads;
}

constexpr std::string_view kVllmChat =
    R"({"id":"chatcmpl-8f2c1d0e9b7a4c3e8d6f5a4b3c2d1e0f","object":"chat.completion.chunk",)"
    R"("created":1733000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,)"
    R"("delta":{"content":" world"},"logprobs":null,"finish_reason":null}],"usage":null})";

// --- the shapes servers send ------------------------------------------------------------------

TEST(ChunkScanner, ReadsEveryReferenceTranscriptPayloadLikeTheDomPath) {
  const std::vector<std::string> payloads = reference_payloads();
  ASSERT_GE(payloads.size(), 50u);
  int scanned = 0;
  for (const std::string& data : payloads) {
    const bool read = expect_same_as_dom(data);
    // Only [DONE] is the DOM path's: every JSON chunk the servers sent is read by the scanner.
    EXPECT_EQ(read, data != "[DONE]") << data;
    scanned += read ? 1 : 0;
  }
  EXPECT_GE(scanned, 40);
}

TEST(ChunkScanner, ReadsTheUsualServerShapes) {
  expect_scanned(kVllmChat);
  // vLLM completions with continuous_usage_stats.
  expect_scanned(
      R"({"id":"cmpl-2","object":"text_completion","created":1733000000,"model":"m","choices":)"
      R"([{"index":0,"text":" quick brown","logprobs":null,"finish_reason":null,"stop_reason":)"
      R"(null}],"usage":{"prompt_tokens":5,"total_tokens":8,"completion_tokens":3}})");
  // SGLang reasoning delta with explicit nulls.
  expect_scanned(
      R"({"id":"a1","object":"chat.completion.chunk","created":1733000000,"model":"deepseek-r1",)"
      R"("choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":"Let",)"
      R"("tool_calls":null},"logprobs":null,"finish_reason":null,"matched_stop":null}],)"
      R"("usage":null})");
  // llama.cpp: usage and timings riding on the finish chunk, id last.
  expect_scanned(
      R"({"choices":[{"finish_reason":"length","index":0,"delta":{}}],"created":1796228222,)"
      R"("model":"tiny-llama","system_fingerprint":"b4748-c392e5094","object":)"
      R"("chat.completion.chunk","usage":{"completion_tokens":16,"prompt_tokens":14,)"
      R"("total_tokens":30},"id":"chatcmpl-GanGjApuRUHIi4YisFS1MV7mgW5E21Pf","timings":)"
      R"({"prompt_n":14,"prompt_ms":12.303,"prompt_per_token_ms":0.8787857142857143,)"
      R"("predicted_per_second":1.2e3}})");
  // TGI: empty id, role repeated on every delta.
  expect_scanned(
      R"({"object":"chat.completion.chunk","id":"","created":1733000000,"model":"tgi",)"
      R"("system_fingerprint":"2.4.0-native","choices":[{"index":0,"delta":{"role":"assistant",)"
      R"("content":" there"},"logprobs":null,"finish_reason":"length"}],"usage":null})");
  // vLLM's final usage chunk and a logprobs-laden chunk (nested arrays of objects, floats).
  expect_scanned(R"({"id":"c","choices":[],"usage":{"prompt_tokens":12,"total_tokens":19,)"
                 R"("completion_tokens":7}})");
  expect_scanned(
      R"({"id":"c","choices":[{"index":0,"delta":{"content":"a"},"logprobs":{"content":[)"
      R"({"token":"a","logprob":-0.0123,"bytes":[97],"top_logprobs":[{"token":"b",)"
      R"("logprob":-4.5e-05,"bytes":[98]}]}]},"finish_reason":null}]})");
}

TEST(ChunkScanner, ReadsToolCallDeltasLikeTheDomPath) {
  // OpenAI: role and the call's first fragment together, then argument fragments.
  expect_scanned(
      R"({"id":"chatcmpl-1","choices":[{"index":0,"delta":{"role":"assistant","content":null,)"
      R"("tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":)"
      R"("get_weather","arguments":""}}],"refusal":null},"finish_reason":null}],"usage":null})");
  expect_scanned(
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":)"
      R"("{\"city\": \"Par"}}]},"finish_reason":null}]})");
  // vLLM: the name with no arguments key; two calls started in one chunk.
  expect_scanned(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"id":"chatcmpl-tool-a","type":)"
                 R"("function","index":0,"function":{"name":"a"}},{"id":"chatcmpl-tool-b","type":)"
                 R"("function","index":1,"function":{"name":"b","arguments":"{}"}}]}}]})");
  Chunk chunk;
  ASSERT_TRUE(scan_chunk(
      R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"get_weather",)"
      R"("arguments":"{\"ci"}}]}}]})",
      chunk));
  EXPECT_EQ(chunk.tool_call_text, "get_weather{\"ci");
  EXPECT_EQ(chunk.tool_call_names, std::vector<std::string>{"get_weather"});
  EXPECT_TRUE(chunk.has_tool_call());
  EXPECT_FALSE(chunk.has_text());
  // An empty fragment carries no token; nulls and odd shapes are read alike by both paths.
  ASSERT_TRUE(scan_chunk(
      R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":""}}]}}]})",
      chunk));
  EXPECT_FALSE(chunk.has_tool_call());
  expect_scanned(R"({"choices":[{"delta":{"tool_calls":[1,null,{"function":null}]}}]})");
  expect_scanned(R"({"choices":[{"delta":{"tool_calls":{"function":{"name":"x"}}}}]})");
  expect_left_to_dom(
      R"({"choices":[{"delta":{"tool_calls":[{"function":{"name":"a","name":"b"}}]}}]})");
  expect_left_to_dom(
      R"({"choices":[{"delta":{"tool_calls":[{"function":{"name":"a"},"function":{}}]}}]})");
  std::string many = R"({"choices":[{"delta":{"tool_calls":[)";
  for (int i = 0; i < 9; ++i) many += std::string(i ? "," : "") + R"({"function":{"name":"f"}})";
  expect_left_to_dom(many + "]}}]}");
}

TEST(ChunkScanner, ReadsEachToolCallFragmentsIndexAndIdLikeTheDomPath) {
  Chunk chunk;
  // The id after the function, the index before: both are the fragment's, in any order.
  ASSERT_TRUE(scan_chunk(
      R"({"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"name":"a","arguments":"{"},)"
      R"("id":"call_a"},{"function":{"arguments":"x"}}]}}]})",
      chunk));
  ASSERT_EQ(chunk.tool_call_fragments.size(), 2u);
  EXPECT_EQ(chunk.tool_call_fragments[0].index, 1);
  EXPECT_EQ(chunk.tool_call_fragments[0].id, "call_a");
  EXPECT_EQ(chunk.tool_call_fragments[0].name, "a");
  EXPECT_EQ(chunk.tool_call_fragments[0].arguments, "{");
  EXPECT_FALSE(chunk.tool_call_fragments[1].index.has_value());
  EXPECT_EQ(chunk.tool_call_fragments[1].id, "");
  EXPECT_EQ(chunk.tool_call_fragments[1].arguments, "x");
  expect_scanned(R"({"choices":[{"delta":{"tool_calls":[{"index":"0","id":7,"function":{}}]}}]})");
  expect_scanned(R"({"choices":[{"delta":{"tool_calls":[{"index":null,"id":"c\u0041"}]}}]})");
  expect_scanned(R"({"choices":[{"delta":{"tool_calls":[{"id":"c\u0041","function":{}}]}}]})");
  // Numbers the scanner does not read itself go the DOM way, and agree.
  expect_left_to_dom(R"({"choices":[{"delta":{"tool_calls":[{"index":-1,"function":{}}]}}]})");
  expect_left_to_dom(R"({"choices":[{"delta":{"tool_calls":[{"index":1.0,"function":{}}]}}]})");
  expect_left_to_dom(
      R"({"choices":[{"delta":{"tool_calls":[{"index":0,"index":1,"function":{}}]}}]})");
}

TEST(ChunkScanner, ReadsThePromptCacheFiguresLikeTheDomPath) {
  // vLLM with --enable-prompt-tokens-details, SGLang, OpenAI.
  expect_scanned(R"({"choices":[],"usage":{"prompt_tokens":300,"completion_tokens":2,)"
                 R"("prompt_tokens_details":{"cached_tokens":256,"audio_tokens":null}}})");
  Chunk chunk;
  ASSERT_TRUE(scan_chunk(R"({"usage":{"prompt_tokens_details":{"cached_tokens":256}}})", chunk));
  EXPECT_EQ(chunk.cached_tokens, 256);
  // vLLM without it.
  expect_scanned(R"({"choices":[],"usage":{"prompt_tokens":3,"prompt_tokens_details":null}})");
  // llama.cpp's final chunk, old and new builds.
  expect_scanned(R"({"choices":[],"timings":{"prompt_n":1,"prompt_ms":3.241}})");
  ASSERT_TRUE(scan_chunk(R"({"timings":{"cache_n":200,"prompt_n":1}})", chunk));
  EXPECT_EQ(chunk.timings_cache_n, 200);
  EXPECT_EQ(chunk.timings_prompt_n, 1);
  // Outside usage the details mean nothing; timings that are not an object neither.
  expect_scanned(R"({"prompt_tokens_details":{"cached_tokens":5},"timings":null})");
  ASSERT_TRUE(scan_chunk(R"({"prompt_tokens_details":{"cached_tokens":5}})", chunk));
  EXPECT_FALSE(chunk.cached_tokens);
  // What the scanner cannot decide goes the DOM way, which then decides alike.
  expect_left_to_dom(R"({"usage":{"prompt_tokens_details":{"cached_tokens":1.0}}})");
  expect_left_to_dom(R"({"timings":{"prompt_n":1,"prompt_n":2}})");
  expect_left_to_dom(R"({"timings":{"cache_n":-1}})");
  expect_left_to_dom(R"({"usage":{"prompt_tokens_details":{},"prompt_tokens_details":{}}})");
}

TEST(ChunkScanner, ReadsErrorObjectsWithAMessage) {
  expect_scanned(R"({"error":{"object":"error","message":"The engine is overloaded","type":)"
                 R"("InternalServerError","param":null,"code":500}})");
  expect_scanned(R"({"error":"boom"})");
  expect_scanned(R"({"error":""})");  // "error event without a message"
  expect_scanned(R"({"choices":[{"text":"x"}],"error":{"message":"late"},"id":"i"})");
  expect_scanned(R"({"error":null,"choices":[{"text":"x"}]})");
  // Messages the DOM path renders from the value itself.
  expect_left_to_dom(R"({"error":{"code":503}})");
  expect_left_to_dom(R"({"error":{"message":""}})");
  expect_left_to_dom(R"({"error":{"message":7}})");
  expect_left_to_dom(R"({"error":42})");
  expect_left_to_dom(R"({"error":["a"]})");
  expect_left_to_dom(R"({"error":true})");
}

TEST(ChunkScanner, CombinesTextReasoningAndContentInTheDomPathsOrder) {
  for (std::string_view data : {
           R"({"choices":[{"delta":{"content":"Yes","reasoning_content":"So. "}}]})",
           R"({"choices":[{"delta":{"reasoning_content":"a","reasoning":"b"}}]})",
           R"({"choices":[{"delta":{"reasoning_content":"","reasoning":"b","content":"c"}}]})",
           R"({"choices":[{"delta":{"reasoning_content":null,"reasoning":"b"}}]})",
           R"({"choices":[{"delta":{"reasoning_content":"","content":"c"}}]})",
           R"({"choices":[{"delta":{"reasoning":"r"},"text":"t"}]})",
           R"({"choices":[{"text":"t","delta":"not an object"}]})",
           R"({"choices":[{"delta":{"content":["a"]}}]})",
           R"({"choices":[{"text":5,"finish_reason":3}]})",
           R"({"choices":[null,{"text":"second"}]})",
           R"({"choices":[{"text":"first"},{"text":"second"}]})",
           R"({"choices":{"text":"x"}})",
           R"({"choices":[]})",
           R"({"choices":null,"usage":[1]})",
           R"({"id":9,"choices":[{"text":"a"}]})",
           R"({})",
       }) {
    expect_scanned(data);
  }
}

TEST(ChunkScanner, SplitsReasoningFromTheAnswerAsTheDomPathDoes) {
  for (std::string_view data : {
           R"({"choices":[{"delta":{"reasoning_content":"Let"}}]})",
           R"({"choices":[{"delta":{"reasoning":"Hm","content":""}}]})",
           R"({"choices":[{"delta":{"reasoning_content":"\u0041\n","content":"B"}}]})",
           R"({"choices":[{"text":"t","delta":{"reasoning":"r","content":"c"}}]})",
           R"({"choices":[{"delta":{"content":"only answer","reasoning_content":null}}]})",
           R"({"usage":{"completion_tokens":5,)"
           R"("completion_tokens_details":{"reasoning_tokens":3}}})",
           R"({"usage":{"completion_tokens_details":{"reasoning_tokens":null}}})",
           R"({"usage":{"completion_tokens_details":[1]}})",
       }) {
    expect_scanned(data);
  }
  Chunk chunk;
  ASSERT_TRUE(scan_chunk(R"({"choices":[{"delta":{"reasoning":"So. ","content":"Yes"}}]})", chunk));
  EXPECT_EQ(chunk.reasoning(), "So. ");
  EXPECT_EQ(chunk.answer(), "Yes");
  // Reused for a chunk without reasoning: the split is cleared with the text.
  ASSERT_TRUE(scan_chunk(R"({"choices":[{"delta":{"content":"x"}}]})", chunk));
  EXPECT_EQ(chunk.reasoning_size, 0u);
  // A repeated or oddly spelled reasoning count is left to the DOM path.
  expect_left_to_dom(R"({"usage":{"completion_tokens_details":{"reasoning_tokens":1,)"
                     R"("reasoning_tokens":2}}})");
  expect_left_to_dom(R"({"usage":{"completion_tokens_details":{"reasoning_tokens":-1}}})");
}

TEST(ChunkScanner, ReadsTokenCountsOnlyWhenTheyArePlainIntegers) {
  expect_scanned(R"({"usage":{"prompt_tokens":0,"completion_tokens":123456789012345678}})");
  expect_scanned(R"({"usage":{"prompt_tokens":"12","completion_tokens":null}})");
  expect_scanned(R"({"usage":{"prompt_tokens":true,"completion_tokens":{"n":1}}})");
  expect_scanned(R"({"usage":{}})");
  expect_scanned(R"({"usage":null})");
  // Negative, fractional, exponent and very long counts follow the DOM path's rules.
  for (std::string_view data : {
           R"({"usage":{"completion_tokens":4.0}})",
           R"({"usage":{"completion_tokens":4.5}})",
           R"({"usage":{"completion_tokens":1e2}})",
           R"({"usage":{"completion_tokens":-3}})",
           R"({"usage":{"completion_tokens":-0}})",
           R"({"usage":{"completion_tokens":1234567890123456789}})",
           R"({"usage":{"completion_tokens":9223372036854775807}})",
           R"({"usage":{"completion_tokens":9223372036854775808}})",
           R"({"usage":{"completion_tokens":18446744073709551616}})",
           R"({"usage":{"completion_tokens":1e400}})",
       }) {
    expect_left_to_dom(data);
  }
}

// --- strings ----------------------------------------------------------------------------------

TEST(ChunkScanner, DecodesEveryStringEscape) {
  expect_scanned(R"({"choices":[{"text":"q\" b\\ s\/ \b\f\n\r\t"}]})");
  expect_scanned(R"({"choices":[{"text":"\u0041\u00e9\u00E9\u20ac\u0000end"}]})");
  expect_scanned(R"({"choices":[{"text":"\ud83d\ude00 \uD83D\uDE00 \udbff\udfff \ud800\udc00"}]})");
  expect_scanned(R"({"id":"\u0069d","choices":[{"finish_reason":"st\u006fp","delta":)"
                 R"({"content":"\"quoted\"","reasoning":"\\"}}]})");
  expect_scanned(R"({"error":"line\nbreak \u00fc"})");
  const Chunk chunk = interpret_chunk(R"({"choices":[{"text":"\ud83d\ude00\u0000\u00e9"}]})");
  EXPECT_EQ(chunk.text, std::string("\xF0\x9F\x98\x80\0\xC3\xA9", 7));
}

TEST(ChunkScanner, RejectsBrokenEscapesAsTheDomPathDoes) {
  for (std::string_view data : {
           R"({"choices":[{"text":"\ud83d"}]})",  // high surrogate alone
           R"({"choices":[{"text":"\ud83dx"}]})", R"({"choices":[{"text":"\ud83d\n"}]})",
           R"({"choices":[{"text":"\ud83d\u0041"}]})",  // not followed by a low surrogate
           R"({"choices":[{"text":"\ude00"}]})",        // low surrogate alone
           R"({"choices":[{"text":"\u12"}]})", R"({"choices":[{"text":"\u12g4"}]})",
           R"({"choices":[{"text":"\x41"}]})", R"({"choices":[{"text":"\a"}]})",
           R"({"choices":[{"text":"\)",
           R"({"model":"\ud800","choices":[]})",  // in a string the scanner skips
       }) {
    const Chunk chunk = interpret_chunk(data);
    EXPECT_EQ(chunk.kind, Chunk::Kind::malformed) << data;
    expect_left_to_dom(data);
  }
}

TEST(ChunkScanner, ValidatesUtf8AsTheDomPathDoes) {
  // Well-formed: 2, 3 and 4 byte sequences at the edges of RFC 3629's table, and DEL.
  expect_scanned(
      "{\"choices\":[{\"text\":\"\xC2\x80 \xDF\xBF \xE0\xA0\x80 \xED\x9F\xBF "
      "\xEE\x80\x80 \xEF\xBF\xBF \xF0\x90\x80\x80 \xF4\x8F\xBF\xBF \x7F\"}]}");
  expect_scanned(
      "{\"model\":\"\xE4\xBD\xA0\xE5\xA5\xBD\",\"choices\":[{\"delta\":"
      "{\"content\":\"\xF0\x9F\x98\x80\"}}]}");
  // Ill-formed: overlongs, surrogates, above U+10FFFF, stray continuation bytes, cut sequences,
  // raw control characters; in a string that is read and in one that is skipped.
  for (std::string_view bad :
       {"\xC0\x80", "\xC1\xBF", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xF0\x8F\xBF\xBF",
        "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\x80", "\xBF", "\xC3", "\xE2\x82", "\xF0\x9F\x98",
        "\xFF", "\x01", "\x1F", "\n", "\t"}) {
    for (const char* key : {"text", "index_name"}) {
      const std::string data =
          std::string("{\"choices\":[{\"") + key + "\":\"a" + std::string(bad) + "b\"}]}";
      EXPECT_EQ(interpret_chunk(data).kind, Chunk::Kind::malformed) << data;
      expect_left_to_dom(data);
    }
  }
}

// --- structure --------------------------------------------------------------------------------

TEST(ChunkScanner, AllowsJsonWhitespaceAnywhereAndNothingElse) {
  expect_scanned(
      " \t\r\n{ \"id\" : \"x\" ,\r\n\t\"choices\" : [ { \"delta\" : { \"content\" :"
      " \"a\" } , \"finish_reason\" : null } ] , \"usage\" : { \"prompt_tokens\" :"
      " 1 , \"completion_tokens\" : 2 } } \n\r\t ");
  expect_scanned("{\n  \"choices\": [\n    {\n      \"text\": \"B\"\n    }\n  ]\n}\n");
  // Form feed, vertical tab, NBSP and a NUL are not JSON whitespace. (nlohmann reads a NUL
  // as the end of input, so "{}\0..." is a valid empty chunk to it: left to the DOM path.)
  for (std::string_view data : {"\f{}", "{}\v", "{\xC2\xA0}", "{ \"a\":1 }x", "{}{}"}) {
    expect_left_to_dom(data);
  }
  expect_left_to_dom(std::string_view("{}\0garbage", 10));
  expect_left_to_dom("\xEF\xBB\xBF{\"choices\":[{\"text\":\"bom\"}]}");  // nlohmann skips a BOM
}

TEST(ChunkScanner, ReadsKeysInAnyOrder) {
  std::vector<std::string> root = {R"("id":"r")",
                                   R"("choices":[{"index":0,"finish_reason":"stop",)"
                                   R"("delta":{"content":"c","reasoning":"r"},"text":"t"}])",
                                   R"("usage":{"completion_tokens":2,"prompt_tokens":1})",
                                   R"("model":"m")"};
  std::sort(root.begin(), root.end());
  int orders = 0;
  do {
    std::string data = "{";
    for (std::size_t i = 0; i < root.size(); ++i) data += (i ? "," : "") + root[i];
    data += "}";
    expect_scanned(data);
    ++orders;
  } while (std::next_permutation(root.begin(), root.end()));
  EXPECT_EQ(orders, 24);
}

TEST(ChunkScanner, LeavesRepeatedAndEscapedKeysToTheDomPath) {
  // nlohmann keeps the last of repeated keys; an escaped key may spell one the scanner reads.
  for (std::string_view data : {
           R"({"choices":[{"text":"a"}],"choices":[{"text":"b"}]})",
           R"({"choices":[{"text":"a"}],"choices":null})",
           R"({"id":"a","id":"b"})",
           R"({"usage":null,"usage":{"completion_tokens":1}})",
           R"({"error":null,"error":"late"})",
           R"({"choices":[{"text":"a","text":"b"}]})",
           R"({"choices":[{"delta":{"content":"a","content":"b"}}]})",
           R"({"usage":{"prompt_tokens":1,"prompt_tokens":2}})",
           R"({"error":{"message":"a","message":"b"}})",
           R"({"c\u0068oices":[{"text":"escaped key"}]})",
           R"({"choices":[{"t\u0065xt":"escaped key"}]})",
           R"({"choices":[{"delta":{"\u0063ontent":"escaped key"}}]})",
       }) {
    expect_left_to_dom(data);
  }
  // Repeats and escapes in objects the scanner only skips change nothing it reads.
  expect_scanned(R"({"model":"a","model":"b","choices":[{"index":0,"index":1,)"
                 R"("logprobs":{"x":1,"x":2,"\u0078":3,"c\u006fntent":"skipped"}}]})");
}

TEST(ChunkScanner, SkipsNestingUpToItsDepthLimitAndLeavesDeeperToTheDomPath) {
  const auto nested = [](int depth) {
    return std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']');
  };
  // The root object is depth 1 and "x"'s value starts at depth 2.
  expect_scanned(R"({"choices":[{"text":"deep"}],"x":)" + nested(63) + "}");
  expect_left_to_dom(R"({"choices":[{"text":"deep"}],"x":)" + nested(64) + "}");
  expect_left_to_dom(R"({"choices":[{"text":"deep"}],"x":)" + nested(5000) + "}");
  expect_scanned(R"({"x":{"a":{"b":[{"c":[1,{"d":null}]}]}},"choices":[{"text":"t"}]})");
}

TEST(ChunkScanner, ValidatesNumbersItSkips) {
  for (std::string_view number : {"0", "-0", "1", "-1", "10", "0.5", "-0.0", "1e5", "1E+5", "1e-5",
                                  "2.5E-3", "1e299", "1e-400", "123456789012345678901234"}) {
    expect_scanned(R"({"created":)" + std::string(number) + R"(,"choices":[{"text":"n"}]})");
  }
  // Valid, but too close to overflow (or with too long an exponent) for the scanner to prove.
  for (std::string_view number : {"1e300", "1.7976931348623157e308", "1e-99999", "1e00001"}) {
    const std::string data =
        R"({"created":)" + std::string(number) + R"(,"choices":[{"text":"n"}]})";
    EXPECT_EQ(interpret_chunk(data).kind, Chunk::Kind::data) << data;
    expect_left_to_dom(data);
  }
  for (std::string_view number :
       {"01",    "-01",   "1.",   ".5",     "-",        "+1",        "1e",
        "1e+",   "1.5.3", "0x10", "NaN",    "Infinity", "-Infinity", "1e309",
        "1e400", "tru",   "nul",  "falsey", "True",     "1_000"}) {
    expect_left_to_dom(R"({"created":)" + std::string(number) + R"(,"choices":[{"text":"n"}]})");
  }
  // An overflow to infinity is a parse error to nlohmann, so "created" alone makes it malformed.
  EXPECT_EQ(interpret_chunk(R"({"created":1e999,"choices":[{"text":"n"}]})").kind,
            Chunk::Kind::malformed);
}

TEST(ChunkScanner, AgreesWithTheDomPathOnEveryPrefixOfAChunk) {
  for (std::size_t length = 0; length < kVllmChat.size(); ++length) {
    const std::string_view prefix = kVllmChat.substr(0, length);
    EXPECT_EQ(interpret_chunk(prefix).kind, Chunk::Kind::malformed) << prefix;
    expect_same_as_dom(prefix);
  }
}

TEST(ChunkScanner, AgreesWithTheDomPathWhenAnyByteOfAChunkIsReplaced) {
  const std::string original(kVllmChat);
  for (std::size_t i = 0; i < original.size(); ++i) {
    for (char replacement :
         {'"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'x', '0', '\x80', '\0', '\x1F'}) {
      std::string data = original;
      data[i] = replacement;
      expect_same_as_dom(data);
    }
  }
}

// Random chunks built from the pieces servers use, mutated now and then, with a fixed seed.
std::string random_value(std::mt19937& random, int depth);

std::string random_string(std::mt19937& random) {
  static const std::vector<std::string> pieces = {"a",
                                                  " the",
                                                  "",
                                                  "\\n",
                                                  "\\\"",
                                                  "\\\\",
                                                  "\\/",
                                                  "\\u00e9",
                                                  "\\ud83d\\ude00",
                                                  "\\u0000",
                                                  "\xC3\xA9",
                                                  "\xE4\xBD\xA0",
                                                  "\xF0\x9F\x98\x80",
                                                  "\\t",
                                                  "\\b",
                                                  "\\f",
                                                  "\\r",
                                                  "\\u20AC"};
  std::string text = "\"";
  const int count = std::uniform_int_distribution<int>(0, 3)(random);
  for (int i = 0; i < count; ++i) {
    text += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(random)];
  }
  return text + "\"";
}

std::string random_object(std::mt19937& random, int depth, const std::vector<std::string>& keys) {
  std::string text = "{";
  const int members = std::uniform_int_distribution<int>(0, 4)(random);
  for (int i = 0; i < members; ++i) {
    if (i > 0) text += ",";
    text += "\"" + keys[std::uniform_int_distribution<std::size_t>(0, keys.size() - 1)(random)] +
            "\":" + random_value(random, depth + 1);
  }
  return text + "}";
}

// Every key the scanner reads, and two it skips.
const std::vector<std::string>& chunk_keys() {
  static const std::vector<std::string> keys = {"id",
                                                "choices",
                                                "usage",
                                                "error",
                                                "text",
                                                "delta",
                                                "finish_reason",
                                                "content",
                                                "reasoning_content",
                                                "reasoning",
                                                "prompt_tokens",
                                                "completion_tokens",
                                                "message",
                                                "completion_tokens_details",
                                                "reasoning_tokens",
                                                "index",
                                                "model",
                                                "logprobs"};
  return keys;
}

std::string random_value(std::mt19937& random, int depth) {
  static const std::vector<std::string> scalars = {"null",
                                                   "true",
                                                   "false",
                                                   "0",
                                                   "7",
                                                   "-3",
                                                   "4.0",
                                                   "2.5",
                                                   "1e2",
                                                   "123456789012345678",
                                                   "12345678901234567890"};
  const int choice = std::uniform_int_distribution<int>(0, depth > 4 ? 1 : 4)(random);
  switch (choice) {
    case 0: return random_string(random);
    case 1:
      return scalars[std::uniform_int_distribution<std::size_t>(0, scalars.size() - 1)(random)];
    case 2: {
      std::string text = "[";
      const int elements = std::uniform_int_distribution<int>(0, 3)(random);
      for (int i = 0; i < elements; ++i) text += (i ? "," : "") + random_value(random, depth + 1);
      return text + "]";
    }
    default: return random_object(random, depth, chunk_keys());
  }
}

TEST(ChunkScanner, AgreesWithTheDomPathOnRandomChunks) {
  std::mt19937 random(20240601);
  int scanned = 0;
  constexpr int kCases = 20000;
  for (int i = 0; i < kCases; ++i) {
    std::string data = std::uniform_int_distribution<int>(0, 9)(random) == 0
                           ? random_value(random, 0)
                           : random_object(random, 0, chunk_keys());
    if (std::uniform_int_distribution<int>(0, 4)(random) == 0 && !data.empty()) {
      // A mutation: one byte replaced, removed or duplicated.
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, data.size() - 1)(random);
      switch (std::uniform_int_distribution<int>(0, 2)(random)) {
        case 0:
          data[at] = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(random));
          break;
        case 1: data.erase(at, 1); break;
        default: data.insert(at, 1, data[at]); break;
      }
    }
    if (expect_same_as_dom(data)) ++scanned;
    if (HasFailure()) break;
  }
  // The comparison means something only if the scanner read a good share of them itself.
  EXPECT_GE(scanned, kCases / 4);
}

// --- reuse --------------------------------------------------------------------------------------

TEST(InterpretChunkInto, LeavesNothingOfThePreviousChunkBehind) {
  const std::vector<std::string_view> stream = {
      R"({"id":"chatcmpl-a-long-response-id-0001","choices":[{"delta":{"content":"one"},)"
      R"("finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}})",
      R"({"choices":[{"delta":{}}]})",
      R"({"error":{"message":"overloaded"}})",
      R"({"choices":[{"text":"after"}]})",
      R"({"error":{"code":1}})",  // the DOM path's
      "[DONE]",
      "not json",
      R"({"id":"x","choices":[{"text":"\u00e9"}]})",
  };
  Chunk reused;
  for (std::string_view data : stream) {
    interpret_chunk_into(data, reused);
    const Chunk dom = interpret_chunk_dom(data);
    EXPECT_TRUE(same(reused, dom))
        << data << "\nreused: " << describe(reused) << "\n   dom: " << describe(dom);
  }
}

}  // namespace
