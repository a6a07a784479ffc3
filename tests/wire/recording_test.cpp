// A wire recording written and read back is the same exchange, and a damaged one is refused
// naming its file.
#include "bench/wire/recording.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run_process.hpp"

namespace {

using bench::wire::Exchange;

Exchange sample_exchange() {
  Exchange exchange;
  exchange.name = "000001";
  exchange.connection = 3;
  exchange.shape = bench::wire::shape_of("POST", "/v1/completions?x=1", R"({"stream": true})");
  exchange.request_headers = {{"Authorization", "[REDACTED]"}};
  exchange.request_body = R"({"stream": true})";
  exchange.response = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n\xff\x00z";
  exchange.response.push_back('\0');
  exchange.status = 200;
  exchange.reads = {{1'500, 20}, {2'500'000, exchange.response.size()}};
  exchange.close = {bench::wire::Close::How::fin, 67'000, false};
  return exchange;
}

TEST(WireRecording, AnExchangeWrittenAndReadBackIsTheSameBytesAndTimes) {
  bench::testing::TempDir dir;
  const Exchange written = sample_exchange();
  bench::wire::write_exchange(dir.path(), written);
  const auto loaded = bench::wire::load_recording(dir.path());
  ASSERT_TRUE(std::holds_alternative<std::vector<Exchange>>(loaded));
  const Exchange& read = std::get<std::vector<Exchange>>(loaded).at(0);
  EXPECT_EQ(read.shape, (bench::wire::Shape{"POST", "/v1/completions", true}));
  EXPECT_EQ(read.response, written.response);
  EXPECT_EQ(read.request_body, written.request_body);
  ASSERT_EQ(read.reads.size(), 2u);
  EXPECT_EQ(read.reads[0].at_ns, 1'500);
  EXPECT_EQ(read.reads[1].end, written.response.size());
  EXPECT_EQ(read.close.how, bench::wire::Close::How::fin);
  EXPECT_EQ(read.close.after_last_byte_ns, 67'000);
  EXPECT_EQ(read.request_headers, written.request_headers);
  EXPECT_EQ(read.connection, 3);
}

TEST(WireRecording, ReadsThatDoNotCoverTheResponseAreRefusedNamingTheFile) {
  bench::testing::TempDir dir;
  Exchange exchange = sample_exchange();
  exchange.reads.pop_back();
  bench::wire::write_exchange(dir.path(), exchange);
  const auto loaded = bench::wire::load_recording(dir.path());
  ASSERT_TRUE(std::holds_alternative<bench::wire::WireError>(loaded));
  EXPECT_NE(std::get<bench::wire::WireError>(loaded).message.find("000001.json"),
            std::string::npos);
}

TEST(WireRecording, TheShapeOfARequestIsItsMethodPathAndStreamFlagNeverItsPrompt) {
  EXPECT_EQ(
      bench::wire::shape_of("POST", "/v1/chat/completions", R"({"prompt":"a","stream":true})"),
      bench::wire::shape_of("POST", "/v1/chat/completions", R"({"prompt":"b","stream":true})"));
  EXPECT_FALSE(bench::wire::shape_of("POST", "/v1/completions", R"({"stream":"yes"})").stream);
  EXPECT_FALSE(bench::wire::shape_of("POST", "/v1/completions", "not json").stream);
  EXPECT_EQ(bench::wire::status_of("HTTP/1.1 404 Not Found\r\n"), 404);
  EXPECT_EQ(bench::wire::status_of("garbage"), 0);
}

}  // namespace
