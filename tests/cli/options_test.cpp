// parse_cli in-process: flags land in RunOptions, bad values come back as usage errors that
// name the flag, and nothing exits the test process.
#include "bench/cli/options.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::cli::Command;
using bench::cli::ParseResult;
using bench::testing::parse_args;

TEST(ParseCli, DefaultsMatchTheDocumentedValues) {
  unsetenv("OPENAI_BASE_URL");
  unsetenv("OPENAI_API_KEY");
  const ParseResult result = parse_args({});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.command, Command::run);
  EXPECT_TRUE(result.run.base_urls.empty());
  EXPECT_EQ(result.run.endpoint, bench::protocol::Endpoint::chat);
  EXPECT_EQ(result.run.concurrency, (std::vector<std::int64_t>{64}));
  EXPECT_EQ(result.run.num_prompts, 1000);
  EXPECT_EQ(result.run.input_len, 1024);
  EXPECT_EQ(result.run.output_len, 128);
  EXPECT_FALSE(result.run.temperature.has_value());
  EXPECT_EQ(result.run.output.format, bench::cli::OutputFormat::text);
  EXPECT_FALSE(result.run.output.no_progress);
}

TEST(ParseCli, NumWarmupsIsVllmsNameForWarmupRequests) {
  const ParseResult result = parse_args({"--num-warmups", "5"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.run.warmup_requests, 5);
  // The same flag by either name: a warm-up by time still refuses it.
  const ParseResult both = parse_args({"--num-warmups", "5", "--warmup-duration", "10"});
  EXPECT_EQ(both.exit_code, bench::cli::kExitUsage) << both.message;
}

TEST(ParseCli, DisableTqdmTakesTheProgressLineAwayNotTheNotes) {
  const ParseResult result = parse_args({"--disable-tqdm"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_TRUE(result.run.output.no_progress);
  EXPECT_FALSE(result.run.output.quiet);
}

TEST(ParseCli, NoStreamSendsWholeAnswersAndTheExtraBodyMustAgree) {
  EXPECT_FALSE(parse_args({}).run.no_stream);
  const ParseResult result = parse_args({"--no-stream"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_TRUE(result.run.no_stream);
  // "stream" is bench's: the answer is read as it asked for it.
  const ParseResult agreeing = parse_args({"--no-stream", "--extra-body", R"({"stream":false})"});
  EXPECT_FALSE(agreeing.exit_code) << agreeing.message;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--extra-body", R"({"stream":false})"},
        std::vector<std::string>{"--no-stream", "--extra-body", R"({"stream":true})"}}) {
    const ParseResult refused = parse_args(args);
    ASSERT_TRUE(refused.exit_code.has_value()) << args.back();
    EXPECT_EQ(*refused.exit_code, bench::cli::kExitUsage);
    EXPECT_NE(refused.message.find("(--no-stream sends false)"), std::string::npos)
        << refused.message;
  }
}

TEST(ParseCli, ReadsEveryRunFlag) {
  const ParseResult result = parse_args({"--base-url",
                                         "http://127.0.0.1:8000/v1/",
                                         "--endpoint",
                                         "completions",
                                         "--model",
                                         "m",
                                         "--api-key",
                                         "k",
                                         "--max-concurrency",
                                         "256",
                                         "--num-prompts",
                                         "10",
                                         "--input-len",
                                         "5",
                                         "--output-len",
                                         "7",
                                         "--ignore-eos",
                                         "--temperature",
                                         "0.5",
                                         "--extra-body",
                                         R"({"top_p":0.9})",
                                         "--header",
                                         "X-A: 1",
                                         "--header",
                                         "X-B: 2",
                                         "--seed",
                                         "7",
                                         "--warmup-requests",
                                         "3",
                                         "--request-timeout",
                                         "30",
                                         "--output-format",
                                         "json",
                                         "--output-file",
                                         "r.json",
                                         "--save-requests",
                                         "r.jsonl"});
  ASSERT_FALSE(result.exit_code) << result.message;
  const bench::cli::RunOptions& run = result.run;
  // The trailing "/v1/" is bench's to add.
  EXPECT_EQ(run.base_urls, std::vector<std::string>{"http://127.0.0.1:8000"});
  EXPECT_EQ(run.endpoint, bench::protocol::Endpoint::completions);
  EXPECT_EQ(run.model, "m");
  EXPECT_EQ(run.api_key, "k");
  EXPECT_EQ(run.concurrency, (std::vector<std::int64_t>{256}));
  EXPECT_EQ(run.num_prompts, 10);
  EXPECT_EQ(run.input_len, 5);
  EXPECT_EQ(run.output_len, 7);
  EXPECT_TRUE(run.ignore_eos);
  EXPECT_EQ(run.temperature, 0.5);
  EXPECT_EQ(run.extra_body, R"({"top_p":0.9})");
  EXPECT_EQ(run.headers, (std::vector<std::string>{"X-A: 1", "X-B: 2"}));
  EXPECT_EQ(run.seed, 7u);
  EXPECT_EQ(run.warmup_requests, 3);
  EXPECT_EQ(run.request_timeout_s, 30);
  EXPECT_EQ(run.output.format, bench::cli::OutputFormat::json);
  EXPECT_EQ(run.output.output_file, "r.json");
  EXPECT_EQ(run.output.save_requests, "r.jsonl");
}

TEST(ParseCli, TakesBaseUrlAndApiKeyFromTheEnvironment) {
  setenv("OPENAI_BASE_URL", "http://10.0.0.1:9000", 1);
  setenv("OPENAI_API_KEY", "from-env", 1);
  const ParseResult result = parse_args({});
  unsetenv("OPENAI_BASE_URL");
  unsetenv("OPENAI_API_KEY");
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.run.base_urls, std::vector<std::string>{"http://10.0.0.1:9000"});
  EXPECT_EQ(result.run.api_key, "from-env");
}

TEST(ParseCli, HeaderTakesVllmsKeyEqualsValueToo) {
  const ParseResult result = parse_args({"--header", "X-Additional-Info=0.3.3", "--header",
                                         "X-Trace: a=b", "--header", "X-Span=c:d"});
  ASSERT_FALSE(result.exit_code) << result.message;
  // vLLM's form becomes a header line; one with a colon first is bench's form, kept as it is.
  EXPECT_EQ(result.run.headers,
            (std::vector<std::string>{"X-Additional-Info: 0.3.3", "X-Trace: a=b", "X-Span: c:d"}));
  // Neither form: no field name before '=' or ':'.
  const ParseResult bad = parse_args({"--header", "=no-name"});
  ASSERT_TRUE(bad.exit_code.has_value());
  EXPECT_EQ(*bad.exit_code, bench::cli::kExitUsage) << bad.message;
  EXPECT_NE(bad.message.find("--header: '=no-name'"), std::string::npos) << bad.message;
}

TEST(ParseCli, BadValuesAreUsageErrorsNamingTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--concurrency", "-3"}, "--concurrency"},
      {{"--extra-body", "nope"}, "--extra-body: 'nope'"},
      {{"--header", "X-A: 1\r\nX-Injected: 2"}, "--header"},
      {{"--base-url", "localhost:8000"}, "--base-url: 'localhost:8000'"},
      {{"--per-chunk-usage", "maybe"}, "--per-chunk-usage"},
      {{"--client-threads", "0"}, "--client-threads"},
      {{"--client-threads", "many"}, "--client-threads"},
      {{"--client-threads", "1.5"}, "--client-threads"},
  };
  for (const auto& [args, mention] : cases) {
    const ParseResult result = parse_args(args);
    ASSERT_TRUE(result.exit_code.has_value()) << mention;
    EXPECT_EQ(*result.exit_code, bench::cli::kExitUsage) << mention;
    EXPECT_NE(result.message.find(mention), std::string::npos) << result.message;
  }
}

TEST(ParseCli, ServeSimIsASubcommandWithItsOwnFlags) {
  const ParseResult result =
      parse_args({"serve-sim", "--port", "8123", "--ttft-ms", "30", "--tpot-ms", "4",
                  "--tokens-per-chunk", "3", "--no-usage", "--model", "x"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.command, Command::serve_sim);
  EXPECT_EQ(result.serve_sim.port, 8123);
  EXPECT_EQ(result.serve_sim.ttft_ms, 30);
  EXPECT_EQ(result.serve_sim.tpot_ms, 4);
  EXPECT_EQ(result.serve_sim.tokens_per_chunk, 3);
  EXPECT_FALSE(result.serve_sim.send_usage);
  EXPECT_EQ(result.serve_sim.model, "x");
}

TEST(ParseCli, ServeSimListensOnPort8000ByDefaultWhileTheEmbeddedTargetTakesAnyFreePort) {
  const ParseResult serve = parse_args({"serve-sim"});
  ASSERT_FALSE(serve.exit_code) << serve.message;
  EXPECT_EQ(serve.serve_sim.port, 8000);
  const ParseResult run = parse_args({});
  ASSERT_FALSE(run.exit_code) << run.message;
  EXPECT_EQ(run.run.sim.port, 0);
}

TEST(ParseCli, ExportNamesItsFormatAndOptionallyAPointAndAFile) {
  const std::string results = std::string(BENCH_TEST_DATA_DIR) + "/results/single_run.json";
  const ParseResult result =
      parse_args({"export", results, "--format", "llm-d-report", "--point", "2", "-o", "r.json"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.command, Command::export_results);
  EXPECT_EQ(result.export_options.results_path, results);
  EXPECT_EQ(result.export_options.format, bench::cli::ExportFormat::llmd_report);
  EXPECT_EQ(result.export_options.point, 2);
  EXPECT_EQ(result.export_options.output_path, "r.json");
  const ParseResult to_stdout = parse_args({"export", results, "--format", "llm-d-report"});
  ASSERT_FALSE(to_stdout.exit_code) << to_stdout.message;
  EXPECT_FALSE(to_stdout.export_options.point);
  EXPECT_TRUE(to_stdout.export_options.output_path.empty());
}

TEST(ParseCli, ExportRefusesAnUnknownFormatNoFormatAndAPointBelowOne) {
  const std::string results = std::string(BENCH_TEST_DATA_DIR) + "/results/single_run.json";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"export", results, "--format", "csv"},
        std::vector<std::string>{"export", results},
        std::vector<std::string>{"export", results, "--format", "llm-d-report", "--point", "0"}}) {
    const ParseResult result = parse_args(args);
    ASSERT_TRUE(result.exit_code.has_value()) << args.back();
    EXPECT_EQ(*result.exit_code, bench::cli::kExitUsage) << result.message;
    EXPECT_NE(result.message.find("bench export --help"), std::string::npos) << result.message;
  }
}

TEST(ParseCli, ConfigJsonRedactsTheApiKeyAndHeaderValues) {
  const ParseResult result =
      parse_args({"--api-key", "sk-secret", "--header", "X-Token: also-secret"});
  ASSERT_FALSE(result.exit_code) << result.message;
  const std::string config = bench::cli::options_to_json(result.run).dump();
  EXPECT_EQ(config.find("sk-secret"), std::string::npos);
  EXPECT_EQ(config.find("also-secret"), std::string::npos);
  EXPECT_NE(config.find("<redacted>"), std::string::npos);
  EXPECT_NE(config.find("X-Token"), std::string::npos);
}

}  // namespace

namespace {

TEST(ParseCli, ReadsSweepsAndLoadShapes) {
  const ParseResult sweep = parse_args({"--concurrency", "1,8,64"});
  ASSERT_FALSE(sweep.exit_code) << sweep.message;
  EXPECT_EQ(sweep.run.concurrency, (std::vector<std::int64_t>{1, 8, 64}));
  EXPECT_TRUE(sweep.run.concurrency_given);

  const ParseResult rates = parse_args({"--request-rate", "4,inf", "--burstiness", "0.5"});
  ASSERT_FALSE(rates.exit_code) << rates.message;
  ASSERT_EQ(rates.run.request_rates.size(), 2u);
  EXPECT_EQ(rates.run.request_rates[0], 4);
  EXPECT_EQ(rates.run.burstiness, 0.5);
  // An open loop without --concurrency is not capped in practice, as in vLLM and SGLang.
  EXPECT_EQ(rates.run.concurrency, (std::vector<std::int64_t>{bench::cli::kOpenLoopDefaultCap}));

  const ParseResult timed =
      parse_args({"--duration", "2m", "--duration-hard", "--warmup-duration", "10s", "--goodput",
                  "ttft:300", "tpot:50", "--output-format", "csv", "--client-threads", "2"});
  ASSERT_FALSE(timed.exit_code) << timed.message;
  EXPECT_EQ(timed.run.duration_s, 120);
  EXPECT_TRUE(timed.run.duration_hard);
  EXPECT_EQ(timed.run.warmup_duration_s, 10);
  EXPECT_EQ(timed.run.goodput.ttft_ms, 300);
  EXPECT_EQ(timed.run.goodput.tpot_ms, 50);
  EXPECT_EQ(timed.run.output.format, bench::cli::OutputFormat::csv);
  EXPECT_EQ(timed.run.client_threads, 2u);
  // The loops are chosen per point unless given: auto is the default, and can be said.
  EXPECT_FALSE(rates.run.client_threads.has_value());
  EXPECT_FALSE(parse_args({"--client-threads", "auto"}).run.client_threads.has_value());
}

TEST(ParseCli, RefusesCombinationsThatMeanNothing) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--concurrency", "1,8", "--request-rate", "1,2"}, "sweep one of them"},
      {{"--duration-hard"}, "--duration-hard: needs --duration"},
      {{"--warmup-duration", "5s", "--warmup-requests", "3"}, "by time or by count"},
      {{"--constant-rate", "--burstiness", "2"}, "--constant-rate and --burstiness"},
      {{"--ramp-up-strategy", "linear", "--ramp-up-end-rps", "5", "--request-rate", "3"},
       "--ramp-up-strategy and --request-rate"},
      {{"--ramp-up-strategy", "exponential", "--ramp-up-start-rps", "0", "--ramp-up-end-rps", "5"},
       "--ramp-up-start-rps"},
      {{"--max-line-bytes", "100000", "--max-response-bytes", "2000"}, "--max-line-bytes"},
      {{"--duration", "soon"}, "--duration: 'soon'"},
  };
  for (const auto& [args, mention] : cases) {
    const ParseResult result = parse_args(args);
    ASSERT_TRUE(result.exit_code.has_value()) << mention;
    EXPECT_EQ(*result.exit_code, bench::cli::kExitUsage) << mention;
    EXPECT_NE(result.message.find(mention), std::string::npos) << result.message;
  }
}

}  // namespace

namespace {

TEST(ParseCli, ServerMetricsTakesAnOptionalUrl) {
  const ParseResult off = parse_args({});
  ASSERT_FALSE(off.exit_code) << off.message;
  EXPECT_FALSE(off.run.server.metrics);
  const ParseResult default_url = parse_args({"--server-metrics", "--concurrency", "2"});
  ASSERT_FALSE(default_url.exit_code) << default_url.message;
  EXPECT_TRUE(default_url.run.server.metrics);
  EXPECT_TRUE(default_url.run.server.metrics_urls.empty() ||
              default_url.run.server.metrics_urls == std::vector<std::string>{""});
  EXPECT_EQ(default_url.run.concurrency, (std::vector<std::int64_t>{2}));
  const ParseResult given =
      parse_args({"--server-metrics", "http://10.0.0.2:8000/prometheus/metrics"});
  ASSERT_FALSE(given.exit_code) << given.message;
  EXPECT_TRUE(given.run.server.metrics);
  EXPECT_EQ(given.run.server.metrics_urls,
            std::vector<std::string>{"http://10.0.0.2:8000/prometheus/metrics"});
}

TEST(ParseCli, ServerMetricsRepeatsForSeveralServers) {
  const ParseResult several =
      parse_args({"--server-metrics", "http://a:8000/metrics", "--server-metrics",
                  "http://b:8000/metrics", "--concurrency", "2"});
  ASSERT_FALSE(several.exit_code) << several.message;
  EXPECT_TRUE(several.run.server.metrics);
  EXPECT_EQ(several.run.server.metrics_urls,
            (std::vector<std::string>{"http://a:8000/metrics", "http://b:8000/metrics"}));
  EXPECT_EQ(several.run.concurrency, (std::vector<std::int64_t>{2}));
}

}  // namespace

namespace {

TEST(ParseCli, GpusAndTheirPriceAreRecordedAndNullWhenNotGiven) {
  const ParseResult none = parse_args({});
  ASSERT_FALSE(none.exit_code) << none.message;
  EXPECT_FALSE(none.run.gpus);
  const nlohmann::json unsaid = bench::cli::options_to_json(none.run);
  EXPECT_TRUE(unsaid.at("gpus").is_null());
  EXPECT_TRUE(unsaid.at("gpu_hour_price").is_null());
  const ParseResult given = parse_args({"--gpus", "8", "--gpu-hour-price", "2.5"});
  ASSERT_FALSE(given.exit_code) << given.message;
  EXPECT_EQ(given.run.gpus, 8);
  EXPECT_EQ(given.run.gpu_hour_price, 2.5);
  const nlohmann::json said = bench::cli::options_to_json(given.run);
  EXPECT_EQ(said.at("gpus"), 8);
  EXPECT_EQ(said.at("gpu_hour_price"), 2.5);
}

// --unreachable-timeout is recorded with the other limits: 10 s unless given, 0 = never.
TEST(ParseCli, TheUnreachableLimitIsRecordedInTheConfig) {
  EXPECT_EQ(bench::cli::options_to_json(parse_args({}).run).at("unreachable_timeout_s"), 10.0);
  const ParseResult never = parse_args({"--unreachable-timeout", "0"});
  EXPECT_EQ(bench::cli::options_to_json(never.run).at("unreachable_timeout_s"), 0.0);
  const ParseResult negative = parse_args({"--unreachable-timeout", "-1"});
  ASSERT_TRUE(negative.exit_code.has_value());
  EXPECT_EQ(*negative.exit_code, bench::cli::kExitUsage);
}

TEST(ParseCli, APriceWithoutGpusIsRefusedInOneLine) {
  const ParseResult result = parse_args({"--gpu-hour-price", "2.5"});
  ASSERT_TRUE(result.exit_code.has_value());
  EXPECT_EQ(*result.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(result.message.find("--gpu-hour-price: needs --gpus"), std::string::npos)
      << result.message;
  EXPECT_EQ(result.message.find('\n'), result.message.size() - 1) << result.message;
  for (const char* bad : {"0", "-1"}) {
    const ParseResult zero = parse_args({"--gpus", bad});
    ASSERT_TRUE(zero.exit_code.has_value()) << bad;
    EXPECT_NE(zero.message.find("--gpus"), std::string::npos) << zero.message;
  }
}

}  // namespace
