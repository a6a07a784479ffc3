// A prefix-share sweep (bench --prefix-share 0,0.25,...) through every renderer of a sweep: its
// points are labelled by the share asked ("50%"), the share the server's cache served sits
// beside it and reads n/a when undisclosed, and nothing calls its points a load or a frontier
// of load. The concurrency and request-rate sweeps keep their own labels (their tests, and the
// byte-for-byte checks here).
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/report/frontier.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/report/terminal_chart.hpp"
#include "results_fixtures.hpp"
#include "xml_check.hpp"

namespace prefix_share_test {

using bench::testing::saved_results;
using nlohmann::json;

// The saved concurrency sweep made a prefix-share sweep: the same 16 in flight at every point,
// each point's share asked, and what the cache served (the last point's server did not say).
json share_sweep() {
  json sweep = saved_results("sweep_concurrency.json");
  const std::vector<double> shares = {0, 0.25, 0.5, 0.9, 0.95};
  const json served = {0.0, 0.248, 0.497, 0.899, nullptr};
  sweep["sweep"] = {{"variable", "prefix_share"}, {"values", shares}};
  for (std::size_t i = 0; i < shares.size(); ++i) {
    json& point = sweep["points"][i];
    point["max_concurrency"] = 16;
    point["prefix_share"] = shares[i];
    point["cached_input_share"] = served[i];
  }
  return sweep;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Words one column apart: `a` then spaces then `b`.
bool side_by_side(const std::string& line, const std::string& a, const std::string& b) {
  return std::regex_search(line, std::regex("(^| )" + a + " +" + b + "( |$)"));
}

TEST(PrefixShareSweepTable, LabelsThePointsByTheShareAskedWithTheCachedShareBesideIt) {
  const std::vector<std::string> lines = lines_of(bench::report::render_sweep_table(share_sweep()));
  ASSERT_GE(lines.size(), 7u);
  EXPECT_TRUE(side_by_side(lines[0], "prefix share", "cached")) << lines[0];
  EXPECT_TRUE(side_by_side(lines[1], "asked", "%")) << lines[1];
  EXPECT_TRUE(side_by_side(lines[2], "0%", "0\\.0")) << lines[2];
  EXPECT_TRUE(side_by_side(lines[3], "25%", "24\\.8")) << lines[3];
  EXPECT_TRUE(side_by_side(lines[4], "50%", "49\\.7")) << lines[4];
  EXPECT_TRUE(side_by_side(lines[5], "90%", "89\\.9")) << lines[5];
  EXPECT_TRUE(side_by_side(lines[6], "95%", "n/a")) << lines[6];
  // Every row has as many columns as the header: the moved column moved in each.
  for (std::size_t i = 2; i < 7; ++i) EXPECT_EQ(lines[i].size(), lines[0].size()) << lines[i];
  const std::string table = bench::report::render_sweep_table(share_sweep());
  EXPECT_TRUE(contains(table, "not in load")) << table;
  EXPECT_FALSE(contains(table, "concurrency")) << table;
}

// A share bench did not measure is n/a, never a number: null, missing, or not a number.
TEST(PrefixShareSweepTable, ShowsNaForACachedShareTheServerDidNotDisclose) {
  json sweep = share_sweep();
  sweep["points"][1].erase("cached_input_share");
  sweep["points"][2]["cached_input_share"] = "0.5";
  const std::vector<std::string> lines = lines_of(bench::report::render_sweep_table(sweep));
  EXPECT_TRUE(side_by_side(lines[3], "25%", "n/a")) << lines[3];
  EXPECT_TRUE(side_by_side(lines[4], "50%", "n/a")) << lines[4];
  EXPECT_TRUE(side_by_side(lines[6], "95%", "n/a")) << lines[6];
}

// Without the sweep's list of values, each point's own prefix_share names it; without either,
// the point's share is n/a rather than a guess.
TEST(PrefixShareSweepTable, ReadsThePointsOwnShareWhenTheSweepListsNone) {
  json sweep = share_sweep();
  sweep["sweep"].erase("values");
  sweep["points"][4].erase("prefix_share");
  const std::vector<std::string> lines = lines_of(bench::report::render_sweep_table(sweep));
  EXPECT_TRUE(side_by_side(lines[4], "50%", "49\\.7")) << lines[4];
  EXPECT_TRUE(side_by_side(lines[6], "n/a", "n/a")) << lines[6];
}

TEST(PrefixShareSweepTable, NamesThePointOfAWarningByItsShare) {
  json sweep = share_sweep();
  sweep["points"][2]["warnings"] = {"something to say"};
  const std::string table = bench::report::render_sweep_table(sweep);
  EXPECT_TRUE(contains(table, "WARNING (prefix share 50%): something to say")) << table;
}

TEST(PrefixShareSweepChart, LabelsEachBarByItsShareWithWhatTheCacheServed) {
  const std::string chart = bench::report::render_sweep_chart(share_sweep(), 120);
  EXPECT_TRUE(
      contains(chart, "Token throughput by prefix share (% of each prompt shared; same load)"))
      << chart;
  std::vector<std::string> rows;
  for (const std::string& line : lines_of(chart)) {
    if (contains(line, " output tok/s ") && !contains(line, "bar:")) rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), 5u) << chart;
  EXPECT_TRUE(std::regex_search(rows[0], std::regex("^ *0% "))) << rows[0];
  EXPECT_TRUE(std::regex_search(rows[2], std::regex("^ *50% "))) << rows[2];
  EXPECT_TRUE(contains(rows[2], "cached 49.7%")) << rows[2];
  EXPECT_TRUE(contains(rows[4], "cached n/a")) << rows[4];
}

struct Page {
  std::string html;
  std::unique_ptr<bench::test::XmlNode> root;
};

Page page_of(const json& results) {
  Page page{bench::report::render_html_report(results), nullptr};
  page.root = bench::test::parse_xml(page.html);  // throws, failing the test, if not well-formed
  return page;
}

TEST(PrefixShareSweepHtml, NamesTheSweepItsSharesAndTheOneLoad) {
  const Page page = page_of(share_sweep());
  EXPECT_TRUE(contains(page.html, "bench results: prefix-share sweep, 5 points"));
  EXPECT_TRUE(contains(page.html,
                       "<dt>Prefix shares</dt><dd>0%, 25%, 50%, 90%, 95% of each prompt shared "
                       "by every request</dd>"));
  EXPECT_TRUE(contains(page.html, "<dt>Load (every point)</dt><dd>16 max in flight"));
  EXPECT_FALSE(contains(page.html, "<dt>Concurrency</dt>"));
}

TEST(PrefixShareSweepHtml, TabulatesTheShareWithTheCachedShareBesideIt) {
  const Page page = page_of(share_sweep());
  EXPECT_TRUE(contains(page.html,
                       "<th scope=\"col\">prefix share<span class=\"sub\">asked, % of each "
                       "prompt</span></th><th scope=\"col\" class=\"num\">cached"));
  EXPECT_TRUE(
      contains(page.html, "<th scope=\"row\" class=\"num\">50%</th><td class=\"num\">49.7%</td>"));
  EXPECT_TRUE(
      contains(page.html, "<th scope=\"row\" class=\"num\">95%</th><td class=\"num\">n/a</td>"));
  EXPECT_TRUE(contains(page.html, "<span class=\"point\">prefix share 90%</span>"));
}

TEST(PrefixShareSweepHtml, PlotsThroughputAgainstTheShareInPercentOnALinearAxis) {
  const Page page = page_of(share_sweep());
  EXPECT_TRUE(contains(page.html, "Output and total token throughput vs prefix share"));
  EXPECT_TRUE(contains(page.html, "prefix share asked (% of each prompt shared by every request)"));
  EXPECT_TRUE(contains(page.html, "points are labelled with their prefix share."));
  EXPECT_TRUE(contains(page.html, "50% shared"));  // a dot of the latency charts
  EXPECT_FALSE(contains(page.html, "x axis: log scale"));
  EXPECT_FALSE(contains(page.html, "c=16"));
}

TEST(PrefixShareSweepHtml, FlagsAFailingPointByItsShare) {
  json sweep = share_sweep();
  sweep["points"][3]["failed"] = 3;
  const Page page = page_of(sweep);
  EXPECT_TRUE(contains(page.html, "prefix share 90%: 3 of")) << page.html.substr(0, 4000);
}

// Per-GPU figures on every point, so the frontier is drawn: more share, more of both.
json share_sweep_with_gpus() {
  json sweep = share_sweep();
  for (std::size_t i = 0; i < sweep["points"].size(); ++i) {
    json& point = sweep["points"][i];
    const double per_gpu = 100.0 + 10.0 * static_cast<double>(i);
    point["median_output_throughput_per_user"] = 50.0 + static_cast<double>(i);
    point["p10_output_throughput_per_user"] = 45.0 + static_cast<double>(i);
    point["output_throughput"] = per_gpu * 8;
    point["output_throughput_per_gpu"] = per_gpu;
    point["input_throughput_per_gpu"] = per_gpu * 4;
    point["total_throughput_per_gpu"] = per_gpu * 5;
  }
  return sweep;
}

TEST(PrefixShareFrontier, TheTableLabelsSharesAndSaysItIsNoLoadFrontier) {
  const std::string table = bench::report::render_frontier_table(share_sweep_with_gpus());
  EXPECT_TRUE(contains(table, "Efficiency by prefix share (not a load frontier)")) << table;
  EXPECT_TRUE(contains(table, "prefix share")) << table;
  EXPECT_TRUE(std::regex_search(table, std::regex("\n\\* +95% "))) << table;
  EXPECT_TRUE(std::regex_search(table, std::regex("\n +50% "))) << table;
  EXPECT_TRUE(contains(table, "Not a load frontier: every point ran the same load")) << table;
  EXPECT_FALSE(contains(table, "concurrency")) << table;
}

TEST(PrefixShareFrontier, TheChartLabelsItsDotsByShareAndSaysItIsNoLoadFrontier) {
  const auto chart = bench::report::frontier_chart(share_sweep_with_gpus());
  ASSERT_TRUE(chart.has_value());
  EXPECT_TRUE(contains(chart->title, "not a load frontier")) << chart->title;
  EXPECT_TRUE(contains(chart->note, "no load frontier")) << chart->note;
  EXPECT_EQ(chart->series.front().point_labels.back(), "s=95%");
  const std::string html = page_of(share_sweep_with_gpus()).html;
  EXPECT_TRUE(contains(html, "<h2>Efficiency by prefix share (not a load frontier)</h2>"));
}

// A share that is no round percent keeps one decimal, never a long fraction.
TEST(PrefixShareSweepTable, WritesAShareToOneDecimalAtMost) {
  json sweep = share_sweep();
  sweep["sweep"]["values"][1] = 1.0 / 3.0;
  sweep["sweep"]["values"][4] = 1;
  const std::vector<std::string> lines = lines_of(bench::report::render_sweep_table(sweep));
  EXPECT_TRUE(side_by_side(lines[3], "33\\.3%", "24\\.8")) << lines[3];
  EXPECT_TRUE(side_by_side(lines[6], "100%", "n/a")) << lines[6];
}

}  // namespace prefix_share_test
