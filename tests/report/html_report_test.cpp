// The HTML report, rendered from results fixtures (tests/data/results, real runs against the
// embedded server) and parsed back as strict XML: structure, order of the throughput rows,
// failures beside the throughput, charts with labelled axes, escaping, old and broken files.
#include "bench/report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "results_fixtures.hpp"
#include "xml_check.hpp"

namespace bench::report {
namespace {

using bench::test::parse_xml;
using bench::test::XmlNode;
using bench::testing::saved_results;
using nlohmann::json;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const char* const kFixtures[] = {"single_run.json", "single_run_failures.json",
                                 "single_run_estimate.json", "single_run_legacy.json",
                                 "sweep_concurrency.json"};

struct Page {
  std::string html;
  std::unique_ptr<XmlNode> root;
};

Page render(const json& results) {
  Page page{render_html_report(results), nullptr};
  page.root = parse_xml(page.html);  // throws, failing the test, when not well-formed
  return page;
}

std::vector<const XmlNode*> with_class(const XmlNode& root, std::string_view tag,
                                       std::string_view css_class) {
  std::vector<const XmlNode*> out;
  for (const XmlNode* node : root.find_all(tag)) {
    if (node->has_class(css_class)) out.push_back(node);
  }
  return out;
}

const XmlNode* by_id(const XmlNode& root, std::string_view tag, std::string_view id) {
  for (const XmlNode* node : root.find_all(tag)) {
    const std::string* value = node->attribute("id");
    if (value != nullptr && *value == id) return node;
  }
  return nullptr;
}

// The cells of a table row, header cell first.
std::vector<std::string> cells(const XmlNode& row) {
  std::vector<std::string> out;
  for (const auto& child : row.children) out.push_back(child->text());
  return out;
}

std::vector<const XmlNode*> body_rows(const XmlNode& table) {
  for (const XmlNode* body : table.find_all("tbody")) return body->find_all("tr");
  return {};
}

// "2,018.8" -> 2018.8; a badge after the number ("245.2ESTIMATE") is ignored.
double number_in(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c == ',') continue;
    if ((c >= '0' && c <= '9') || c == '.' || c == '-') {
      digits += c;
    } else if (!digits.empty()) {
      break;
    }
  }
  return std::stod(digits);
}

std::vector<std::string> svg_texts(const XmlNode& svg) {
  std::vector<std::string> out;
  for (const XmlNode* t : svg.find_all("text")) out.push_back(t->text());
  return out;
}

bool has(const std::vector<std::string>& texts, std::string_view wanted) {
  return std::find(texts.begin(), texts.end(), wanted) != texts.end();
}

// The page's text, leaving out the subtree with id `skip_id`.
std::string text_without(const XmlNode& node, std::string_view skip_id) {
  const std::string* id = node.attribute("id");
  if (id != nullptr && *id == skip_id) return "";
  std::string out = node.texts.front();
  for (std::size_t i = 0; i < node.children.size(); ++i) {
    out += text_without(*node.children[i], skip_id) + node.texts[i + 1];
  }
  return out;
}

bool mentions_nan_or_inf(const std::string& html) {
  return std::regex_search(html, std::regex("\\b(nan|-?inf|infinity)\\b", std::regex::icase));
}

// Any attribute below `node` (coordinates, sizes) that is not a number it should be.
bool attributes_mention_nan_or_inf(const XmlNode& node) {
  for (const auto& [key, value] : node.attributes) {
    if (mentions_nan_or_inf(value)) return true;
  }
  for (const auto& child : node.children) {
    if (attributes_mention_nan_or_inf(*child)) return true;
  }
  return false;
}

// Every attribute name below `node` that would run script (onload, onerror, ...).
bool has_event_handler(const XmlNode& node) {
  for (const auto& [key, value] : node.attributes) {
    if (key.starts_with("on")) return true;
  }
  for (const auto& child : node.children) {
    if (has_event_handler(*child)) return true;
  }
  return false;
}

// The number of id attributes below `root`, each checked to be used once only.
std::size_t unique_ids(const XmlNode& root) {
  std::set<std::string> ids;
  std::function<void(const XmlNode&)> walk = [&](const XmlNode& n) {
    if (const std::string* id = n.attribute("id")) {
      EXPECT_TRUE(ids.insert(*id).second) << "id used twice: " << *id;
    }
    for (const auto& c : n.children) walk(*c);
  };
  walk(root);
  return ids.size();
}

std::vector<std::string> column_heads(const XmlNode& table) {
  return cells(*table.find_all("thead")[0]->find_all("tr")[0]);
}

TEST(HtmlReport, IsWellFormedAndSelfContainedForEveryFixture) {
  for (const char* name : kFixtures) {
    SCOPED_TRACE(name);
    const Page page = render(saved_results(name));
    EXPECT_EQ(page.root->name, "html");
    EXPECT_TRUE(page.html.starts_with("<!DOCTYPE html>"));
    EXPECT_EQ(page.html.find("<script"), std::string::npos);
    EXPECT_EQ(page.html.find("@import"), std::string::npos);
    for (const char* tag : {"a", "img", "link", "iframe", "object", "embed", "use", "image"}) {
      EXPECT_TRUE(page.root->find_all(tag).empty()) << tag;
    }
    // url(#id) refers inside the page (a chart's clip path); anything else would be a fetch.
    EXPECT_FALSE(std::regex_search(page.html, std::regex("(src|href)=\"|url\\((?!#)")));
  }
}

TEST(HtmlReport, NeverPrintsNanOrInfForAnyFixture) {
  for (const char* name : kFixtures) {
    EXPECT_FALSE(mentions_nan_or_inf(render_html_report(saved_results(name)))) << name;
  }
}

TEST(HtmlReport, NeverShowsTokPerSecondWithoutItsKind) {
  for (const char* name : kFixtures) {
    const Page page = render(saved_results(name));
    // The definitions are the results file's own prose, quoted as they are.
    const std::string text = text_without(*page.root, "definitions");
    std::size_t pos = 0;
    int seen = 0;
    while ((pos = text.find("tok/s", pos)) != std::string::npos) {
      const std::string before = text.substr(0, pos);
      EXPECT_TRUE(before.ends_with("output ") || before.ends_with("input ") ||
                  before.ends_with("total "))
          << name << ": ..." << text.substr(pos > 40 ? pos - 40 : 0, 50);
      pos += 5;
      ++seen;
    }
    EXPECT_GT(seen, 3) << name;
  }
}

TEST(HtmlReport, GivesEveryChartItsOwnSvgWithATitleAndUniqueIds) {
  const Page page = render(saved_results("single_run.json"));
  const auto svgs = page.root->find_all("svg");
  ASSERT_EQ(svgs.size(), 4u);  // TTFT CDF, ITL CDF, token timeline, requests timeline
  for (const XmlNode* svg : svgs) {
    ASSERT_FALSE(svg->children.empty());
    EXPECT_EQ(svg->children.front()->name, "title");
    EXPECT_FALSE(svg->children.front()->text().empty());
  }
  EXPECT_GT(unique_ids(*page.root), 8u);
}

TEST(HtmlReport, ListsOutputThenInputThenTotalThroughputEachLabelled) {
  const json results = saved_results("single_run.json");
  const Page page = render(results);
  const auto tables = with_class(*page.root, "table", "headline");
  ASSERT_EQ(tables.size(), 1u);
  const auto rows = body_rows(*tables[0]);
  ASSERT_GE(rows.size(), 5u);
  const std::vector<std::string> output = cells(*rows[0]);
  const std::vector<std::string> input = cells(*rows[1]);
  const std::vector<std::string> total = cells(*rows[2]);
  EXPECT_EQ(output[0], "Output token throughput");
  EXPECT_EQ(input[0], "Input token throughput");
  EXPECT_EQ(total[0], "Total token throughput");
  EXPECT_TRUE(rows[0]->has_class("headline"));  // output is the emphasised row
  // Columns: figure, whole run, steady state, unit, token counts from.
  EXPECT_NEAR(number_in(output[1]), results["output_throughput"].get<double>(), 0.051);
  EXPECT_NEAR(number_in(input[1]), results["input_throughput"].get<double>(), 0.051);
  EXPECT_NEAR(number_in(total[1]), results["total_throughput"].get<double>(), 0.051);
  EXPECT_EQ(output[3], "output tok/s");
  EXPECT_EQ(input[3], "input tok/s");
  EXPECT_EQ(total[3], "total tok/s (input + output)");
  EXPECT_EQ(output[4], "server usage");
  EXPECT_EQ(input[4], "server usage");
}

TEST(HtmlReport, PutsSteadyStateBesideWholeRunOnlyWhenThereIsAWindow) {
  json results = saved_results("single_run.json");
  {
    const Page page = render(results);
    const XmlNode& table = *with_class(*page.root, "table", "headline")[0];
    EXPECT_TRUE(column_heads(table)[2].starts_with("steady state"));
    const auto rows = body_rows(table);
    EXPECT_NEAR(number_in(cells(*rows[0])[2]),
                results["steady_state"]["output_throughput"].get<double>(), 0.051);
    EXPECT_NEAR(number_in(cells(*rows[2])[2]),
                results["steady_state"]["total_throughput"].get<double>(), 0.051);
  }
  results["steady_state"] = nullptr;
  const Page page = render(results);
  const XmlNode& table = *with_class(*page.root, "table", "headline")[0];
  EXPECT_EQ(column_heads(table),
            (std::vector<std::string>{"figure", "whole run", "unit", "token counts from"}));
  EXPECT_EQ(cells(*body_rows(table)[0]).size(), 4u);
  for (const XmlNode* svg : page.root->find_all("svg")) {
    EXPECT_FALSE(has(svg_texts(*svg), "steady state"));
  }
}

TEST(HtmlReport, ShowsFailuresBesideTheThroughput) {
  const json results = saved_results("single_run_failures.json");
  ASSERT_EQ(results["failed"], 32);
  const Page page = render(results);
  const auto alerts = with_class(*page.root, "p", "bad");
  ASSERT_FALSE(alerts.empty());
  EXPECT_NE(alerts[0]->text().find("32 of 160 requests failed (20.0%)"), std::string::npos);
  const auto rows = body_rows(*with_class(*page.root, "table", "headline")[0]);
  ASSERT_GE(rows.size(), 5u);
  EXPECT_EQ(cells(*rows[3])[0], "Request throughput");
  EXPECT_EQ(cells(*rows[4])[0], "Failed requests");  // directly under the throughput
  EXPECT_TRUE(rows[4]->has_class("bad"));
  EXPECT_EQ(cells(*rows[4])[1], "32 of 160");
  EXPECT_NE(cells(*rows[4]).back().find("http_5xx 32"), std::string::npos);
  const XmlNode* errors = by_id(*page.root, "section", "errors");
  ASSERT_NE(errors, nullptr);
  EXPECT_NE(errors->text().find("http_5xx"), std::string::npos);
  EXPECT_FALSE(errors->find_all("li").empty());  // the server's messages as samples
}

TEST(HtmlReport, DoesNotAlarmOnACleanRun) {
  const Page page = render(saved_results("single_run.json"));
  EXPECT_TRUE(with_class(*page.root, "p", "alert").empty());
  const auto rows = body_rows(*with_class(*page.root, "table", "headline")[0]);
  EXPECT_EQ(cells(*rows[4])[1], "0 of 400");
  EXPECT_FALSE(rows[4]->has_class("bad"));
  EXPECT_EQ(by_id(*page.root, "section", "errors"), nullptr);
}

TEST(HtmlReport, AddsGoodputAndCancelledRowsWhenTheRunHasThem) {
  json results = saved_results("single_run.json");
  results["goodput"] = 41.2;
  results["cancelled"] = 3;
  const Page page = render(results);
  const auto rows = body_rows(*with_class(*page.root, "table", "headline")[0]);
  std::map<std::string, std::vector<std::string>> by_label;
  for (const XmlNode* row : rows) by_label[cells(*row)[0]] = cells(*row);
  ASSERT_TRUE(by_label.contains("Goodput"));
  EXPECT_EQ(by_label["Goodput"][1], "41.20");
  EXPECT_EQ(by_label["Goodput"][3], "req/s meeting every SLO");
  ASSERT_TRUE(by_label.contains("Cancelled by bench"));
  EXPECT_EQ(by_label["Cancelled by bench"][1], "3");
  results["goodput"] = nullptr;
  results["cancelled"] = 0;
  const Page plain = render(results);
  for (const XmlNode* row : body_rows(*with_class(*plain.root, "table", "headline")[0])) {
    EXPECT_NE(cells(*row)[0], "Goodput");
    EXPECT_NE(cells(*row)[0], "Cancelled by bench");
  }
}

TEST(HtmlReport, MarksEstimatedAndUnknownTokenCounts) {
  const Page page = render(saved_results("single_run_estimate.json"));
  const auto rows = body_rows(*with_class(*page.root, "table", "headline")[0]);
  EXPECT_NE(cells(*rows[0])[1].find("ESTIMATE"), std::string::npos);
  EXPECT_NE(cells(*rows[0]).back().find("ESTIMATE from chunk count"), std::string::npos);
  EXPECT_NE(cells(*rows[1]).back().find("UNKNOWN"), std::string::npos);
  // Unknown input (the file wrote 0) is n/a in both columns, never 0.0; so is the total.
  for (std::size_t column : {1u, 2u}) {
    EXPECT_EQ(cells(*rows[1])[column].rfind("n/a", 0), 0u) << cells(*rows[1])[column];
    EXPECT_EQ(cells(*rows[2])[column], "n/a");
  }
  const auto warnings = with_class(*page.root, "p", "warn");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0]->text().find("ESTIMATES"), std::string::npos);
  EXPECT_NE(warnings[1]->text().find("UNKNOWN"), std::string::npos);
}

TEST(HtmlReport, LabelsOutputCountedByTheTokenizerWithoutAnEstimateBadge) {
  json results = saved_results("single_run.json");
  json& sources = results["token_count_source"];
  for (const char* output : {"tokenizer", "mixed"}) {
    // "mixed" here is usage and the tokenizer: every count counted, none estimated.
    sources["output"] = output;
    sources["output_from_tokenizer"] = 3;
    const Page page = render(results);
    const auto rows = body_rows(*with_class(*page.root, "table", "headline")[0]);
    EXPECT_EQ(cells(*rows[0])[1].find("ESTIMATE"), std::string::npos) << output;
    EXPECT_NE(cells(*rows[0]).back().find("counted by the tokenizer"), std::string::npos)
        << cells(*rows[0]).back();
  }
}

TEST(HtmlReport, MeanInputLengthSaysItsUnitAndTheTokenizersCount) {
  json results = saved_results("single_run.json");
  results.erase("input_len_unit");  // a file from before the key: words
  EXPECT_NE(render(results).html.find("<dd>requested 512 words, server counted"),
            std::string::npos);
  results["input_len_unit"] = "tokens";
  results["mean_client_prompt_tokens"] = 512.0;
  const std::string html = render(results).html;
  EXPECT_NE(html.find("<dd>requested 512 tokens, tokenizer counted 512 tokens, server counted"),
            std::string::npos)
      << html.substr(html.find("Mean input length"), 200);
}

// The header's workload line says the unit the lengths were counted in, and that a file's
// prompts bring their own lengths (its config still holds the --input-len default).
TEST(HtmlReport, WorkloadLineSaysTheLengthsUnitOrThatTheFileGaveThem) {
  json results = saved_results("single_run.json");
  results["config"]["input_len"] = 512;
  results["config"]["output_len"] = 128;
  results["config"]["dataset"] = "random";
  results["input_len_unit"] = "words";
  EXPECT_NE(render(results).html.find("<dd>512 words in, 128 tokens out"), std::string::npos);
  results["input_len_unit"] = "tokens";
  EXPECT_NE(render(results).html.find("<dd>512 tokens in, 128 tokens out"), std::string::npos);
  results["config"]["dataset"] = "trace";
  const std::string html = render(results).html;
  EXPECT_NE(html.find("<dd>trace prompts, lengths from the file"), std::string::npos);
  EXPECT_EQ(html.find("512 tokens in"), std::string::npos);
}

TEST(HtmlReport, TabulatesEveryLatencyMetricAndStatistic) {
  const json results = saved_results("single_run.json");
  const Page page = render(results);
  const auto tables = with_class(*page.root, "table", "latency");
  ASSERT_EQ(tables.size(), 1u);
  const XmlNode* head = tables[0]->find_all("thead")[0];
  EXPECT_EQ(cells(*head->find_all("tr")[0]),
            (std::vector<std::string>{"metric", "mean", "median", "p90", "p95", "p99", "max"}));
  const auto rows = body_rows(*tables[0]);
  const char* keys[] = {"ttft", "itl", "icl", "tpot", "e2e_latency"};
  const char* names[] = {"TTFT", "ITL", "ICL", "TPOT", "E2E"};
  const char* stats[] = {"mean", "median", "p90", "p95", "p99", "max"};
  ASSERT_EQ(rows.size(), 5u);
  for (std::size_t r = 0; r < 5; ++r) {
    const auto row = cells(*rows[r]);
    EXPECT_TRUE(row[0].starts_with(names[r])) << row[0];
    for (std::size_t c = 0; c < 6; ++c) {
      const std::string key = std::string(stats[c]) + "_" + keys[r] + "_ms";
      EXPECT_NEAR(number_in(row[c + 1]), results[key].get<double>(), 0.0051) << key;
    }
  }
}

// Time to response headers, where measured, stands under TTFT with every statistic; a file
// without it (older, or no response reported it: null) has no such row.
TEST(HtmlReport, TabulatesTimeToHeadersUnderTtftWhereMeasured) {
  json results = saved_results("single_run.json");
  const char* stats[] = {"mean", "median", "p90", "p95", "p99", "max"};
  double value = 1.25;
  for (const char* stat : stats) {
    results[std::string(stat) + "_ttfb_ms"] = value;
    value += 1;
  }
  const Page page = render(results);
  const auto tables = with_class(*page.root, "table", "latency");
  ASSERT_EQ(tables.size(), 1u);
  const auto rows = body_rows(*tables[0]);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_TRUE(cells(*rows[0])[0].starts_with("TTFT")) << cells(*rows[0])[0];
  const auto row = cells(*rows[1]);
  EXPECT_TRUE(row[0].starts_with("TTFB")) << row[0];
  for (std::size_t c = 0; c < 6; ++c) {
    EXPECT_NEAR(number_in(row[c + 1]), 1.25 + static_cast<double>(c), 0.0051) << stats[c];
  }

  for (const char* stat : stats) results[std::string(stat) + "_ttfb_ms"] = nullptr;
  const Page unmeasured = render(results);
  EXPECT_EQ(body_rows(*with_class(*unmeasured.root, "table", "latency")[0]).size(), 5u);
}

// --no-stream: a run that streamed nothing has only its E2E row, and says why; one that
// streamed some says how many were not.
TEST(HtmlReport, LeavesOutTokenTimingsOfARunThatStreamedNothingAndSaysSo) {
  json results = saved_results("single_run.json");
  const std::int64_t completed = results["completed"].get<std::int64_t>();
  for (const char* key : {"ttft", "itl", "icl", "tpot"}) {
    for (const char* stat : {"mean", "median", "std", "p90", "p95", "p99", "max"}) {
      results[std::string(stat) + "_" + key + "_ms"] = nullptr;
    }
  }
  results["requests_not_streamed"] = completed;
  const Page page = render(results);
  const auto rows = body_rows(*with_class(*page.root, "table", "latency")[0]);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(cells(*rows[0])[0].starts_with("E2E")) << cells(*rows[0])[0];
  EXPECT_NE(page.html.find("No request was streamed (--no-stream)"), std::string::npos);

  json some = saved_results("single_run.json");
  some["requests_not_streamed"] = 1;
  const Page mixed = render(some);
  EXPECT_EQ(body_rows(*with_class(*mixed.root, "table", "latency")[0]).size(), 5u);
  EXPECT_NE(mixed.html.find("Not streamed: 1 of " + std::to_string(completed)), std::string::npos);
}

TEST(HtmlReport, DrawsTtftAndItlCdfsWithLabelledAxes) {
  const Page page = render(saved_results("single_run.json"));
  const XmlNode* ttft = nullptr;
  for (const XmlNode* svg : page.root->find_all("svg")) {
    if (svg->children.front()->text() == "TTFT distribution") ttft = svg;
  }
  ASSERT_NE(ttft, nullptr);
  const auto texts = svg_texts(*ttft);
  EXPECT_TRUE(has(texts, "TTFT (ms)"));
  EXPECT_TRUE(has(texts, "requests (%)"));
  EXPECT_TRUE(has(texts, "100"));
  bool itl = false;
  for (const XmlNode* svg : page.root->find_all("svg")) {
    if (svg->children.front()->text() != "ITL distribution") continue;
    itl = true;
    EXPECT_TRUE(has(svg_texts(*svg), "ITL, gap between tokens (ms)"));
    EXPECT_TRUE(has(svg_texts(*svg), "token gaps (%)"));
  }
  EXPECT_TRUE(itl);
}

TEST(HtmlReport, DrawsTheTimelineWithOneStackedBarPairPerBucket) {
  const json results = saved_results("single_run.json");
  const std::size_t buckets = results["timeline"]["buckets"].size();
  const Page page = render(results);
  const XmlNode* tokens = nullptr;
  const XmlNode* requests = nullptr;
  for (const XmlNode* svg : page.root->find_all("svg")) {
    const std::string title = svg->children.front()->text();
    if (title == "Token throughput over time") tokens = svg;
    if (title == "Requests in flight and failures over time") requests = svg;
  }
  ASSERT_NE(tokens, nullptr);
  ASSERT_NE(requests, nullptr);
  int bars = 0;
  for (const XmlNode* rect : tokens->find_all("rect")) bars += !rect->children.empty();
  EXPECT_EQ(bars, static_cast<int>(2 * buckets));
  for (const XmlNode* svg : {tokens, requests}) {
    const auto texts = svg_texts(*svg);
    EXPECT_TRUE(has(texts, "time since the first measured request (s)"));
    EXPECT_TRUE(has(texts, "steady state"));
  }
  EXPECT_TRUE(has(svg_texts(*tokens), "tokens per second"));
  EXPECT_TRUE(has(svg_texts(*tokens), "output tok/s"));
  EXPECT_TRUE(has(svg_texts(*requests), "requests"));
  EXPECT_TRUE(has(svg_texts(*requests), "configured concurrency"));
}

TEST(HtmlReport, DrawsAPartialLastBucketAtItsRealWidthAndRate) {
  json results = saved_results("single_run.json");
  json& last = results["timeline"]["buckets"].back();
  last["width_s"] = 0.25;
  last["output_tokens"] = 200;
  const Page page = render(results);
  std::vector<const XmlNode*> output_bars;
  for (const XmlNode* svg : page.root->find_all("svg")) {
    if (svg->children.front()->text() != "Token throughput over time") continue;
    for (const XmlNode* rect : svg->find_all("rect")) {
      if (rect->text().starts_with("output tok/s:")) output_bars.push_back(rect);
    }
  }
  ASSERT_EQ(output_bars.size(), results["timeline"]["buckets"].size());
  EXPECT_TRUE(output_bars.back()->text().starts_with("output tok/s: 800 ("))
      << output_bars.back()->text();  // 200 tokens in a quarter of a second
  const double full_px = std::stod(*output_bars.front()->attribute("width"));
  const double last_px = std::stod(*output_bars.back()->attribute("width"));
  EXPECT_LT(last_px, full_px / 2);
}

TEST(HtmlReport, ShowsTheMetricDefinitionsOfTheFile) {
  const json results = saved_results("single_run.json");
  const Page page = render(results);
  const XmlNode* section = by_id(*page.root, "section", "definitions");
  ASSERT_NE(section, nullptr);
  std::vector<std::string> terms;
  for (const XmlNode* dt : section->find_all("dt")) terms.push_back(dt->text());
  for (const auto& [name, text] : results["definitions"].items()) {
    EXPECT_TRUE(has(terms, name)) << name;
    EXPECT_NE(section->text().find(text.get<std::string>()), std::string::npos) << name;
  }
}

TEST(HtmlReport, EscapesHostileStringsFromUserAndServer) {
  json results = saved_results("single_run_failures.json");
  const std::string model = "<script>alert(1)</script> & \"co\"";
  results["model"] = model;
  results["base_url"] = "http://x/\"><img src=x onerror=alert(1)>";
  results["started_at"] = "</dd><script>";
  results["errors"]["<b>bold</b>"] = {{"count", 1},
                                      {"samples", {"</code></li><script>alert(2)</script>"}}};
  results["errors"]["http_5xx"]["samples"][0] = std::string("bad \xC3\x28 utf-8 \x01");
  results["definitions"]["<i>"] = "&amp; not an entity";
  results["config"]["</pre>"] = "<script>";
  const Page page = render(results);  // well-formed: nothing broke out of its element
  EXPECT_FALSE(std::regex_search(page.html, std::regex("<(script|img|b|i)[ >]")));
  EXPECT_FALSE(has_event_handler(*page.root));
  EXPECT_NE(page.html.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;"),
            std::string::npos);
  ASSERT_EQ(page.root->find_all("h1").size(), 1u);
  EXPECT_EQ(page.root->find_all("h1")[0]->text(), model);
  EXPECT_NE(page.root->find_all("title")[0]->text().find(model), std::string::npos);
  const XmlNode* errors = by_id(*page.root, "section", "errors");
  ASSERT_NE(errors, nullptr);
  EXPECT_NE(errors->text().find("<b>bold</b>"), std::string::npos);
  EXPECT_NE(errors->text().find("</code></li><script>alert(2)</script>"), std::string::npos);
}

TEST(HtmlReport, ShowsDashesForNonFiniteValues) {
  json results = saved_results("single_run.json");
  results["output_throughput"] = kNaN;
  results["p99_ttft_ms"] = kInf;
  results["distributions"]["ttft_ms"][3] = {3, kNaN};
  results["timeline"]["buckets"][2]["in_flight"] = kNaN;
  results["steady_state"]["start_s"] = -kInf;
  const Page page = render(results);
  EXPECT_FALSE(mentions_nan_or_inf(page.html));
  const auto rows = body_rows(*with_class(*page.root, "table", "headline")[0]);
  EXPECT_EQ(cells(*rows[0])[1], "-");
  const auto latency = body_rows(*with_class(*page.root, "table", "latency")[0]);
  EXPECT_EQ(cells(*latency[0])[5], "-");
}

TEST(HtmlReport, RendersAnOlderFileWithoutTheNewKeys) {
  const json results = saved_results("single_run_legacy.json");
  ASSERT_FALSE(results.contains("timeline"));
  ASSERT_FALSE(results.contains("distributions"));
  const Page page = render(results);
  EXPECT_TRUE(page.root->find_all("svg").empty());
  EXPECT_EQ(by_id(*page.root, "section", "timeline"), nullptr);
  const auto rows = body_rows(*with_class(*page.root, "table", "headline")[0]);
  EXPECT_EQ(cells(*rows[0])[0], "Output token throughput");
  EXPECT_EQ(cells(*rows[0]).size(), 4u);  // no steady-state column
  EXPECT_NE(page.html.find("4 max in flight"), std::string::npos);
}

TEST(HtmlReport, RendersMissingAndMistypedFields) {
  const json broken = json::parse(R"({
    "model": "m", "sent": "many", "failed": 2.0, "timeline": 5, "steady_state": "yes",
    "distributions": {"ttft_ms": "x", "itl_ms": [[1], [2, "a"], "z"]},
    "errors": [], "token_count_source": 7, "definitions": [1], "config": null,
    "output_throughput": "fast", "request_rate": "sometimes"
  })");
  for (const json& results : {json::object(), json{{"model", "m"}}, broken}) {
    const Page page = render(results);
    EXPECT_TRUE(page.root->find_all("svg").empty());
    EXPECT_FALSE(mentions_nan_or_inf(page.html));
  }
  const Page page = render(broken);
  EXPECT_EQ(cells(*body_rows(*with_class(*page.root, "table", "headline")[0])[0])[1], "-");
  EXPECT_NE(page.html.find("2 of 0 requests failed"), std::string::npos);
}

TEST(HtmlReport, RejectsWhatIsNotAResultsObject) {
  EXPECT_THROW(render_html_report(json::array()), std::invalid_argument);
  EXPECT_THROW(render_html_report(json("run")), std::invalid_argument);
  EXPECT_THROW(render_html_report(json{{"kind", "sweep"}}), std::invalid_argument);
  EXPECT_THROW(render_html_report(json{{"kind", "sweep"}, {"points", {1}}}), std::invalid_argument);
}

TEST(HtmlSweepReport, TabulatesOnePointPerRowInSweepOrder) {
  const json sweep = saved_results("sweep_concurrency.json");
  const Page page = render(sweep);
  const auto tables = with_class(*page.root, "table", "sweep");
  ASSERT_EQ(tables.size(), 1u);
  const auto head = cells(*tables[0]->find_all("thead")[0]->find_all("tr")[0]);
  ASSERT_EQ(head.size(), 12u);
  EXPECT_EQ(head[2], "outputoutput tok/s");
  EXPECT_EQ(head[11], "cached% of input");
  EXPECT_EQ(head[3], "inputinput tok/s");
  EXPECT_EQ(head[4], "totaltotal tok/s");
  const auto rows = body_rows(*tables[0]);
  ASSERT_EQ(rows.size(), 5u);
  const char* values[] = {"1", "4", "16", "64", "256"};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto row = cells(*rows[i]);
    const json& point = sweep["points"][i];
    EXPECT_EQ(row[0], values[i]);
    EXPECT_NEAR(number_in(row[1]), point["request_throughput"].get<double>(), 0.0051);
    EXPECT_NEAR(number_in(row[2]), point["output_throughput"].get<double>(), 0.051);
    EXPECT_NEAR(number_in(row[3]), point["input_throughput"].get<double>(), 0.051);
    EXPECT_NEAR(number_in(row[4]), point["total_throughput"].get<double>(), 0.051);
    EXPECT_NEAR(number_in(row[5]), point["median_ttft_ms"].get<double>(), 0.0051);
    EXPECT_NEAR(number_in(row[6]), point["p99_ttft_ms"].get<double>(), 0.0051);
    EXPECT_NEAR(number_in(row[7]), point["median_itl_ms"].get<double>(), 0.0051);
    EXPECT_NEAR(number_in(row[8]), point["p99_itl_ms"].get<double>(), 0.0051);
    EXPECT_NEAR(number_in(row[9]), point["median_tpot_ms"].get<double>(), 0.0051);
    EXPECT_EQ(row[10], "0 of " + std::to_string(point["sent"].get<int>()));
  }
}

TEST(HtmlSweepReport, PlotsThroughputAgainstConcurrencyAndLatencyAgainstOutput) {
  const Page page = render(saved_results("sweep_concurrency.json"));
  std::map<std::string, const XmlNode*> charts;
  for (const XmlNode* svg : page.root->find_all("svg")) {
    charts[svg->children.front()->text()] = svg;
  }
  const XmlNode* throughput = charts["Output and total token throughput vs concurrency"];
  ASSERT_NE(throughput, nullptr);
  auto texts = svg_texts(*throughput);
  EXPECT_TRUE(has(texts, "concurrency (max requests in flight)"));
  EXPECT_TRUE(has(texts, "tokens per second"));
  EXPECT_TRUE(has(texts, "output tok/s"));
  EXPECT_TRUE(has(texts, "total tok/s (input + output)"));
  EXPECT_TRUE(has(texts, "x axis: log scale"));
  EXPECT_EQ(throughput->find_all("circle").size(), 10u);
  const XmlNode* ttft = charts["TTFT vs output throughput"];
  ASSERT_NE(ttft, nullptr);
  texts = svg_texts(*ttft);
  EXPECT_TRUE(has(texts, "output token throughput (output tok/s)"));
  EXPECT_TRUE(has(texts, "TTFT (ms)"));
  EXPECT_TRUE(has(texts, "TTFT p50"));
  EXPECT_TRUE(has(texts, "TTFT p99"));
  EXPECT_TRUE(has(texts, "c=256"));
  const XmlNode* tpot = charts["TPOT vs output throughput"];
  ASSERT_NE(tpot, nullptr);
  EXPECT_TRUE(has(svg_texts(*tpot), "TPOT (ms)"));
  EXPECT_TRUE(has(svg_texts(*tpot), "TPOT p50"));
}

TEST(HtmlSweepReport, CollapsesEachPointWithItsOwnReport) {
  const Page page = render(saved_results("sweep_concurrency.json"));
  const auto points = with_class(*page.root, "details", "point");
  ASSERT_EQ(points.size(), 5u);
  EXPECT_TRUE(points[4]->find_all("summary")[0]->text().starts_with("concurrency 256"));
  for (const XmlNode* point : points) {
    EXPECT_EQ(point->find_all("svg").size(), 4u);
    EXPECT_EQ(with_class(*point, "table", "headline").size(), 1u);
  }
  EXPECT_EQ(page.root->find_all("svg").size(), 3u + 5u * 4u);
  EXPECT_GT(unique_ids(*page.root), 20u);
}

TEST(HtmlSweepReport, FlagsPointsWithFailures) {
  json sweep = saved_results("sweep_concurrency.json");
  sweep["points"][3]["failed"] = 40;
  sweep["points"][3]["sent"] = 296;
  const Page page = render(sweep);
  const auto alerts = with_class(*page.root, "p", "bad");
  ASSERT_FALSE(alerts.empty());
  EXPECT_NE(alerts[0]->text().find("concurrency 64: 40 of 296 (13.5%)"), std::string::npos);
  const auto rows = body_rows(*with_class(*page.root, "table", "sweep")[0]);
  EXPECT_EQ(cells(*rows[3])[10], "40 of 296 (13.5%)");
}

TEST(HtmlSweepReport, KeepsAnUnlimitedRatePointOffTheAxisButInTheTable) {
  json sweep = saved_results("sweep_concurrency.json");
  sweep["sweep"] = {{"variable", "request_rate"}, {"values", {2, 8, 32, 128, "inf"}}};
  const Page page = render(sweep);
  EXPECT_FALSE(attributes_mention_nan_or_inf(*page.root));
  const auto rows = body_rows(*with_class(*page.root, "table", "sweep")[0]);
  EXPECT_EQ(cells(*rows[4])[0], "inf");
  const XmlNode* throughput = nullptr;
  for (const XmlNode* svg : page.root->find_all("svg")) {
    if (svg->children.front()->text() == "Output and total token throughput vs request rate") {
      throughput = svg;
    }
  }
  ASSERT_NE(throughput, nullptr);
  EXPECT_EQ(throughput->find_all("circle").size(), 8u);
  EXPECT_TRUE(has(svg_texts(*throughput), "request rate offered (req/s)"));
  bool noted = false;
  for (const std::string& t : svg_texts(*throughput)) {
    noted = noted || t.find("Not on the x axis (no rate limit): rate inf") != std::string::npos;
  }
  EXPECT_TRUE(noted);
}

// A search's SLOs are lines on the sweep charts that plot their figure: a p99 TPOT SLO adds the
// p99 TPOT curve it judged; error_rate is on no chart.
TEST(HtmlSweepReport, DrawsASearchsSlosAsLinesOnTheChartsOfTheirFigures) {
  json sweep = saved_results("sweep_concurrency.json");
  sweep["search"] = {
      {"slo_window", "steady"},
      {"slos",
       {"p99_ttft_ms<=500", "p99_tpot_ms<=50", "output_throughput>=800", "error_rate<=0.01"}}};
  const Page page = render(sweep);
  std::map<std::string, const XmlNode*> charts;
  for (const XmlNode* svg : page.root->find_all("svg")) {
    charts[svg->children.front()->text()] = svg;
  }
  const XmlNode* ttft = charts["TTFT vs output throughput"];
  const XmlNode* tpot = charts["TPOT vs output throughput"];
  const XmlNode* throughput = charts["Output and total token throughput vs concurrency"];
  ASSERT_TRUE(ttft != nullptr && tpot != nullptr && throughput != nullptr);
  EXPECT_TRUE(has(svg_texts(*ttft), "SLO p99_ttft_ms<=500"));
  EXPECT_FALSE(has(svg_texts(*ttft), "SLO p99_tpot_ms<=50"));
  EXPECT_TRUE(has(svg_texts(*tpot), "SLO p99_tpot_ms<=50"));
  EXPECT_TRUE(has(svg_texts(*tpot), "TPOT p99"));
  EXPECT_TRUE(has(svg_texts(*throughput),
                  "SLO output_throughput>=800 (judged on the steady-state window)"));
  for (const auto& [title, svg] : charts) {
    for (const std::string& text : svg_texts(*svg)) {
      EXPECT_EQ(text.find("error_rate"), std::string::npos) << title;
    }
  }
  // A plain sweep has no SLO lines.
  const Page plain = render(saved_results("sweep_concurrency.json"));
  for (const XmlNode* svg : plain.root->find_all("svg")) {
    for (const std::string& text : svg_texts(*svg)) EXPECT_FALSE(text.starts_with("SLO ")) << text;
  }
}

}  // namespace
}  // namespace bench::report
