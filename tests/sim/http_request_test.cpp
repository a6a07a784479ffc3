// The embedded server's HTTP/1.1 request reader: framing by Content-Length, keep-alive rules,
// pipelining, refusals with the right status, and the same result however the bytes arrive.
#include <gtest/gtest.h>

#include <string>

#include "bench/sim/http_request.hpp"

namespace {

using bench::sim::HttpLimits;
using bench::sim::HttpParse;
using bench::sim::HttpRequest;
using bench::sim::parse_http_request;
using Status = HttpParse::Status;

const std::string kPost =
    "POST /v1/completions?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    "Content-Length: 13\r\n\r\n{\"prompt\":1}\n";

TEST(HttpRequest, ReadsMethodPathHeadersAndBody) {
  HttpRequest request;
  const HttpParse parse = parse_http_request(kPost, request);
  ASSERT_EQ(parse.status, Status::complete);
  EXPECT_EQ(parse.consumed, kPost.size());
  EXPECT_EQ(request.method, "POST");
  EXPECT_EQ(request.target, "/v1/completions");  // query string removed
  EXPECT_EQ(request.header("content-type"), "application/json");
  EXPECT_EQ(request.body, "{\"prompt\":1}\n");
  EXPECT_TRUE(request.keep_alive);
}

TEST(HttpRequest, IsIncompleteAtEverySplitPointBeforeTheLastByte) {
  for (std::size_t cut = 0; cut < kPost.size(); ++cut) {
    HttpRequest request;
    EXPECT_EQ(parse_http_request(kPost.substr(0, cut), request).status, Status::incomplete)
        << "cut at " << cut;
  }
}

TEST(HttpRequest, LeavesAPipelinedSecondRequestInTheBuffer) {
  const std::string second = "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n";
  const std::string both = kPost + second;
  HttpRequest request;
  const HttpParse first = parse_http_request(both, request);
  ASSERT_EQ(first.status, Status::complete);
  EXPECT_EQ(first.consumed, kPost.size());
  const HttpParse next = parse_http_request(both.substr(first.consumed), request);
  ASSERT_EQ(next.status, Status::complete);
  EXPECT_EQ(request.method, "GET");
  EXPECT_EQ(request.target, "/v1/models");
  EXPECT_TRUE(request.body.empty());
}

TEST(HttpRequest, ConnectionCloseAndHttp10EndKeepAlive) {
  HttpRequest request;
  ASSERT_EQ(parse_http_request("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n", request).status,
            Status::complete);
  EXPECT_FALSE(request.keep_alive);
  ASSERT_EQ(parse_http_request("GET / HTTP/1.0\r\n\r\n", request).status, Status::complete);
  EXPECT_FALSE(request.keep_alive);
  ASSERT_EQ(parse_http_request("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", request).status,
            Status::complete);
  EXPECT_TRUE(request.keep_alive);
}

TEST(HttpRequest, SkipsEmptyLinesBeforeTheRequestLine) {
  HttpRequest request;
  const std::string bytes = "\r\n\r\nGET /health HTTP/1.1\r\n\r\n";
  const HttpParse parse = parse_http_request(bytes, request);
  ASSERT_EQ(parse.status, Status::complete);
  EXPECT_EQ(parse.consumed, bytes.size());
  EXPECT_EQ(request.target, "/health");
}

struct Refusal {
  std::string bytes;
  int status;
};

class RefusedRequest : public ::testing::TestWithParam<Refusal> {};

TEST_P(RefusedRequest, IsAnErrorWithTheMatchingStatus) {
  HttpRequest request;
  HttpLimits limits;
  limits.max_body_bytes = 100;
  limits.max_header_bytes = 200;
  const HttpParse parse = parse_http_request(GetParam().bytes, request, limits);
  EXPECT_EQ(parse.status, Status::error);
  EXPECT_EQ(parse.error_status, GetParam().status);
  EXPECT_FALSE(parse.error_message.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Http, RefusedRequest,
    ::testing::Values(Refusal{"GARBAGE\r\n\r\n", 400}, Refusal{"GET / HTTP/2.0\r\n\r\n", 505},
                      Refusal{"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411},
                      Refusal{"POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n", 413},
                      Refusal{"POST / HTTP/1.1\r\nContent-Length: 12x\r\n\r\n", 400},
                      Refusal{"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                              400},
                      Refusal{"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400},
                      Refusal{"GET / HTTP/1.1\r\nX: " + std::string(300, 'a') + "\r\n\r\n", 431},
                      Refusal{"GET / HTTP/1.1\r\nX: " + std::string(300, 'a'), 431}));

}  // namespace
