// The sweep's text chart: one bar per point in sweep order, lengths in proportion, every
// figure named output or total, failures on the point's line, within the width asked for.
#include "bench/report/terminal_chart.hpp"

#include <limits>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "results_fixtures.hpp"

namespace bench::report {
namespace {

using bench::testing::saved_results;
using nlohmann::json;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Columns of a line: one per UTF-8 code point.
int columns(const std::string& line) {
  int n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

int count_of(const std::string& line, const std::string& glyph) {
  int n = 0;
  for (std::size_t pos = line.find(glyph); pos != std::string::npos;
       pos = line.find(glyph, pos + glyph.size())) {
    ++n;
  }
  return n;
}

// The lines that draw a point: they hold the output figure.
std::vector<std::string> point_lines(const std::string& chart) {
  std::vector<std::string> out;
  for (const std::string& line : lines_of(chart)) {
    if (line.find(" output tok/s ") != std::string::npos &&
        line.find("total tok/s") != std::string::npos && line.find("bar:") == std::string::npos) {
      out.push_back(line);
    }
  }
  return out;
}

TEST(SweepChart, DrawsOneLinePerPointInSweepOrder) {
  const json sweep = saved_results("sweep_concurrency.json");
  const auto rows = point_lines(render_sweep_chart(sweep, 100));
  ASSERT_EQ(rows.size(), 5u);
  const char* labels[] = {"1", "4", "16", "64", "256"};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_TRUE(std::regex_search(rows[i], std::regex(std::string("^ *") + labels[i] + " ")))
        << rows[i];
  }
}

TEST(SweepChart, NamesEveryFigureAndUnit) {
  const json sweep = saved_results("sweep_concurrency.json");
  const std::string chart = render_sweep_chart(sweep, 100);
  EXPECT_NE(chart.find("concurrency (requests in flight)"), std::string::npos);
  const auto rows = point_lines(chart);
  // Point 256 of the fixture: 5,545.9 output tok/s, 49,913.5 total tok/s, printed whole.
  EXPECT_NE(rows[4].find("5,546 output tok/s"), std::string::npos) << rows[4];
  EXPECT_NE(rows[4].find("49,913 total tok/s"), std::string::npos) << rows[4];
  // "tok/s" never stands alone: the word before it is always output, input or total.
  for (const std::string& line : lines_of(chart)) {
    std::size_t pos = 0;
    while ((pos = line.find("tok/s", pos)) != std::string::npos) {
      const std::string before = line.substr(0, pos);
      EXPECT_TRUE(before.ends_with("output ") || before.ends_with("input ") ||
                  before.ends_with("total "))
          << line;
      pos += 5;
    }
  }
}

TEST(SweepChart, BarLengthsFollowTotalAndOutputPartsFollowOutput) {
  const json sweep = saved_results("sweep_concurrency.json");
  const auto rows = point_lines(render_sweep_chart(sweep, 120));
  std::vector<int> output_cells, total_cells;
  for (const std::string& row : rows) {
    output_cells.push_back(count_of(row, "\u2588"));
    total_cells.push_back(count_of(row, "\u2588") + count_of(row, "\u2591"));
  }
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_GE(total_cells[i], total_cells[i - 1]);  // the fixture's totals rise with concurrency
  }
  // Ratios of lengths match ratios of values to within a cell each.
  const json& points = sweep["points"];
  const double top_total = points[4]["total_throughput"].get<double>();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double expected_total =
        total_cells[4] * points[i]["total_throughput"].get<double>() / top_total;
    const double expected_output =
        total_cells[4] * points[i]["output_throughput"].get<double>() / top_total;
    EXPECT_NEAR(total_cells[i], expected_total, 1.5) << rows[i];
    EXPECT_NEAR(output_cells[i], std::max(1.0, expected_output), 1.5) << rows[i];
    EXPECT_GE(output_cells[i], 1);  // a small output still shows
    EXPECT_LT(output_cells[i], total_cells[i]);
  }
}

TEST(SweepChart, FitsTheWidthAskedFor) {
  const json sweep = saved_results("sweep_concurrency.json");
  for (int width : {72, 80, 100, 160}) {
    const std::string chart = render_sweep_chart(sweep, width);
    for (const std::string& line : lines_of(chart)) {
      EXPECT_LE(columns(line), width) << "width " << width << ": " << line;
    }
  }
  // Wider asks give longer bars.
  const auto narrow = point_lines(render_sweep_chart(sweep, 80));
  const auto wide = point_lines(render_sweep_chart(sweep, 160));
  EXPECT_GT(columns(wide[4]), columns(narrow[4]) + 50);
}

TEST(SweepChart, AsciiFallbackIsPlainAscii) {
  const json sweep = saved_results("sweep_concurrency.json");
  const std::string chart = render_sweep_chart(sweep, 90, TextCharset::kAscii);
  for (char c : chart) EXPECT_LT(static_cast<unsigned char>(c), 0x80);
  const auto rows = point_lines(chart);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_GT(count_of(rows[4], "#"), 0);
  EXPECT_GT(count_of(rows[4], "."), count_of(rows[4], "#"));
}

TEST(SweepChart, ShowsFailuresAndEstimatesOnThePointsLine) {
  json sweep = saved_results("sweep_concurrency.json");
  sweep["points"][2]["failed"] = 12;
  sweep["points"][2]["sent"] = 96;
  sweep["points"][3]["token_count_source"]["output"] = "chunks_estimate";
  const auto rows = point_lines(render_sweep_chart(sweep, 120));
  EXPECT_NE(rows[2].find("12 failed (12.5%)"), std::string::npos) << rows[2];
  EXPECT_EQ(rows[1].find("failed"), std::string::npos) << rows[1];
  EXPECT_NE(rows[3].find("output estimated"), std::string::npos) << rows[3];
}

TEST(SweepChart, LabelsARequestRateSweepWithInf) {
  json sweep = saved_results("sweep_concurrency.json");
  sweep["sweep"] = {{"variable", "request_rate"}, {"values", {2, 8, 32, 128, "inf"}}};
  const std::string chart = render_sweep_chart(sweep, 100);
  EXPECT_NE(chart.find("request rate (req/s"), std::string::npos);
  const auto rows = point_lines(chart);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_TRUE(std::regex_search(rows[4], std::regex("^ *inf ")));
  EXPECT_TRUE(std::regex_search(rows[0], std::regex("^ *2 ")));
}

TEST(SweepChart, CopesWithMissingAndNonFiniteFigures) {
  json sweep = saved_results("sweep_concurrency.json");
  sweep["points"][0].erase("total_throughput");
  sweep["points"][1]["output_throughput"] = std::numeric_limits<double>::quiet_NaN();
  sweep["points"][2]["total_throughput"] = "lots";
  sweep.erase("sweep");  // older file: the values come from each point's max_concurrency
  const std::string chart = render_sweep_chart(sweep, 100);
  EXPECT_FALSE(std::regex_search(chart, std::regex("nan|inf", std::regex::icase)));
  const auto rows = point_lines(chart);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_NE(rows[0].find("- total tok/s"), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find("- output tok/s"), std::string::npos) << rows[1];
  EXPECT_TRUE(std::regex_search(rows[3], std::regex("^ *64 ")));
}

TEST(SweepChart, IsEmptyWithoutPointsAndRejectsWhatIsNotASweep) {
  EXPECT_EQ(render_sweep_chart(json{{"kind", "sweep"}, {"points", json::array()}}, 80), "");
  EXPECT_EQ(render_sweep_chart(json::object(), 80), "");
  EXPECT_THROW(render_sweep_chart(json::array(), 80), std::invalid_argument);
  EXPECT_THROW(render_sweep_chart(json{{"points", 3}}, 80), std::invalid_argument);
  EXPECT_THROW(render_sweep_chart(json{{"points", {1, 2}}}, 80), std::invalid_argument);
}

}  // namespace
}  // namespace bench::report
