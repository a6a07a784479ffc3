// render_text and to_json: the table people read (files named, columns aligned, units
// labelled, verdicts, points on one side only, the regression count) and the object scripts
// read, on comparisons of real results.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/compare/compare.hpp"
#include "results_fixtures.hpp"

namespace {

using bench::compare::CompareError;
using bench::compare::CompareOptions;
using bench::compare::Comparison;
using bench::testing::compare_fixture;
using nlohmann::json;
constexpr std::size_t npos = std::string::npos;

Comparison compared_fixtures(const std::string& base, const std::string& next,
                             std::optional<double> threshold = {}) {
  CompareOptions options{base, next, threshold, {}};
  auto result = bench::compare::compare(compare_fixture(base), compare_fixture(next), options);
  if (const auto* error = std::get_if<CompareError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<Comparison>(result);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string render(const Comparison& comparison) { return bench::compare::render_text(comparison); }

// The line that starts with `prefix`, or "".
std::string line_starting(const std::string& text, const std::string& prefix) {
  for (const std::string& line : lines_of(text)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

TEST(RenderText, NamesBothFilesAndExplainsTheChange) {
  const std::string text = render(compared_fixtures("run_c4.json", "run_c4_slow.json"));
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], "bench compare: base run_c4.json, new run_c4_slow.json");
  EXPECT_EQ(lines[1],
            "change = (new - base) / base; worse = throughput down, latency up or errors up");
}

TEST(RenderText, AlignsTheFiguresOfEveryRowUnderTheHeader) {
  const std::string text = render(compared_fixtures("run_c4.json", "run_c4_slow.json"));
  const std::string header = line_starting(text, "metric");
  ASSERT_FALSE(header.empty()) << text;
  const std::size_t base_end = header.find(" base") + 5;
  const std::size_t new_end = header.find(" new") + 4;
  const std::size_t change_end = header.find(" change") + 7;
  std::size_t rows = 0;
  for (const std::string& line : lines_of(text)) {
    if (line.find(" ms ") == std::string::npos && line.find("tok/s") == std::string::npos &&
        line.find("req/s") == std::string::npos && line.find("% of sent") == std::string::npos) {
      continue;
    }
    ++rows;
    // Right-aligned: each figure's last character sits under its header's last letter.
    EXPECT_NE(line[base_end - 1], ' ') << line;
    EXPECT_EQ(line[base_end], ' ') << line;
    EXPECT_NE(line[new_end - 1], ' ') << line;
    EXPECT_EQ(line[new_end], ' ') << line;
    EXPECT_EQ(line[change_end - 1], '%') << line;
  }
  EXPECT_EQ(rows, 13u) << text;
}

TEST(RenderText, LabelsEveryTokenThroughputByKind) {
  const std::string text = render(compared_fixtures("run_c4.json", "run_c4_slow.json"));
  EXPECT_NE(line_starting(text, "Output token throughput").find("output tok/s"), npos);
  EXPECT_NE(line_starting(text, "Input token throughput").find("input tok/s"), npos);
  EXPECT_NE(line_starting(text, "Total token throughput").find("total tok/s"), npos);
  for (std::size_t at = text.find("tok/s"); at != std::string::npos;
       at = text.find("tok/s", at + 1)) {
    const std::string before = text.substr(0, at);
    EXPECT_TRUE(before.ends_with("output ") || before.ends_with("input ") ||
                before.ends_with("total "))
        << "a bare tok/s at " << at << ":\n"
        << text;
  }
}

TEST(RenderText, MarksWorseRowsAndRegressionsBeyondTheThreshold) {
  const std::string marked = render(compared_fixtures("run_c4.json", "run_c4_slow.json"));
  EXPECT_TRUE(line_starting(marked, "Output token throughput").ends_with("  worse")) << marked;
  EXPECT_EQ(marked.find("REGRESSION"), std::string::npos);
  EXPECT_EQ(marked.find("--fail-on-regression"), std::string::npos);  // no threshold, no verdict

  const Comparison comparison = compared_fixtures("run_c4.json", "run_c4_slow.json", 0.05);
  const std::string text = bench::compare::render_text(comparison);
  EXPECT_TRUE(line_starting(text, "Output token throughput").ends_with("  REGRESSION")) << text;
  const std::vector<std::string> lines = lines_of(text);
  EXPECT_EQ(lines.back().rfind(std::to_string(comparison.regressions()) +
                                   " regressions beyond 5% (--fail-on-regression): Output token "
                                   "throughput, ",
                               0),
            0u)
      << lines.back();
}

TEST(RenderText, ImprovementsAreMarkedBetter) {
  const std::string text = render(compared_fixtures("run_c4_slow.json", "run_c4.json"));
  EXPECT_TRUE(line_starting(text, "Output token throughput").ends_with("  better")) << text;
  EXPECT_TRUE(line_starting(text, "TPOT median").ends_with("  better")) << text;
}

TEST(RenderText, IdenticalFilesPassTheThreshold) {
  const std::string text = render(compared_fixtures("run_c4.json", "run_c4.json", 0.05));
  EXPECT_EQ(lines_of(text).back(), "No regression beyond 5% (--fail-on-regression).");
  const std::string output = line_starting(text, "Output token throughput");
  EXPECT_TRUE(output.ends_with("0.00%")) << output;
}

TEST(RenderText, ShowsErrorsAppearingFromZeroWithoutAPercentage) {
  const std::string text =
      bench::compare::render_text(compared_fixtures("run_c4.json", "run_c4_failures.json"));
  const std::string errors = line_starting(text, "Error rate");
  EXPECT_NE(errors.find("% of sent"), std::string::npos) << errors;
  EXPECT_NE(errors.find("  0.00  "), std::string::npos) << errors;
  EXPECT_NE(errors.find("n/a (base 0)  worse"), std::string::npos) << errors;
}

TEST(RenderText, ShowsMissingFiguresAsSuch) {
  json base = compare_fixture("run_c4.json");
  base.erase("p99_itl_ms");
  auto result = bench::compare::compare(base, compare_fixture("run_c4.json"));
  const std::string text = bench::compare::render_text(std::get<Comparison>(result));
  const std::string itl = line_starting(text, "ITL p99");
  EXPECT_TRUE(itl.ends_with("missing in base")) << itl;
  EXPECT_NE(itl.find(" -  "), std::string::npos) << itl;
}

TEST(RenderText, TitlesEachSweepPointAndListsUnmatchedOnes) {
  const Comparison comparison =
      compared_fixtures("sweep_c1_2_4.json", "sweep_c2_4_8_slow.json", 0.05);
  const std::string text = bench::compare::render_text(comparison);
  const std::size_t two = text.find("\nconcurrency=2\n");
  const std::size_t four = text.find("\nconcurrency=4\n");
  ASSERT_NE(two, std::string::npos) << text;
  ASSERT_NE(four, std::string::npos) << text;
  EXPECT_LT(two, four);
  EXPECT_EQ(line_starting(text, "Only in base"), "Only in base (not compared): concurrency=1");
  EXPECT_EQ(line_starting(text, "Only in new"), "Only in new (not compared): concurrency=8");
  // The last line counts regressions per point; the tables say which.
  std::vector<std::string> per_point;
  for (const auto& point : comparison.points) {
    std::size_t count = 0;
    for (const auto& row : point.rows) count += row.verdict == bench::compare::Verdict::regression;
    if (count > 0) per_point.push_back(std::to_string(count) + " at " + point.label);
  }
  ASSERT_EQ(per_point.size(), 2u) << text;
  EXPECT_EQ(lines_of(text).back(), std::to_string(comparison.regressions()) +
                                       " regressions beyond 5% (--fail-on-regression): " +
                                       per_point[0] + ", " + per_point[1])
      << text;
}

TEST(RenderText, LeavesWarningsToTheCaller) {
  const Comparison comparison = compared_fixtures("run_c4.json", "run_c4_out16.json");
  ASSERT_FALSE(comparison.warnings.empty());
  EXPECT_EQ(bench::compare::render_text(comparison).find(comparison.warnings[0]),
            std::string::npos);
}

TEST(ToJson, CarriesEveryRowWithNullForWhatIsUnknown) {
  const Comparison comparison = compared_fixtures("run_c4.json", "run_c4_failures.json", 0.05);
  const json out = bench::compare::to_json(comparison);
  EXPECT_EQ(out["schema_version"], 1);
  EXPECT_EQ(out["kind"], "comparison");
  EXPECT_EQ(out["base"], "run_c4.json");
  EXPECT_EQ(out["new"], "run_c4_failures.json");
  EXPECT_EQ(out["threshold"], 0.05);
  EXPECT_TRUE(out["sweep_variable"].is_null());
  ASSERT_EQ(out["points"].size(), 1u);
  EXPECT_TRUE(out["points"][0]["point"].is_null());
  const json& rows = out["points"][0]["rows"];
  ASSERT_EQ(rows.size(), comparison.points[0].rows.size());
  EXPECT_EQ(rows[0]["metric"], "output_throughput");
  EXPECT_EQ(rows[0]["unit"], "output tok/s");
  EXPECT_EQ(rows[0]["direction"], "higher_is_better");
  EXPECT_EQ(rows[0]["base"], compare_fixture("run_c4.json")["output_throughput"]);
  EXPECT_EQ(rows[0]["new"], compare_fixture("run_c4_failures.json")["output_throughput"]);
  const json& errors = rows.back();
  EXPECT_EQ(errors["metric"], "error_rate");
  EXPECT_TRUE(errors["change_pct"].is_null());  // from a base of 0
  EXPECT_EQ(errors["verdict"], "regression");
  EXPECT_EQ(out["regressions"], comparison.regressions());
  EXPECT_EQ(out["failed"], true);
}

TEST(ToJson, NamesSweepPointsAndTheUnmatched) {
  const json out =
      bench::compare::to_json(compared_fixtures("sweep_c1_2_4.json", "sweep_c2_4_8_slow.json"));
  EXPECT_EQ(out["sweep_variable"], "concurrency");
  EXPECT_EQ(out["points"][0]["point"], "concurrency=2");
  EXPECT_EQ(out["only_in_base"], json::array({"concurrency=1"}));
  EXPECT_EQ(out["only_in_new"], json::array({"concurrency=8"}));
  EXPECT_TRUE(out["threshold"].is_null());
  EXPECT_EQ(out["failed"], false);
}

TEST(ToJson, ACompareOutputIsNotComparedAgain) {
  const json out = bench::compare::to_json(compared_fixtures("run_c4.json", "run_c4.json"));
  EXPECT_TRUE(std::holds_alternative<CompareError>(bench::compare::compare(out, out)));
}

}  // namespace
