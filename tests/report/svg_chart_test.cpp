// The SVG writer: round ticks, labels, escaping, well-formed output, and points that are not
// numbers left out rather than printed.
#include "bench/report/svg_chart.hpp"

#include <cmath>
#include <limits>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "xml_check.hpp"

namespace bench::report::svg {
namespace {

using bench::test::parse_xml;
using bench::test::XmlNode;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A step is 1, 2 or 5 times a power of ten.
bool is_1_2_5(double step) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double m = step / magnitude;
  return std::abs(m - 1) < 1e-9 || std::abs(m - 2) < 1e-9 || std::abs(m - 5) < 1e-9;
}

std::vector<std::string> texts_of(const XmlNode& root, std::string_view tag) {
  std::vector<std::string> out;
  for (const XmlNode* node : root.find_all(tag)) out.push_back(node->text());
  return out;
}

bool contains(const std::vector<std::string>& texts, std::string_view wanted) {
  for (const std::string& t : texts) {
    if (t == wanted) return true;
  }
  return false;
}

Chart throughput_chart() {
  Chart chart;
  chart.id = "t";
  chart.title = "Output and total token throughput vs concurrency";
  chart.description = "output and total tok/s per sweep point";
  chart.x.label = "concurrency (max requests in flight)";
  chart.x.log_scale = true;
  chart.y.label = "tokens per second";
  chart.y.include_zero = true;
  chart.series.push_back({.name = "output tok/s",
                          .x = {1, 4, 16, 64, 256},
                          .y = {116, 440, 1480, 3579, 5546},
                          .markers = true,
                          .point_labels = {"116", "440", "1,480", "3,579", "5,546"}});
  chart.series.push_back({.name = "total tok/s (input + output)",
                          .x = {1, 4, 16, 64, 256},
                          .y = {1041, 3962, 13322, 32209, 49913},
                          .dashed = true,
                          .markers = true});
  return chart;
}

TEST(LinearTicks, FallOnOneTwoFiveStepsAndCoverTheRange) {
  const std::pair<double, double> ranges[] = {{0, 2020.4},    {80.2, 114.0}, {0, 1},
                                              {0.013, 0.078}, {-3.5, 12.25}, {0, 49913},
                                              {9.99, 10.01},  {0, 1e9}};
  for (const auto& [lo, hi] : ranges) {
    const Ticks ticks = linear_ticks(lo, hi, 5);
    SCOPED_TRACE(testing::Message() << lo << ".." << hi << " step " << ticks.step);
    EXPECT_TRUE(is_1_2_5(ticks.step));
    EXPECT_LE(ticks.lo, lo);
    EXPECT_GE(ticks.hi, hi);
    ASSERT_GE(ticks.values.size(), 3u);
    EXPECT_LE(ticks.values.size(), 12u);
    EXPECT_DOUBLE_EQ(ticks.values.front(), ticks.lo);
    EXPECT_DOUBLE_EQ(ticks.values.back(), ticks.hi);
    for (std::size_t i = 1; i < ticks.values.size(); ++i) {
      EXPECT_NEAR(ticks.values[i] - ticks.values[i - 1], ticks.step, ticks.step * 1e-9);
    }
  }
}

TEST(LinearTicks, PickTheNiceStepForTheTargetCount) {
  EXPECT_DOUBLE_EQ(linear_ticks(0, 2020.4, 5).step, 500);
  EXPECT_DOUBLE_EQ(linear_ticks(0, 100, 5).step, 20);
  EXPECT_DOUBLE_EQ(linear_ticks(0, 15, 12).step, 2);
  const Ticks percent = linear_ticks(0, 100, 5);
  EXPECT_EQ(percent.values, (std::vector<double>{0, 20, 40, 60, 80, 100}));
}

TEST(LinearTicks, WidenADegenerateOrNonFiniteRange) {
  const Ticks zero = linear_ticks(0, 0, 5);
  EXPECT_DOUBLE_EQ(zero.lo, 0);
  EXPECT_GT(zero.hi, 0);
  const Ticks fifty = linear_ticks(50, 50, 5);
  EXPECT_LT(fifty.lo, 50);
  EXPECT_GT(fifty.hi, 50);
  const Ticks bad = linear_ticks(kNaN, kInf, 5);
  EXPECT_TRUE(std::isfinite(bad.lo) && std::isfinite(bad.hi) && bad.hi > bad.lo);
}

TEST(LogTicks, CoverAConcurrencySweepAtOneTwoFive) {
  const Ticks ticks = log_ticks(1, 256);
  EXPECT_EQ(ticks.values, (std::vector<double>{1, 2, 5, 10, 20, 50, 100, 200, 500}));
  EXPECT_DOUBLE_EQ(ticks.lo, 1);
  EXPECT_DOUBLE_EQ(ticks.hi, 500);
}

TEST(LogTicks, KeepOnlyDecadesBeyondThreeDecades) {
  const Ticks ticks = log_ticks(0.5, 20000);
  EXPECT_EQ(ticks.values, (std::vector<double>{0.1, 1, 10, 100, 1000, 10000, 100000}));
}

TEST(LogTicks, WidenASingleValue) {
  const Ticks ticks = log_ticks(64, 64);
  EXPECT_LT(ticks.lo, 64);
  EXPECT_GT(ticks.hi, 64);
}

TEST(TickLabel, UsesTheStepsDecimalsAndSuffixes) {
  EXPECT_EQ(tick_label(15000, 5000), "15k");
  EXPECT_EQ(tick_label(2500, 500), "2,500");
  EXPECT_EQ(tick_label(0.25, 0.05), "0.25");
  EXPECT_EQ(tick_label(0.4, 0.2), "0.4");
  EXPECT_EQ(tick_label(0, 5), "0");
  EXPECT_EQ(tick_label(1e-17, 0.1), "0");  // accumulated rounding never prints as "-0.0"
  EXPECT_EQ(tick_label(2.5e6, 5e5), "2.5M");
  EXPECT_EQ(tick_label(120, 20), "120");
  EXPECT_EQ(tick_label(-4, 2), "-4");
  EXPECT_EQ(tick_label(kNaN, 1), "");
}

TEST(GroupDigits, PutsCommasBetweenThousandsOfTheIntegerPart) {
  EXPECT_EQ(group_digits("1234567.891"), "1,234,567.891");
  EXPECT_EQ(group_digits("-12345"), "-12,345");
  EXPECT_EQ(group_digits("999"), "999");
  EXPECT_EQ(group_digits("0.0001"), "0.0001");
}

TEST(EscapeXml, EscapesMarkupCharacters) {
  EXPECT_EQ(escape_xml("<script>alert(1)</script> & \"q\" 'a'"),
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39;");
}

TEST(EscapeXml, ReplacesControlCharactersAndInvalidUtf8) {
  EXPECT_EQ(escape_xml(std::string("a\x01"
                                   "b\x1f",
                                   4)),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(escape_xml("tab\tnl\ncr\r"), "tab\tnl\ncr\r");
  EXPECT_EQ(escape_xml("\xC3\x28"), "\xEF\xBF\xBD(");  // bad continuation
  EXPECT_EQ(escape_xml("\xE0\x80\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong
  EXPECT_EQ(escape_xml("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(escape_xml("\xEF\xBF\xBF"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // U+FFFF
  EXPECT_EQ(escape_xml("\xE2\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // truncated
  EXPECT_EQ(escape_xml("\xC2\xB5s \xE2\x80\x93 \xF0\x9F\x9A\x80"),
            "\xC2\xB5s \xE2\x80\x93 \xF0\x9F\x9A\x80");
}

TEST(RenderChart, IsWellFormedXmlWithOneSvgRoot) {
  const std::string svg = render_chart(throughput_chart());
  const auto root = parse_xml(svg);
  EXPECT_EQ(root->name, "svg");
  EXPECT_EQ(*root->attribute("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_TRUE(root->find_all("svg").empty());
  EXPECT_EQ(svg.find("<script"), std::string::npos);
}

TEST(RenderChart, CarriesAnAccessibleTitleAndDescription) {
  const auto root = parse_xml(render_chart(throughput_chart()));
  ASSERT_FALSE(root->children.empty());
  const XmlNode& title = *root->children.front();
  EXPECT_EQ(title.name, "title");
  EXPECT_EQ(title.text(), "Output and total token throughput vs concurrency");
  EXPECT_EQ(*root->attribute("role"), "img");
  EXPECT_EQ(*root->attribute("aria-labelledby"), "t-title t-desc");
  EXPECT_EQ(*title.attribute("id"), "t-title");
  const auto descs = root->find_all("desc");
  ASSERT_EQ(descs.size(), 1u);
  EXPECT_EQ(*descs[0]->attribute("id"), "t-desc");
}

TEST(RenderChart, LabelsBothAxesAndEverySeriesInTheLegend) {
  const auto root = parse_xml(render_chart(throughput_chart()));
  const auto texts = texts_of(*root, "text");
  EXPECT_TRUE(contains(texts, "concurrency (max requests in flight)"));
  EXPECT_TRUE(contains(texts, "tokens per second"));
  EXPECT_TRUE(contains(texts, "output tok/s"));
  EXPECT_TRUE(contains(texts, "total tok/s (input + output)"));
  // Log x ticks at 1-2-5 steps; y ticks at round thousands.
  for (const char* tick : {"1", "2", "5", "10", "20", "50", "100", "200", "500"}) {
    EXPECT_TRUE(contains(texts, tick)) << tick;
  }
  EXPECT_TRUE(contains(texts, "0"));
  EXPECT_TRUE(contains(texts, "50k"));
}

TEST(RenderChart, GivesEachMarkerAHoverTitleWithItsValues) {
  const auto root = parse_xml(render_chart(throughput_chart()));
  const auto circles = root->find_all("circle");
  ASSERT_EQ(circles.size(), 10u);
  EXPECT_EQ(circles[4]->text(), "output tok/s: 5,546 (concurrency (max requests in flight): 256)");
}

TEST(RenderChart, SkipsPointsThatAreNotFiniteAndNeverPrintsNan) {
  Chart chart = throughput_chart();
  chart.series[0].y = {116, kNaN, 1480, kInf, 5546};
  chart.series[1].x = {1, 4, -kInf, 64, 256};
  const std::string svg = render_chart(chart);
  const auto root = parse_xml(svg);
  EXPECT_EQ(root->find_all("circle").size(), 3u + 4u);
  EXPECT_FALSE(std::regex_search(svg, std::regex("nan|inf", std::regex::icase)));
  // The line breaks at a skipped point: a second "M" starts after it.
  const auto paths = root->find_all("path");
  bool found_gap = false;
  for (const XmlNode* path : paths) {
    const std::string& d = *path->attribute("d");
    if (path->attribute("stroke-dasharray") == nullptr &&
        std::count(d.begin(), d.end(), 'M') == 3) {
      found_gap = true;
    }
  }
  EXPECT_TRUE(found_gap);
}

TEST(RenderChart, LeavesOutNonPositiveValuesOnALogAxis) {
  Chart chart = throughput_chart();
  chart.series[0].x = {0, -4, 16, 64, 256};
  const auto root = parse_xml(render_chart(chart));
  EXPECT_EQ(root->find_all("circle").size(), 3u + 5u);
}

TEST(RenderChart, DrawsAnEmptyChartWithNoDataNote) {
  Chart chart;
  chart.id = "empty";
  chart.title = "Nothing";
  chart.x.label = "x (s)";
  chart.y.label = "y (ms)";
  chart.series.push_back({.name = "all missing", .x = {kNaN, 1}, .y = {1, kInf}});
  const std::string svg = render_chart(chart);
  const auto root = parse_xml(svg);
  EXPECT_TRUE(contains(texts_of(*root, "text"), "no data"));
  EXPECT_TRUE(contains(texts_of(*root, "text"), "x (s)"));
  EXPECT_FALSE(std::regex_search(svg, std::regex("nan|inf", std::regex::icase)));
}

TEST(RenderChart, StacksBarsOfTheSameX) {
  Chart chart;
  chart.id = "bars";
  chart.title = "Token throughput over time";
  chart.x.label = "time (s)";
  chart.y.label = "tokens per second";
  chart.y.include_zero = true;
  chart.series.push_back(
      {.name = "output tok/s", .x = {0, 1}, .y = {100, 200}, .mark = Mark::kBars});
  chart.series.push_back(
      {.name = "input tok/s", .x = {0, 1}, .y = {300, 0}, .color = "#f0a04b", .mark = Mark::kBars});
  const auto root = parse_xml(render_chart(chart));
  std::vector<const XmlNode*> bars;
  for (const XmlNode* rect : root->find_all("rect")) {
    if (!rect->children.empty()) bars.push_back(rect);  // bars carry a hover <title>
  }
  ASSERT_EQ(bars.size(), 4u);
  auto y = [](const XmlNode* r) { return std::stod(*r->attribute("y")); };
  auto h = [](const XmlNode* r) { return std::stod(*r->attribute("height")); };
  // The input bar at x=0 sits on the output bar and is three times as tall.
  EXPECT_NEAR(y(bars[2]) + h(bars[2]), y(bars[0]), 0.21);
  EXPECT_NEAR(h(bars[2]), 3 * h(bars[0]), 0.3);
  EXPECT_NEAR(h(bars[3]), 0, 1e-9);
  EXPECT_EQ(bars[2]->text(), "input tok/s: 300 (time (s): 0)");
}

TEST(RenderChart, ShadesABandAndLabelsIt) {
  Chart chart = throughput_chart();
  chart.x.log_scale = false;
  chart.bands.push_back({10, 100, "steady state"});
  const auto root = parse_xml(render_chart(chart));
  EXPECT_TRUE(contains(texts_of(*root, "text"), "steady state"));
}

TEST(RenderChart, DropsAPointLabelThatWouldCoverAnother) {
  Chart chart;
  chart.id = "labels";
  chart.title = "TTFT vs output throughput";
  chart.x.label = "output tok/s";
  chart.x.include_zero = true;
  chart.y.label = "TTFT (ms)";
  chart.series.push_back({.name = "TTFT p50",
                          .x = {2500, 2500, 2500, 2500, 2500, 5000},
                          .y = {40, 40, 40, 40, 40, 400},
                          .point_labels = {"c=1", "c=2", "c=3", "c=4", "c=5", "c=256"}});
  const auto texts = texts_of(*parse_xml(render_chart(chart)), "text");
  int labels = 0;
  for (const std::string& t : texts) labels += t.rfind("c=", 0) == 0;
  EXPECT_EQ(labels, 5);  // four places around the shared point, and the lone point's label
  EXPECT_TRUE(contains(texts, "c=256"));
}

TEST(RenderChart, EscapesEveryTextItCarries) {
  Chart chart = throughput_chart();
  chart.id = "x\"y";
  chart.title = "<script>alert(1)</script> & co";
  chart.description = "</desc><b>";
  chart.x.label = "a < b";
  chart.series[0].name = "\"quoted\" & 'single'";
  chart.series[0].color = "red\" onload=\"x";
  chart.series[0].point_labels[0] = "<i>";
  chart.note = "&amp;";
  const std::string svg = render_chart(chart);
  const auto root = parse_xml(svg);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("onload=\""), std::string::npos);
  EXPECT_EQ(root->children.front()->text(), "<script>alert(1)</script> & co");
  const auto texts = texts_of(*root, "text");
  EXPECT_TRUE(contains(texts, "a < b"));
  EXPECT_TRUE(contains(texts, "\"quoted\" & 'single'"));
  EXPECT_TRUE(contains(texts, "<i>"));
  EXPECT_TRUE(contains(texts, "&amp;"));
}

TEST(CdfSeries, PlotsValueAgainstPercentileAndSkipsBadPairs) {
  const Series s =
      cdf_series("TTFT", {{0, 48.1}, {50, 50.9}, {99, kNaN}, {kInf, 60}, {100, 72.5}}, "#123456");
  EXPECT_EQ(s.x, (std::vector<double>{48.1, 50.9, 72.5}));
  EXPECT_EQ(s.y, (std::vector<double>{0, 50, 100}));
  EXPECT_EQ(s.color, "#123456");
  EXPECT_EQ(s.mark, Mark::kLine);
}

// The checker the tests rely on must itself reject what is not well-formed.
TEST(XmlCheck, RejectsMalformedDocuments) {
  const char* bad[] = {
      "<svg><g></svg>",
      "<svg>a < b</svg>",
      "<svg>AT&T</svg>",
      "<svg a=1/>",
      "<svg a=\"1\" a=\"2\"/>",
      "<svg>&nbsp;</svg>",
      "<svg a=\"<\"/>",
      "<svg/><svg/>",
      "<svg>\x01</svg>",
      "<svg>\xC3\x28</svg>",
      "<svg><title>t</titl></svg>",
      "<svg",
  };
  for (const char* doc : bad) {
    EXPECT_THROW(parse_xml(doc), bench::test::XmlError) << doc;
  }
  EXPECT_NO_THROW(parse_xml(
      "<!DOCTYPE html>\n<html><!-- c --><p a='1' b=\"&amp;&#39;&#x41;\">x &lt; y</p><br/></html>"));
  EXPECT_EQ(parse_xml("<a>x<b>y</b>z &amp; w</a>")->text(), "xyz & w");
}

}  // namespace
}  // namespace bench::report::svg
