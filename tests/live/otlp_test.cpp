// A request as an OTLP span: its trace context's ids, Unix times from its epoch, its phases as
// events in time order, the usage it had; and the ExportTraceServiceRequest's JSON shape.
#include "bench/live/otlp.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "live_samples.hpp"

namespace bench::live {
namespace {

TEST(LiveOtlp, ASpanHoldsTheRequestsPhasesInUnixTime) {
  metrics::RequestRecord record = testing::completed(100, 3, 20, 2);
  record.trace_id = "0af7651916cd43dd8448eb211c80319c";
  record.span_id = "b7ad6b7169203331";
  record.intended_start_ns = 500'000;  // queued half a ms before it was sent
  record.response_headers_ns = 4'000'000;
  constexpr std::int64_t kEpoch = 1'700'000'000'000'000'000;
  const Span span = span_of(record, kEpoch);
  EXPECT_EQ(span.start_unix_ns, kEpoch + 500'000);
  EXPECT_EQ(span.end_unix_ns, kEpoch + record.end_ns);
  std::vector<std::string> names;
  for (const auto& [name, at] : span.events) names.emplace_back(name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"queued", "sent", "headers", "first_token", "last_token"}));
  EXPECT_EQ(span.events[3].second, kEpoch + record.first_token_ns);

  const nlohmann::json body = nlohmann::json::parse(otlp_json({span}));
  const nlohmann::json& out = body["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
  EXPECT_EQ(out["traceId"], record.trace_id);
  EXPECT_EQ(out["spanId"], record.span_id);
  EXPECT_EQ(out["startTimeUnixNano"], std::to_string(kEpoch + 500'000));
  EXPECT_EQ(out["kind"], 3);
  bool input_tokens = false;
  for (const auto& attribute : out["attributes"]) {
    if (attribute["key"] == "gen_ai.usage.input_tokens") {
      input_tokens = true;
      EXPECT_EQ(attribute["value"]["intValue"], "100");
    }
  }
  EXPECT_TRUE(input_tokens);
}

TEST(LiveOtlp, AFailedRequestIsAnErrorSpan) {
  metrics::RequestRecord record = testing::completed(10, 1, 5, 1);
  record.trace_id = "0af7651916cd43dd8448eb211c80319c";
  record.span_id = "b7ad6b7169203331";
  record.error = metrics::ErrorClass::http_5xx;
  const nlohmann::json out = nlohmann::json::parse(
      otlp_json({span_of(record, 0)}))["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
  EXPECT_EQ(out["status"]["code"], 2);
}

}  // namespace
}  // namespace bench::live
