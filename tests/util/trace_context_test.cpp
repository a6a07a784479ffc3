// W3C traceparent values: version 00, lowercase hex ids of 32 and 16 digits, sampled; each
// request's ids its own.
#include "bench/util/trace_context.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace bench::util {
namespace {

TEST(TraceContext, HeaderLineIsW3CTraceparent) {
  const TraceContext context{0x0af7651916cd43ddULL, 0x8448eb211c80319cULL, 0xb7ad6b7169203331ULL};
  // The specification's own example (W3C Trace Context, section 3.2.2.1).
  EXPECT_EQ(context.header_line(),
            "traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
  EXPECT_EQ(TraceContext({0, 1, 2}).trace_id(), "00000000000000000000000000000001");
}

TEST(TraceContext, EachRequestHasIdsOfItsOwn) {
  TraceIds ids;
  std::set<std::string> seen;
  const std::regex form("traceparent: 00-[0-9a-f]{32}-[0-9a-f]{16}-01");
  for (int k = 0; k < 1000; ++k) {
    const TraceContext context = ids.next();
    EXPECT_TRUE(std::regex_match(context.header_line(), form));
    EXPECT_FALSE(context.trace_high == 0 && context.trace_low == 0);
    EXPECT_NE(context.span, 0U);
    seen.insert(context.trace_id());
  }
  EXPECT_EQ(seen.size(), 1000U);
}

}  // namespace
}  // namespace bench::util
