// --metrics-listen and --live-jsonl over loopback, through the real binary and the embedded
// server: /metrics scraped while the run goes on and after it (--metrics-linger) parses as
// Prometheus text, its counters move during the run (certainly: a server holds the requests
// until a scrape has seen them in flight) and end equal to the results file's figures exactly,
// its window percentiles equal the report's; each shard serves its own figures under its shard
// label; a scraper that never reads and one that scrapes every 5 ms change nothing; a port in
// use is a usage error before any request.
// And the trace context: a W3C traceparent of its own on every request, its ids in the request
// log, and one OTLP span per request posted to a collector on loopback.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <httplib.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/server_metrics/exposition.hpp"
#include "bench/sim/sim_server.hpp"
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
  ASSERT_TRUE(last) << "no scrape saw the final figures";
  EXPECT_GT(scrapes, 20);
  const json results = json::parse(read_file(results_path));
  const sm::Exposition& final_metrics = last->parsed.exposition;

  // A scrape that caught the run under way saw the counters moved, and not yet to their end.
  // Whether one did depends on the machine's speed: AScrapeDuringTheRunSeesItUnderWay makes
  // certain of it with a server that holds its requests.
  if (mid) {
    EXPECT_GT(completed_of(mid->parsed.exposition), 0);
    EXPECT_LT(completed_of(mid->parsed.exposition), results["completed"].get<double>());
  }

  // The scrapers (one never reading, one every 5 ms) took nothing from the client: its own
  // work never became the bottleneck of this light run (client_saturated judges the loop's CPU,
  // which a busy host does not raise), and no request failed.
  EXPECT_FALSE(results["client_saturated"].get<bool>()) << results["client"].dump();
  EXPECT_EQ(results["failed"], 0);

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

// A server the test holds: it answers the first `free_requests` requests at once (one token
// each) and keeps every later one open until release(), so a scrape during the run is certain to
// find requests in flight and some completed, however slow the machine. A held request is let
// go after kHoldLimit at the latest, so a test that fails never hangs.
class GatedServer {
 public:
  static constexpr auto kHoldLimit = std::chrono::seconds(60);

  explicit GatedServer(int free_requests) : free_requests_(free_requests) {
    server_.Get("/v1/models", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(R"({"object":"list","data":[{"id":"m","object":"model"}]})",
                           "application/json");
    });
    server_.Post("/v1/chat/completions",
                 [this](const httplib::Request&, httplib::Response& response) {
                   std::unique_lock lock(mutex_);
                   if (++requests_ > free_requests_) {
                     released_.wait_for(lock, kHoldLimit, [this] { return open_; });
                   }
                   lock.unlock();
                   response.set_content(answer(), "text/event-stream");
                 });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~GatedServer() {
    release();
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  void release() {
    {
      const std::lock_guard lock(mutex_);
      open_ = true;
    }
    released_.notify_all();
  }

 private:
  static std::string answer() {
    const std::string head = R"({"id":"r","object":"chat.completion.chunk","model":"m",)";
    return "data: " + head +
           R"("choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]})" +
           "\n\ndata: " + head +
           R"("choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":1,"total_tokens":8}})" +
           "\n\ndata: [DONE]\n\n";
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable released_;
  int free_requests_;
  int requests_ = 0;
  bool open_ = false;
};

TEST(LiveMetrics, AScrapeDuringTheRunSeesItUnderWay) {
  GatedServer server(2);
  const TempDir dir;
  ProcessOptions options;
  options.err_path = dir.file("err.txt");
  std::string url;
  std::optional<Scrape> mid;
  options.while_running = [&](int, std::chrono::milliseconds) {
    if (mid) return;
    if (url.empty()) url = announced_metrics_url(options.err_path);
    if (url.empty()) return;
    std::optional<Scrape> now = scrape(url);
    if (!now || !now->parsed.ok()) return;
    const sm::Exposition& metrics = now->parsed.exposition;
    // Polled until the run is seen under way: the held requests keep it so until release().
    if (value_of(metrics, "bench_run_finished") == 0 &&
        value_of(metrics, "bench_requests_in_flight").value_or(0) > 0 &&
        completed_of(metrics) >= 2) {
      mid = std::move(now);
      server.release();
    }
  };
  const ProcessResult run = run_process(
      BENCH_BINARY,
      {"--base-url", server.url(), "--model", "m", "--num-prompts", "8", "--concurrency", "2",
       "--no-answer-check", "--per-chunk-usage", "off", "--metrics-listen", "127.0.0.1:0",
       "--output-file", dir.file("results.json"), "--quiet"},
      options);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(mid) << "no scrape saw the run under way: " << run.err;
  const sm::Exposition& metrics = mid->parsed.exposition;
  const json results = json::parse(read_file(dir.file("results.json")));
  EXPECT_EQ(results["completed"], 8);
  EXPECT_GE(completed_of(metrics), 2);
  EXPECT_LT(completed_of(metrics), 8);
  EXPECT_GT(value_of(metrics, "bench_requests_in_flight").value_or(0), 0);
  EXPECT_LE(value_of(metrics, "bench_requests_in_flight").value_or(0), 2);
  const double output_mid =
      value_of(metrics, "bench_tokens_total", {{"gen_ai_token_type", "output"}}).value_or(-1);
  EXPECT_GT(output_mid, 0);
  EXPECT_LT(output_mid, results["total_output_tokens"].get<double>());
}

// Each shard serves its own figures, every sample labelled with its index, so a Prometheus
// scraping all of them sums them without (shard).
TEST(LiveMetrics, EachShardServesItsOwnFiguresUnderItsShardLabel) {
  const TempDir dir;
  bench::sim::SimOptions sim;
  sim.ttft_ms = 5;
  sim.tpot_ms = 1;
  const bench::sim::SimServer server(sim);
  double output_sum = 0;
  for (const std::string shard : {"0", "1"}) {
    ProcessOptions options;
    options.err_path = dir.file("err-" + shard + ".txt");
    std::string url;
    std::optional<Scrape> last;
    options.while_running = [&](int, std::chrono::milliseconds) {
      if (last) return;
      if (url.empty()) url = announced_metrics_url(options.err_path);
      if (url.empty()) return;
      std::optional<Scrape> now = scrape(url);
      if (now && now->parsed.ok() && value_of(now->parsed.exposition, "bench_run_finished") == 1) {
        last = std::move(now);
      }
    };
    options.signal_when = [&] { return last.has_value(); };  // ends the linger
    const std::string results_path = dir.file("shard-" + shard + ".json");
    const ProcessResult run = run_process(BENCH_BINARY, {"--base-url",       server.base_url(),
                                                         "--shard",          shard + "/2",
                                                         "--seed",           "5",
                                                         "--num-prompts",    "20",
                                                         "--concurrency",    "4",
                                                         "--input-len",      "16",
                                                         "--output-len",     "6",
                                                         "--ignore-eos",     "--no-answer-check",
                                                         "--metrics-listen", "127.0.0.1:0",
                                                         "--metrics-linger", "60",
                                                         "--output-file",    results_path,
                                                         "--quiet"},
                                          options);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    ASSERT_TRUE(last) << "shard " << shard << ": no scrape of its final figures";
    std::size_t samples = 0;
    for (const sm::Family& family : last->parsed.exposition.families) {
      for (const sm::Sample& sample : family.samples) {
        ++samples;
        const std::string* label = sample.label("shard");
        ASSERT_NE(label, nullptr) << "shard " << shard << ": " << sample.name;
        EXPECT_EQ(*label, shard) << sample.name;
      }
    }
    EXPECT_GT(samples, 20U);
    const json results = json::parse(read_file(results_path));
    const double output =
        value_of(last->parsed.exposition, "bench_tokens_total", {{"gen_ai_token_type", "output"}})
            .value_or(-1);
    EXPECT_EQ(output, results["total_output_tokens"].get<double>()) << "shard " << shard;
    EXPECT_EQ(completed_of(last->parsed.exposition), results["completed"].get<double>());
    output_sum += output;
  }
  // The shards' requests are the one workload's, dealt 10 and 10: 20 requests of 6 tokens.
  EXPECT_EQ(output_sum, 20 * 6);
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

namespace {

// A loopback server in the test: an OpenAI-style chat endpoint answering every request with one
// token (and keeping each request's traceparent), and an OTLP collector keeping what is posted.
class TracingServer {
 public:
  TracingServer() {
    server_.Get("/v1/models", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(R"({"object":"list","data":[{"id":"m","object":"model"}]})",
                           "application/json");
    });
    server_.Post("/v1/chat/completions", [this](const httplib::Request& request,
                                                httplib::Response& response) {
      std::string id;
      {
        const std::lock_guard lock(mutex_);
        traceparents_.push_back(request.get_header_value("traceparent"));
        id = "r-" + std::to_string(traceparents_.size());
      }
      const std::string head =
          R"({"id":")" + id + R"(","object":"chat.completion.chunk","model":"m",)";
      response.set_content(
          "data: " + head +
              R"("choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]})" +
              "\n\ndata: " + head +
              R"("choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":1,"total_tokens":8}})" +
              "\n\ndata: [DONE]\n\n",
          "text/event-stream");
    });
    server_.Post("/v1/traces",
                 [this](const httplib::Request& request, httplib::Response& response) {
                   const std::lock_guard lock(mutex_);
                   posted_.push_back(request.body);
                   response.set_content("{}", "application/json");
                 });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~TracingServer() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<std::string> traceparents() {
    const std::lock_guard lock(mutex_);
    return traceparents_;
  }
  std::vector<std::string> posted() {
    const std::lock_guard lock(mutex_);
    return posted_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> traceparents_;
  std::vector<std::string> posted_;
};

std::vector<std::string> tracing_run_args(const TracingServer& server, const TempDir& dir,
                                          std::vector<std::string> extra) {
  std::vector<std::string> args = {"--base-url",
                                   server.url(),
                                   "--model",
                                   "m",
                                   "--num-prompts",
                                   "6",
                                   "--concurrency",
                                   "2",
                                   "--no-answer-check",
                                   "--per-chunk-usage",
                                   "off",
                                   "--save-requests",
                                   dir.file("requests.jsonl")};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(TraceContext, EveryRequestCarriesItsOwnTraceparentAndTheLogItsIds) {
  TracingServer server;
  const TempDir dir;
  const ProcessResult run = run_process(BENCH_BINARY, tracing_run_args(server, dir, {}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> sent = server.traceparents();
  ASSERT_EQ(sent.size(), 6U);
  const std::regex form("00-([0-9a-f]{32})-([0-9a-f]{16})-01");
  std::set<std::string> from_headers;
  for (const std::string& header : sent) {
    std::smatch ids;
    ASSERT_TRUE(std::regex_match(header, ids, form)) << header;
    from_headers.insert(ids[1].str() + "/" + ids[2].str());
  }
  EXPECT_EQ(from_headers.size(), 6U);  // one trace per request
  std::set<std::string> from_log;
  for (const json& line : bench::testing::read_jsonl(dir.file("requests.jsonl"))) {
    from_log.insert(line.at("trace_id").get<std::string>() + "/" +
                    line.at("span_id").get<std::string>());
  }
  EXPECT_EQ(from_log, from_headers);
}

TEST(TraceContext, NoTraceparentSendsNone) {
  TracingServer server;
  const TempDir dir;
  const ProcessResult run =
      run_process(BENCH_BINARY, tracing_run_args(server, dir, {"--no-traceparent"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const std::string& header : server.traceparents()) EXPECT_EQ(header, "");
  for (const json& line : bench::testing::read_jsonl(dir.file("requests.jsonl"))) {
    EXPECT_TRUE(line.at("trace_id").is_null()) << line;
  }
}

TEST(TraceContext, OneOtlpSpanPerRequestWithItsPhases) {
  TracingServer server;
  const TempDir dir;
  const ProcessResult run =
      run_process(BENCH_BINARY,
                  tracing_run_args(server, dir, {"--otlp-endpoint", server.url() + "/v1/traces"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("OTLP: 6 spans posted"), std::string::npos) << run.err;
  std::map<std::string, json> spans;  // by trace id
  for (const std::string& body : server.posted()) {
    const json request = json::parse(body);
    for (const json& resource : request.at("resourceSpans")) {
      for (const json& scope : resource.at("scopeSpans")) {
        for (const json& span : scope.at("spans")) spans[span.at("traceId")] = span;
      }
    }
  }
  ASSERT_EQ(spans.size(), 6U);
  const auto now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  for (const json& line : bench::testing::read_jsonl(dir.file("requests.jsonl"))) {
    const json& span = spans.at(line.at("trace_id").get<std::string>());
    EXPECT_EQ(span.at("spanId"), line.at("span_id"));
    EXPECT_EQ(span.at("kind"), 3);  // client
    EXPECT_EQ(span.at("status").at("code"), 1);
    const std::int64_t start = std::stoll(span.at("startTimeUnixNano").get<std::string>());
    const std::int64_t end = std::stoll(span.at("endTimeUnixNano").get<std::string>());
    EXPECT_LE(start, end);
    EXPECT_LT(std::llabs(now_ns - end), 120'000'000'000LL);  // Unix time, not the steady clock
    std::vector<std::string> names;
    std::int64_t previous = 0;
    for (const json& event : span.at("events")) {
      names.push_back(event.at("name"));
      const std::int64_t at = std::stoll(event.at("timeUnixNano").get<std::string>());
      EXPECT_GE(at, previous) << span.dump();
      previous = at;
    }
    for (const char* phase : {"queued", "sent", "headers", "first_token", "last_token"}) {
      EXPECT_NE(std::find(names.begin(), names.end(), phase), names.end()) << phase;
    }
  }
}

}  // namespace
