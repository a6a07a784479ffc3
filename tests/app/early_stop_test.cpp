// EarlyStop: a run stops only when its first requests to end were all refused for good (the
// credentials, an unknown model), and says why with the status and what to check.
#include "bench/app/point/early_stop.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using bench::app::describe_refusal;
using bench::app::EarlyStop;
using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;

RequestRecord failed(long http_status, std::string message) {
  RequestRecord record;
  record.error = http_status >= 500 ? ErrorClass::http_5xx : ErrorClass::http_4xx;
  record.http_status = http_status;
  record.error_message = "HTTP " + std::to_string(http_status) + ": " + message;
  return record;
}

TEST(EarlyStop, StopsWhenTheFirstRequestsAreAllRefused) {
  EarlyStop watch(3);
  watch.observe(failed(401, "bad key"));
  watch.observe(failed(403, "no access"));
  EXPECT_FALSE(watch.stopping());
  EXPECT_EQ(watch.reason(), "");
  watch.observe(failed(401, "bad key"));
  EXPECT_TRUE(watch.stopping());
  EXPECT_EQ(watch.reason(),
            "stopped after the first 3 requests all failed with HTTP 401 (unauthorized): bad key; "
            "check --api-key or OPENAI_API_KEY (or the credential --header)");
}

TEST(EarlyStop, OneOtherOutcomeAmongTheFirstKeepsTheRunGoing) {
  EarlyStop watch(3);
  watch.observe(failed(401, "bad key"));
  watch.observe(RequestRecord{});  // completed
  for (int i = 0; i < 10; ++i) watch.observe(failed(401, "bad key"));
  EXPECT_FALSE(watch.stopping());
}

TEST(EarlyStop, PassingFailuresDoNotStopTheRun) {
  EarlyStop watch(2);
  watch.observe(failed(500, "overloaded"));
  watch.observe(failed(429, "slow down"));
  watch.observe(failed(404, "Not Found"));  // a 404 that does not name the model
  EXPECT_FALSE(watch.stopping());
}

TEST(EarlyStop, CancelledRequestsAreNotCounted) {
  EarlyStop watch(2);
  RequestRecord cancelled;
  cancelled.error = ErrorClass::cancelled;
  watch.observe(failed(401, "bad key"));
  watch.observe(cancelled);
  watch.observe(failed(401, "bad key"));
  EXPECT_TRUE(watch.stopping());
}

TEST(DescribeRefusal, NamesTheStatusAndWhatToCheck) {
  EXPECT_EQ(describe_refusal(403, ""),
            "HTTP 403 (forbidden); check --api-key or OPENAI_API_KEY (or the credential --header)");
  EXPECT_EQ(describe_refusal(404, "The model `x` does not exist."),
            "HTTP 404 (model not found): The model `x` does not exist.; check --model (GET "
            "/v1/models lists the served models)");
  EXPECT_TRUE(describe_refusal(404, "model 'x' not found, try pulling it first"));
  EXPECT_FALSE(describe_refusal(404, "page not found"));
  EXPECT_FALSE(describe_refusal(400, "Invalid API key"));
}

}  // namespace
