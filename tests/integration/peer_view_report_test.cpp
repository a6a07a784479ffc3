// `bench report RESULTS --as TOOLS --requests LOG` through the real binary on a run of the
// embedded simulator: where a tool's rules are bench's, its figures are bench's own to the log's
// microsecond; where they differ, they move the way the rule says; and what it cannot read is
// refused in one line.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "run_process.hpp"

namespace peer_view_report_test {

using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// The log's times are whole microseconds: a figure recomputed from it is within that of bench's.
constexpr double kLogRoundingMs = 0.002;

struct SavedRun {
  TempDir dir;
  std::string results, requests;
};

void save_run(SavedRun& run) {
  run.results = run.dir.file("results.json");
  run.requests = run.dir.file("requests.jsonl");
  const auto result =
      run_process(BENCH_BINARY, {"--num-prompts", "24", "--concurrency", "4", "--input-len", "32",
                                 "--output-len", "12", "--ignore-eos", "--quiet", "--output-file",
                                 run.results, "--save-requests", run.requests});
  ASSERT_EQ(result.exit_code, 0) << result.err;
}

// key -> {value, bench_value} of one tool's figures.
std::map<std::string, std::pair<double, double>> figures_of(const json& views,
                                                            const std::string& tool) {
  std::map<std::string, std::pair<double, double>> figures;
  for (const json& view : views["tools"]) {
    if (view["tool"] != tool) continue;
    for (const json& figure : view["figures"]) {
      if (!figure["value"].is_number() || !figure["bench_value"].is_number()) continue;
      figures[figure["key"]] = {figure["value"].get<double>(), figure["bench_value"].get<double>()};
    }
  }
  return figures;
}

TEST(PeerViewReport, EachToolsFiguresFollowItsRulesBesideBenchsOwn) {
  SavedRun run;
  save_run(run);
  if (HasFatalFailure()) return;
  const auto report =
      run_process(BENCH_BINARY, {"report", run.results, "--as", "vllm,sglang,aiperf,guidellm",
                                 "--requests", run.requests, "--output-format", "json"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json views = json::parse(report.out);
  ASSERT_EQ(views["tools"].size(), 4u);
  for (const json& view : views["tools"]) EXPECT_EQ(view["requests"], 24) << view["tool"];

  // SGLang's rules are bench's for a text stream: every figure is bench's.
  const auto sglang = figures_of(views, "sglang");
  ASSERT_EQ(sglang.size(), 16u);
  for (const auto& [key, values] : sglang) {
    EXPECT_NEAR(values.first, values.second,
                key.find("throughput") != std::string::npos ? values.second * 1e-6 : kLogRoundingMs)
        << key;
  }
  // AIPerf's TTFT and chunk gaps are bench's; its latency ends at the last token, before the
  // usage chunk and [DONE] that bench's end waits for.
  const auto aiperf = figures_of(views, "aiperf");
  EXPECT_NEAR(aiperf.at("time_to_first_token.avg").first,
              aiperf.at("time_to_first_token.avg").second, kLogRoundingMs);
  EXPECT_NEAR(aiperf.at("inter_chunk_latency.p99").first,
              aiperf.at("inter_chunk_latency.p99").second, kLogRoundingMs);
  EXPECT_LE(aiperf.at("request_latency.avg").first,
            aiperf.at("request_latency.avg").second + kLogRoundingMs);
  // vLLM's TTFT ends at the first chunk with a choice: never after bench's first token.
  const auto vllm = figures_of(views, "vllm");
  for (const std::string key : {"mean_ttft_ms", "median_ttft_ms", "p99_ttft_ms"}) {
    EXPECT_LE(vllm.at(key).first, vllm.at(key).second + kLogRoundingMs) << key;
  }
  // GuideLLM's TTFT mean is bench's (the same first chunk, the same mean).
  const auto guidellm = figures_of(views, "guidellm");
  EXPECT_NEAR(guidellm.at("time_to_first_token_ms.mean").first,
              guidellm.at("time_to_first_token_ms.mean").second, kLogRoundingMs);
}

TEST(PeerViewReport, TheTextNamesEachToolsSourceAndUnits) {
  SavedRun run;
  save_run(run);
  if (HasFatalFailure()) return;
  const auto report = run_process(
      BENCH_BINARY, {"report", run.results, "--as", "vllm", "--requests", run.requests});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("vLLM bench serve (vllm/benchmarks/"), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("tok/s (output)"), std::string::npos) << report.out;
  EXPECT_EQ(report.out.find("tok/s "), report.out.find("tok/s (")) << report.out;
}

TEST(PeerViewReport, WithAnHtmlReportTheViewsAreASectionOfIt) {
  SavedRun run;
  save_run(run);
  if (HasFatalFailure()) return;
  const std::string html = run.dir.file("report.html");
  const auto report = run_process(BENCH_BINARY, {"report", run.results, "--as", "vllm,guidellm",
                                                 "--requests", run.requests, "-o", html});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("GuideLLM ("), std::string::npos) << report.out;
  const std::string page = bench::testing::read_file(html);
  EXPECT_NE(page.find("id=\"peer-views\""), std::string::npos);
  EXPECT_NE(page.find("<code>time_per_output_token_ms.mean</code>"), std::string::npos);
  EXPECT_NE(page.find("vLLM bench serve"), std::string::npos);
  // Without --as the page has no such section.
  const auto plain = run_process(BENCH_BINARY, {"report", run.results, "-o", html});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(bench::testing::read_file(html).find("id=\"peer-views\""), std::string::npos);
}

TEST(PeerViewReport, RefusesWhatItCannotReadInOneLine) {
  SavedRun run;
  save_run(run);
  if (HasFatalFailure()) return;
  const auto unknown = run_process(
      BENCH_BINARY, {"report", run.results, "--as", "locust", "--requests", run.requests});
  EXPECT_EQ(unknown.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(unknown.err.find("--as locust: no such tool (tools: vllm, sglang, aiperf, guidellm)"),
            std::string::npos)
      << unknown.err;
  const auto no_log = run_process(BENCH_BINARY, {"report", run.results, "--as", "vllm"});
  EXPECT_EQ(no_log.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(no_log.err.find("--requests PATH"), std::string::npos) << no_log.err;
  const auto not_a_log =
      run_process(BENCH_BINARY, {"report", run.results, "--as", "vllm", "--requests", run.results});
  EXPECT_EQ(not_a_log.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(not_a_log.err.find("not a request line"), std::string::npos) << not_a_log.err;
  const auto nothing = run_process(BENCH_BINARY, {"report", run.results});
  EXPECT_EQ(nothing.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(nothing.err.find("give -o REPORT.html, or --as TOOLS"), std::string::npos)
      << nothing.err;
}

}  // namespace peer_view_report_test
