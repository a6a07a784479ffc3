// The efficiency frontier: the Pareto set on a constructed case, the points a sweep gives it,
// the chart whose every curve names its kind, its SLO lines, and the terminal table.
#include "bench/report/frontier.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/report/html_report.hpp"

namespace {

using bench::report::frontier_chart;
using bench::report::frontier_points;
using bench::report::pareto_front;
using bench::report::render_frontier_table;
using nlohmann::json;

// (per user, per GPU): B beats C in both; A beats E on x at equal y; D and F are equal, so both
// stay; G has no x, so it is on no front.
TEST(Frontier, TheParetoSetKeepsExactlyThePointsNoOtherBeats) {
  const double nan = std::nan("");
  const std::vector<std::pair<double, double>> xy = {
      {10, 100},   // A
      {20, 90},    // B
      {15, 80},    // C: B has more of both
      {30, 50},    // D
      {5, 100},    // E: A has as much y and more x
      {30, 50},    // F: equal to D
      {nan, 200},  // G: unknown x
  };
  EXPECT_EQ(pareto_front(xy), (std::vector<std::size_t>{0, 1, 3, 5}));
  EXPECT_TRUE(pareto_front({}).empty());
  EXPECT_EQ(pareto_front({{1, 1}}), (std::vector<std::size_t>{0}));
}

// A point on 8 GPUs; without --gpus its per-GPU keys are null but its output tok/s is known.
json point(int concurrency, double per_user, double output_per_gpu, bool with_gpus) {
  json p = {{"max_concurrency", concurrency},
            {"median_output_throughput_per_user", per_user},
            {"p10_output_throughput_per_user", per_user * 0.9},
            {"output_throughput", output_per_gpu * 8},
            {"completed", 10},
            {"token_count_source", {{"input", "usage"}, {"output", "usage"}}}};
  p["output_throughput_per_gpu"] = with_gpus ? json(output_per_gpu) : json();
  p["input_throughput_per_gpu"] = with_gpus ? json(output_per_gpu * 4) : json();
  p["total_throughput_per_gpu"] = with_gpus ? json(output_per_gpu * 5) : json();
  return p;
}

// Concurrency 1..16 with the usual shape (per user falls, per GPU rises), and one point (8) that
// a lower load beats in both: a server that got worse at that load.
json constructed_sweep(bool gpus) {
  json points =
      json::array({point(1, 100, 12, gpus), point(2, 95, 23, gpus), point(4, 80, 40, gpus),
                   point(8, 70, 38, gpus), point(16, 40, 70, gpus)});
  return {{"kind", "sweep"},
          {"sweep", {{"variable", "concurrency"}, {"values", {1, 2, 4, 8, 16}}}},
          {"points", points}};
}

TEST(Frontier, ThePointsOfASweepAreItsOwnWithTheDominatedOneUnmarked) {
  const auto points = frontier_points(constructed_sweep(true));
  ASSERT_EQ(points.size(), 5u);
  std::vector<bool> pareto;
  for (const auto& p : points) pareto.push_back(p.pareto);
  EXPECT_EQ(pareto, (std::vector<bool>{true, true, true, false, true}));
  EXPECT_EQ(points[3].load, 8.0);
  EXPECT_EQ(points[3].per_user, 70.0);
  EXPECT_EQ(points[3].output_per_gpu, 38.0);
  // Without --gpus the front is the same, by output tok/s; the per-GPU figures stay unknown.
  const auto unknown = frontier_points(constructed_sweep(false));
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(unknown[i].pareto, points[i].pareto);
  EXPECT_FALSE(unknown[0].output_per_gpu);
}

TEST(Frontier, EveryCurveOfTheChartNamesItsKind) {
  const auto chart = frontier_chart(constructed_sweep(true));
  ASSERT_TRUE(chart);
  std::vector<std::string> names;
  for (const auto& series : chart->series) {
    names.push_back(series.name);
    const bool kind = series.name.find("output tok/s per GPU") == 0 ||
                      series.name.find("input tok/s per GPU") == 0 ||
                      series.name.find("total tok/s per GPU (input + output)") == 0;
    EXPECT_TRUE(kind) << series.name;
    EXPECT_EQ(series.name.find("throughput"), std::string::npos) << series.name;
  }
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0], "output tok/s per GPU: Pareto front");
  EXPECT_EQ(names[1], "output tok/s per GPU: other points");
  // The front holds the Pareto points, left to right; the other series the one it beats.
  EXPECT_EQ(chart->series[0].x, (std::vector<double>{40, 80, 95, 100}));
  EXPECT_EQ(chart->series[0].y, (std::vector<double>{70, 40, 23, 12}));
  EXPECT_EQ(chart->series[1].x, (std::vector<double>{70}));
  EXPECT_EQ(chart->series[1].y, (std::vector<double>{38}));
  EXPECT_NE(chart->x.label.find("output tok/s per user"), std::string::npos);
  EXPECT_NE(chart->y.label.find("per GPU"), std::string::npos);
}

TEST(Frontier, GatesOnItsFiguresAreDrawnAsSloLines) {
  json sweep = constructed_sweep(true);
  sweep["gates"] = {
      {"passed", false},
      {"gates",
       {{{"flag", "--fail-under"}, {"metric", "median_output_throughput_per_user"}, {"limit", 50}},
        {{"flag", "--fail-under"}, {"metric", "output_throughput_per_gpu"}, {"limit", 30}},
        {{"flag", "--fail-over"}, {"metric", "p99_ttft_ms"}, {"limit", 500}}}}};
  const auto chart = frontier_chart(sweep);
  ASSERT_TRUE(chart);
  std::vector<const bench::report::svg::Series*> slos;
  for (const auto& series : chart->series) {
    if (series.name.rfind("SLO ", 0) == 0) slos.push_back(&series);
  }
  ASSERT_EQ(slos.size(), 2u);  // TTFT is on no axis of this chart
  EXPECT_EQ(slos[0]->name, "SLO median_output_throughput_per_user>=50");
  EXPECT_EQ(slos[0]->x, (std::vector<double>{50, 50}));  // vertical: on x
  EXPECT_EQ(slos[1]->name, "SLO output_throughput_per_gpu>=30");
  EXPECT_EQ(slos[1]->y, (std::vector<double>{30, 30}));  // horizontal: on y
}

TEST(Frontier, WithoutGpusThereIsNoChartAndTheReportSaysWhy) {
  EXPECT_FALSE(frontier_chart(constructed_sweep(false)));
  const std::string html = bench::report::render_html_report(constructed_sweep(false));
  EXPECT_NE(html.find("id=\"frontier\""), std::string::npos);
  EXPECT_NE(html.find("--gpus N"), std::string::npos);
  const std::string drawn = bench::report::render_html_report(constructed_sweep(true));
  EXPECT_NE(drawn.find("Efficiency frontier: token throughput per GPU"), std::string::npos);
}

TEST(Frontier, TheTerminalTableMarksTheParetoPointsAndNamesEachKind) {
  const std::string table = render_frontier_table(constructed_sweep(true));
  EXPECT_NE(table.find("* = Pareto point"), std::string::npos) << table;
  EXPECT_NE(table.find("*           4"), std::string::npos) << table;
  EXPECT_NE(table.find("            8"), std::string::npos) << table;
  EXPECT_EQ(table.find("*           8"), std::string::npos) << table;
  EXPECT_NE(table.find("output = generated"), std::string::npos) << table;
  EXPECT_NE(table.find("total = input + output"), std::string::npos) << table;
  const std::string unknown = render_frontier_table(constructed_sweep(false));
  EXPECT_NE(unknown.find("Per GPU n/a: give --gpus N"), std::string::npos) << unknown;
}

}  // namespace
