// The WHATWG event-stream rules, case by case, after Chromium's event_source_parser_test.cc.
// Every case is fed whole, one byte at a time, and split at every offset (and at every pair of
// offsets when short), and all of them must give the same output.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "bench/sse/parser.hpp"
#include "run_process.hpp"

namespace {

using bench::sse::Event;
using bench::sse::Limits;
using bench::sse::Parser;
using bench::sse::Status;
using namespace std::string_literals;

// Everything a parser reports, flattened to strings so runs compare with one ==.
class RecordingSink final : public bench::sse::Sink {
 public:
  explicit RecordingSink(int stop_after_events = -1) : stop_after_events_(stop_after_events) {}

  bool on_event(const Event& event) override {
    output.push_back("event type=" + std::string(event.type) + " data=" + std::string(event.data) +
                     " id=" + std::string(event.last_id));
    ++events;
    return stop_after_events_ < 0 || events < stop_after_events_;
  }
  void on_comment(std::string_view text) override {
    output.push_back("comment " + std::string(text));
  }
  void on_retry(std::int64_t milliseconds) override {
    output.push_back("retry " + std::to_string(milliseconds));
  }

  std::vector<std::string> output;
  int events = 0;

 private:
  int stop_after_events_;
};

std::string event(std::string_view data, std::string_view type = "message",
                  std::string_view id = "") {
  return "event type=" + std::string(type) + " data=" + std::string(data) +
         " id=" + std::string(id);
}

struct Result {
  std::vector<std::string> output;
  Status status = Status::ok;
  bool discarded = false;  // what finish() said; compared only when status is ok
};

Result parse_pieces(const std::vector<std::string_view>& pieces, Limits limits,
                    int stop_after_events) {
  Parser parser(limits);
  RecordingSink sink(stop_after_events);
  Result result;
  for (std::string_view piece : pieces) result.status = parser.feed(piece, sink);
  result.discarded = parser.finish();
  result.output = sink.output;
  return result;
}

void expect_same(const Result& expected, const Result& actual, const std::string& how) {
  SCOPED_TRACE(how);
  EXPECT_EQ(expected.output, actual.output);
  EXPECT_EQ(expected.status, actual.status);
  if (expected.status == Status::ok) {
    EXPECT_EQ(expected.discarded, actual.discarded);
  }
}

// Parses `input` whole, byte by byte, split at every offset and (when short) at every pair of
// offsets; checks that all agree and returns the whole-feed result.
Result parse_all_ways(std::string_view input, Limits limits = {}, int stop_after_events = -1) {
  const Result whole = parse_pieces({input}, limits, stop_after_events);

  std::vector<std::string_view> bytes;
  for (std::size_t i = 0; i < input.size(); ++i) bytes.push_back(input.substr(i, 1));
  expect_same(whole, parse_pieces(bytes, limits, stop_after_events), "one byte at a time");

  for (std::size_t i = 0; i <= input.size(); ++i) {
    const Result split =
        parse_pieces({input.substr(0, i), input.substr(i)}, limits, stop_after_events);
    expect_same(whole, split, "split at " + std::to_string(i));
  }

  if (input.size() <= 64) {
    for (std::size_t i = 0; i <= input.size(); ++i) {
      for (std::size_t j = i; j <= input.size(); ++j) {
        const Result split =
            parse_pieces({input.substr(0, i), input.substr(i, j - i), input.substr(j)}, limits,
                         stop_after_events);
        expect_same(whole, split, "split at " + std::to_string(i) + " and " + std::to_string(j));
      }
    }
  }
  return whole;
}

using Output = std::vector<std::string>;

TEST(SseParser, DispatchesSimpleMessageEvent) {
  const Result result = parse_all_ways("data:hello\n\n");
  EXPECT_EQ(result.output, Output{event("hello")});
  EXPECT_EQ(result.status, Status::ok);
  EXPECT_FALSE(result.discarded);
}

TEST(SseParser, BlankLineWithoutDataDispatchesNothing) {
  EXPECT_EQ(parse_all_ways("\n").output, Output{});
  EXPECT_EQ(parse_all_ways("\n\n\r\n\r").output, Output{});
}

TEST(SseParser, EmptyDataFieldDispatchesEventWithEmptyData) {
  EXPECT_EQ(parse_all_ways("data:\n\n").output, Output{event("")});
  EXPECT_EQ(parse_all_ways("data\n\n").output, Output{event("")});
}

TEST(SseParser, AllowsVariousNewlines) {
  EXPECT_EQ(parse_all_ways("data:hello\r\n\rdata:bye\r\r").output,
            (Output{event("hello"), event("bye")}));
  EXPECT_EQ(parse_all_ways("data:a\n\rdata:b\r\n\r\ndata:c\r\n\n").output,
            (Output{event("a"), event("b"), event("c")}));
}

TEST(SseParser, AcceptsCrlfAndLoneCrTerminators) {
  EXPECT_EQ(parse_all_ways("data:hello\r\n\r\n").output, Output{event("hello")});
  EXPECT_EQ(parse_all_ways("data:hello\r\r").output, Output{event("hello")});
}

TEST(SseParser, SplitsCrlfAcrossReads) {
  Parser parser;
  RecordingSink sink;
  // The CR ending the blank line dispatches at once: no waiting to see whether an LF follows.
  EXPECT_EQ(parser.feed("data:a\r\n\r", sink), Status::ok);
  EXPECT_EQ(sink.output, Output{event("a")});
  // The LF that completes that CRLF is not a second blank line...
  EXPECT_EQ(parser.feed("\n", sink), Status::ok);
  EXPECT_EQ(parser.feed("data:b\r", sink), Status::ok);
  // ...and neither is this one, which completes "data:b\r".
  EXPECT_EQ(parser.feed("\ndata:c\r", sink), Status::ok);
  EXPECT_EQ(sink.output, Output{event("a")});
  // A CR after a CR is a blank line of its own.
  EXPECT_EQ(parser.feed("\r", sink), Status::ok);
  EXPECT_EQ(sink.output, (Output{event("a"), event("b\nc")}));
  EXPECT_FALSE(parser.finish());
}

TEST(SseParser, CrAtEndOfReadDoesNotSwallowNonLfByte) {
  EXPECT_EQ(parse_all_ways("data:a\rdata:b\r\r").output, Output{event("a\nb")});
}

TEST(SseParser, IgnoresBomAtStreamStart) {
  EXPECT_EQ(parse_all_ways("\xEF\xBB\xBF"
                           "data:hello\n\n")
                .output,
            Output{event("hello")});
}

TEST(SseParser, IgnoresBomFedOneByteAtATime) {
  Parser parser;
  RecordingSink sink;
  for (char c :
       "\xEF\xBB\xBF"
       "data:hello\n\n"s)
    parser.feed(std::string_view(&c, 1), sink);
  EXPECT_EQ(sink.output, Output{event("hello")});
}

TEST(SseParser, DoesNotStripBomLaterInStream) {
  // A second BOM, or one after the first line, is part of a field name, which is then unknown.
  EXPECT_EQ(parse_all_ways("\xEF\xBB\xBF\xEF\xBB\xBF"
                           "data:a\n\ndata:b\n\n")
                .output,
            Output{event("b")});
  EXPECT_EQ(parse_all_ways("data:a\n\n\xEF\xBB\xBF"
                           "data:b\n\n")
                .output,
            Output{event("a")});
}

TEST(SseParser, TreatsBytesThatAreNotABomAsLineBytes) {
  // EF alone, or EF BB followed by something else, starts a field name; nothing is dropped.
  EXPECT_EQ(parse_all_ways("\xEF"
                           "data:a\n\ndata:b\n\n")
                .output,
            Output{event("b")});
  EXPECT_EQ(parse_all_ways("\xEF\xBB"
                           "data:a\n\ndata:b\n\n")
                .output,
            Output{event("b")});
  EXPECT_EQ(parse_all_ways("\xEF\xBB:comment\n").output, Output{});
  EXPECT_EQ(parse_all_ways(":\xEF\xBB\xBF\n").output, Output{"comment \xEF\xBB\xBF"});
  EXPECT_EQ(parse_all_ways("\xEF\xBB\n"
                           "data:c\n\n")
                .output,
            Output{event("c")});
}

TEST(SseParser, PartialBomAtEndOfStreamIsDiscardedInput) {
  EXPECT_TRUE(parse_all_ways("\xEF\xBB").discarded);
  EXPECT_FALSE(parse_all_ways("\xEF\xBB\xBF").discarded);
  EXPECT_FALSE(parse_all_ways("").discarded);
}

TEST(SseParser, ReportsCommentsAndIgnoresThem) {
  const Result result = parse_all_ways(": ping\ndata:hello\n:event:a\n\n");
  EXPECT_EQ(result.output, (Output{"comment  ping", "comment event:a", event("hello")}));

  Parser parser;
  RecordingSink sink;
  parser.feed(": ping\n\n:\n\n", sink);
  EXPECT_EQ(parser.comments_seen(), 2);
}

TEST(SseParser, SkipsAtMostOneLeadingSpace) {
  EXPECT_EQ(parse_all_ways("data:  hello  \nevent:  type \n\n").output,
            Output{event(" hello  ", " type ")});
  // A tab is not a space.
  EXPECT_EQ(parse_all_ways("data:\thello\n\n").output, Output{event("\thello")});
}

TEST(SseParser, SplitsFieldAtFirstColon) {
  EXPECT_EQ(parse_all_ways("data: a:b: c\n\n").output, Output{event("a:b: c")});
  EXPECT_EQ(parse_all_ways("data::\n\n").output, Output{event(":")});
}

TEST(SseParser, TreatsColonlessLineAsFieldWithEmptyValue) {
  // "event" alone sets an empty type, which dispatches as "message".
  EXPECT_EQ(parse_all_ways("data:hello\nevent:a\nevent\n\n").output, Output{event("hello")});
}

TEST(SseParser, AccumulatesDataLinesJoinedWithLf) {
  EXPECT_EQ(parse_all_ways("data\ndata:hello\ndata: world\ndata\n\n").output,
            Output{event("\nhello\nworld\n")});
}

TEST(SseParser, ResetsDataAfterDispatch) {
  EXPECT_EQ(parse_all_ways("data:hello\n\n\n").output, Output{event("hello")});
  EXPECT_EQ(parse_all_ways("data:a\n\ndata:b\n\n").output, (Output{event("a"), event("b")}));
}

TEST(SseParser, EventTypeDoesNotAccumulate) {
  EXPECT_EQ(parse_all_ways("event:foo\nevent:bar\ndata:hello\n\n").output,
            Output{event("hello", "bar")});
}

TEST(SseParser, ResetsEventTypeAfterDispatch) {
  EXPECT_EQ(parse_all_ways("event:foo\ndata:hello\n\ndata:bye\n\n").output,
            (Output{event("hello", "foo"), event("bye")}));
}

TEST(SseParser, ResetsEventTypeEvenWhenNothingIsDispatched) {
  EXPECT_EQ(parse_all_ways("event:foo\n\ndata:bye\n\n").output, Output{event("bye")});
}

TEST(SseParser, KeepsLastEventIdAcrossEvents) {
  EXPECT_EQ(parse_all_ways("id:99\ndata:hello\n\ndata:bye\n\n").output,
            (Output{event("hello", "message", "99"), event("bye", "message", "99")}));
}

TEST(SseParser, UpdatesLastEventIdEvenWhenDataIsEmpty) {
  EXPECT_EQ(parse_all_ways("id:99\n\ndata:hi\n\n").output, Output{event("hi", "message", "99")});
  EXPECT_EQ(parse_all_ways("id:1\ndata:a\n\nid\ndata:b\n\n").output,
            (Output{event("a", "message", "1"), event("b", "message", "")}));
}

TEST(SseParser, IgnoresIdContainingNul) {
  EXPECT_EQ(parse_all_ways("id:99\ndata:hello\n\nid:4\0 23\ndata:bye\n\n"s).output,
            (Output{event("hello", "message", "99"), event("bye", "message", "99")}));
}

TEST(SseParser, KeepsNulAndInvalidUtf8InData) {
  EXPECT_EQ(parse_all_ways("data:a\0b\n\n"s).output, Output{event("a\0b"s)});
  EXPECT_EQ(parse_all_ways("data:\xFFhello\xC2\ndata:bye\n\n").output,
            Output{event("\xFFhello\xC2\nbye")});
  EXPECT_EQ(parse_all_ways("data:\xF0\x90\x8C\x80\n\n").output, Output{event("\xF0\x90\x8C\x80")});
}

TEST(SseParser, AppliesRetryEvenWhenNotDispatching) {
  EXPECT_EQ(parse_all_ways("retry:999\n").output, Output{"retry 999"});
}

TEST(SseParser, IgnoresRetryThatIsNotAllDigits) {
  EXPECT_EQ(parse_all_ways("retry:  1234\nretry:456 \nretry:2a\nretry:a0\nretry:-1\nretry\n"
                           "retry:\nretry:99999999999999999999\nretry: 789\n")
                .output,
            Output{"retry 789"});
}

TEST(SseParser, IgnoresUnknownAndCaseDifferentFields) {
  EXPECT_EQ(parse_all_ways("data:hello\nhoge:fuga\npiyo\n\n").output, Output{event("hello")});
  EXPECT_EQ(parse_all_ways("Data:x\nDATA:y\nEvent:foo\nID:7\nRetry:5\ndata:z\n\n").output,
            Output{event("z")});
}

TEST(SseParser, StopsWhileParsingWhenSinkReturnsFalse) {
  const Result result = parse_all_ways("data:hello\n\ndata:bye\n\n", {}, 1);
  EXPECT_EQ(result.output, Output{event("hello")});
  EXPECT_EQ(result.status, Status::stopped);

  Parser parser;
  RecordingSink sink(1);
  EXPECT_EQ(parser.feed("data:a\n\ndata:b\n\n", sink), Status::stopped);
  EXPECT_EQ(parser.feed("data:c\n\n", sink), Status::stopped);
  EXPECT_EQ(sink.output, Output{event("a")});
}

TEST(SseParser, FinishDiscardsPartialEvent) {
  Result result = parse_all_ways("data:a\n\ndata:b\n");
  EXPECT_EQ(result.output, Output{event("a")});
  EXPECT_TRUE(result.discarded);

  result = parse_all_ways("data:a\n\ndata:b");
  EXPECT_EQ(result.output, Output{event("a")});
  EXPECT_TRUE(result.discarded);

  EXPECT_TRUE(parse_all_ways("data:a\n\n:half a comment").discarded);
  EXPECT_FALSE(parse_all_ways("data:a\n\n").discarded);
  EXPECT_FALSE(parse_all_ways("data:a\r\n\r").discarded);
  // Only an event type, no data: nothing would have fired, so nothing was lost.
  EXPECT_FALSE(parse_all_ways("data:a\n\nevent:x\n").discarded);
}

TEST(SseParser, RejectsLineLongerThanLimit) {
  const Limits limits{8, 1 << 20};
  Result result = parse_all_ways("data:abc\n\n", limits);  // exactly 8 bytes: accepted
  EXPECT_EQ(result.output, Output{event("abc")});
  EXPECT_EQ(result.status, Status::ok);

  result = parse_all_ways("data:a\n\ndata:abcd\n\ndata:c\n\n", limits);
  EXPECT_EQ(result.output, Output{event("a")});
  EXPECT_EQ(result.status, Status::line_too_long);

  // An unterminated line is caught too, before its end ever arrives.
  result = parse_all_ways(":123456789", limits);
  EXPECT_EQ(result.status, Status::line_too_long);
}

TEST(SseParser, RejectsEventLargerThanLimit) {
  const Limits limits{1 << 20, 5};
  Result result = parse_all_ways("data:ab\ndata:ab\n\n", limits);  // "ab\nab": 5 bytes
  EXPECT_EQ(result.output, Output{event("ab\nab")});
  EXPECT_EQ(result.status, Status::ok);

  result = parse_all_ways("data:ab\ndata:abc\n\ndata:x\n\n", limits);
  EXPECT_EQ(result.output, Output{});
  EXPECT_EQ(result.status, Status::event_too_big);
}

TEST(SseParser, StaysSpentAfterError) {
  Parser parser(Limits{4, 4});
  RecordingSink sink;
  EXPECT_EQ(parser.feed("data:long\n\n", sink), Status::line_too_long);
  EXPECT_EQ(parser.feed("\n\n", sink), Status::line_too_long);
  EXPECT_TRUE(sink.output.empty());
}

TEST(SseParser, ResetClearsLastIdAndBomDetection) {
  Parser parser;
  RecordingSink sink;
  parser.feed("\xEF\xBB\xBFid:7\ndata:a\n\ndata:partial", sink);
  parser.reset();
  parser.feed(
      "\xEF\xBB\xBF"
      "data:b\n\n",
      sink);
  EXPECT_EQ(sink.output, (Output{event("a", "message", "7"), event("b")}));
  EXPECT_FALSE(parser.finish());
}

TEST(SseParser, DeliversLongLineArrivingInManySmallReads) {
  const std::string payload(300000, 'x');
  const std::string input = "data:" + payload + "\n\n";
  Parser parser;
  RecordingSink sink;
  for (std::size_t i = 0; i < input.size(); i += 7) {
    ASSERT_EQ(parser.feed(std::string_view(input).substr(i, 7), sink), Status::ok);
  }
  EXPECT_EQ(sink.output, Output{event(payload)});
}

// --- reference transcripts --------------------------------------------------------------------

using bench::testing::read_file;

std::vector<std::filesystem::path> reference_streams() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(BENCH_REFERENCE_DIR)) {
    if (entry.path().extension() == ".sse") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(SseParserReference, EveryTranscriptGivesTheSameEventsAtEverySplit) {
  const std::vector<std::filesystem::path> paths = reference_streams();
  ASSERT_GE(paths.size(), 10u) << "reference transcripts missing from " << BENCH_REFERENCE_DIR;
  for (const std::filesystem::path& path : paths) {
    SCOPED_TRACE(path.filename().string());
    const std::string input = read_file(path);
    ASSERT_FALSE(input.empty());
    // parse_all_ways checks every single split (and pairs when the input is short).
    const Result whole = parse_all_ways(input);
    EXPECT_EQ(whole.status, Status::ok);
    EXPECT_GE(whole.output.size(), 1u);
  }
}

// Two cuts up to 64 bytes apart: a field name, a CRLF, a blank line or a short line split
// across three reads, with a middle piece of every length up to 64. Cuts further apart mostly
// repeat what one cut on each side shows (the test above), at a quadratic cost (5x this one's
// under the sanitizers); the fuzzer tries arbitrary splits.
TEST(SseParserReference, SmallTranscriptsGiveTheSameEventsAtEveryPairOfNearSplits) {
  constexpr std::size_t kMaxGap = 64;
  for (const std::filesystem::path& path : reference_streams()) {
    const std::string input = read_file(path);
    if (input.size() > 600) continue;
    SCOPED_TRACE(path.filename().string());
    const std::string_view view = input;
    const Result whole = parse_pieces({view}, {}, -1);
    for (std::size_t i = 0; i <= view.size(); ++i) {
      for (std::size_t j = i; j <= std::min(view.size(), i + kMaxGap); ++j) {
        const Result split =
            parse_pieces({view.substr(0, i), view.substr(i, j - i), view.substr(j)}, {}, -1);
        if (split.output != whole.output || split.discarded != whole.discarded) {
          ADD_FAILURE() << "differs when split at " << i << " and " << j;
          return;
        }
      }
    }
  }
}

TEST(SseParserReference, CrlfTranscriptFollowsTheRules) {
  const std::string input =
      read_file(std::filesystem::path(BENCH_REFERENCE_DIR) / "crlf-comments-multiline.sse");
  const Result result = parse_all_ways(input);
  ASSERT_EQ(result.output.size(), 6u);
  EXPECT_EQ(result.output[0], "comment  ping");
  EXPECT_EQ(result.output[1].rfind("event type=message data={\"id\":\"c\"", 0), 0u);
  EXPECT_NE(result.output[1].find(" id=1"), std::string::npos);
  EXPECT_EQ(result.output[2].rfind("event type=message data={\n \"id\": \"c\",\n", 0), 0u);
  EXPECT_EQ(result.output[3], "retry 1000");
  EXPECT_EQ(result.output[5], event("[DONE]", "message", "1"));
  EXPECT_FALSE(result.discarded);
}

}  // namespace
