// Issue 10, items 1 and 2, through the real bench binary over loopback: a server that echoes
// the credentials it was sent (the API key, a credential --header, the password of the URL's
// userinfo) gets none of them into stdout, stderr, --output-file, --save-requests or --html;
// a refused key is named as the problem (not "pass --model"), and a run whose first requests
// are all refused stops after a handful instead of sending all of them (exit code 3).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "hostile_server.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::Exchange;
using bench::testing::HostileServer;
using bench::testing::ProcessOptions;
using bench::testing::ProcessResult;
using bench::testing::read_file;
using bench::testing::run_process;
using bench::testing::sse_event;
using bench::testing::TempDir;
using nlohmann::json;

// Every secret holds this word, so a search for it finds any part of one that got through.
constexpr std::string_view kSecretWord = "SECRET";
constexpr std::string_view kApiKey = "sk-test-SECRET-4f9a2c7e1b";
constexpr std::string_view kHeaderKey = "hdr-SECRET-77aa99bb";
constexpr std::string_view kUrlUser = "bench-user";
constexpr std::string_view kUrlPassword = "url-pass-SECRET-31";
using bench::cli::kExitRequestsFailed;
using bench::cli::kExitRunFailed;
constexpr int kManyRequests = 1000;
// The first 8 refused requests stop the run; at concurrency 4, at most 3 more are in flight
// then. Far below 1000 either way.
constexpr int kAFewRequests = 20;

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// The value of header `name` in a request head (case-insensitive name), "" when absent.
std::string header_value(std::string_view request, std::string_view name) {
  std::string lowered(request);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(), lower);
  std::string wanted = "\r\n" + std::string(name) + ":";
  std::transform(wanted.begin(), wanted.end(), wanted.begin(), lower);
  const std::size_t at = lowered.find(wanted);
  if (at == std::string::npos) return "";
  const std::size_t start = request.find_first_not_of(' ', at + wanted.size());
  const std::size_t end = request.find("\r\n", start);
  return std::string(request.substr(start, end - start));
}

// A server that refuses every request (models list and completions alike) with `status`,
// quoting in its message what was sent in `echoed_header`, as some gateways do. Counts the
// POSTs that reached it.
struct RefusingServer {
  explicit RefusingServer(int status = 401, std::string message_prefix = "Invalid API key: ",
                          std::string echoed_header = "Authorization")
      : posts(std::make_shared<std::atomic<int>>(0)),
        server([posts = posts, status, message_prefix, echoed_header](Exchange& exchange) {
          if (exchange.request().starts_with("POST")) posts->fetch_add(1);
          const std::string message =
              message_prefix + header_value(exchange.request(), echoed_header);
          const json body = {{"error",
                              {{"message", message},
                               {"type", "invalid_request_error"},
                               {"code", "invalid_api_key"}}}};
          exchange.send(bench::testing::http_response(status, "application/json", body.dump()));
        }) {}

  std::shared_ptr<std::atomic<int>> posts;
  HostileServer server;
};

// What one run of bench showed and stored.
struct KeyedRun {
  ProcessResult process;
  std::string results_file;   // --output-file
  std::string requests_file;  // --save-requests
  std::string html_file;      // --html
};

KeyedRun run_with_key(const std::string& base_url, std::vector<std::string> extra) {
  TempDir dir;
  std::vector<std::string> args = {"--base-url",
                                   base_url,
                                   "--api-key",
                                   std::string(kApiKey),
                                   "--input-len",
                                   "16",
                                   "--output-len",
                                   "8",
                                   "--request-timeout",
                                   "20",
                                   "--output-file",
                                   dir.file("results.json"),
                                   "--save-requests",
                                   dir.file("requests.jsonl"),
                                   "--html",
                                   dir.file("report.html")};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessOptions limits;
  limits.timeout = std::chrono::milliseconds(60'000);
  KeyedRun outcome;
  outcome.process = run_process(BENCH_BINARY, bench::testing::without_answer_check(args), limits);
  outcome.results_file = read_file(dir.file("results.json"));
  outcome.requests_file = read_file(dir.file("requests.jsonl"));
  outcome.html_file = read_file(dir.file("report.html"));
  return outcome;
}

// No byte of any output holds `secret`.
void expect_nowhere(const KeyedRun& outcome, std::string_view secret) {
  const std::pair<const char*, const std::string*> outputs[] = {
      {"stdout", &outcome.process.out},
      {"stderr", &outcome.process.err},
      {"--output-file", &outcome.results_file},
      {"--save-requests", &outcome.requests_file},
      {"--html", &outcome.html_file}};
  for (const auto& [name, text] : outputs) {
    const std::size_t at = text->find(secret);
    EXPECT_EQ(at, std::string::npos)
        << secret << " in " << name << ": ..." << text->substr(at < 80 ? 0 : at - 80, 160);
  }
}

// Words: the tests count the server's POSTs, which the default's /tokenize would add to.
std::vector<std::string> refused_run_flags() {
  return {"--model",           "m",
          "--per-chunk-usage", "off",
          "--num-prompts",     std::to_string(kManyRequests),
          "--concurrency",     "4",
          "--tokenizer",       "words"};
}

TEST(Credentials, RefusedModelListSaysCheckTheKeyNotPassModel) {
  RefusingServer refusing;
  const KeyedRun outcome = run_with_key(refusing.server.base_url(), {"--quiet"});
  EXPECT_EQ(outcome.process.exit_code, kExitRunFailed) << outcome.process.err;
  const std::string expected = "bench: error: GET " + refusing.server.base_url() +
                               "/v1/models answered HTTP 401 (unauthorized): Invalid API key: "
                               "Bearer [REDACTED]; check --api-key or OPENAI_API_KEY";
  EXPECT_NE(outcome.process.err.find(expected), std::string::npos) << outcome.process.err;
  EXPECT_EQ(outcome.process.err.find("pass --model"), std::string::npos) << outcome.process.err;
  EXPECT_EQ(refusing.posts->load(), 0);
  expect_nowhere(outcome, kSecretWord);
}

TEST(Credentials, ModelListNotFoundStillSaysPassModel) {
  RefusingServer missing(404, "no such route", "X-None");
  const KeyedRun outcome = run_with_key(missing.server.base_url(), {"--quiet"});
  EXPECT_EQ(outcome.process.exit_code, kExitRunFailed) << outcome.process.err;
  EXPECT_NE(outcome.process.err.find("answered HTTP 404: no such route; pass --model"),
            std::string::npos)
      << outcome.process.err;
}

TEST(Credentials, RefusedRunStopsEarlyAndShowsNoKeyInTextAndFiles) {
  RefusingServer refusing;
  const KeyedRun outcome = run_with_key(refusing.server.base_url(), refused_run_flags());
  EXPECT_FALSE(outcome.process.timed_out);
  EXPECT_EQ(outcome.process.exit_code, kExitRunFailed) << outcome.process.err;
  EXPECT_LT(refusing.posts->load(), kAFewRequests);
  EXPECT_NE(outcome.process.err.find(
                "bench: error: stopped after the first 8 requests all failed with HTTP 401 "
                "(unauthorized): Invalid API key: Bearer [REDACTED]; check --api-key or "
                "OPENAI_API_KEY"),
            std::string::npos)
      << outcome.process.err;

  // The failed requests stay counted and classified, with the server's message (redacted).
  const json results = json::parse(outcome.results_file, nullptr, false);
  ASSERT_TRUE(results.is_object()) << outcome.results_file.substr(0, 300);
  EXPECT_EQ(results["sent"], refusing.posts->load());
  EXPECT_EQ(results["failed"], results["sent"]);
  EXPECT_EQ(results["errors"]["http_4xx"]["count"], results["sent"]);
  EXPECT_EQ(results["errors"]["http_4xx"]["samples"][0],
            "HTTP 401: Invalid API key: Bearer [REDACTED]");
  EXPECT_TRUE(results["stopped_early"].is_string()) << results.dump().substr(0, 300);
  EXPECT_NE(outcome.requests_file.find("Bearer [REDACTED]"), std::string::npos);
  EXPECT_NE(outcome.process.out.find("Bearer [REDACTED]"), std::string::npos)
      << outcome.process.out;
  expect_nowhere(outcome, kSecretWord);
}

TEST(Credentials, RefusedRunShowsNoKeyInJsonOutput) {
  RefusingServer refusing;
  std::vector<std::string> flags = refused_run_flags();
  flags.insert(flags.end(), {"--output-format", "json"});
  const KeyedRun outcome = run_with_key(refusing.server.base_url(), flags);
  EXPECT_EQ(outcome.process.exit_code, kExitRunFailed) << outcome.process.err;
  EXPECT_LT(refusing.posts->load(), kAFewRequests);
  const json results = json::parse(outcome.process.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << outcome.process.out.substr(0, 300);
  EXPECT_EQ(results["errors"]["http_4xx"]["samples"][0],
            "HTTP 401: Invalid API key: Bearer [REDACTED]");
  expect_nowhere(outcome, kSecretWord);
}

TEST(Credentials, RefusedOpenLoopRunStopsEarly) {
  RefusingServer refusing;
  std::vector<std::string> flags = refused_run_flags();
  flags.insert(flags.end(), {"--request-rate", "200", "--quiet"});
  const KeyedRun outcome = run_with_key(refusing.server.base_url(), flags);
  EXPECT_EQ(outcome.process.exit_code, kExitRunFailed) << outcome.process.err;
  EXPECT_LT(refusing.posts->load(), kAFewRequests);
  EXPECT_NE(outcome.process.err.find("stopped after the first 8 requests"), std::string::npos)
      << outcome.process.err;
}

TEST(Credentials, UnknownModelStopsEarlySayingCheckModel) {
  RefusingServer missing(404, "The model `m` does not exist.", "X-None");
  const KeyedRun outcome = run_with_key(missing.server.base_url(), refused_run_flags());
  EXPECT_EQ(outcome.process.exit_code, kExitRunFailed) << outcome.process.err;
  EXPECT_LT(missing.posts->load(), kAFewRequests);
  EXPECT_NE(outcome.process.err.find("with HTTP 404 (model not found): The model `m` does not "
                                     "exist.; check --model"),
            std::string::npos)
      << outcome.process.err;
}

TEST(Credentials, RefusedProbeSaysCheckTheKeyBeforeTheRun) {
  RefusingServer refusing;
  const KeyedRun outcome = run_with_key(
      refusing.server.base_url(), {"--model", "m", "--num-prompts", std::to_string(kManyRequests),
                                   "--quiet", "--tokenizer", "words"});
  EXPECT_EQ(outcome.process.exit_code, kExitRunFailed) << outcome.process.err;
  EXPECT_EQ(refusing.posts->load(), 1);  // the per-chunk usage probe
  EXPECT_NE(outcome.process.err.find("bench: error: POST " + refusing.server.base_url() +
                                     "/v1/chat/completions answered HTTP 401 (unauthorized)"),
            std::string::npos)
      << outcome.process.err;
  expect_nowhere(outcome, kSecretWord);
}

TEST(Credentials, StreamErrorEchoingACredentialHeaderShowsItNowhere) {
  HostileServer echoing([](Exchange& exchange) {
    const std::string value = header_value(exchange.request(), "X-Api-Key");
    const json chunk = {{"id", "chatcmpl-" + value},
                        {"object", "chat.completion.chunk"},
                        {"choices", {{{"index", 0}, {"delta", {{"content", "hi"}}}}}}};
    const json error = {{"error", {{"message", "X-Api-Key " + value + " has no quota left"}}}};
    exchange.send(bench::testing::http_head(200, "text/event-stream") + sse_event(chunk.dump()) +
                  sse_event(error.dump()));
  });
  const KeyedRun outcome = run_with_key(
      echoing.base_url(),
      {"--model", "m", "--per-chunk-usage", "off", "--num-prompts", "4", "--concurrency", "2",
       "--header", "X-Api-Key: " + std::string(kHeaderKey), "--output-format", "json"});
  EXPECT_EQ(outcome.process.exit_code, kExitRequestsFailed) << outcome.process.err;
  const json results = json::parse(outcome.process.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << outcome.process.out.substr(0, 300);
  EXPECT_EQ(results["errors"]["stream_error"]["count"], 4) << results["errors"].dump();
  EXPECT_NE(outcome.requests_file.find("X-Api-Key [REDACTED] has no quota left"), std::string::npos)
      << outcome.requests_file.substr(0, 600);
  expect_nowhere(outcome, kSecretWord);
}

// --endpoint messages sends the key as x-api-key (Anthropic's header, from the endpoint's row),
// not as Authorization: a server echoing that header back in its message and in Anthropic's
// error event gets the key into no output.
TEST(Credentials, MessagesKeyEchoedAsXApiKeyShowsNowhere) {
  HostileServer echoing([](Exchange& exchange) {
    const std::string value = header_value(exchange.request(), "x-api-key");
    const std::string bearer = header_value(exchange.request(), "Authorization");
    const json start = {{"type", "message_start"},
                        {"message",
                         {{"id", "msg_" + value},
                          {"type", "message"},
                          {"role", "assistant"},
                          {"content", json::array()},
                          {"usage", {{"input_tokens", 16}, {"output_tokens", 1}}}}}};
    const json error = {{"type", "error"},
                        {"error",
                         {{"type", "overloaded_error"},
                          {"message", "key " + value + ", authorization '" + bearer + "'"}}}};
    exchange.send(bench::testing::http_head(200, "text/event-stream") + sse_event(start.dump()) +
                  sse_event(error.dump()));
  });
  const KeyedRun outcome = run_with_key(
      echoing.base_url(), {"--endpoint", "messages", "--model", "m", "--tokenizer", "words",
                           "--num-prompts", "4", "--concurrency", "2", "--output-format", "json"});
  EXPECT_EQ(outcome.process.exit_code, kExitRequestsFailed) << outcome.process.err;
  const json results = json::parse(outcome.process.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << outcome.process.out.substr(0, 300);
  // The key came as x-api-key alone (redacted where echoed), with no Authorization header.
  EXPECT_EQ(results["errors"]["stream_error"]["count"], 4) << results["errors"].dump();
  EXPECT_EQ(results["errors"]["stream_error"]["samples"][0], "key [REDACTED], authorization ''");
  EXPECT_NE(outcome.requests_file.find("msg_[REDACTED]"), std::string::npos)
      << outcome.requests_file.substr(0, 600);
  expect_nowhere(outcome, kSecretWord);
}

TEST(Credentials, UrlPasswordIsNeitherShownNorEchoed) {
  RefusingServer refusing;  // echoes the Basic credentials curl sends for the URL's userinfo
  const std::string url = "http://" + std::string(kUrlUser) + ":" + std::string(kUrlPassword) +
                          "@127.0.0.1:" + std::to_string(refusing.server.port());
  TempDir dir;
  ProcessOptions limits;
  limits.timeout = std::chrono::milliseconds(60'000);
  std::vector<std::string> args = {"--base-url",  url,  "--output-file", dir.file("results.json"),
                                   "--input-len", "16", "--output-len",  "8"};
  for (const std::string& flag : refused_run_flags()) args.push_back(flag);
  KeyedRun outcome;
  outcome.process = run_process(BENCH_BINARY, bench::testing::without_answer_check(args), limits);
  outcome.results_file = read_file(dir.file("results.json"));
  EXPECT_EQ(outcome.process.exit_code, kExitRunFailed) << outcome.process.err;
  EXPECT_NE(outcome.process.err.find("Invalid API key: Basic [REDACTED]"), std::string::npos)
      << outcome.process.err;
  const json results = json::parse(outcome.results_file, nullptr, false);
  ASSERT_TRUE(results.is_object()) << outcome.results_file.substr(0, 300);
  const std::string shown =
      "http://bench-user:[REDACTED]@127.0.0.1:" + std::to_string(refusing.server.port());
  EXPECT_EQ(results["base_url"], shown);
  EXPECT_EQ(results["config"]["base_url"], shown);
  expect_nowhere(outcome, kSecretWord);
  // base64("bench-user:url-pass-SECRET-31"), as curl sends it.
  expect_nowhere(outcome, "YmVuY2gtdXNlcjp1cmwtcGFzcy1TRUNSRVQtMzE=");
}

}  // namespace
