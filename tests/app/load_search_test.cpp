// The search's plan of probes against a fake server whose SLOs hold up to a known load: the
// answer is within the resolution of it, found by doubling then bisecting; a server that meets
// the SLOs everywhere ends at the cap, one that never does at the start; saturation and the
// time budget end it early with the best answer so far.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "bench/app/search/load_search.hpp"

namespace {

using bench::app::LoadSearch;
using bench::app::LoadSearchPlan;
using bench::app::ProbeOutcome;
using bench::app::SearchEnd;

// Probes until the search ends; `limit` is the largest load meeting the SLOs. Throughput grows
// with the load and latency stays flat, so no saturation unless `outcome` says otherwise.
LoadSearch search(LoadSearchPlan plan, double limit,
                  const std::function<ProbeOutcome(double)>& outcome = {}) {
  LoadSearch search(plan);
  for (int guard = 0; guard < 100 && search.next(); ++guard) {
    const double load = *search.next();
    search.record(outcome ? outcome(load)
                          : ProbeOutcome{load, load <= limit,
                                         load <= limit ? "" : "p99_ttft_ms<=500", load * 10, 100});
  }
  return search;
}

std::vector<double> loads(const LoadSearch& search) {
  std::vector<double> out;
  for (const ProbeOutcome& probe : search.probes()) out.push_back(probe.load);
  return out;
}

TEST(LoadSearch, DoublesThenBisectsToTheLargestConcurrencyMeetingTheSlos) {
  const LoadSearch found = search({1, 1024, true, 0.05, 1}, 45);  // to a step of 1
  EXPECT_EQ(found.end(), SearchEnd::resolved);
  EXPECT_EQ(found.answer(), 45);
  EXPECT_EQ(found.first_failing()->load, 46);
  EXPECT_EQ(loads(found), (std::vector<double>{1, 2, 4, 8, 16, 32, 64, 48, 40, 44, 46, 45}));
}

TEST(LoadSearch, StopsBisectingWithinTheRelativeResolutionOrTheStep) {
  const LoadSearch relative = search({1, 1024, true, 0.25, 0}, 45);
  ASSERT_TRUE(relative.answer().has_value());
  EXPECT_LE(*relative.answer(), 45);
  EXPECT_LE(relative.first_failing()->load - *relative.answer(), 0.25 * *relative.answer());
  const LoadSearch stepped = search({4, 1024, true, 0.05, 8}, 100);
  EXPECT_LE(stepped.first_failing()->load - *stepped.answer(), 8);
  EXPECT_LE(*stepped.answer(), 100);
  EXPECT_GT(*stepped.answer(), 92);
}

TEST(LoadSearch, SearchesAFractionalRate) {
  const LoadSearch found = search({0.5, 1000, false, 0.05, 0}, 7.3);
  ASSERT_TRUE(found.answer().has_value());
  EXPECT_LE(*found.answer(), 7.3);
  EXPECT_GE(*found.answer(), 7.3 / 1.05);
}

TEST(LoadSearch, EndsAtTheCapWhenEveryLoadMeetsTheSlos) {
  const LoadSearch found = search({1, 100, true, 0.05, 0}, 1e9);
  EXPECT_EQ(found.end(), SearchEnd::cap_met);
  EXPECT_EQ(found.answer(), 100);
  EXPECT_EQ(loads(found).back(), 100);  // the cap itself was probed
  EXPECT_EQ(found.first_failing(), nullptr);
}

TEST(LoadSearch, EndsAtTheStartWhenNoLoadMeetsTheSlos) {
  const LoadSearch found = search({4, 1024, true, 0.05, 0}, 1);
  EXPECT_EQ(found.end(), SearchEnd::start_failed);
  EXPECT_FALSE(found.answer().has_value());
  EXPECT_EQ(loads(found), std::vector<double>{4});
}

TEST(LoadSearch, StopsAtSaturationWhenThroughputFlattensWhileLatencyClimbs) {
  // Output saturates at 160 tok/s from concurrency 16 on; latency then doubles each doubling.
  const auto saturating = [](double load) {
    return ProbeOutcome{load, true, "", std::min(load, 16.0) * 10,
                        load <= 16 ? 100.0 : 100.0 * load / 16};
  };
  const LoadSearch found = search({1, 1024, true, 0.05, 0}, 1e9, saturating);
  EXPECT_EQ(found.end(), SearchEnd::saturated);
  EXPECT_EQ(loads(found), (std::vector<double>{1, 2, 4, 8, 16, 32}));
  EXPECT_EQ(found.answer(), 32);
}

TEST(LoadSearch, AStopKeepsTheBestAnswerSoFar) {
  LoadSearch found({1, 1024, true, 0.05, 0});
  found.record({1, true, "", 10, 100});
  found.record({2, true, "", 20, 100});
  found.stop(SearchEnd::time_budget);
  EXPECT_FALSE(found.next().has_value());
  EXPECT_EQ(found.end(), SearchEnd::time_budget);
  EXPECT_EQ(found.answer(), 2);
}

}  // namespace
