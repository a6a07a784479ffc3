// Where a message ends, fed whole, byte by byte and at every split point: the recorder must
// give every byte to the right exchange whatever pieces the socket delivers.
#include "bench/record/http_framing.hpp"
#include "bench/record/record.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using bench::record::ResponseFramer;

// Feeds `bytes` split at `split` (and then the rest); returns the bytes the framer took.
std::size_t feed_split(ResponseFramer& framer, const std::string& bytes, std::size_t split) {
  std::size_t used = framer.feed(std::string_view(bytes).substr(0, split));
  if (framer.complete()) return used;
  return used + framer.feed(std::string_view(bytes).substr(split));
}

const std::string kChunked =
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    "6\r\ndata: \r\n"
    "a\r\n{\"x\":1}\n\n\r\n"
    "0\r\n\r\n";

TEST(ResponseFramer, EndsAChunkedResponseAtItsLastChunkAtEverySplitPoint) {
  const std::string next = "HTTP/1.1 200 OK\r\n";
  const std::string bytes = kChunked + next;  // the next response's first bytes follow
  for (std::size_t split = 0; split <= bytes.size(); ++split) {
    ResponseFramer framer;
    EXPECT_EQ(feed_split(framer, bytes, split), kChunked.size()) << "split at " << split;
    EXPECT_TRUE(framer.complete()) << "split at " << split;
  }
}

TEST(ResponseFramer, EndsAChunkedResponseFedByteByByte) {
  ResponseFramer framer;
  std::size_t used = 0;
  for (char c : kChunked) {
    EXPECT_FALSE(framer.complete());
    used += framer.feed(std::string_view(&c, 1));
  }
  EXPECT_EQ(used, kChunked.size());
  EXPECT_TRUE(framer.complete());
}

TEST(ResponseFramer, EndsAContentLengthResponseAfterItsBody) {
  const std::string response = "HTTP/1.1 400 Bad Request\r\nContent-Length: 5\r\n\r\n{\"a\"}";
  for (std::size_t split = 0; split <= response.size(); ++split) {
    ResponseFramer framer;
    EXPECT_EQ(feed_split(framer, response + "HTTP", split), response.size()) << split;
    EXPECT_TRUE(framer.complete()) << split;
  }
}

TEST(ResponseFramer, ABodyWithNoLengthRunsUntilTheClose) {
  ResponseFramer framer;
  framer.feed("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nabc");
  EXPECT_FALSE(framer.complete());
  EXPECT_TRUE(framer.until_close());
}

TEST(ResponseFramer, NoBodyFollowsA204OrTheAnswerToAHead) {
  ResponseFramer no_content;
  no_content.feed("HTTP/1.1 204 No Content\r\n\r\n");
  EXPECT_TRUE(no_content.complete());
  ResponseFramer head(/*head_request=*/true);
  head.feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n");
  EXPECT_TRUE(head.complete());
}

TEST(RequestLength, CountsTheHeadAndTheContentLengthBody) {
  const std::string request = "POST /v1/completions HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}";
  EXPECT_EQ(bench::record::request_length(request), request.size());
  EXPECT_EQ(bench::record::request_length(request + "GET"), request.size());
  EXPECT_FALSE(bench::record::request_length(request.substr(0, request.size() - 1)));
  const auto [method, target] = bench::record::request_line(request);
  EXPECT_EQ(method, "POST");
  EXPECT_EQ(target, "/v1/completions");
}

TEST(ParseUpstream, TakesHttpHostAndPortAndRefusesWhatItCannotForward) {
  const auto good = bench::record::parse_upstream("http://gpu-box:8000/");
  ASSERT_TRUE(std::holds_alternative<bench::record::Upstream>(good));
  EXPECT_EQ(std::get<bench::record::Upstream>(good).host, "gpu-box");
  EXPECT_EQ(std::get<bench::record::Upstream>(good).port, 8000);
  for (const char* bad : {"https://gpu-box:8000", "http://gpu-box:8000/v1", "http://u:p@gpu-box",
                          "http://gpu-box:99999", "gpu-box:8000"}) {
    EXPECT_TRUE(std::holds_alternative<std::string>(bench::record::parse_upstream(bad))) << bad;
  }
}

TEST(ResponseBody, UndoesTheChunkedCodingAndCutsAtTheContentLength) {
  EXPECT_EQ(bench::record::response_body("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                         "6\r\ndata: \r\n9;ext=1\r\n{\"x\":1}\n\n\r\n0\r\n\r\n"),
            "data: {\"x\":1}\n\n");
  EXPECT_EQ(bench::record::response_body("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"), "{}");
  EXPECT_EQ(bench::record::response_body("HTTP/1.0 200 OK\r\n\r\nuntil the close"),
            "until the close");
  EXPECT_EQ(bench::record::response_body("HTTP/1.1 100 Continue\r\n\r\n"
                                         "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx"),
            "x");
}

TEST(ResponseBody, IsNoneForAResponseCutShort) {
  EXPECT_FALSE(bench::record::response_body("HTTP/1.1 200 OK\r\nContent-Len"));
  EXPECT_FALSE(bench::record::response_body("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}"));
  EXPECT_FALSE(bench::record::response_body(kChunked.substr(0, kChunked.size() - 12)));
}

TEST(HeaderValue, FindsAHeaderWhateverTheCaseOfItsNameAndTrimsItsValue) {
  const std::string head = "POST / HTTP/1.1\r\nX-Session-ID:  s-1 \r\nHost: x\r\n";
  EXPECT_EQ(bench::record::header_value(head, "x-session-id"), "s-1");
  EXPECT_FALSE(bench::record::header_value(head, "session-id"));
}

}  // namespace
