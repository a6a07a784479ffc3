// Every fault the simulator injects, alone and at 100%, run through the real bench binary:
// bench puts every request in the right class, sent == completed + failed, nothing hangs, and
// the truth log shows the server did inject it. Dialect quirks and harmless faults (no usage,
// several tokens per chunk, CRLF, comments, llama.cpp's ways) must leave every request ok.
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "run_process.hpp"

namespace {

using bench::sim::SimOptions;
using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

constexpr int kFaultRequests = 16;

struct FaultCase {
  std::string name;
  std::function<void(SimOptions&)> inject;
  std::string expected;  // bench's error class for every request, or "ok"
  std::string fault;     // the name the truth log gives the injection ("" for dialect quirks)
  std::vector<std::string> bench_args = {};
  std::function<void(const json&)> also = [](const json&) {};
};

std::string case_name(const ::testing::TestParamInfo<FaultCase>& info) { return info.param.name; }

// GoogleTest prints a failing parameter with this instead of its bytes.
void PrintTo(const FaultCase& fault, std::ostream* out) { *out << fault.name; }

class EveryRequestMeetsTheFault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(EveryRequestMeetsTheFault, AndBenchClassifiesItRight) {
  const FaultCase& fault = GetParam();
  TempDir dir;
  SimOptions options;
  options.ttft_ms = 5;
  options.tpot_ms = 1;
  options.stall_s = 3;
  options.trace_path = dir.file("trace.jsonl");
  fault.inject(options);
  ProcessResult run;
  {
    bench::sim::SimServer server(options);
    std::vector<std::string> args = {"--base-url", server.base_url(), "--concurrency", "4",
                                     "--num-prompts", std::to_string(kFaultRequests),
                                     "--output-len", "8", "--input-len", "16", "--ignore-eos",
                                     "--output-format", "json", "--quiet",
                                     // Every request meets the fault, the answer check's too,
                                     // which would end the run before it is measured.
                                     "--no-answer-check"};
    args.insert(args.end(), fault.bench_args.begin(), fault.bench_args.end());
    bench::testing::ProcessOptions limits;
    limits.timeout = std::chrono::milliseconds(60'000);
    run = run_process(BENCH_BINARY, args, limits);
  }
  ASSERT_FALSE(run.timed_out) << "bench hung";
  const json results = json::parse(run.out, nullptr, false);
  ASSERT_FALSE(results.is_discarded()) << run.out << run.err;
  EXPECT_EQ(results["sent"], kFaultRequests);
  EXPECT_EQ(results["completed"].get<int>() + results["failed"].get<int>() +
                results["cancelled"].get<int>(),
            kFaultRequests);
  if (fault.expected == "ok") {
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(results["completed"], kFaultRequests) << results["errors"].dump();
    EXPECT_EQ(results["total_output_tokens"], kFaultRequests * 8);
  } else {
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_EQ(results["failed"], kFaultRequests);
    const json& errors = results["errors"];
    ASSERT_TRUE(errors.is_object() && errors.contains(fault.expected))
        << "bench's classes: " << errors.dump();
    EXPECT_EQ(errors[fault.expected]["count"], kFaultRequests)
        << "bench's classes: " << errors.dump();
  }
  fault.also(results);

  if (fault.fault.empty()) return;
  int injected = 0;
  for (const json& record : bench::testing::read_jsonl(options.trace_path)) {
    for (const json& name : record["faults"]) injected += name == fault.fault;
  }
  EXPECT_GE(injected, kFaultRequests);  // the measured requests, and any probe bench sent first
}

const std::vector<FaultCase> kCases = {
    {"http_429", [](SimOptions& o) { o.fail_429_fraction = 1; }, "rate_limited", "http_429"},
    {"http_500", [](SimOptions& o) { o.fail_500_fraction = 1; }, "http_5xx", "http_500"},
    {"http_503", [](SimOptions& o) { o.fail_503_fraction = 1; }, "http_5xx", "http_503"},
    // An RST mid-stream is a transport failure (error_class.hpp: "connection reset"), not a
    // stream the server chose to end early.
    {"reset", [](SimOptions& o) { o.reset_fraction = 1; }, "transport", "reset"},
    {"stall",
     [](SimOptions& o) { o.stall_fraction = 1; },
     "stall",
     "stall",
     {"--stall-timeout", "0.5"}},
    {"malformed_json", [](SimOptions& o) { o.malformed_json_fraction = 1; }, "malformed_json",
     "malformed_json"},
    {"truncate", [](SimOptions& o) { o.truncate_fraction = 1; }, "truncated", "truncate"},
    {"stream_error", [](SimOptions& o) { o.stream_error_fraction = 1; }, "stream_error",
     "stream_error"},
    {"no_usage",
     [](SimOptions& o) { o.no_usage_fraction = 1; },
     "ok",
     "no_usage",
     {},
     [](const json& r) { EXPECT_EQ(r["token_count_source"]["output"], "chunks_estimate"); }},
    {"multi_token",
     [](SimOptions& o) { o.multi_token_fraction = 1; },
     "ok",
     "multi_token",
     {},
     [](const json& r) {
       EXPECT_TRUE(r["chunks_differ_from_tokens"].get<bool>());
       EXPECT_EQ(r["token_count_source"]["output"], "usage");
       EXPECT_EQ(r["total_text_chunks"], kFaultRequests * 3);  // 8 tokens in chunks of 3, 3 and 2
     }},
    {"crlf", [](SimOptions& o) { o.crlf_fraction = 1; }, "ok", "crlf"},
    {"comments",
     [](SimOptions& o) { o.comment_fraction = 1; },
     "ok",
     "comments",
     {},
     [](const json& r) { EXPECT_EQ(r["total_text_chunks"], kFaultRequests * 8); }},
    {"usage_on_last_chunk",
     [](SimOptions& o) { o.usage_on_last_chunk = true; },
     "ok",
     "",
     {},
     [](const json& r) { EXPECT_EQ(r["token_count_source"]["output"], "usage"); }},
    {"no_role_chunk", [](SimOptions& o) { o.no_role_chunk = true; }, "ok", ""},
    {"close_after_stream",
     [](SimOptions& o) { o.close_after_stream = true; },
     "ok",
     "",
     {},
     [](const json& r) {
       // The server closes each connection after its stream: every request but those riding
       // a connection opened before the run (--preconnect) opens one of its own.
       EXPECT_GT(r["client"]["preconnect"]["opened"].get<int>(), 0);
       EXPECT_EQ(
           r["connections_opened"].get<int>() + r["client"]["preconnect"]["opened"].get<int>(),
           kFaultRequests);
     }},
    {"llama_cpp_all_at_once",
     [](SimOptions& o) {
       o.usage_on_last_chunk = o.no_role_chunk = o.close_after_stream = true;
       o.multi_token_fraction = 0.2;
       o.multi_token_count = 2;
     },
     "ok", ""},
};

INSTANTIATE_TEST_SUITE_P(Sim, EveryRequestMeetsTheFault, ::testing::ValuesIn(kCases), case_name);

}  // namespace
