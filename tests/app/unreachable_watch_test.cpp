// The watch that ends a run whose server cannot be reached (app/point/unreachable_watch.hpp):
// an outage starts at the first failed connection's send, ends at any answer after it, and
// once it has lasted the limit the watch gives up for good, saying since when and where.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "bench/app/point/unreachable_watch.hpp"
#include "bench/util/clock.hpp"

namespace unreachable_watch_test {

using bench::kNsPerSec;
using bench::app::UnreachableWatch;
using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;

constexpr std::int64_t kLimitNs = 2 * kNsPerSec;
const std::string kUrl = "http://user:secret@127.0.0.1:9/v1/completions";

RequestRecord refused_at(std::int64_t start_ns) {
  RequestRecord record;
  record.error = ErrorClass::connect_refused;
  record.start_ns = start_ns;
  record.end_ns = start_ns + 100'000;
  return record;
}

RequestRecord answered(std::int64_t start_ns, std::int64_t headers_after_ns) {
  RequestRecord record;
  record.http_status = 200;
  record.start_ns = start_ns;
  record.response_headers_ns = headers_after_ns;
  record.end_ns = start_ns + headers_after_ns + 1'000'000;
  return record;
}

TEST(UnreachableWatch, GivesUpOnceEveryConnectionHasFailedForTheLimit) {
  UnreachableWatch watch(kLimitNs);
  EXPECT_EQ(watch.give_up_at_ns(0), INT64_MAX);
  watch.observe(refused_at(1'500'000'000), kUrl);
  watch.observe(refused_at(1'600'000'000), kUrl);
  EXPECT_EQ(watch.give_up_at_ns(2 * kNsPerSec), 3'500'000'000);
  EXPECT_FALSE(watch.given_up());
  EXPECT_EQ(watch.reason(), "");
  EXPECT_EQ(watch.give_up_at_ns(3'500'000'000), 3'500'000'000);
  EXPECT_TRUE(watch.given_up());
  const std::string reason = watch.reason();
  EXPECT_EQ(reason.rfind("server unreachable since t=1.5 s", 0), 0u) << reason;
  EXPECT_NE(reason.find("http://127.0.0.1:9/v1/completions"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("secret"), std::string::npos) << reason;
  EXPECT_NE(reason.find("--unreachable-timeout"), std::string::npos) << reason;
}

TEST(UnreachableWatch, AnAnswerAfterTheOutageBeganEndsIt) {
  UnreachableWatch watch(kLimitNs);
  watch.observe(refused_at(kNsPerSec), kUrl);
  // Sent earlier, answered before the outage began: says nothing of it.
  watch.observe(answered(0, 900'000'000), kUrl);
  EXPECT_EQ(watch.give_up_at_ns(kNsPerSec), 3 * kNsPerSec);
  // Answered after it began: the server is back.
  watch.observe(answered(kNsPerSec / 2, kNsPerSec), kUrl);
  EXPECT_EQ(watch.give_up_at_ns(5 * kNsPerSec), INT64_MAX);
  EXPECT_FALSE(watch.given_up());
  // A new outage counts from its own first failure.
  watch.observe(refused_at(6 * kNsPerSec), kUrl);
  EXPECT_EQ(watch.give_up_at_ns(6 * kNsPerSec), 8 * kNsPerSec);
}

TEST(UnreachableWatch, OtherFailuresAndCancellationsSayNothingOfReachability) {
  UnreachableWatch watch(kLimitNs);
  RequestRecord reset;
  reset.error = ErrorClass::transport;  // no status line: not an answer
  reset.start_ns = 0;
  watch.observe(reset, kUrl);
  RequestRecord cancelled;
  cancelled.error = ErrorClass::cancelled;
  watch.observe(cancelled, kUrl);
  EXPECT_EQ(watch.give_up_at_ns(10 * kNsPerSec), INT64_MAX);
  watch.observe(refused_at(0), kUrl);
  watch.observe(reset, kUrl);
  EXPECT_EQ(watch.give_up_at_ns(0), kLimitNs);
}

TEST(UnreachableWatch, ATimedOutConnectOrAnUnknownHostIsAnOutageToo) {
  for (const ErrorClass error : {ErrorClass::connect_timeout, ErrorClass::dns}) {
    UnreachableWatch watch(kLimitNs);
    RequestRecord record = refused_at(0);
    record.error = error;
    watch.observe(record, kUrl);
    EXPECT_EQ(watch.give_up_at_ns(0), kLimitNs);
  }
}

TEST(UnreachableWatch, OnceGivenUpAnAnswerDoesNotUndoIt) {
  UnreachableWatch watch(kLimitNs);
  watch.observe(refused_at(0), kUrl);
  EXPECT_EQ(watch.give_up_at_ns(kLimitNs), kLimitNs);
  watch.observe(answered(kLimitNs, 1), kUrl);
  EXPECT_TRUE(watch.given_up());
  EXPECT_EQ(watch.give_up_at_ns(kLimitNs + 1), kLimitNs);
}

TEST(UnreachableWatch, NoLimitNeverGivesUp) {
  UnreachableWatch watch(0);
  watch.observe(refused_at(0), kUrl);
  EXPECT_EQ(watch.give_up_at_ns(1'000 * kNsPerSec), INT64_MAX);
  EXPECT_FALSE(watch.given_up());
}

}  // namespace unreachable_watch_test
