// Issue 5's acceptance, one test per error class, through the real bench binary: every measured
// request lands in that class (errors.<class>.count in the JSON results, and no other class),
// sent == completed + failed + cancelled, the exit code is the README's ("Exit codes"), and
// the files bench was asked to write (--output-file, --save-requests) exist and parse, every
// JSONL line naming the class in its status. Faults the simulator injects come from its flags
// (sim_faults_test.cpp checks their classes and counts; here each also checks the files and the
// exit code); the rest come from the hostile server or from sockets that refuse, drop or
// cannot be named.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "hostile_server.hpp"
#include "no_answer_check.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"

namespace {

using bench::sim::SimOptions;
using bench::sim::SimServer;
using bench::testing::ClosedPort;
using bench::testing::Exchange;
using bench::testing::FullAcceptQueue;
using bench::testing::HostileServer;
using bench::testing::ProcessOptions;
using bench::testing::ProcessResult;
using bench::testing::quick_sim;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

constexpr int kClassRequests = 4;
using bench::cli::kExitOk;
using bench::cli::kExitRequestsFailed;

// What one run of bench left behind.
struct ClassifiedRun {
  ProcessResult process;
  json results;                     // stdout, --output-format json
  json results_file;                // --output-file
  std::vector<json> request_lines;  // --save-requests, one object a line
  bool every_line_parsed = true;
};

// Runs bench on `base_url` with a known model and no per-chunk-usage probe (so every request
// sent is a measured one), JSON on stdout, and both results files in a fresh directory.
ClassifiedRun run_classified(
    const std::string& base_url, std::vector<std::string> extra,
    std::chrono::milliseconds timeout = std::chrono::milliseconds(30'000)) {
  TempDir dir;
  // --ready-timeout 0: a refused connection or a 503 is the class under test, not a server to
  // wait for.
  std::vector<std::string> args = {"--base-url",
                                   base_url,
                                   "--ready-timeout",
                                   "0",
                                   "--model",
                                   "hostile",
                                   "--per-chunk-usage",
                                   "off",
                                   "--concurrency",
                                   std::to_string(kClassRequests),
                                   "--num-prompts",
                                   std::to_string(kClassRequests),
                                   "--input-len",
                                   "16",
                                   "--output-len",
                                   "8",
                                   "--output-format",
                                   "json",
                                   "--quiet",
                                   "--output-file",
                                   dir.file("results.json"),
                                   "--save-requests",
                                   dir.file("requests.jsonl")};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessOptions limits;
  limits.timeout = timeout;
  ClassifiedRun outcome;
  outcome.process = run_process(BENCH_BINARY, bench::testing::without_answer_check(args), limits);
  outcome.results = json::parse(outcome.process.out, nullptr, false);
  outcome.results_file =
      json::parse(bench::testing::read_file(dir.file("results.json")), nullptr, false);
  std::istringstream lines(bench::testing::read_file(dir.file("requests.jsonl")));
  for (std::string line; std::getline(lines, line);) {
    json parsed = json::parse(line, nullptr, false);
    outcome.every_line_parsed = outcome.every_line_parsed && !parsed.is_discarded();
    outcome.request_lines.push_back(std::move(parsed));
  }
  return outcome;
}

// The checks every class shares. Returns the class's first sample message ("" when none).
std::string expect_every_request_in(const ClassifiedRun& outcome, const std::string& error_class,
                                    int exit_code = kExitRequestsFailed) {
  const ProcessResult& process = outcome.process;
  EXPECT_FALSE(process.timed_out) << "bench hung";
  EXPECT_EQ(process.exit_code, exit_code) << process.err;
  const json& results = outcome.results;
  if (results.is_discarded() || !results.is_object()) {
    ADD_FAILURE() << "stdout is not a JSON object: " << process.out.substr(0, 300) << "\n"
                  << process.err;
    return "";
  }
  EXPECT_EQ(outcome.results_file, results) << "--output-file differs from stdout or is missing";

  EXPECT_EQ(results["sent"], kClassRequests);
  EXPECT_EQ(results["completed"].get<int>() + results["failed"].get<int>() +
                results["cancelled"].get<int>(),
            results["sent"].get<int>());
  const bool cancelled = error_class == "cancelled";
  EXPECT_EQ(results["completed"], 0);
  EXPECT_EQ(results["failed"], cancelled ? 0 : kClassRequests);
  EXPECT_EQ(results["cancelled"], cancelled ? kClassRequests : 0);

  const json& errors = results["errors"];
  EXPECT_EQ(errors.size(), 1u) << "one class expected, bench's: " << errors.dump();
  if (!errors.contains(error_class)) {
    ADD_FAILURE() << "no " << error_class << " in bench's classes: " << errors.dump();
    return "";
  }
  EXPECT_EQ(errors[error_class]["count"], kClassRequests) << errors.dump();

  EXPECT_TRUE(outcome.every_line_parsed) << "--save-requests holds a line that is not JSON";
  EXPECT_EQ(outcome.request_lines.size(), static_cast<std::size_t>(kClassRequests));
  for (const json& line : outcome.request_lines) {
    if (!line.is_object()) continue;
    EXPECT_EQ(line["status"], error_class) << line.dump();
    EXPECT_TRUE(line["error"].is_string() && !line["error"].get<std::string>().empty())
        << line.dump();
  }
  const json& samples = errors[error_class]["samples"];
  return samples.is_array() && !samples.empty() ? samples[0].get<std::string>() : "";
}

// A server whose every answer is the same bytes, sent once the request has been read.
HostileServer answering(std::string response) {
  return HostileServer(
      [response = std::move(response)](Exchange& exchange) { exchange.send(response); });
}

// --- the connection --------------------------------------------------------------------------

TEST(ErrorClasses, ConnectRefusedWhenNothingListens) {
  const ClosedPort port;
  const std::string sample =
      expect_every_request_in(run_classified(port.base_url(), {}), "connect_refused");
  EXPECT_NE(sample.find("connect"), std::string::npos) << sample;
}

TEST(ErrorClasses, ConnectRefusedBeforeTheRunExitsThreeNamingTheUrlAndWritesNoFile) {
  // Without --model bench asks GET /v1/models first: an unreachable server means the run
  // cannot be done (README: exit 3), and no results file pretends otherwise.
  const ClosedPort port;
  TempDir dir;
  const ProcessResult run =
      run_process(BENCH_BINARY, {"--base-url", port.base_url(), "--ready-timeout", "0", "--quiet",
                                 "--output-file", dir.file("results.json"), "--save-requests",
                                 dir.file("requests.jsonl")});
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_NE(run.err.find(port.base_url() + "/v1/models"), std::string::npos) << run.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a file was left in " << dir.path();
}

TEST(ErrorClasses, DnsWhenTheHostNameCannotBeResolved) {
  // A 64-octet label breaks RFC 1035's 63-octet limit, so the stub resolver (glibc or c-ares)
  // refuses the name without sending a query: the failure is immediate and the same offline,
  // behind a dead nameserver or with a working one. What this proves: a name that does not
  // resolve is classed dns. It does not prove how a resolver that hangs is classed (the
  // connect timeout bounds that case, --connect-timeout below keeps the test bounded anyway).
  const std::string host = std::string(64, 'a') + ".invalid";
  const ClassifiedRun outcome =
      run_classified("http://" + host + ":8000", {"--connect-timeout", "5"});
  const std::string sample = expect_every_request_in(outcome, "dns");
  EXPECT_NE(sample.find("resolve"), std::string::npos) << sample;
}

TEST(ErrorClasses, TlsWhenHttpsMeetsAPlainHttpServer) {
  // A plain HTTP server (uvicorn, nginx) answers a TLS ClientHello with a 400 in clear text;
  // the client's handshake then fails on a record that is not TLS.
  HostileServer plain(
      [](Exchange& exchange) {
        if (exchange.receive().empty()) return;  // the ClientHello
        exchange.send(bench::testing::http_response(400, "text/plain; charset=utf-8",
                                                    "Invalid HTTP request received."));
      },
      /*read_request=*/false);
  const std::string url = "https://127.0.0.1:" + std::to_string(plain.port());
  expect_every_request_in(run_classified(url, {"--connect-timeout", "5"}), "tls");
}

TEST(ErrorClasses, ConnectTimeoutWhenTheServersAcceptQueueIsFull) {
  const FullAcceptQueue queue;
  const auto start = std::chrono::steady_clock::now();
  const ClassifiedRun outcome = run_classified(queue.base_url(), {"--connect-timeout", "0.5"});
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  expect_every_request_in(outcome, "connect_timeout");
  // The limit is what ended them: all four in parallel, each after 0.5 s.
  EXPECT_LT(elapsed_s, 10.0);
}

// --- the HTTP status -------------------------------------------------------------------------

TEST(ErrorClasses, Http4xxShowsTheServersMessageInJsonAndInTheTextReport) {
  // vLLM's error shape: the message at the top level, not under "error".
  HostileServer server = answering(bench::testing::http_response(
      400, "application/json",
      R"({"object":"error","message":"temperature must be in [0, 2], got 7.0.",)"
      R"("type":"BadRequestError","param":null,"code":400})"));
  const std::string sample =
      expect_every_request_in(run_classified(server.base_url(), {}), "http_4xx");
  EXPECT_NE(sample.find("HTTP 400"), std::string::npos) << sample;
  EXPECT_NE(sample.find("temperature must be in [0, 2]"), std::string::npos) << sample;

  const ProcessResult text = run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--model", "hostile", "--per-chunk-usage",
                     "off", "--num-prompts", "2", "--concurrency", "2", "--quiet"});
  EXPECT_EQ(text.exit_code, kExitRequestsFailed) << text.err;
  EXPECT_NE(text.out.find("http_4xx: 2"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("temperature must be in [0, 2]"), std::string::npos) << text.out;
}

// A 400 whose body says the prompt outgrew the model's context is counted apart from the other
// 4xx (AgentX's context_overflow_count), in every run.
TEST(ErrorClasses, ContextOverflowIsA4xxCountedApart) {
  HostileServer server = answering(bench::testing::http_response(
      400, "application/json",
      R"({"object":"error","message":"This model's maximum context length is 2048 tokens. )"
      R"(However, you requested 4096 tokens.","type":"BadRequestError","param":null,"code":400})"));
  const std::string sample =
      expect_every_request_in(run_classified(server.base_url(), {}), "context_overflow");
  EXPECT_NE(sample.find("HTTP 400: This model's maximum context length is 2048"), std::string::npos)
      << sample;

  const ProcessResult text = run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--model", "hostile", "--per-chunk-usage",
                     "off", "--num-prompts", "2", "--concurrency", "2", "--quiet"});
  EXPECT_EQ(text.exit_code, kExitRequestsFailed) << text.err;
  EXPECT_NE(text.out.find("context_overflow: 2"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("http_4xx"), std::string::npos) << text.out;
}

TEST(ErrorClasses, Http5xxFromTheSimulatorWithItsMessage) {
  SimOptions options = quick_sim();
  options.fail_500_fraction = 1;
  const SimServer server(options);
  const std::string sample =
      expect_every_request_in(run_classified(server.base_url(), {}), "http_5xx");
  EXPECT_NE(sample.find("HTTP 500"), std::string::npos) << sample;
}

TEST(ErrorClasses, RateLimitedOn429FromTheSimulator) {
  SimOptions options = quick_sim();
  options.fail_429_fraction = 1;
  const SimServer server(options);
  const std::string sample =
      expect_every_request_in(run_classified(server.base_url(), {}), "rate_limited");
  EXPECT_NE(sample.find("HTTP 429"), std::string::npos) << sample;
}

// --- time limits -----------------------------------------------------------------------------

TEST(ErrorClasses, TtftTimeoutWhenNoTextComesInTime) {
  SimOptions options = quick_sim();
  options.ttft_ms = 10'000;
  const SimServer server(options);
  expect_every_request_in(run_classified(server.base_url(), {"--ttft-timeout", "0.3"}),
                          "ttft_timeout");
}

TEST(ErrorClasses, StallWhenTheStreamGoesSilentMidway) {
  SimOptions options = quick_sim();
  options.stall_fraction = 1;
  options.stall_s = 5;
  const SimServer server(options);
  expect_every_request_in(run_classified(server.base_url(), {"--stall-timeout", "0.3"}), "stall");
}

TEST(ErrorClasses, RequestTimeoutWhenTheWholeStreamTakesTooLong) {
  // Tokens flow steadily (no stall, text from the first 5 ms) but 200 of them take 10 s.
  SimOptions options = quick_sim();
  options.tpot_ms = 50;
  const SimServer server(options);
  expect_every_request_in(run_classified(server.base_url(), {"--output-len", "200", "--ignore-eos",
                                                             "--request-timeout", "0.5"}),
                          "request_timeout");
}

// --- the stream ------------------------------------------------------------------------------

TEST(ErrorClasses, MalformedSseWhenALineExceedsTheCap) {
  // A 2 MiB data line against the default --max-line-bytes of 1 MiB.
  HostileServer server([](Exchange& exchange) {
    if (!exchange.send(bench::testing::http_head(200, "text/event-stream"))) return;
    if (!exchange.send("data: ")) return;
    exchange.send_repeated("x", 2 << 20);
  });
  const std::string sample =
      expect_every_request_in(run_classified(server.base_url(), {}), "malformed_sse");
  EXPECT_NE(sample.find("longer than 1048576 bytes"), std::string::npos) << sample;
}

TEST(ErrorClasses, MalformedSseWhenA200IsNotAnEventStream) {
  // A proxy's HTML page with status 200: no event in it, so nothing to count as a completion.
  HostileServer server = answering(bench::testing::http_response(
      200, "text/html", "<html><body><h1>Welcome to nginx!</h1></body></html>"));
  const std::string sample =
      expect_every_request_in(run_classified(server.base_url(), {}), "malformed_sse");
  EXPECT_NE(sample.find("text/html"), std::string::npos) << sample;
}

TEST(ErrorClasses, MalformedJsonFromTheSimulator) {
  SimOptions options = quick_sim();
  options.malformed_json_fraction = 1;
  const SimServer server(options);
  expect_every_request_in(run_classified(server.base_url(), {}), "malformed_json");
}

TEST(ErrorClasses, StreamErrorFromTheSimulator) {
  SimOptions options = quick_sim();
  options.stream_error_fraction = 1;
  const SimServer server(options);
  expect_every_request_in(run_classified(server.base_url(), {}), "stream_error");
}

TEST(ErrorClasses, TruncatedFromTheSimulator) {
  SimOptions options = quick_sim();
  options.truncate_fraction = 1;
  const SimServer server(options);
  expect_every_request_in(run_classified(server.base_url(), {}), "truncated");
}

TEST(ErrorClasses, TruncatedWhenAClosedDelimitedStreamEndsWithoutFinishOrDone) {
  // No Content-Length and no chunking: the close is a clean end for HTTP, so only the missing
  // finish_reason and [DONE] tell bench the answer was cut.
  HostileServer server = answering(bench::testing::http_head(200, "text/event-stream") +
                                   bench::testing::sse_event(bench::testing::chat_chunk("Hi")) +
                                   bench::testing::sse_event(bench::testing::chat_chunk(" there")));
  expect_every_request_in(run_classified(server.base_url(), {}), "truncated");
}

// --- the transport ---------------------------------------------------------------------------

TEST(ErrorClasses, TransportWhenTheServerResetsBeforeAnyByte) {
  HostileServer server([](Exchange& exchange) { exchange.reset(); });
  expect_every_request_in(run_classified(server.base_url(), {}), "transport");
}

TEST(ErrorClasses, TransportWhenTheServerClosesBeforeAnyByte) {
  HostileServer server([](Exchange&) {});
  expect_every_request_in(run_classified(server.base_url(), {}), "transport");
}

// --- bench itself ----------------------------------------------------------------------------

TEST(ErrorClasses, CancelledByDurationHardIsNotAFailure) {
  // Streams of 10 s against a 1 s hard duration: the four in flight at its end are cancelled,
  // which is bench's doing, not the server's (error_class.hpp), so the exit code stays 0.
  SimOptions options = quick_sim();
  options.tpot_ms = 50;
  const SimServer server(options);
  const ClassifiedRun outcome =
      run_classified(server.base_url(),
                     {"--output-len", "200", "--ignore-eos", "--duration", "1", "--duration-hard"});
  expect_every_request_in(outcome, "cancelled", kExitOk);
  if (outcome.results.is_object()) {
    EXPECT_EQ(outcome.results["interrupted"], false);
  }
}

// --- results files that cannot be written ----------------------------------------------------

// A path that cannot be written is found before the run, not after it: a usage error naming
// the path, nothing sent and nothing left behind. (A write that fails at the end of the run,
// e.g. a full disk, is still exit 3 with the report on stdout.)
TEST(ResultsFiles, UnwritableOutputFileIsAUsageErrorNamingThePathBeforeSendingAnything) {
  const SimServer server(quick_sim());
  TempDir dir;
  const std::string path = dir.file("no-such-directory/results.json");
  for (const char* format : {"text", "json"}) {
    const ProcessResult run =
        run_process(BENCH_BINARY, {"--base-url", server.base_url(), "--num-prompts", "4",
                                   "--concurrency", "2", "--output-len", "4", "--quiet",
                                   "--output-format", format, "--output-file", path});
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find(path), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
  EXPECT_EQ(server.requests_served(), 0u);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a file was left in " << dir.path();
}

TEST(ResultsFiles, UnwritableRequestLogIsAUsageErrorNamingThePathBeforeSendingAnything) {
  const SimServer server(quick_sim());
  TempDir dir;
  const std::string path = dir.file("no-such-directory/requests.jsonl");
  const ProcessResult run = run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--model", "bench-sim", "--per-chunk-usage",
                     "off", "--num-prompts", "4", "--quiet", "--save-requests", path});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find(path), std::string::npos) << run.err;
  EXPECT_EQ(server.requests_served(), 0u);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a file was left in " << dir.path();
}

}  // namespace
