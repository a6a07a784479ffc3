// The latency catalogue (results/latency_figures.hpp), row by row: every row is written, defined,
// readable, named in the peers' views and llm-d's export, and rendered in the text and HTML
// reports of one run. A row added to the catalogue is checked here without a line of this test.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/results/compat.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/llmd_report.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/writer.hpp"
#include "report_fixtures.hpp"

namespace {

using bench::results::distribution_key;
using bench::results::kDistributionStatFields;
using bench::results::kDistributionStats;
using bench::results::latency_figures;
using bench::results::LatencyFigure;
using nlohmann::json;
using report_test::RunSummary;

// A run in which every catalogue row is measured (some request reasoned, so TTFA is known), each
// distribution with values of its own so a swapped row or column shows.
RunSummary catalogue_summary() {
  RunSummary s = report_test::clean_summary();
  s.reasoning.requests = 200;
  s.reasoning.reasoning_requests = 40;
  s.reasoning.reasoning_tokens = 4000;
  s.reasoning.answer_tokens = 21600;
  s.reasoning.from_usage = 40;
  double base = 1000;
  for (const LatencyFigure& figure : latency_figures()) {
    s.*figure.values = report_test::distribution(base);
    base += 1000;
  }
  return s;
}

double value_of(const RunSummary& s, const LatencyFigure& figure, std::size_t stat) {
  return s.*figure.values.*kDistributionStatFields[stat];
}

// The text report's latency row for `label`: the line that starts with it, then spaces.
std::string text_row(const std::string& text, std::string_view label) {
  std::size_t at = 0;
  while ((at = text.find(fmt::format("\n{} ", label), at)) != std::string::npos) {
    const std::size_t end = text.find('\n', at + 1);
    const std::string line = text.substr(at + 1, end - at - 1);
    if (line.find_first_not_of(' ', label.size()) != std::string::npos &&
        std::isdigit(static_cast<unsigned char>(line[line.find_first_not_of(' ', label.size())]))) {
      return line;
    }
    at = end;
  }
  return "";
}

TEST(FigureCatalogue, EveryRowIsWrittenDefinedAndReadable) {
  const RunSummary s = catalogue_summary();
  const json run = bench::results::to_json(s, report_test::context());
  const json definitions = bench::results::metric_definitions();
  const auto& names = bench::results::run_metric_names();
  for (const LatencyFigure& figure : latency_figures()) {
    SCOPED_TRACE(std::string(figure.key));
    EXPECT_FALSE(figure.label.empty());
    EXPECT_FALSE(figure.caption.empty());
    ASSERT_TRUE(definitions.contains(figure.key));
    EXPECT_EQ(definitions[std::string(figure.key)], figure.definition);
    for (std::size_t i = 0; i < kDistributionStats.size(); ++i) {
      const std::string key = distribution_key(kDistributionStats[i], figure.key);
      ASSERT_TRUE(run.contains(key)) << key;
      EXPECT_DOUBLE_EQ(run[key].get<double>(), value_of(s, figure, i)) << key;
      EXPECT_EQ(bench::results::known_metric(run, key), value_of(s, figure, i)) << key;
      EXPECT_NE(std::find(names.begin(), names.end(), key), names.end()) << key;
      EXPECT_EQ(bench::results::figure_of_key(key), figure.kind) << key;
    }
  }
}

TEST(FigureCatalogue, AFigureTheRunDoesNotKnowIsNullNeverZero) {
  RunSummary s = catalogue_summary();
  s.reasoning = {};  // no request reasoned: TTFA unknown
  for (const LatencyFigure& figure : latency_figures()) {
    if (figure.known == nullptr) (s.*figure.values).count = 0;  // no values
  }
  const json run = bench::results::to_json(s, report_test::context());
  for (const LatencyFigure& figure : latency_figures()) {
    for (std::string_view stat : kDistributionStats) {
      EXPECT_TRUE(run.at(distribution_key(stat, figure.key)).is_null())
          << distribution_key(stat, figure.key);
    }
  }
}

TEST(FigureCatalogue, EveryRowIsRenderedInTheTextReportOrSaysItIsNot) {
  const RunSummary s = catalogue_summary();
  const std::string text = bench::report::render_text(s, report_test::context());
  for (const LatencyFigure& figure : latency_figures()) {
    SCOPED_TRACE(std::string(figure.key));
    const std::string row = text_row(text, figure.label);
    if (!figure.in_text_report) {
      EXPECT_EQ(row, "") << "a row the catalogue keeps out of the text report";
      continue;
    }
    ASSERT_NE(row, "");
    for (std::size_t i = 0; i < kDistributionStats.size(); ++i) {
      EXPECT_NE(row.find(fmt::format("{:.2f}", value_of(s, figure, i))), std::string::npos)
          << kDistributionStats[i] << " missing from: " << row;
    }
  }
}

TEST(FigureCatalogue, EveryRowIsRenderedInTheHtmlReportWhereMeasured) {
  const std::string measured = bench::report::render_html_report(
      bench::results::to_json(catalogue_summary(), report_test::context()));
  const std::string plain = bench::report::render_html_report(
      bench::results::to_json(report_test::clean_summary(), report_test::context()));
  for (const LatencyFigure& figure : latency_figures()) {
    SCOPED_TRACE(std::string(figure.key));
    const std::string head = fmt::format("<th scope=\"row\">{}<span class=\"sub\">", figure.label);
    EXPECT_NE(measured.find(head), std::string::npos);
    // The plain run measured no TTFB and no reasoning: a row only when measured is left out.
    const bool measured_in_plain = !figure.row_only_when_measured ||
                                   bench::results::is_known(figure, report_test::clean_summary());
    EXPECT_EQ(plain.find(head) != std::string::npos, measured_in_plain);
  }
}

TEST(FigureCatalogue, PeersNamesAreRowsOfTheSameTable) {
  const RunSummary s = catalogue_summary();
  const json run = bench::results::to_json(s, report_test::context());
  for (const auto compat : {bench::results::Compat::vllm, bench::results::Compat::sglang}) {
    const json view = bench::results::compat_view(run, compat);
    for (const LatencyFigure& figure : latency_figures()) {
      const auto& peer = compat == bench::results::Compat::vllm ? figure.vllm : figure.sglang;
      if (peer.agreement != bench::results::Agreement::same) continue;
      for (std::size_t i = 0; i < kDistributionStats.size(); ++i) {
        const std::string key = distribution_key(kDistributionStats[i], peer.name);
        ASSERT_TRUE(view.contains(key)) << key;
        EXPECT_DOUBLE_EQ(view[key].get<double>(), value_of(s, figure, i)) << key;
      }
    }
  }
  for (const LatencyFigure& figure : latency_figures()) {
    for (const auto* peer : {&figure.vllm, &figure.sglang, &figure.aiperf, &figure.guidellm}) {
      EXPECT_EQ(peer->name.empty(), peer->agreement == bench::results::Agreement::none)
          << figure.key;
      EXPECT_EQ(peer->note.empty(), peer->agreement != bench::results::Agreement::differs)
          << figure.key << ": a differing peer figure says how";
    }
  }
}

TEST(FigureCatalogue, LlmdNamesCarryTheRunsValues) {
  const RunSummary s = catalogue_summary();
  const auto exported = bench::results::llmd_export(
      bench::results::to_json(s, report_test::context()), "catalogue", std::nullopt);
  ASSERT_TRUE(std::holds_alternative<json>(exported));
  const json& latency =
      std::get<json>(exported)["results"]["request_performance"]["aggregate"]["latency"];
  for (const LatencyFigure& figure : latency_figures()) {
    if (figure.llmd_name.empty()) continue;
    SCOPED_TRACE(std::string(figure.llmd_name));
    ASSERT_TRUE(latency.contains(figure.llmd_name));
    EXPECT_DOUBLE_EQ(latency[std::string(figure.llmd_name)]["mean"].get<double>(),
                     value_of(s, figure, 0));
    EXPECT_EQ(latency[std::string(figure.llmd_name)]["units"],
              figure.llmd_per_token ? "ms/token" : "ms");
  }
}

}  // namespace
