// The request log read back: a line bench writes is read with the fields peer_view needs, an
// older line without the choice chunks leaves them unknown, and a line that is not one is refused
// naming its line number.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "bench/results/request_log.hpp"
#include "run_process.hpp"

namespace request_log_test {

using bench::results::FormatError;
using bench::results::LoggedRequest;
using bench::results::parse_request_line;
using bench::results::read_request_log;

TEST(RequestLogRead, ReadsTheFieldsOfALine) {
  const auto line = parse_request_line(
      R"({"index":0,"warmup":false,"streamed":true,"start_ms":1.5,"ttft_ms":40.0,"e2e_ms":58.0,)"
      R"("chunk_arrival_ms":[40.0,48.0],"chunk_tokens":null,"first_choice_ms":1.0,)"
      R"("last_choice_ms":57.0,"choice_chunks":4,"prompt_tokens":10,"completion_tokens":2,)"
      R"("completion_token_source":"usage","client_prompt_tokens":null,)"
      R"("requested_output_len":2,"tool_call_chunks":0,"status":"ok"})");
  ASSERT_TRUE(std::holds_alternative<LoggedRequest>(line));
  const LoggedRequest& r = std::get<LoggedRequest>(line);
  EXPECT_TRUE(r.ok);
  EXPECT_DOUBLE_EQ(r.start_ms, 1.5);
  EXPECT_EQ(r.chunk_arrival_ms, (std::vector<double>{40.0, 48.0}));
  EXPECT_EQ(r.first_choice_ms, 1.0);
  EXPECT_EQ(r.choice_chunks, 4);
  EXPECT_EQ(r.completion_tokens, 2);
  EXPECT_FALSE(r.client_prompt_tokens.has_value());
}

TEST(RequestLogRead, AnOlderLineLeavesTheChoiceChunksUnknown) {
  const auto line =
      parse_request_line(R"({"start_ms":0.0,"e2e_ms":5.0,"status":"http_5xx","warmup":true})");
  ASSERT_TRUE(std::holds_alternative<LoggedRequest>(line));
  const LoggedRequest& r = std::get<LoggedRequest>(line);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.warmup);
  EXPECT_FALSE(r.choice_chunks.has_value());
}

TEST(RequestLogRead, RefusesALineThatIsNotOneNamingIt) {
  bench::testing::TempDir temp;
  const std::string path = temp.file("log.jsonl");
  std::ofstream(path) << R"({"start_ms":0.0,"e2e_ms":5.0,"status":"ok"})"
                      << "\n"
                      << R"({"a":1})"
                      << "\n";
  const auto log = read_request_log(path);
  ASSERT_TRUE(std::holds_alternative<FormatError>(log));
  EXPECT_NE(std::get<FormatError>(log).message.find(":2:"), std::string::npos);
}

TEST(RequestLogRead, RefusesAKeyOfTheWrongType) {
  const auto line = parse_request_line(R"({"start_ms":"soon","e2e_ms":5.0})");
  EXPECT_TRUE(std::holds_alternative<FormatError>(line));
}

}  // namespace request_log_test
