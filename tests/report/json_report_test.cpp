// to_json, metric_definitions and request_to_jsonl: every documented key with the summary's
// values, no NaN, errors by class, one definition per metric, and JSONL lines that parse with
// null for whatever is unknown.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/request_record.hpp"
#include "bench/report/report.hpp"
#include "bench/results/writer.hpp"
#include "report_fixtures.hpp"

namespace {

using namespace report_test;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using nlohmann::json;

const std::vector<std::string>& distribution_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (std::string metric : {"ttft", "itl", "icl", "tpot", "e2e_latency"}) {
      for (std::string stat : {"mean", "median", "std", "p90", "p95", "p99", "max"}) {
        out.push_back(stat + "_" + metric + "_ms");
      }
    }
    return out;
  }();
  return keys;
}

TEST(ToJson, HasEveryListedKey) {
  const json result = bench::results::to_json(failing_summary(), context());
  const std::vector<std::string> flat = {"schema_version",
                                         "bench_version",
                                         "started_at",
                                         "base_url",
                                         "embedded_server",
                                         "endpoint",
                                         "model",
                                         "duration",
                                         "completed",
                                         "failed",
                                         "cancelled",
                                         "sent",
                                         "warmup_requests",
                                         "total_input_tokens",
                                         "total_output_tokens",
                                         "request_throughput",
                                         "input_throughput",
                                         "output_throughput",
                                         "total_throughput",
                                         "concurrency",
                                         "max_concurrency",
                                         "mean_schedule_lag_ms",
                                         "p99_schedule_lag_ms",
                                         "max_schedule_lag_ms",
                                         "median_ttft_from_intended_ms",
                                         "p99_ttft_from_intended_ms",
                                         "median_e2e_latency_from_intended_ms",
                                         "p99_e2e_latency_from_intended_ms",
                                         "total_text_chunks",
                                         "chunks_differ_from_tokens",
                                         "itl_estimated",
                                         "mean_requested_input_len",
                                         "mean_prompt_tokens",
                                         "mean_requested_output_len",
                                         "mean_completion_tokens",
                                         "token_count_source",
                                         "errors",
                                         "config",
                                         "definitions"};
  for (const std::string& key : flat) EXPECT_TRUE(result.contains(key)) << key;
  ASSERT_EQ(distribution_keys().size(), 35u);
  for (const std::string& key : distribution_keys()) {
    ASSERT_TRUE(result.contains(key)) << key;
    EXPECT_TRUE(result[key].is_number_float()) << key;
  }
}

TEST(ToJson, CarriesTheSummaryValues) {
  const RunSummary s = failing_summary();
  const json r = bench::results::to_json(s, context());
  EXPECT_EQ(r["schema_version"], bench::results::kSchemaVersion);
  EXPECT_EQ(r["bench_version"], BENCH_TEST_EXPECTED_VERSION);
  EXPECT_EQ(r["started_at"], "2024-01-02T03:04:05Z");
  EXPECT_EQ(r["base_url"], "http://127.0.0.1:40123");
  EXPECT_EQ(r["embedded_server"], true);
  EXPECT_EQ(r["endpoint"], "chat");
  EXPECT_EQ(r["model"], "sim-model");
  EXPECT_DOUBLE_EQ(r["duration"].get<double>(), 10.5);
  EXPECT_EQ(r["sent"], 200);
  EXPECT_EQ(r["completed"], 190);
  EXPECT_EQ(r["failed"], 10);
  EXPECT_EQ(r["cancelled"], 0);
  EXPECT_EQ(r["warmup_requests"], 2);
  EXPECT_EQ(r["total_input_tokens"], 62480);
  EXPECT_EQ(r["total_output_tokens"], 25600);
  EXPECT_DOUBLE_EQ(r["request_throughput"].get<double>(), s.request_throughput);
  EXPECT_DOUBLE_EQ(r["input_throughput"].get<double>(), s.input_throughput);
  EXPECT_DOUBLE_EQ(r["output_throughput"].get<double>(), s.output_throughput);
  EXPECT_DOUBLE_EQ(r["total_throughput"].get<double>(), s.total_throughput);
  EXPECT_DOUBLE_EQ(r["concurrency"].get<double>(), 63.9);  // achieved, Little's law
  EXPECT_EQ(r["max_concurrency"], 64);                     // configured
  const std::pair<std::string, double> bases[] = {
      {"ttft", 100}, {"itl", 200}, {"icl", 300}, {"tpot", 400}, {"e2e_latency", 500}};
  for (const auto& [metric, base] : bases) {
    int offset = 1;
    for (std::string stat : {"mean", "median", "std", "p90", "p95", "p99", "max"}) {
      const std::string key = stat + "_" + metric + "_ms";
      EXPECT_DOUBLE_EQ(r[key].get<double>(), base + offset++ / 10.0) << key;
    }
  }
  EXPECT_DOUBLE_EQ(r["mean_schedule_lag_ms"].get<double>(), 600.1);
  EXPECT_DOUBLE_EQ(r["p99_schedule_lag_ms"].get<double>(), 600.6);
  EXPECT_DOUBLE_EQ(r["max_schedule_lag_ms"].get<double>(), 600.7);
  EXPECT_DOUBLE_EQ(r["median_ttft_from_intended_ms"].get<double>(), 700.2);
  EXPECT_DOUBLE_EQ(r["p99_ttft_from_intended_ms"].get<double>(), 700.6);
  EXPECT_DOUBLE_EQ(r["median_e2e_latency_from_intended_ms"].get<double>(), 800.2);
  EXPECT_DOUBLE_EQ(r["p99_e2e_latency_from_intended_ms"].get<double>(), 800.6);
  EXPECT_EQ(r["total_text_chunks"], 25600);
  EXPECT_EQ(r["chunks_differ_from_tokens"], false);
  EXPECT_EQ(r["itl_estimated"], false);
  EXPECT_DOUBLE_EQ(r["mean_requested_input_len"].get<double>(), 256);
  EXPECT_DOUBLE_EQ(r["mean_prompt_tokens"].get<double>(), 312.4);
  EXPECT_DOUBLE_EQ(r["mean_requested_output_len"].get<double>(), 128);
  EXPECT_DOUBLE_EQ(r["mean_completion_tokens"].get<double>(), 128);
  EXPECT_EQ(r["config"], context().config);
}

TEST(ToJson, UnknownInputFiguresAreNullNeverZeroInJsonAndCsv) {
  RunSummary s = estimated_summary();  // no request carried prompt_tokens
  s.input_throughput = 0;
  s.total_throughput = s.output_throughput;
  s.steady_state.found = true;
  const json r = bench::results::to_json(s, context());
  for (const char* key :
       {"input_throughput", "total_throughput", "total_input_tokens", "mean_prompt_tokens"}) {
    EXPECT_TRUE(r[key].is_null()) << key << " is " << r[key].dump();
  }
  EXPECT_TRUE(r["steady_state"]["input_throughput"].is_null());
  EXPECT_TRUE(r["steady_state"]["total_throughput"].is_null());
  EXPECT_TRUE(r["output_throughput"].is_number());

  // The CSV leaves an unknown cell empty (columns 10 and 11: input and total throughput).
  const std::string csv = bench::results::to_csv({r});
  const std::string row = csv.substr(csv.find('\n') + 1);
  std::vector<std::string> cells;
  std::stringstream fields(row);
  for (std::string cell; std::getline(fields, cell, ',') && cells.size() < 14;) {
    cells.push_back(cell);
  }
  ASSERT_GE(cells.size(), 14u);
  EXPECT_EQ(cells[9], "") << row;
  EXPECT_EQ(cells[10], "") << row;
  EXPECT_EQ(cells[13], "") << row;
}

TEST(ToJson, SteadyStateCarriesItsLatenciesUnderTheRunsKeyNamesOrNull) {
  RunSummary s = failing_summary();
  s.steady_state.found = true;
  json r = bench::results::to_json(s, context());
  EXPECT_TRUE(r["steady_state"]["p99_ttft_ms"].is_null());
  EXPECT_TRUE(r["steady_state"]["requests"].is_null());
  bench::metrics::SteadyLatencies latency;
  latency.requests = 90;
  latency.ttft_ms.count = latency.tpot_ms.count = latency.e2e_ms.count = 90;
  latency.ttft_ms.p99 = 41.5;
  latency.tpot_ms.median = 2.5;
  latency.e2e_ms.p90 = 300;
  s.steady_latencies = latency;
  r = bench::results::to_json(s, context());
  EXPECT_TRUE(r["steady_state"]["latency_unknown"].is_null());
  EXPECT_EQ(r["steady_state"]["requests"], 90);
  EXPECT_EQ(r["steady_state"]["p99_ttft_ms"], 41.5);
  EXPECT_EQ(r["steady_state"]["median_tpot_ms"], 2.5);
  EXPECT_EQ(r["steady_state"]["p90_e2e_latency_ms"], 300.0);
  EXPECT_TRUE(r.contains("p99_ttft_ms") && r.contains("median_tpot_ms") &&
              r.contains("p90_e2e_latency_ms"));  // the same names as the whole run's
}

// Why the steady-state latencies are null is data, the one reason that applies (issue 28).
TEST(ToJson, SteadyStateSaysWhyItsLatenciesAreUnknown) {
  RunSummary s = failing_summary();
  s.steady_state.found = true;
  s.steady_latency_gap = bench::metrics::SteadyLatencyGap::merged;
  EXPECT_EQ(bench::results::to_json(s, context())["steady_state"]["latency_unknown"], "merged");
  s.steady_latency_gap = bench::metrics::SteadyLatencyGap::none_inside;
  EXPECT_EQ(bench::results::to_json(s, context())["steady_state"]["latency_unknown"],
            "none_inside");
}

// issue 28: a run in which nothing completed writes null for every figure of no values,
// never 0; what was asked is still known.
TEST(ToJson, FiguresOfNoValuesAreNullNeverZero) {
  RunSummary s;
  s.sent = 8;
  s.failed = 8;
  s.mean_requested_input_len = 16;
  s.mean_requested_output_len = 8;
  s.schedule_lag_ms.count = 8;
  const json r = bench::results::to_json(s, context());
  for (const char* key : {"mean_ttft_ms", "p99_ttft_ms", "median_itl_ms", "p99_tpot_ms",
                          "max_e2e_latency_ms", "median_ttft_from_intended_ms",
                          "p99_ttft_from_intended_ms", "p99_e2e_latency_from_intended_ms",
                          "mean_prompt_tokens", "mean_completion_tokens", "mean_connect_ms"}) {
    EXPECT_TRUE(r[key].is_null()) << key << " = " << r[key];
  }
  EXPECT_EQ(r["mean_requested_input_len"], 16.0);
  EXPECT_EQ(r["mean_requested_output_len"], 8.0);
  EXPECT_TRUE(r["p99_schedule_lag_ms"].is_number());  // eight were sent, each with a lag
  EXPECT_TRUE(r["client"]["cpu_ms_per_1k_output_tokens"].is_null());
}

// No cap on requests in flight (an open loop without --concurrency) is null, as vLLM writes.
TEST(ToJson, NoConcurrencyCapIsNull) {
  bench::results::RunContext open_loop = context();
  open_loop.concurrency = std::nullopt;
  open_loop.request_rate = 20;
  const json r = bench::results::to_json(clean_summary(), open_loop);
  ASSERT_TRUE(r.contains("max_concurrency"));
  EXPECT_TRUE(r["max_concurrency"].is_null());
  const std::string csv = bench::results::to_csv({r});
  EXPECT_EQ(csv.substr(csv.find('\n') + 1, 1), ",");  // the first column, max_concurrency
}

TEST(ToJson, RecordsTheSimulatorsSettingsOnlyForTheEmbeddedServer) {
  bench::results::RunContext real = context();
  EXPECT_TRUE(bench::results::to_json(clean_summary(), real)["simulator"].is_null());
  bench::results::RunContext embedded = context();
  embedded.embedded_server = true;
  embedded.simulator = {{"profile", "fixed"}, {"time_scale", 10.0}};
  EXPECT_EQ(bench::results::to_json(clean_summary(), embedded)["simulator"], embedded.simulator);
}

TEST(ToJson, LabelsARampUpRunWithItsRampNotAsAClosedLoop) {
  bench::results::RunContext ramp = context();
  ramp.request_rate = std::numeric_limits<double>::infinity();  // what a ramp's point carries
  ramp.ramp_up_strategy = "linear";
  ramp.ramp_up_start_rps = 1;
  ramp.ramp_up_end_rps = 10;
  const json r = bench::results::to_json(clean_summary(), ramp);
  EXPECT_TRUE(r["request_rate"].is_null()) << r["request_rate"].dump();
  EXPECT_EQ(r["ramp_up_strategy"], "linear");
  EXPECT_EQ(r["ramp_up_start_rps"], 1.0);
  EXPECT_EQ(r["ramp_up_end_rps"], 10.0);
  const std::string csv = bench::results::to_csv({r});
  EXPECT_NE(csv.find("ramp_up_strategy,ramp_up_start_rps,ramp_up_end_rps,"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",linear,1,10,"), std::string::npos) << csv;
  const std::string text = bench::report::render_text(clean_summary(), ramp);
  EXPECT_NE(text.find("ramp-up, linear from 1 to 10 req/s"), std::string::npos) << text;

  const json closed = bench::results::to_json(clean_summary(), context());
  EXPECT_TRUE(closed["ramp_up_strategy"].is_null());
}

TEST(ToJson, NamesTheTokenCountSources) {
  const json clean = bench::results::to_json(clean_summary(), context())["token_count_source"];
  EXPECT_EQ(clean["output"], "usage");
  EXPECT_EQ(clean["input"], "usage");
  EXPECT_EQ(clean["output_from_usage"], 200);
  EXPECT_EQ(clean["output_from_chunks"], 0);

  const json estimated =
      bench::results::to_json(estimated_summary(), context())["token_count_source"];
  EXPECT_EQ(estimated["output"], "chunks_estimate");
  EXPECT_EQ(estimated["input"], "unknown");
  EXPECT_EQ(estimated["output_from_chunks"], 200);
  EXPECT_EQ(estimated["input_unknown"], 200);

  RunSummary mixed = clean_summary();
  mixed.output_tokens_from_chunks = 1;
  mixed.input_tokens_unknown = 1;
  const json mixed_source = bench::results::to_json(mixed, context())["token_count_source"];
  EXPECT_EQ(mixed_source["output"], "mixed");
  EXPECT_EQ(mixed_source["input"], "mixed");
}

TEST(ToJson, NamesTheTokenizerAsTheOutputSourceWhenItCountedEveryRequest) {
  RunSummary counted = estimated_summary();
  counted.output_tokens_from_tokenizer = counted.output_tokens_from_chunks;
  counted.output_tokens_from_chunks = 0;
  const json source = bench::results::to_json(counted, context())["token_count_source"];
  EXPECT_EQ(source["output"], "tokenizer");
  EXPECT_EQ(source["output_from_tokenizer"], 200);
  EXPECT_EQ(source["output_from_chunks"], 0);

  RunSummary mixed = clean_summary();
  mixed.output_tokens_from_tokenizer = 1;
  EXPECT_EQ(bench::results::to_json(mixed, context())["token_count_source"]["output"], "mixed");
}

TEST(ToJson, MeanClientPromptTokensIsNullUnlessATokenizerCounted) {
  RunSummary counted = clean_summary();
  EXPECT_TRUE(bench::results::to_json(counted, context())["mean_client_prompt_tokens"].is_null());
  counted.mean_client_prompt_tokens = 1000;
  EXPECT_EQ(bench::results::to_json(counted, context())["mean_client_prompt_tokens"], 1000.0);
}

TEST(ToJson, TimeToHeadersHasEveryStatisticOrNullWhenNoResponseReportedIt) {
  RunSummary measured = clean_summary();
  measured.ttfb_ms = distribution(3);
  const json with = bench::results::to_json(measured, context());
  EXPECT_DOUBLE_EQ(with["mean_ttfb_ms"].get<double>(), 3.1);
  EXPECT_DOUBLE_EQ(with["std_ttfb_ms"].get<double>(), 3.3);
  EXPECT_DOUBLE_EQ(with["p90_ttfb_ms"].get<double>(), 3.4);
  EXPECT_DOUBLE_EQ(with["p95_ttfb_ms"].get<double>(), 3.5);
  EXPECT_DOUBLE_EQ(with["max_ttfb_ms"].get<double>(), 3.7);
  const json without = bench::results::to_json(clean_summary(), context());
  for (const char* key :
       {"mean_ttfb_ms", "median_ttfb_ms", "p90_ttfb_ms", "p99_ttfb_ms", "max_ttfb_ms"}) {
    EXPECT_TRUE(without[key].is_null()) << key;
  }
}

TEST(ToJson, ErrorsHoldOnlyNonZeroClasses) {
  EXPECT_EQ(bench::results::to_json(clean_summary(), context())["errors"], json::object());

  RunSummary summary = failing_summary();
  summary.errors[ErrorClass::dns] = {0, {}};
  const json errors = bench::results::to_json(summary, context())["errors"];
  EXPECT_EQ(errors.size(), 2u) << errors.dump();
  EXPECT_EQ(errors["http_5xx"]["count"], 7);
  EXPECT_EQ(errors["http_5xx"]["samples"], json::array({"HTTP 500: simulated internal error"}));
  EXPECT_EQ(errors["stall"]["count"], 3);
  EXPECT_EQ(errors["stall"]["samples"], json::array());
}

TEST(ToJson, WritesNoNaN) {
  RunSummary summary;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  summary.output_throughput = nan;
  summary.ttft_ms.p99 = nan;
  summary.mean_prompt_tokens = std::numeric_limits<double>::infinity();
  const json result = bench::results::to_json(summary, context());
  EXPECT_EQ(result["output_throughput"], 0.0);
  EXPECT_TRUE(result["p99_ttft_ms"].is_null());  // a distribution of no values: unknown
  EXPECT_TRUE(result["mean_prompt_tokens"].is_null());
  EXPECT_EQ(result["token_count_source"]["output"], "none");
  EXPECT_TRUE(json::parse(result.dump()).is_object());
}

TEST(ToJson, SurvivesInvalidUtf8InServerMessages) {
  RunSummary summary = failing_summary();
  summary.errors[ErrorClass::http_5xx].samples = {"bad \xff\xfe bytes"};
  const json result = bench::results::to_json(summary, context());
  std::string dumped;
  ASSERT_NO_THROW(dumped = result.dump());
  EXPECT_NE(dumped.find("bad \uFFFD\uFFFD bytes"), std::string::npos) << dumped;
}

const std::vector<std::string>& defined_metrics() {
  static const std::vector<std::string> keys = {"duration",
                                                "output_throughput",
                                                "input_throughput",
                                                "total_throughput",
                                                "request_throughput",
                                                "concurrency",
                                                "ttft",
                                                "itl",
                                                "icl",
                                                "tpot",
                                                "e2e_latency",
                                                "schedule_lag",
                                                "from_intended",
                                                "token_counts",
                                                "percentiles",
                                                "failed",
                                                "cancelled",
                                                "ttfa",
                                                "reasoning_output_throughput",
                                                "reasoning_tokens"};
  return keys;
}

TEST(MetricDefinitions, HaveOneLinePerMetric) {
  const json definitions = bench::results::metric_definitions();
  for (const std::string& key : defined_metrics()) {
    ASSERT_TRUE(definitions.contains(key)) << key;
    ASSERT_TRUE(definitions[key].is_string()) << key;
    const std::string line = definitions[key].get<std::string>();
    EXPECT_GT(line.size(), 20u) << key;
    EXPECT_EQ(line.find('\n'), std::string::npos) << key;
  }
  EXPECT_EQ(bench::results::to_json(clean_summary(), context())["definitions"], definitions);
}

TEST(MetricDefinitions, StateThePeerEquivalences) {
  const json d = bench::results::metric_definitions();
  const std::string icl = d["icl"];
  EXPECT_NE(icl.find("SGLang and vLLM call ITL"), std::string::npos) << icl;
  const std::string tpot = d["tpot"];
  EXPECT_NE(tpot.find("(E2E - TTFT) / (completion_tokens - 1)"), std::string::npos) << tpot;
  EXPECT_NE(tpot.find("GenAI-Perf/AIPerf 'ITL'"), std::string::npos) << tpot;
  const std::string ttft = d["ttft"];
  EXPECT_NE(ttft.find("role-only"), std::string::npos) << ttft;
  const std::string percentiles = d["percentiles"];
  EXPECT_NE(percentiles.find("numpy"), std::string::npos) << percentiles;
}

// ---- JSONL ---------------------------------------------------------------------------------

RequestRecord completed_record() {
  RequestRecord r;
  r.index = 7;
  r.intended_start_ns = 1'000'000;  // 1 ms
  r.start_ns = 1'250'000;           // 1.25 ms
  r.first_token_ns = 21'250'000;    // TTFT 20 ms
  r.text_chunk_ns = {21'250'000, 31'250'500, 41'250'000};
  r.text_chunk_tokens = {1, 2, 3};
  r.end_ns = 51'250'000;  // E2E 50 ms
  r.prompt_tokens = 300;
  r.completion_tokens = 6;
  r.prompt_token_source = TokenSource::usage;
  r.completion_token_source = TokenSource::usage;
  r.requested_input_len = 256;
  r.requested_output_len = 6;
  r.finish_reason = "length";
  r.saw_done = true;
  r.http_status = 200;
  return r;
}

TEST(RequestToJsonl, IsOneParsableLineWithEveryField) {
  const std::string line = bench::results::request_to_jsonl(completed_record());
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const json r = json::parse(line);
  EXPECT_EQ(r["index"], 7);
  EXPECT_EQ(r["warmup"], false);
  EXPECT_DOUBLE_EQ(r["intended_start_ms"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r["start_ms"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(r["ttft_ms"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(r["e2e_ms"].get<double>(), 50.0);
  ASSERT_EQ(r["chunk_arrival_ms"].size(), 3u);
  EXPECT_DOUBLE_EQ(r["chunk_arrival_ms"][0].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(r["chunk_arrival_ms"][1].get<double>(), 30.001);  // rounded to the microsecond
  EXPECT_DOUBLE_EQ(r["chunk_arrival_ms"][2].get<double>(), 40.0);
  EXPECT_EQ(r["chunk_tokens"], json::array({1, 2, 3}));
  EXPECT_EQ(r["prompt_tokens"], 300);
  EXPECT_EQ(r["completion_tokens"], 6);
  EXPECT_EQ(r["prompt_token_source"], "usage");
  EXPECT_EQ(r["completion_token_source"], "usage");
  EXPECT_EQ(r["finish_reason"], "length");
  EXPECT_EQ(r["http_status"], 200);
  EXPECT_EQ(r["status"], "ok");
  EXPECT_TRUE(r["error"].is_null());
}

TEST(RequestToJsonl, WritesNullForWhatIsUnknown) {
  RequestRecord r;
  r.index = 3;
  r.warmup = true;
  r.start_ns = 5'000'000;
  r.end_ns = 6'000'000;
  r.error = ErrorClass::connect_refused;
  r.error_message = "connection refused\n(port 1)";
  const json line = json::parse(bench::results::request_to_jsonl(r));
  EXPECT_EQ(line["warmup"], true);
  EXPECT_TRUE(line["ttft_ms"].is_null());
  EXPECT_EQ(line["chunk_arrival_ms"], json::array());
  EXPECT_TRUE(line["chunk_tokens"].is_null());
  EXPECT_TRUE(line["prompt_tokens"].is_null());
  EXPECT_TRUE(line["completion_tokens"].is_null());
  EXPECT_EQ(line["prompt_token_source"], "none");
  EXPECT_TRUE(line["finish_reason"].is_null());
  EXPECT_TRUE(line["http_status"].is_null());
  EXPECT_EQ(line["status"], "connect_refused");
  EXPECT_EQ(line["error"], "connection refused\n(port 1)");
  EXPECT_DOUBLE_EQ(line["e2e_ms"].get<double>(), 1.0);
}

TEST(RequestToJsonl, LabelsChunkEstimatesAndSurvivesInvalidUtf8) {
  RequestRecord r = completed_record();
  r.text_chunk_tokens.clear();
  r.completion_token_source = TokenSource::chunks;
  r.completion_tokens = 3;
  r.error = ErrorClass::http_5xx;
  r.http_status = 500;
  r.error_message = "HTTP 500: \xc3\x28 broken";
  std::string line;
  ASSERT_NO_THROW(line = bench::results::request_to_jsonl(r));
  const json parsed = json::parse(line);
  EXPECT_EQ(parsed["completion_token_source"], "chunks_estimate");
  EXPECT_TRUE(parsed["chunk_tokens"].is_null());
  EXPECT_EQ(parsed["status"], "http_5xx");
  EXPECT_EQ(parsed["http_status"], 500);
}

TEST(RequestToJsonl, WritesThePromptsCachedAndComputedSplitOrNullWhenUnknown) {
  RequestRecord r = completed_record();
  const json unknown = json::parse(bench::results::request_to_jsonl(r));
  EXPECT_TRUE(unknown["cached_prompt_tokens"].is_null());
  EXPECT_TRUE(unknown["computed_prompt_tokens"].is_null());
  EXPECT_EQ(unknown["cached_prompt_token_source"], "none");

  r.cached_prompt_tokens = 256;
  r.cached_prompt_token_source = bench::metrics::CachedTokenSource::usage_details;
  const json known = json::parse(bench::results::request_to_jsonl(r));
  EXPECT_EQ(known["cached_prompt_tokens"], 256);
  EXPECT_EQ(known["computed_prompt_tokens"], 44);  // 300 prompt tokens
  EXPECT_EQ(known["cached_prompt_token_source"], "usage_details");
}

}  // namespace

// The line is written by hand (no JSON document per request), yet reads exactly as
// nlohmann::json writes the same document: same keys in the same order, numbers formatted
// alike in every form a time can take (whole, fractional, below 1, large, a microsecond,
// negative, zero), strings escaped alike, invalid UTF-8 replaced.
TEST(RequestToJsonl, ReadsExactlyAsTheJsonLibraryWritesTheSameDocument) {
  RequestRecord r = completed_record();
  r.intended_start_ns = -1'500'000;        // -1.5
  r.slot_wait_ns = 0;                      // 0.0
  r.start_ns = 7;                          // 0.0 after rounding to the microsecond
  r.first_token_ns = 123'456'789'012'345;  // 123456789.012...
  r.first_answer_ns = 1'000;               // 0.001
  r.end_ns = 9'000'000'000'000'000'000;    // 13 integer digits: the most int64 ns give
  r.connect_ns = 100;                      // 0.0
  r.text_chunk_ns = {12'000, 3'000'000'000, 50'000, 1'234'567'891'234};
  r.session = 4;
  r.turn = 2;
  r.response_id = "cmpl-\"quoted\"\\\t\x01";
  r.finish_reason = std::string("len\xff\xfegth");
  r.error_message = "caf\xc3\xa9 \xe2\x9c\x93";
  const json point = {{"concurrency", 8}};
  for (const json& with_point : {json(nullptr), point}) {
    const std::string line = bench::results::request_to_jsonl(r, with_point, 3);
    const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(line);
    EXPECT_EQ(parsed.dump(), line);
    EXPECT_EQ(parsed["server"], 3);
    EXPECT_EQ(parsed["session"], 4);
    EXPECT_EQ(parsed["response_id"], "cmpl-\"quoted\"\\\t\x01");
    EXPECT_EQ(parsed["finish_reason"], "len\xef\xbf\xbd\xef\xbf\xbdgth");  // U+FFFD twice
    EXPECT_EQ(parsed["error"], "caf\xc3\xa9 \xe2\x9c\x93");
    EXPECT_DOUBLE_EQ(parsed["intended_start_ms"].get<double>(), -1.5);
    EXPECT_DOUBLE_EQ(parsed["ttfa_ms"].get<double>(), 0.001);
    EXPECT_DOUBLE_EQ(parsed["e2e_ms"].get<double>(), 9'000'000'000'000.0);
    EXPECT_EQ(parsed.begin().key(), with_point.is_null() ? "index" : "point");
    if (!with_point.is_null()) {
      EXPECT_EQ(parsed["point"].dump(), point.dump());
    }
  }
}
