// Every recording of the wire corpus is a test of bench's figures: bench against
// `serve-sim --replay` of it measures the token counts its usage reports, the cached split it
// discloses, its failures, its server's identity, and its first-token time and chunk gaps within
// 1 ms of the recorded times (its end within 1 ms plus 1%). And the round trip: a run recorded
// through `bench record` and replayed gives the same counts and latencies. Recordings are found
// when the test runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "announcing_process.hpp"
#include "jsonl.hpp"
#include "run_process.hpp"
#include "serve_sim_process.hpp"
#include "wire_corpus_support.hpp"
#include "wire_expectations.hpp"

namespace {

using bench::testing::ServeSimProcess;
using bench::testing::StreamFacts;
using bench::testing::TempDir;
using nlohmann::json;

// The promise: first-token time and chunk gaps within 1 ms of the recorded times, held
// against what the replay really sent (its --trace truth log): on a loaded machine its timer
// wakes late, and that lateness is the replay's, not bench's. The end of a stream adds up bench's
// own wake-ups for every chunk, so it gets 1 ms plus 1%.
constexpr double kTimingToleranceMs = 1.0;
constexpr double kEndToleranceShare = 0.01;

// The model id a recording's GET /v1/models names, and the server family its side routes
// say: /v1/models' owned_by for vLLM, SGLang and llama.cpp; TGI's GET /info ("router":
// "text-generation-router"); Ollama's GET /api/version.
std::pair<std::string, std::string> recorded_model(
    const std::vector<bench::wire::Exchange>& exchanges) {
  std::string model = "recorded";
  std::string family;
  for (const auto& exchange : exchanges) {
    if (exchange.status != 200 || exchange.shape.method != "GET") continue;
    const json body = json::parse(bench::testing::dechunk(exchange.response), nullptr, false);
    if (!body.is_object()) continue;
    const std::string& path = exchange.shape.path;
    if (path == "/v1/models" && body.contains("data") && !body["data"].empty()) {
      const json& card = body["data"][0];
      model = card.value("id", model);
      const std::string owner = card.value("owned_by", "");
      if (owner == "vllm" || owner == "sglang") family = owner;
      if (owner == "llamacpp") family = "llama.cpp";
    } else if (path == "/info" && body.value("router", "") == "text-generation-router") {
      family = "tgi";
    } else if (path == "/api/version" && body.contains("version")) {
      family = "ollama";
    }
  }
  return {model, family};
}

// The endpoint bench calls for a recorded path.
std::string endpoint_of(const std::string& path) {
  if (path == "/v1/chat/completions") return "chat";
  if (path == "/v1/responses") return "responses";
  return "completions";
}

// The median (linear interpolation, numpy's default: bench's rule) of `values`.
double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double position = 0.5 * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (values[above] - values[below]) * (position - static_cast<double>(below));
}

// The exchanges as the replay's truth log says it served them: each line's exchange, its reads
// at the times they were handed to the socket after its request arrived. Lines of other paths
// (side routes) are left out.
std::vector<StreamFacts> served_facts(const std::vector<bench::wire::Exchange>& recorded,
                                      const std::string& truth_log, const std::string& path) {
  std::vector<StreamFacts> facts;
  for (const json& line : bench::testing::read_jsonl(truth_log)) {
    bench::wire::Exchange served = recorded.at(line["exchange"].get<std::size_t>());
    if (served.shape.path != path || !served.shape.stream) continue;
    const auto arrival = line["arrival_ns"].get<std::int64_t>();
    const auto& sent = line["read_ns"];
    EXPECT_EQ(sent.size(), served.reads.size()) << truth_log;
    for (std::size_t k = 0; k < served.reads.size() && k < sent.size(); ++k) {
      served.reads[k].at_ns = sent[k].get<std::int64_t>() - arrival;
    }
    facts.push_back(bench::testing::stream_facts(served));
  }
  return facts;
}

// What a run of `runs` passes over the recording's streamed exchanges of one path must report.
// Latencies are medians: a loaded machine's late wake-ups move a mean of a few requests, and a
// median of whole passes equals the recorded median.
struct Implied {
  std::int64_t completed = 0, failed = 0, output_tokens = 0;
  std::optional<std::int64_t> input_tokens = 0;  // unknown once a stream carried no usage
  std::optional<std::int64_t> cached_tokens = 0;
  std::int64_t running_usage_requests = 0;  // whose every text chunk said its own tokens
  double median_ttft_ms = 0, median_icl_ms = 0, median_e2e_ms = 0;
  bool has_gaps = false;
};

Implied implied_by(const std::vector<StreamFacts>& facts, std::int64_t runs) {
  Implied implied;
  std::vector<double> ttft, e2e, gaps;
  for (const StreamFacts& f : facts) {
    if (!f.ok) {
      implied.failed += runs;
      continue;
    }
    implied.completed += runs;
    if (f.usage) {
      implied.output_tokens += runs * f.completion_tokens;
      if (implied.input_tokens) *implied.input_tokens += runs * f.prompt_tokens;
    } else {
      // bench's estimate without usage: one token per text-carrying chunk, the prompt unknown.
      implied.output_tokens += runs * static_cast<std::int64_t>(f.text_event_ns.size());
      implied.input_tokens.reset();
    }
    if (f.running_usage) implied.running_usage_requests += runs;
    if (f.cached_tokens && implied.cached_tokens) {
      *implied.cached_tokens += runs * *f.cached_tokens;
    } else {
      implied.cached_tokens.reset();
    }
    for (std::int64_t run = 0; run < runs; ++run) {
      ttft.push_back(static_cast<double>(f.first_text_ns) / 1e6);
      e2e.push_back(static_cast<double>(f.end_ns) / 1e6);
      for (std::size_t k = 1; k < f.text_event_ns.size(); ++k) {
        gaps.push_back(static_cast<double>(f.text_event_ns[k] - f.text_event_ns[k - 1]) / 1e6);
      }
    }
  }
  implied.median_ttft_ms = median_of(ttft);
  implied.median_e2e_ms = median_of(e2e);
  implied.has_gaps = !gaps.empty();
  implied.median_icl_ms = median_of(gaps);
  return implied;
}

void expect_figures(const json& results, const Implied& implied, const std::string& where) {
  EXPECT_EQ(results["completed"], implied.completed) << where;
  EXPECT_EQ(results["failed"], implied.failed) << where;
  if (implied.completed == 0) return;
  EXPECT_EQ(results["total_output_tokens"], implied.output_tokens) << where;
  if (implied.input_tokens) {
    EXPECT_EQ(results["total_input_tokens"], *implied.input_tokens) << where;
  } else {
    EXPECT_TRUE(results["total_input_tokens"].is_null()) << where;
  }
  if (implied.cached_tokens) {
    EXPECT_EQ(results["total_cached_input_tokens"], *implied.cached_tokens) << where;
  } else {
    EXPECT_TRUE(results["total_cached_input_tokens"].is_null()) << where;
  }
  // Per-chunk token counts are believed only where the stream said them (a usage of zeros on
  // every chunk is no count), and a window's output is never 0 when tokens came out.
  EXPECT_EQ(results["requests_with_per_chunk_usage"], implied.running_usage_requests) << where;
  const json& steady = results["steady_state"];
  if (steady.is_object() && steady["requests"].is_number() && steady["requests"] > 0) {
    EXPECT_GT(steady["output_throughput"].get<double>(), 0) << where;
  }
  EXPECT_NEAR(results["median_ttft_ms"].get<double>(), implied.median_ttft_ms, kTimingToleranceMs)
      << where;
  EXPECT_NEAR(results["median_e2e_latency_ms"].get<double>(), implied.median_e2e_ms,
              kTimingToleranceMs + kEndToleranceShare * implied.median_e2e_ms)
      << where;
  if (implied.has_gaps) {
    EXPECT_NEAR(results["median_icl_ms"].get<double>(), implied.median_icl_ms, kTimingToleranceMs)
        << where;
  }
}

TEST(WireCorpusTiming, BenchMeasuresTheFiguresEachRecordingImplies) {
  for (const std::string& dir : bench::testing::corpus_recordings()) {
    const auto exchanges = bench::testing::load_or_empty(dir);
    ASSERT_FALSE(exchanges.empty()) << dir;
    std::map<std::string, std::vector<StreamFacts>> by_path;  // streamed completions only
    for (const auto& exchange : exchanges) {
      if (exchange.shape.method == "POST" && exchange.shape.stream) {
        by_path[exchange.shape.path].push_back(bench::testing::stream_facts(exchange));
      }
    }
    const auto [model, family] = recorded_model(exchanges);
    for (const auto& [path, facts] : by_path) {
      // A whole number of passes over the exchanges served in turn: the figures do not depend
      // on which one the first request met.
      const auto count = static_cast<std::int64_t>(facts.size());
      const std::int64_t runs = (6 + count - 1) / count;
      TempDir temp;
      const std::string truth_log = temp.file("replay-truth.jsonl");
      ServeSimProcess replay(BENCH_BINARY, {"--replay", dir, "--trace", truth_log}, temp);
      const auto result = bench::testing::run_process(
          BENCH_BINARY, {"--base-url",        replay.base_url(),
                         "--model",           model,
                         "--endpoint",        endpoint_of(path),
                         "--output-format",   "json",
                         "--quiet",           "--no-answer-check",
                         "--concurrency",     "1",
                         "--num-prompts",     std::to_string(runs * count),
                         "--input-len",       "4",
                         "--output-len",      "16",
                         "--warmup-requests", "0"});
      const std::string where = dir + " " + path;
      // Counts from the recording; latencies from what the replay sent, one line per request.
      Implied implied = implied_by(facts, runs);
      replay.stop();  // its last line is written
      // The measured requests are the last ones (one at a time, no warm-up): bench's probe of
      // the stream's usage before the run is served too.
      std::vector<StreamFacts> served = served_facts(exchanges, truth_log, path);
      ASSERT_GE(static_cast<std::int64_t>(served.size()), runs * count) << where;
      served.erase(served.begin(), served.end() - runs * count);
      const Implied as_served = implied_by(served, 1);
      implied.median_ttft_ms = as_served.median_ttft_ms;
      implied.median_icl_ms = as_served.median_icl_ms;
      implied.median_e2e_ms = as_served.median_e2e_ms;
      // Exit 1: the run finished with failed requests (a recorded error is one).
      ASSERT_EQ(result.exit_code, implied.failed > 0 ? 1 : 0) << where << ": " << result.err;
      const json results = json::parse(result.out, nullptr, false);
      ASSERT_TRUE(results.is_object()) << where << ": " << result.err;
      expect_figures(results, implied, where);
      if (!family.empty()) {
        EXPECT_EQ(results["server"]["family"], family) << where;
      }
    }
  }
}

std::vector<std::string> round_trip_run(const std::string& base_url) {
  return {"--base-url",
          base_url,
          "--model",
          "bench-sim",
          "--output-format",
          "json",
          "--quiet",
          "--no-answer-check",
          "--concurrency",
          "2",
          "--num-prompts",
          "12",
          "--input-len",
          "32",
          "--output-len",
          "8",
          "--ignore-eos",
          "--warmup-requests",
          "0"};
}

// Recorded through `bench record`, replayed, measured again: the two runs agree.
TEST(WireCorpusTiming, ARunRecordedThroughTheProxyAndReplayedGivesTheSameFigures) {
  TempDir temp;
  ServeSimProcess sim(BENCH_BINARY, {"--ttft-ms", "30", "--tpot-ms", "6"}, temp);
  const std::string out = temp.file("recording");
  bench::testing::AnnouncingProcess proxy(
      BENCH_BINARY, {"record", "--upstream", sim.base_url(), "--listen", "0", "--out", out},
      temp.file("record.err"));
  ASSERT_FALSE(proxy.base_url().empty()) << bench::testing::read_file(temp.file("record.err"));
  const auto first = bench::testing::run_process(BENCH_BINARY, round_trip_run(proxy.base_url()));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto& recorded = proxy.stop();
  EXPECT_EQ(recorded.exit_code, 0) << recorded.err;

  // The run's 12 streams (8 tokens each; bench's own probes before the run are recorded too).
  std::vector<StreamFacts> facts;
  for (const auto& exchange : bench::testing::load_or_empty(out)) {
    if (!exchange.shape.stream) continue;
    StreamFacts stream = bench::testing::stream_facts(exchange);
    if (stream.completion_tokens == 8) facts.push_back(stream);
  }
  ASSERT_EQ(facts.size(), 12u);

  ServeSimProcess replay(BENCH_BINARY, {"--replay", out}, temp);
  const auto second = bench::testing::run_process(BENCH_BINARY, round_trip_run(replay.base_url()));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const json a = json::parse(first.out);
  const json b = json::parse(second.out);
  for (const char* count : {"completed", "failed", "total_output_tokens", "total_input_tokens"}) {
    EXPECT_EQ(a[count], b[count]) << count;
  }
  for (const char* latency : {"median_ttft_ms", "median_icl_ms", "median_e2e_latency_ms"}) {
    EXPECT_NEAR(a[latency].get<double>(), b[latency].get<double>(), kTimingToleranceMs) << latency;
  }
  // The proxy's own cost: what the client saw through it, against what it recorded. Both hops
  // (request out, first chunk back) are in the difference.
  const Implied implied = implied_by(facts, 1);
  const double overhead_ms = a["median_ttft_ms"].get<double>() - implied.median_ttft_ms;
  std::printf("bench record: client TTFT - recorded TTFT = %.3f ms (medians of 12)\n", overhead_ms);
  EXPECT_GE(overhead_ms, 0.0);
  // A generous bound: 0.26-0.80 ms on a 2-vCPU VM at load average 10 (docs/performance.md).
  EXPECT_LT(overhead_ms, 2.0);
  expect_figures(b, implied, "replay of the recording");
}

}  // namespace
