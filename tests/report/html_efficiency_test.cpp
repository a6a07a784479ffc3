// A run's Efficiency card in the HTML report: each figure with a unit naming its kind, "n/a"
// with what it needs when unknown, and no card for a file from before these figures.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/report/html_report.hpp"
#include "bench/results/writer.hpp"

namespace {

using nlohmann::json;

json run_results(std::optional<std::int64_t> gpus, std::optional<double> price) {
  bench::metrics::RunSummary s;
  s.sent = s.completed = 10;
  s.input_tokens_from_usage = s.output_tokens_from_usage = 10;
  s.duration_s = 2;
  s.output_throughput = 800;
  s.input_throughput = 3200;
  s.total_throughput = 4000;
  s.tpot_ms.count = 10;
  s.tpot_ms.median = 10;
  s.tpot_ms.p90 = 20;
  s.median_output_per_user = 100;
  s.p10_output_per_user = 50;
  bench::results::RunContext c;
  c.accelerators = {gpus, price};
  json out = bench::results::to_json(s, c);
  out["config"]["gpus"] = gpus ? json(*gpus) : json();
  out["config"]["gpu_hour_price"] = price ? json(*price) : json();
  return out;
}

std::string card(const std::string& html) {
  const std::size_t at = html.find("id=\"efficiency\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("</section>", at) - at);
}

TEST(HtmlEfficiency, EachFigureHasAUnitNamingItsKind) {
  const std::string efficiency = card(bench::report::render_html_report(run_results(8, 2.0)));
  ASSERT_FALSE(efficiency.empty());
  for (const char* text :
       {"100.0", "output tok/s per user (1/TPOT)", "50.0", "output tok/s per GPU", "400.0",
        "input tok/s per GPU", "500.0", "total tok/s per GPU (input + output)",
        "Cost per million output tokens"}) {
    EXPECT_NE(efficiency.find(text), std::string::npos) << text << "\n" << efficiency;
  }
}

TEST(HtmlEfficiency, WithoutGpusThePerGpuRowsSayWhatTheyNeed) {
  const std::string efficiency = card(bench::report::render_html_report(run_results({}, {})));
  EXPECT_NE(efficiency.find("needs --gpus N"), std::string::npos) << efficiency;
  EXPECT_EQ(efficiency.find("Cost per million"), std::string::npos) << efficiency;
  json old = run_results({}, {});
  old.erase("median_output_throughput_per_user");
  EXPECT_TRUE(card(bench::report::render_html_report(old)).empty());
}

}  // namespace
