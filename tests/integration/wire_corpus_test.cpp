// The wire corpus (tests/data/wire/, docs/wire-corpus.md): every recording is served back by
// `serve-sim --replay` byte for byte and ends its connections as recorded, and the behaviours
// it holds that lost requests before (llama.cpp's close after every stream, an idle keep-alive
// close) lose none. Recordings are found when the test runs: a new one needs no new code.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "announcing_process.hpp"
#include "run_process.hpp"
#include "serve_sim_process.hpp"
#include "wire_corpus_support.hpp"

namespace {

using bench::testing::RawExchange;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

TEST(WireCorpus, HoldsRecordingsEachSayingWhereItCameFrom) {
  const auto dirs = bench::testing::corpus_recordings();
  EXPECT_GE(dirs.size(), 8u);
  for (const std::string& dir : dirs) {
    EXPECT_TRUE(std::filesystem::exists(dir + "/SOURCE.md")) << dir;
    const auto loaded = bench::wire::load_recording(dir);
    EXPECT_TRUE(std::holds_alternative<std::vector<bench::wire::Exchange>>(loaded))
        << dir << ": " << std::get_if<bench::wire::WireError>(&loaded)->message;
  }
}

TEST(WireCorpus, EveryExchangeIsServedBackByteForByteAndItsConnectionEndsAsRecorded) {
  for (const std::string& dir : bench::testing::corpus_recordings()) {
    const auto exchanges = bench::testing::load_or_empty(dir);
    ASSERT_FALSE(exchanges.empty()) << dir;
    TempDir temp;
    ServeSimProcess replay(BENCH_BINARY, {"--replay", dir}, temp);
    ASSERT_FALSE(replay.base_url().empty()) << dir;
    const std::uint16_t port = bench::testing::port_of(replay.base_url());
    // In the recording's order: each shape's exchanges are served in turn, so the k-th request
    // of a shape gets the k-th recorded answer of that shape.
    for (const auto& exchange : exchanges) {
      const auto& close = exchange.close;
      const bool closes = close.how != bench::wire::Close::How::open && !close.idle;
      const int watch_ms =
          closes ? static_cast<int>(close.after_last_byte_ns / 1'000'000) + 500 : 0;
      const RawExchange got =
          bench::testing::raw_exchange(port, bench::testing::recorded_request(exchange), watch_ms,
                                       exchange.shape.method == "HEAD");
      EXPECT_EQ(got.response, exchange.response) << dir << "/" << exchange.name;
      if (closes) {
        EXPECT_EQ(got.end, close.how == bench::wire::Close::How::fin ? RawExchange::End::fin
                                                                     : RawExchange::End::rst)
            << dir << "/" << exchange.name;
      }
    }
    EXPECT_EQ(replay.stop().exit_code, 0) << dir;
  }
}

TEST(WireCorpus, ARequestOfAShapeNeverRecordedGetsA404NamingIt) {
  TempDir temp;
  ServeSimProcess replay(
      BENCH_BINARY, {"--replay", BENCH_TEST_DATA_DIR "/wire/llamacpp-b4748-close-after-stream"},
      temp);
  const RawExchange got = bench::testing::raw_exchange(
      bench::testing::port_of(replay.base_url()),
      "POST /v1/completions HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", 0);
  EXPECT_NE(got.response.find("404 Not Found"), std::string::npos) << got.response;
  EXPECT_NE(got.response.find("no recorded exchange for POST /v1/completions"), std::string::npos);
}

TEST(WireCorpus, AReplayOfADirectoryThatHoldsNoRecordingIsRefusedInOneLine) {
  TempDir empty;
  const auto result = bench::testing::run_process(
      BENCH_BINARY, {"serve-sim", "--port", "0", "--replay", empty.path()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("holds no exchange"), std::string::npos) << result.err;
}

// llama.cpp closes every streamed connection 8-90 us after the terminal chunk (the five
// exchanges carry the five delays measured on build b4748): bench loses none of thousands.
TEST(WireCorpus, LlamaCppsCloseAfterEveryStreamLosesNoRequestOverThousands) {
  TempDir temp;
  ServeSimProcess replay(
      BENCH_BINARY, {"--replay", BENCH_TEST_DATA_DIR "/wire/llamacpp-b4748-close-after-stream"},
      temp);
  const auto result =
      bench::testing::run_process(BENCH_BINARY, {"--base-url",        replay.base_url(),
                                                 "--model",           "tiny-llama",
                                                 "--endpoint",        "completions",
                                                 "--output-format",   "json",
                                                 "--quiet",           "--no-answer-check",
                                                 "--concurrency",     "8",
                                                 "--num-prompts",     "2000",
                                                 "--input-len",       "4",
                                                 "--output-len",      "16",
                                                 "--warmup-requests", "0"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json results = json::parse(result.out);
  EXPECT_EQ(results["completed"], 2000);
  EXPECT_EQ(results["failed"], 0);
  EXPECT_EQ(results["total_output_tokens"], 2000 * 16);
  EXPECT_EQ(results["server"]["family"], "llama.cpp");
}

// vLLM's uvicorn closes a connection idle for 5 s. The recording says so (its connections end
// with a FIN when nothing follows), and a run whose requests come 6 s apart loses none.
TEST(WireCorpus, AnIdleCloseAtFiveSecondsLosesNoRequestOfARunSixSecondsApart) {
  const std::string dir = BENCH_TEST_DATA_DIR "/wire/vllm-chat-cached-idle-close";
  TempDir temp;
  ServeSimProcess replay(BENCH_BINARY, {"--replay", dir}, temp);
  const auto exchanges = bench::testing::load_or_empty(dir);
  ASSERT_FALSE(exchanges.empty());
  const RawExchange idle =
      bench::testing::raw_exchange(bench::testing::port_of(replay.base_url()),
                                   bench::testing::recorded_request(exchanges.front()), 7'000);
  EXPECT_EQ(idle.end, RawExchange::End::fin);
  const auto result = bench::testing::run_process(BENCH_BINARY, {"--base-url",
                                                                 replay.base_url(),
                                                                 "--model",
                                                                 "meta-llama/Llama-3.1-8B-Instruct",
                                                                 "--endpoint",
                                                                 "chat",
                                                                 "--output-format",
                                                                 "json",
                                                                 "--quiet",
                                                                 "--no-answer-check",
                                                                 "--request-rate",
                                                                 "0.16667",
                                                                 "--constant-rate",
                                                                 "--num-prompts",
                                                                 "3",
                                                                 "--input-len",
                                                                 "4",
                                                                 "--output-len",
                                                                 "7",
                                                                 "--warmup-requests",
                                                                 "0"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json results = json::parse(result.out);
  EXPECT_EQ(results["completed"], 3);
  EXPECT_EQ(results["failed"], 0);
}

}  // namespace

namespace {

const char kSecret[] = "sk-wire-corpus-secret-0123456789";

// One streamed completion through `bench record` in front of `serve-sim sim_args...`; returns
// what the recorder wrote.
std::vector<bench::wire::Exchange> record_one_stream(const std::vector<std::string>& sim_args,
                                                     const TempDir& temp) {
  ServeSimProcess sim(BENCH_BINARY, sim_args, temp);
  const std::string out = temp.file("recording");
  bench::testing::AnnouncingProcess proxy(
      BENCH_BINARY,
      {"record", "--upstream", sim.base_url(), "--listen", "127.0.0.1:0", "--out", out},
      temp.file("record.err"));
  const std::string body = R"({"model":"m","prompt":"one two three","max_tokens":4,"stream":true})";
  bench::testing::raw_exchange(
      bench::testing::port_of(proxy.base_url()),
      "POST /v1/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + std::string(kSecret) +
          "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
          "\r\n\r\n" + body,
      2'000);
  EXPECT_EQ(proxy.stop().exit_code, 0);
  return bench::testing::load_or_empty(out);
}

TEST(WireRecord, AServersCloseAfterTheStreamIsRecordedAsAFinMicrosecondsAfterTheLastByte) {
  TempDir temp;
  const auto exchanges = record_one_stream(
      {"--ttft-ms", "5", "--tpot-ms", "2", "--close-after-stream", "--close-delay-us", "50"}, temp);
  ASSERT_EQ(exchanges.size(), 1u);
  const auto& exchange = exchanges.front();
  EXPECT_EQ(exchange.status, 200);
  EXPECT_EQ(exchange.shape, (bench::wire::Shape{"POST", "/v1/completions", true}));
  EXPECT_EQ(exchange.close.how, bench::wire::Close::How::fin);
  EXPECT_FALSE(exchange.close.idle);
  EXPECT_LT(exchange.close.after_last_byte_ns, 100'000'000);  // 50 us, on a loaded machine
  // The first text came no sooner than the server's 5 ms TTFT after the request was sent.
  ASSERT_GE(exchange.reads.size(), 2u);
  EXPECT_GE(exchange.reads.back().at_ns, 5'000'000);
}

TEST(WireRecord, AResetIsRecordedAsAnRstAndCredentialsAreNeverWritten) {
  TempDir temp;
  const auto exchanges =
      record_one_stream({"--ttft-ms", "1", "--tpot-ms", "1", "--reset-fraction", "1"}, temp);
  ASSERT_EQ(exchanges.size(), 1u);
  EXPECT_EQ(exchanges.front().close.how, bench::wire::Close::How::rst);
  bool authorization_recorded = false;
  for (const auto& [name, value] : exchanges.front().request_headers) {
    if (name == "Authorization") {
      authorization_recorded = true;
      EXPECT_EQ(value, "[REDACTED]");
    }
  }
  EXPECT_TRUE(authorization_recorded);
  for (const auto& entry : std::filesystem::directory_iterator(temp.file("recording"))) {
    EXPECT_EQ(bench::testing::read_file(entry.path().string()).find(kSecret), std::string::npos)
        << entry.path();
  }
}

// A close recorded as an RST is replayed as one.
TEST(WireCorpus, ARecordedResetIsReplayedAsAReset) {
  TempDir temp;
  bench::wire::Exchange exchange;
  exchange.name = "000001";
  exchange.shape = {"GET", "/v1/models", false};
  exchange.response = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";
  exchange.status = 200;
  exchange.reads = {{1'000'000, exchange.response.size()}};
  exchange.close = {bench::wire::Close::How::rst, 2'000'000, false};
  std::filesystem::create_directories(temp.file("rst"));
  bench::wire::write_exchange(temp.file("rst"), exchange);
  ServeSimProcess replay(BENCH_BINARY, {"--replay", temp.file("rst")}, temp);
  const RawExchange got = bench::testing::raw_exchange(bench::testing::port_of(replay.base_url()),
                                                       "GET /v1/models HTTP/1.1\r\n\r\n", 2'000);
  EXPECT_EQ(got.response, exchange.response);
  EXPECT_EQ(got.end, RawExchange::End::rst);
}

}  // namespace

namespace {

// Bad options are refused in one line before the proxy listens.
TEST(WireRecord, BadOptionsAreRefusedInOneLineBeforeListening) {
  TempDir temp;
  const std::vector<std::vector<std::string>> bad = {
      {"record", "--upstream", "https://gpu-box:8000", "--listen", "0", "--out", temp.path()},
      {"record", "--upstream", "http://gpu-box:8000/v1", "--listen", "0", "--out", temp.path()},
      {"record", "--upstream", "http://127.0.0.1:8000", "--listen", "port", "--out", temp.path()},
      {"record", "--upstream", "http://127.0.0.1:8000", "--listen", "0"},
  };
  for (const auto& args : bad) {
    const auto result = bench::testing::run_process(BENCH_BINARY, args);
    EXPECT_EQ(result.exit_code, 2) << args[2] << " " << args[4];
    EXPECT_EQ(result.err.find("listening on"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("error"), std::string::npos) << result.err;
  }
}

}  // namespace
