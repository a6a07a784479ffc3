// The Responses API's (issue 31) and the Messages API's (issue 48) first token and chunk gaps
// against the simulator's truth log, as chat's are, for the same simulated answers: the events
// that carry tokens are timed where the simulator sent them.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "endpoint_runs.hpp"

namespace {

using bench::testing::EndpointRun;
using bench::testing::run_endpoint;
using nlohmann::json;

// Each run's first token and chunk gaps, request by request, against its own truth log: the
// times the simulator handed each token's event to the socket.
void expect_times_of_truth(const EndpointRun& run) {
  for (const json& request : run.requests) {
    SCOPED_TRACE(request.dump());
    const json& truth = run.truth.at(request["response_id"].get<std::string>());
    const std::vector<double> arrivals = request["chunk_arrival_ms"].get<std::vector<double>>();
    const std::vector<std::int64_t> sent = truth["chunk_ns"].get<std::vector<std::int64_t>>();
    ASSERT_EQ(arrivals.size(), sent.size());
    for (std::size_t k = 1; k < sent.size(); ++k) {
      const double truth_gap_ms = static_cast<double>(sent[k] - sent[k - 1]) / 1e6;
      EXPECT_NEAR(arrivals[k] - arrivals[k - 1], truth_gap_ms, 15.0) << "gap " << k;
    }
    const double truth_ttft_ms = static_cast<double>(truth["first_chunk_ns"].get<std::int64_t>() -
                                                     truth["arrival_ns"].get<std::int64_t>()) /
                                 1e6;
    // bench's clock starts before the send, the server's at the arrival: bench's is longer.
    EXPECT_GE(request["ttft_ms"].get<double>(), truth_ttft_ms - 1.0);
    EXPECT_LT(request["ttft_ms"].get<double>(), truth_ttft_ms + 25.0);
  }
}

TEST(Endpoints, ResponsesTtftAndGapsAreTheSimulatorsAsChatsAre) {
  const EndpointRun chat = run_endpoint("chat", {});
  const EndpointRun responses = run_endpoint("responses", {});
  ASSERT_EQ(chat.process.exit_code, 0) << chat.process.err;
  ASSERT_EQ(responses.process.exit_code, 0) << responses.process.err;
  expect_times_of_truth(chat);
  expect_times_of_truth(responses);
  // The fixed profile times both alike: 30 ms to the first token, 4 ms a token after it.
  EXPECT_NEAR(responses.results["median_ttft_ms"].get<double>(),
              chat.results["median_ttft_ms"].get<double>(), 15.0);
  EXPECT_NEAR(responses.results["median_itl_ms"].get<double>(),
              chat.results["median_itl_ms"].get<double>(), 3.0);
}

// Anthropic's content_block_delta events (text_delta, thinking_delta, input_json_delta) are
// timed as chat's chunks: same first token, same gaps, each against the simulator's own times.
TEST(Endpoints, MessagesTtftAndGapsAreTheSimulatorsAsChatsAre) {
  const EndpointRun chat = run_endpoint("chat", {});
  const EndpointRun messages = run_endpoint("messages", {});
  ASSERT_EQ(chat.process.exit_code, 0) << chat.process.err;
  ASSERT_EQ(messages.process.exit_code, 0) << messages.process.err;
  expect_times_of_truth(messages);
  EXPECT_NEAR(messages.results["median_ttft_ms"].get<double>(),
              chat.results["median_ttft_ms"].get<double>(), 15.0);
  EXPECT_NEAR(messages.results["median_itl_ms"].get<double>(),
              chat.results["median_itl_ms"].get<double>(), 3.0);
}

}  // namespace
