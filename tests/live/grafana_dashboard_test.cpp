// deploy/grafana/bench-live.json: valid JSON, and every bench metric its queries name is one
// /metrics serves, so a renamed metric cannot leave the board's panels empty.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "bench/live/exposition.hpp"
#include "bench/live/tally.hpp"
#include "live_samples.hpp"

namespace bench::live {
namespace {

TEST(LiveGrafanaDashboard, QueriesOnlyMetricsBenchServes) {
  std::ifstream file(std::string(BENCH_TEST_DATA_DIR) + "/../../deploy/grafana/bench-live.json");
  ASSERT_TRUE(file) << "deploy/grafana/bench-live.json";
  const nlohmann::json dashboard = nlohmann::json::parse(file);
  Tally tally(30);
  tally.add(sample_of(testing::completed(100, 4, 20, 2), 1'000'000'000));
  Snapshot snapshot;
  snapshot.point = "c=4";
  tally.fill(snapshot, 1'000'000'000);
  const std::string exposition = prometheus_text(snapshot);
  const std::regex metric("bench_[a-z_]+");
  int checked = 0;
  for (const nlohmann::json& panel : dashboard.at("panels")) {
    for (const nlohmann::json& target : panel.at("targets")) {
      const std::string expr = target.at("expr");
      for (std::sregex_iterator it(expr.begin(), expr.end(), metric), end; it != end; ++it) {
        if (it->str() == "bench_job") continue;  // the board's variable
        EXPECT_NE(exposition.find("\n" + it->str()), std::string::npos) << it->str();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5);
}

}  // namespace
}  // namespace bench::live
