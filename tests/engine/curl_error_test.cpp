// How curl's result codes map to bench's error classes: the cases a reader of the report
// relies on (a refused port, a timeout before and after connecting, a cut stream, a reset).
#include <gtest/gtest.h>

#include "bench/engine/curl_error.hpp"

namespace {

using bench::engine::classify_curl_result;
using bench::metrics::ErrorClass;

TEST(CurlError, SuccessIsNoError) {
  EXPECT_EQ(classify_curl_result(CURLE_OK, true, true), ErrorClass::none);
}

TEST(CurlError, ConnectFailuresByKind) {
  EXPECT_EQ(classify_curl_result(CURLE_COULDNT_CONNECT, false, false), ErrorClass::connect_refused);
  EXPECT_EQ(classify_curl_result(CURLE_COULDNT_RESOLVE_HOST, false, false), ErrorClass::dns);
  EXPECT_EQ(classify_curl_result(CURLE_PEER_FAILED_VERIFICATION, false, false), ErrorClass::tls);
}

TEST(CurlError, OneTimeoutCodeSplitByWhetherAConnectionExisted) {
  EXPECT_EQ(classify_curl_result(CURLE_OPERATION_TIMEDOUT, false, false),
            ErrorClass::connect_timeout);
  EXPECT_EQ(classify_curl_result(CURLE_OPERATION_TIMEDOUT, true, true),
            ErrorClass::request_timeout);
}

TEST(CurlError, AnEarlyOrderlyEndAfterBodyBytesIsATruncatedStream) {
  EXPECT_EQ(classify_curl_result(CURLE_PARTIAL_FILE, true, true), ErrorClass::truncated);
  EXPECT_EQ(classify_curl_result(CURLE_PARTIAL_FILE, true, false), ErrorClass::transport);
  EXPECT_EQ(classify_curl_result(CURLE_GOT_NOTHING, true, false), ErrorClass::transport);
}

TEST(CurlError, AResetIsATransportFailureWhetherCurlWasReadingOrWriting) {
  // The same RST surfaces as a receive or a send error depending on timing (seen in CI).
  EXPECT_EQ(classify_curl_result(CURLE_RECV_ERROR, true, true), ErrorClass::transport);
  EXPECT_EQ(classify_curl_result(CURLE_RECV_ERROR, true, false), ErrorClass::transport);
  EXPECT_EQ(classify_curl_result(CURLE_SEND_ERROR, true, false), ErrorClass::transport);
}

}  // namespace
