// The HTML report's "Server" table, from a results file's server_metrics: the server's counts
// beside bench's, its gauges and latency ranges, the cross-checks as alerts, unknown as n/a,
// a failed scrape as one line, and no section when the run did not scrape.
#include "bench/report/html_report.hpp"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "results_fixtures.hpp"
#include "xml_check.hpp"

namespace bench::report {
namespace {

using bench::test::parse_xml;
using bench::test::XmlNode;
using bench::testing::saved_results;
using nlohmann::json;

json with_server_metrics(json server) {
  json results = saved_results("single_run.json");
  results["server_metrics"] = std::move(server);
  return results;
}

json agreeing_server() {
  return {{"url", "http://127.0.0.1:8000/metrics"},
          {"error", nullptr},
          {"family", "vllm"},
          {"prompt_tokens", 4096},
          {"generation_tokens", 200},
          {"requests_succeeded", 8},
          {"preemptions", nullptr},
          {"bench_input_tokens", 4096},
          {"bench_output_tokens", 200},
          {"prompt_tokens_difference", 0},
          {"generation_tokens_difference", 0},
          {"gauges",
           {{"requests_running", {{"mean", 3.5}, {"max", 4}}},
            {"requests_waiting", {{"mean", 0.25}, {"max", 1}}},
            {"kv_cache_usage", {{"mean", 0.125}, {"max", 0.5}}}}},
          {"latency_ranges",
           {{"ttft",
             {{"p50",
               {{"server_lower_s", 0.02},
                {"server_upper_s", 0.04},
                {"bench_s", 0.031},
                {"bench_inside", true}}},
              {"p99",
               {{"server_lower_s", 0.04},
                {"server_upper_s", 0.06},
                {"bench_s", 0.07},
                {"bench_inside", false}}}}}}},
          {"notes", json::array()}};
}

// The text of the row whose header cell reads `figure`, cells joined by "|".
std::string row_text(const XmlNode& root, std::string_view figure) {
  for (const XmlNode* row : root.find_all("tr")) {
    const auto headers = row->find_all("th");
    if (headers.empty() || headers.front()->text() != figure) continue;
    std::string cells;
    for (const XmlNode* cell : row->find_all("td")) cells += cell->text() + "|";
    return cells;
  }
  return "(no row " + std::string(figure) + ")";
}

TEST(HtmlServer, TabulatesTheServersFiguresBesideBenchs) {
  const std::string html = render_html_report(with_server_metrics(agreeing_server()));
  const std::unique_ptr<XmlNode> root = parse_xml(html);
  EXPECT_NE(html.find("<h2>Server"), std::string::npos);
  EXPECT_EQ(row_text(*root, "Generation tokens"), "200|200|");
  EXPECT_EQ(row_text(*root, "Preemptions"), "n/a||");
  EXPECT_EQ(row_text(*root, "Running requests"), "mean 3.5, max 4||");
  EXPECT_EQ(row_text(*root, "KV-cache usage"), "mean 12.5%, max 50.0%||");
  EXPECT_EQ(row_text(*root, "p50 TTFT"), "0.02-0.04 s|0.031 s|");
  EXPECT_NE(html.find("bench's p99 TTFT (0.07 s) is outside the server's range (0.04-0.06 s)"),
            std::string::npos);
  EXPECT_EQ(html.find("tokens differ from bench's"), std::string::npos);
}

TEST(HtmlServer, ATokenMismatchIsAnAlert) {
  json server = agreeing_server();
  server["generation_tokens"] = 230;
  server["generation_tokens_difference"] = 30;
  const std::string html = render_html_report(with_server_metrics(server));
  EXPECT_NE(html.find("The server's generation tokens differ from bench's by +15.0%"),
            std::string::npos);
}

TEST(HtmlServer, SpeculativeAcceptanceIsARowWhenExposed) {
  json server = agreeing_server();
  EXPECT_EQ(render_html_report(with_server_metrics(server)).find("Speculative decoding"),
            std::string::npos);
  server["spec_decode"] = {{"draft_tokens", 800},
                           {"accepted_tokens", 600},
                           {"acceptance_rate", 0.75},
                           {"accept_length", nullptr}};
  const std::unique_ptr<XmlNode> root = parse_xml(render_html_report(with_server_metrics(server)));
  EXPECT_EQ(row_text(*root, "Speculative decoding"),
            "75.0% accepted (600 of 800 drafted tokens)||");
}

TEST(HtmlServer, ItlTpotAndQueueTimeRowsBesideTheTtfts) {
  json server = agreeing_server();
  server["latency_ranges"]["itl"] = {{"p50",
                                      {{"server_lower_s", 0.01},
                                       {"server_upper_s", 0.025},
                                       {"bench_s", 0.0151},
                                       {"bench_inside", true}}},
                                     {"p99",
                                      {{"server_lower_s", 0.025},
                                       {"server_upper_s", 0.05},
                                       {"bench_s", 0.08},
                                       {"bench_inside", false}}}};
  server["latency_ranges"]["tpot"] = {{"p50",
                                       {{"server_lower_s", 0.01},
                                        {"server_upper_s", 0.025},
                                        {"bench_s", nullptr},
                                        {"bench_inside", nullptr}}}};
  server["latency_ranges"]["queue_time"] = {
      {"p50", {{"server_lower_s", 0}, {"server_upper_s", 0.3}}},
      {"p99", {{"server_lower_s", 2.5}, {"server_upper_s", "inf"}}}};
  server["mean_queue_time_s"] = 0.0421;
  const std::string html = render_html_report(with_server_metrics(server));
  const std::unique_ptr<XmlNode> root = parse_xml(html);
  EXPECT_EQ(row_text(*root, "p50 ITL"), "0.01-0.025 s|0.0151 s|");
  EXPECT_EQ(row_text(*root, "p50 TPOT"), "0.01-0.025 s|n/a|");
  EXPECT_EQ(row_text(*root, "p50 queue time"), "0-0.3 s||");  // no figure of bench's to hold
  EXPECT_EQ(row_text(*root, "p99 queue time"), "above 2.5 s||");
  EXPECT_EQ(row_text(*root, "Mean queue time"), "0.0421 s||");
  EXPECT_NE(html.find("bench's p99 ITL (0.08 s) is outside the server's range (0.025-0.05 s)"),
            std::string::npos);
  EXPECT_EQ(html.find("bench's p50 TPOT"), std::string::npos);
}

TEST(HtmlServer, ChartsTheGaugesOverTheWindow) {
  json server = agreeing_server();
  EXPECT_EQ(render_html_report(with_server_metrics(server)).find("Server: running and waiting"),
            std::string::npos);  // no series, no chart
  server["gauges"]["series"] = {{"readings_per_point", 1},
                                {"max_points", 2048},
                                {"t_s", {0.0, 1.0, 2.0}},
                                {"requests_running", {1, 4, 2}},
                                {"requests_waiting", {0, 3, nullptr}},
                                {"kv_cache_usage", {0.1, 0.5, 0.25}}};
  const std::string html = render_html_report(with_server_metrics(server));
  const std::unique_ptr<XmlNode> root = parse_xml(html);
  EXPECT_NE(html.find("Server: running and waiting requests"), std::string::npos);
  EXPECT_NE(html.find("Server: KV-cache usage"), std::string::npos);
  EXPECT_NE(html.find("KV-cache usage (%)"), std::string::npos);
  server["gauges"]["series"]["kv_cache_usage"] = {nullptr, nullptr, nullptr};
  EXPECT_EQ(render_html_report(with_server_metrics(server)).find("Server: KV-cache usage"),
            std::string::npos);  // a server without the gauge gets no empty chart
}

TEST(HtmlServer, AFailedScrapeIsOneLine) {
  const json server = {{"url", "http://127.0.0.1:1/metrics"},
                       {"error", "GET http://127.0.0.1:1/metrics failed: <refused>"}};
  const std::string html = render_html_report(with_server_metrics(server));
  parse_xml(html);  // the message is escaped: still well-formed
  EXPECT_NE(html.find("Server metrics unavailable: GET http://127.0.0.1:1/metrics failed: "
                      "&lt;refused&gt;"),
            std::string::npos);
}

TEST(HtmlServer, NoServerMetricsNoSection) {
  const std::string html = render_html_report(saved_results("single_run.json"));
  EXPECT_EQ(html.find("<h2>Server"), std::string::npos);
}

}  // namespace
}  // namespace bench::report
