// --metrics-listen and --live-jsonl over loopback, through the real binary and the embedded
// server: /metrics scraped while the run goes on and after it (--metrics-linger) parses as
// Prometheus text, its counters move during the run and end equal to the results file's
// figures exactly, its window percentiles equal the report's; a scraper that never reads and
// one that scrapes every 5 ms change nothing; a port in use is a usage error before any request.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/server_metrics/exposition.hpp"
#include "jsonl.hpp"
#include "run_process.hpp"

namespace {

namespace sm = bench::server_metrics;
using bench::testing::ProcessOptions;
using bench::testing::ProcessResult;
using bench::testing::read_file;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// The value of the sample of `family` named `name` whose labels include all of `labels`.
std::optional<double> value_of(const sm::Exposition& metrics, const std::string& name,
                               std::vector<std::pair<std::string, std::string>> labels = {}) {
  for (const sm::Family& family : metrics.families) {
    for (const sm::Sample& sample : family.samples) {
      if (sample.name != name) continue;
      bool all = true;
      for (const auto& [label, value] : labels) {
        const std::string* has = sample.label(label);
        all = all && has != nullptr && *has == value;
      }
      if (all) return sample.value;
    }
  }
  return std::nullopt;
}

// The URL bench announced on stderr ("bench: live metrics on URL/metrics"), or "".
std::string announced_metrics_url(const std::string& err_path) {
  const std::string err = read_file(err_path);
  const std::string marker = "live metrics on ";
  const std::size_t at = err.find(marker);
  if (at == std::string::npos) return "";
  const std::size_t end = err.find('\n', at);
  if (end == std::string::npos) return "";
  return err.substr(at + marker.size(), end - at - marker.size());
}

struct Scrape {
  std::string body;
  sm::ParseResult parsed;
};

std::optional<Scrape> scrape(const std::string& url) {
  const bench::engine::FetchResult got = bench::engine::fetch(url, {}, "", {});
  if (got.http_status != 200) return std::nullopt;
  Scrape out{got.body, sm::parse_exposition(got.body)};
  return out;
}

double completed_of(const sm::Exposition& metrics) {
  return value_of(metrics, "bench_requests_total",
                  {{"phase", "measured"}, {"outcome", "completed"}})
      .value_or(-1);
}

// A connection that asks for /metrics and never reads the answer.
int never_reading_scraper(const std::string& metrics_url) {
  const std::size_t colon = metrics_url.rfind(':');
  const int port = std::stoi(metrics_url.substr(colon + 1));
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  int small = 1024;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) return fd;
  for (int k = 0; k < 50; ++k) {  // pipelined requests: far more answer than the buffers hold
    const std::string request = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
    (void)!::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  }
  return fd;
}

TEST(LiveMetrics, ScrapedDuringAndAfterTheRunTheCountersEqualTheResults) {
  const TempDir dir;
  const std::string results_path = dir.file("results.json");
  const std::string live_path = dir.file("live.jsonl");
  ProcessOptions options;
  options.err_path = dir.file("err.txt");
  std::string url;
  std::optional<Scrape> mid, last;
  int scrapes = 0;
  int idle_fd = -1;
  bool done = false;
  options.while_running = [&](int, std::chrono::milliseconds) {
    if (done) return;
    if (url.empty()) {
      url = announced_metrics_url(options.err_path);
      if (!url.empty()) idle_fd = never_reading_scraper(url);
      return;
    }
    std::optional<Scrape> now = scrape(url);  // every 5 ms: a scraper far faster than any
    if (!now) return;
    ++scrapes;
    EXPECT_TRUE(now->parsed.ok()) << now->parsed.error->describe() << "\n" << now->body;
    if (!now->parsed.ok()) return;
    const double finished = value_of(now->parsed.exposition, "bench_run_finished").value_or(-1);
    if (finished == 0 && completed_of(now->parsed.exposition) > 0 && !mid)
      mid = std::move(now);
    else if (finished == 1) {
      last = std::move(now);
      done = true;
    }
  };
  options.signal_when = [&] { return done; };  // ends the linger
  const ProcessResult run = run_process(BENCH_BINARY,
                                        {"--num-prompts",
                                         "240",
                                         "--concurrency",
                                         "8",
                                         "--input-len",
                                         "32",
                                         "--output-len",
                                         "12",
                                         "--ignore-eos",
                                         "--warmup-requests",
                                         "4",
                                         "--sim-ttft-ms",
                                         "5",
                                         "--sim-tpot-ms",
                                         "4",
                                         "--metrics-listen",
                                         "127.0.0.1:0",
                                         "--metrics-linger",
                                         "60",
                                         "--metrics-window",
                                         "3600",
                                         "--live-jsonl",
                                         live_path,
                                         "--output-file",
                                         results_path,
                                         "--output-format",
                                         "json"},
                                        options);
  if (idle_fd >= 0) ::close(idle_fd);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_FALSE(url.empty()) << run.err;
  ASSERT_TRUE(mid) << "no scrape saw the run under way";
  ASSERT_TRUE(last) << "no scrape saw the final figures";
  EXPECT_GT(scrapes, 20);
  const json results = json::parse(read_file(results_path));
  const sm::Exposition& final_metrics = last->parsed.exposition;

  // Mid-run the counters had moved, and not yet to their end.
  EXPECT_GT(completed_of(mid->parsed.exposition), 0);
  EXPECT_LT(completed_of(mid->parsed.exposition), results["completed"].get<double>());

  // After: exactly the results' figures.
  EXPECT_EQ(completed_of(final_metrics), results["completed"].get<double>());
  EXPECT_EQ(value_of(final_metrics, "bench_requests_total",
                     {{"phase", "warmup"}, {"outcome", "completed"}}),
            4);
  EXPECT_EQ(value_of(final_metrics, "bench_tokens_total", {{"gen_ai_token_type", "output"}}),
            results["total_output_tokens"].get<double>());
  EXPECT_EQ(value_of(final_metrics, "bench_tokens_total", {{"gen_ai_token_type", "input"}}),
            results["total_input_tokens"].get<double>());
  EXPECT_EQ(value_of(final_metrics, "bench_requests_in_flight"), 0);
  EXPECT_EQ(value_of(final_metrics, "bench_ttft_seconds_count"),
            results["completed"].get<double>());

  // The window (an hour: the whole point) holds every request: its percentiles are the report's.
  const auto p99_ttft_s = value_of(final_metrics, "bench_window_latency_seconds",
                                   {{"latency", "ttft"}, {"percentile", "99"}});
  ASSERT_TRUE(p99_ttft_s);
  EXPECT_NEAR(*p99_ttft_s * 1000, results["p99_ttft_ms"].get<double>(),
              1e-9 * results["p99_ttft_ms"].get<double>());
  const auto median_tpot_s = value_of(final_metrics, "bench_window_latency_seconds",
                                      {{"latency", "tpot"}, {"percentile", "50"}});
  ASSERT_TRUE(median_tpot_s);
  EXPECT_NEAR(*median_tpot_s * 1000, results["median_tpot_ms"].get<double>(),
              1e-9 * results["median_tpot_ms"].get<double>());

  // The JSON feed: a line per snapshot, the last one final with the same counts.
  const std::vector<json> lines = bench::testing::read_jsonl(live_path);
  ASSERT_GT(lines.size(), 2U);
  const json& final_line = lines.back();
  EXPECT_TRUE(final_line["final"].get<bool>());
  EXPECT_EQ(final_line["tokens"]["output"], results["total_output_tokens"]);
  EXPECT_EQ(final_line["tokens"]["input"], results["total_input_tokens"]);
  EXPECT_EQ(final_line["tokens"]["total"], results["total_output_tokens"].get<std::int64_t>() +
                                               results["total_input_tokens"].get<std::int64_t>());
  EXPECT_EQ(final_line["requests"]["measured"]["completed"], results["completed"]);
}

TEST(LiveMetrics, APortInUseIsAUsageErrorBeforeAnyRequest) {
  // The port bench is asked for, held here; and a server bench would be sent to, counting
  // connections (none may come).
  auto listening = [](int& port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(fd, 16);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    port = ntohs(address.sin_port);
    return fd;
  };
  int taken_port = 0, server_port = 0;
  const int taken = listening(taken_port);
  const int server = listening(server_port);
  const ProcessResult run =
      run_process(BENCH_BINARY, {"--base-url", "http://127.0.0.1:" + std::to_string(server_port),
                                 "--model", "m", "--num-prompts", "4", "--metrics-listen",
                                 "127.0.0.1:" + std::to_string(taken_port)});
  EXPECT_EQ(run.exit_code, bench::cli::kExitUsage) << run.err;
  EXPECT_NE(run.err.find("--metrics-listen"), std::string::npos) << run.err;
  EXPECT_LT(::accept(server, nullptr, nullptr), 0) << "bench connected to the server";
  ::close(taken);
  ::close(server);
}

}  // namespace
