// The per-server figures of a run against several servers (results/per_server.hpp) as JSON, as
// the text table and as the HTML section: throughputs over the run's duration, so the servers'
// add up; a server with no successful request has unknown latencies (null, "n/a", "-"), never
// 0; each server's failures are its own, by class.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/results/per_server.hpp"
#include "bench/results/writer.hpp"
#include "report_fixtures.hpp"

namespace {

using bench::results::ServerFigures;
using nlohmann::json;

std::vector<ServerFigures> alive_and_dead() {
  ServerFigures alive{"http://10.0.0.1:8000", 3, report_test::clean_summary(), std::nullopt};
  alive.summary.sent = alive.summary.completed = 30;
  alive.summary.total_output_tokens = 3000;
  alive.summary.total_input_tokens = 6000;
  alive.summary.ttft_ms = report_test::distribution(40);
  ServerFigures dead{"http://10.0.0.2:8000", 1, {}, std::nullopt};
  dead.summary.sent = dead.summary.failed = 10;
  dead.summary.errors[report_test::ErrorClass::connect_refused].count = 10;
  return {alive, dead};
}

TEST(PerServerReport, JsonFiguresAreOverTheRunsDurationAndUnknownLatenciesAreNull) {
  const json servers = bench::results::per_server_to_json(alive_and_dead(), 2.0);
  ASSERT_EQ(servers.size(), 2u);
  EXPECT_EQ(servers[0]["url"], "http://10.0.0.1:8000");
  EXPECT_EQ(servers[0]["weight"], 3);
  EXPECT_DOUBLE_EQ(servers[0]["output_throughput"].get<double>(), 1500.0);
  EXPECT_DOUBLE_EQ(servers[0]["input_throughput"].get<double>(), 3000.0);
  EXPECT_DOUBLE_EQ(servers[0]["total_throughput"].get<double>(), 4500.0);
  EXPECT_DOUBLE_EQ(servers[0]["request_throughput"].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(servers[0]["median_ttft_ms"].get<double>(), 40.2);
  EXPECT_DOUBLE_EQ(servers[0]["p99_ttft_ms"].get<double>(), 40.6);
  EXPECT_EQ(servers[1]["failed"], 10);
  EXPECT_EQ(servers[1]["errors"], (json{{"connect_refused", 10}}));
  EXPECT_TRUE(servers[1]["median_ttft_ms"].is_null());
  EXPECT_TRUE(servers[1]["p99_e2e_latency_ms"].is_null());
  EXPECT_FALSE(servers[0].contains("shard_state"));  // only a shard's carry it
}

TEST(PerServerReport, TextAndHtmlShowEachServersRowAndItsErrors) {
  json run = bench::results::to_json(report_test::clean_summary(), report_test::context());
  EXPECT_EQ(bench::report::render_per_server(run), "");  // one server: no section
  run["per_server"] = bench::results::per_server_to_json(alive_and_dead(), 2.0);
  const std::string text = bench::report::render_per_server(run);
  EXPECT_NE(text.find("http://10.0.0.1:8000"), std::string::npos) << text;
  EXPECT_NE(text.find("1500.0"), std::string::npos) << text;
  EXPECT_NE(text.find("n/a"), std::string::npos) << text;
  EXPECT_NE(text.find("errors: connect_refused 10"), std::string::npos) << text;
  const std::string html = bench::report::render_html_report(run);
  EXPECT_NE(html.find("<h2>Per server</h2>"), std::string::npos);
  EXPECT_NE(html.find("<code>connect_refused</code> 10"), std::string::npos);
}

}  // namespace
