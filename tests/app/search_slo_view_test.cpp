// What a search probe's SLOs read (app/search_report.hpp): with the steady window the
// throughputs of the steady-state window, in the probe and in each repeat; the whole window
// keeps the whole run's; --min-goodput becomes an SLO on good_requests / sent.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/app/search/search_report.hpp"

namespace {

using bench::app::failed_slo;
using bench::app::load_not_held;
using bench::app::probe_slos;
using bench::app::SearchSetup;
using bench::app::slo_view;
using bench::cli::SloWindow;
using nlohmann::json;

json probe(double whole_output, double steady_output) {
  return {{"sent", 40},
          {"good_requests", 38},
          {"output_throughput", whole_output},
          {"input_throughput", 100.0},
          {"request_throughput", 4.0},
          {"steady_state",
           {{"output_throughput", steady_output},
            {"request_throughput", 5.0},
            {"input_throughput", nullptr},
            {"total_throughput", nullptr}}}};
}

TEST(SearchSloView, TheSteadyWindowReadsTheSteadyStateThroughputs) {
  const json view = slo_view(probe(600, 900), SloWindow::steady);
  EXPECT_EQ(view["output_throughput"], 900.0);
  EXPECT_EQ(view["request_throughput"], 5.0);
  EXPECT_TRUE(view["input_throughput"].is_null());
  const json whole = slo_view(probe(600, 900), SloWindow::whole);
  EXPECT_EQ(whole["output_throughput"], 600.0);
  EXPECT_EQ(whole["request_throughput"], 4.0);
}

TEST(SearchSloView, TheSteadyWindowReadsItsLatenciesWhenKnown) {
  json results = probe(600, 900);
  results["p99_ttft_ms"] = 480.0;
  results["p99_tpot_ms"] = 40.0;
  results["steady_state"]["p99_ttft_ms"] = 520.0;
  results["steady_state"]["p99_tpot_ms"] = nullptr;  // past the raw-value budget
  const json view = slo_view(results, SloWindow::steady);
  EXPECT_EQ(view["p99_ttft_ms"], 520.0);
  EXPECT_EQ(view["p99_tpot_ms"], 40.0);
  EXPECT_FALSE(view.contains("start_s"));
  EXPECT_EQ(slo_view(results, SloWindow::whole)["p99_ttft_ms"], 480.0);
}

TEST(SearchSloView, ARunWithoutASteadyStateKeepsItsWholeRunFigures) {
  json results = probe(600, 900);
  results["steady_state"] = nullptr;
  EXPECT_EQ(slo_view(results, SloWindow::steady)["output_throughput"], 600.0);
}

TEST(SearchSloView, EveryRepeatIsViewedAsThePointIs) {
  json results = probe(600, 900);
  results["repeat_runs"] = json::array({probe(500, 700), probe(550, 1000)});
  const json view = slo_view(results, SloWindow::steady);
  EXPECT_EQ(view["repeat_runs"][0]["output_throughput"], 700.0);
  EXPECT_EQ(view["repeat_runs"][1]["output_throughput"], 1000.0);
  EXPECT_DOUBLE_EQ(view["repeat_runs"][0]["good_request_share"].get<double>(), 38.0 / 40);
}

TEST(SearchSloView, GoodRequestShareIsGoodOverSentAndUnknownWithoutGoodput) {
  EXPECT_DOUBLE_EQ(slo_view(probe(1, 1), SloWindow::whole)["good_request_share"].get<double>(),
                   0.95);
  json no_goodput = probe(1, 1);
  no_goodput["good_requests"] = nullptr;
  EXPECT_TRUE(slo_view(no_goodput, SloWindow::whole)["good_request_share"].is_null());
  json nothing_sent = probe(1, 1);
  nothing_sent["sent"] = 0;
  EXPECT_TRUE(slo_view(nothing_sent, SloWindow::whole)["good_request_share"].is_null());
}

TEST(SearchSloView, MinGoodputIsTheLastSloAndJudgesTheShare) {
  bench::cli::SearchOptions search;
  search.slos.push_back({bench::gate::GateKind::fail_under, "output_throughput", 800, ""});
  search.min_goodput_share = 0.96;
  const auto slos = probe_slos(search);
  ASSERT_EQ(slos.size(), 2u);
  EXPECT_EQ(slos[1].metric, "good_request_share");
  // Steady: 900 >= 800 holds, and 38/40 = 0.95 < 0.96 fails.
  const std::string steady =
      failed_slo(slos, slo_view(probe(600, 900), SloWindow::steady), bench::gate::GateOn::mean);
  EXPECT_EQ(steady.rfind("good_request_share>=0.96", 0), 0u) << steady;
  // Whole: the whole run's 600 < 800 fails first.
  const std::string whole =
      failed_slo(slos, slo_view(probe(600, 900), SloWindow::whole), bench::gate::GateOn::mean);
  EXPECT_EQ(whole.rfind("output_throughput>=800", 0), 0u) << whole;
}

// Issue 43: a concurrency probe that sent fewer measured requests than its concurrency, or whose
// SLOs read a steady state it does not have, is no answer: it answered "256 meets every SLO"
// from probes that never held 150 in flight.
SearchSetup setup_for(SloWindow window) {
  SearchSetup setup;
  setup.slo_window = window;
  return setup;
}

TEST(SearchLoadHeld, AProbeWithFewerRequestsThanItsConcurrencyDidNotHoldIt) {
  const std::string why = load_not_held(setup_for(SloWindow::whole), 256, probe(600, 900));
  EXPECT_NE(why.find("to hold its load"), std::string::npos) << why;
  EXPECT_NE(why.find("only 40 measured requests"), std::string::npos) << why;
  EXPECT_EQ(load_not_held(setup_for(SloWindow::whole), 40, probe(600, 900)), "");
}

TEST(SearchLoadHeld, TheSteadyWindowNeedsASteadyState) {
  json results = probe(600, 900);
  results["steady_state"] = nullptr;
  const std::string why = load_not_held(setup_for(SloWindow::steady), 8, results);
  EXPECT_NE(why.find("no steady-state window"), std::string::npos) << why;
  EXPECT_EQ(load_not_held(setup_for(SloWindow::whole), 8, results), "");
  EXPECT_EQ(load_not_held(setup_for(SloWindow::steady), 8, probe(600, 900)), "");
}

TEST(SearchLoadHeld, EveryRepeatMustHoldIt) {
  json results = probe(600, 900);
  json short_repeat = probe(500, 700);
  short_repeat["steady_state"] = nullptr;
  results["repeat_runs"] = json::array({probe(500, 700), short_repeat});
  EXPECT_NE(load_not_held(setup_for(SloWindow::steady), 8, results), "");
}

TEST(SearchLoadHeld, ARateProbeIsNotHeldToItsRequestCount) {
  SearchSetup setup = setup_for(SloWindow::whole);
  setup.variable = bench::app::SweepVariable::request_rate;
  EXPECT_EQ(load_not_held(setup, 256, probe(600, 900)), "");
}

}  // namespace
